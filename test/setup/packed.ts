/**
 * The package as users get it, built and packed once per test run (vitest `globalSetup`).
 *
 * `npm pack` of a staging copy of the package (package.json, README, the document and a fresh tsup
 * build into its `dist/`), so the tests never race a developer's or a benchmark's `dist/`. The
 * tarball is extracted into a docs consumer under `.scratch/` (the doc and example tests resolve
 * `crossborder-sdk` to it) and can be installed into minimal consumers that have only the package's
 * own dependencies (`makeConsumer`). Keyed by a digest of what goes into the build, so an unchanged
 * tree is not rebuilt on the next run.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

export interface Packed {
  /** The `.tgz` that `npm pack` made. */
  tarball: string;
  /** A consumer project under `.scratch/` whose `node_modules/crossborder-sdk` is the extracted tarball; everything else resolves from this checkout's node_modules. */
  consumer: string;
  /** `<consumer>/node_modules/crossborder-sdk`. */
  pkg: string;
}

/** What goes into the package: a change to any of these means a new build. */
const INPUTS = [
  'src',
  'openapi',
  'package.json',
  'package-lock.json',
  'tsup.config.ts',
  'scripts/dist-reach.ts',
  'scripts/line-maps.ts',
  'scripts/blank-comments.ts',
  'tsconfig.json',
  'README.md',
  'LICENSE',
  'docs',
  'examples',
];
/** Copied into the staging directory; package.json's `files` picks what of them ships (docs/*.md, examples/, …). */
const STAGED = ['package.json', 'README.md', 'LICENSE', 'openapi', 'docs', 'examples', 'src'];

function filesOf(path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return (readdirSync(full, { recursive: true }) as string[])
    .map((f) => join(path, f))
    .filter((f) => statSync(join(root, f)).isFile())
    .sort();
}

/** A digest of every input's path and bytes. */
export function packedKey(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesOf))
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

export function packedPaths(key = packedKey()): Packed & { dir: string } {
  const dir = join(root, '.scratch', 'packed', key);
  const consumer = join(dir, 'consumer');
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  return { dir, tarball: join(dir, `crossborder-sdk-${version}.tgz`), consumer, pkg: join(consumer, 'node_modules', 'crossborder-sdk') };
}

// Bounded: a build takes ~1 min on a quiet machine and up to ~7 at a load of 30 on 2 cores.
const BUILD_MS = 600_000;
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout: BUILD_MS });

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Builds, packs and extracts once; a second process waits (bounded) for the first. */
export function ensurePacked(): Packed {
  const paths = packedPaths();
  const ready = join(paths.dir, 'ready');
  if (existsSync(ready)) return paths;
  mkdirSync(dirname(paths.dir), { recursive: true });
  const lock = `${paths.dir}.lock`;
  const deadline = Date.now() + BUILD_MS + 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(ready)) return paths;
      // A build that died leaves its lock: older than the longest build, it is stale.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > BUILD_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited ${(BUILD_MS + 60_000) / 1000} s for another process to pack ${relative(root, paths.dir)}`);
      sleep(500);
    }
  }
  try {
    if (existsSync(ready)) return paths;
    rmSync(paths.dir, { recursive: true, force: true });
    const stage = join(paths.dir, 'stage');
    mkdirSync(join(stage, 'openapi'), { recursive: true });
    for (const file of STAGED) cpSync(join(root, file), join(stage, file), { recursive: true });
    run(bin('tsup'), ['--out-dir', join(stage, 'dist')], root);
    // What `npm run build` does after tsup: chunks no entry loads are removed (scripts/dist-reach.ts).
    run(bin('tsx'), [join(root, 'scripts', 'dist-reach.ts'), '--prune', stage], root);
    run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', paths.dir], stage);
    if (!existsSync(paths.tarball)) throw new Error(`npm pack made no ${paths.tarball}`);
    rmSync(stage, { recursive: true, force: true });
    extract(paths.tarball, paths.pkg);
    writeFileSync(join(paths.consumer, 'package.json'), JSON.stringify({ name: 'docs-consumer', private: true, type: 'module' }, null, 2));
    writeFileSync(ready, new Date().toISOString());
    // Builds of other trees, made over an hour ago: no test run still uses them.
    for (const old of readdirSync(dirname(paths.dir))) {
      const made = statSync(join(dirname(paths.dir), old, 'ready'), { throwIfNoEntry: false });
      if (made && Date.now() - made.mtimeMs > 3_600_000) rmSync(join(dirname(paths.dir), old), { recursive: true, force: true });
    }
    return paths;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function extract(tarball: string, into: string): void {
  mkdirSync(into, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1'], root);
}

/**
 * A consumer project in `dir` (outside this checkout, so nothing resolves from its node_modules by
 * accident) with the tarball installed and only the package's own dependencies beside it, plus
 * `extras`. Dependencies are linked from this checkout (no network); Node resolves a linked package
 * by its real path, so their own dependencies resolve too.
 */
export function makeConsumer(packed: Packed, dir: string, extras: string[] = [], type: 'module' | 'commonjs' = 'module'): string {
  extract(packed.tarball, join(dir, 'node_modules', 'crossborder-sdk'));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const dep of [...Object.keys(pkg.dependencies), ...extras]) {
    const target = join(dir, 'node_modules', dep);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, 'node_modules', dep), target, 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type }, null, 2));
  return dir;
}

/** vitest globalSetup: pack once, before any test file runs. */
export default function setup({ provide }: { provide: (key: 'packed', value: Packed) => void }): void {
  const { tarball, consumer, pkg } = ensurePacked();
  provide('packed', { tarball, consumer, pkg });
}

declare module 'vitest' {
  export interface ProvidedContext {
    packed: Packed;
  }
}

export { bin };
