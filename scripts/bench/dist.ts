/**
 * Benchmarks measure what ships: the built package (dist/), loaded as a user's program loads it,
 * never src/ through tsx. `npm run bench` builds first; a single script builds when dist/ is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds dist/ when it is missing (or always, with `force`). */
export function ensureBuilt(force = false): void {
  if (force || !existsSync(join(root, 'dist/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
}

/** The package's main entry as built: dist/index.js (typed by the source it is built from). */
export async function loadSdk(): Promise<typeof import('../../src/index')> {
  ensureBuilt();
  return (await import(pathToFileURL(join(root, 'dist/index.js')).href)) as typeof import('../../src/index');
}

/** A tsconfig without the root one's `paths` (scripts/bench/tsconfig.dist.json). */
const DIST_TSCONFIG = join(root, 'scripts/bench/tsconfig.dist.json');

/**
 * tsx resolves `crossborder-sdk/*` by the root tsconfig's `paths` (to src/, for the docs and tests), also
 * in files under dist/. The built payouts and sandbox entries import the error classes every entry shares
 * as `crossborder-sdk/errors`: under those paths they would get src/'s classes, not the ones dist/index.js
 * throws, and every `instanceof` between the two would fail. A script that loads them runs itself again
 * (same arguments, same exit code) under a tsconfig without the paths, where they resolve as in a user's
 * install: to the package's own dist/.
 */
export function withoutSourcePaths(): void {
  if (process.env.TSX_TSCONFIG_PATH === DIST_TSCONFIG) return;
  const run = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, TSX_TSCONFIG_PATH: DIST_TSCONFIG },
  });
  process.exit(run.status ?? 1);
}

/** The `crossborder-sdk/payouts` entry as built: dist/payouts.js. */
export async function loadPayouts(): Promise<typeof import('../../src/payouts/index')> {
  withoutSourcePaths();
  ensureBuilt();
  return (await import(pathToFileURL(join(root, 'dist/payouts.js')).href)) as typeof import('../../src/payouts/index');
}

/** The `crossborder-sdk/sandbox` entry as built: dist/sandbox.js. */
export async function loadSandbox(): Promise<typeof import('../../src/sandbox/index')> {
  withoutSourcePaths();
  ensureBuilt();
  return (await import(pathToFileURL(join(root, 'dist/sandbox.js')).href)) as typeof import('../../src/sandbox/index');
}
