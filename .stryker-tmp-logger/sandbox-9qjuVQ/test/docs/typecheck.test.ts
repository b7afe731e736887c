/**
 * Every code block of the README and the guides is a file (test/docs/guides.test.ts holds them
 * verbatim): examples/**, and test/docs/testing/ for docs/testing.md. Here they type-check as a
 * user's project would: copied into a consumer of the packed tarball, `crossborder-sdk` resolved
 * by Node's rules from its node_modules (not this repository's tsconfig paths to src/).
 */
// @ts-nocheck

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { bin, root } from '../setup/packed';

const { consumer } = inject('packed');

/** The folders holding the documentation's code, relative to the repository and to the consumer alike. */
const DOC_CODE = ['examples', 'test/docs/testing'];

function typecheck(project: string): string {
  try {
    execFileSync(bin('tsc'), ['-p', project], { cwd: consumer, encoding: 'utf8', stdio: 'pipe', timeout: 120_000 });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout) || String(error);
  }
}

/** A bundler-resolution project (the examples import each other without extensions, as bundlers and tsx allow). */
function tsconfig(name: string, files: string[]): string {
  const path = join(consumer, name);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    esModuleInterop: true,
    skipLibCheck: true,
    module: 'esnext',
    moduleResolution: 'bundler',
  };
  writeFileSync(path, JSON.stringify({ compilerOptions, include: files }, null, 2));
  return path;
}

describe('the documentation code, type-checked against the packed package', () => {
  for (const dir of DOC_CODE) {
    rmSync(join(consumer, dir), { recursive: true, force: true });
    cpSync(join(root, dir), join(consumer, dir), { recursive: true });
  }

  it('copies every file of the guides (nothing left behind in the repository)', () => {
    const count = (base: string) => DOC_CODE.flatMap((dir) => (readdirSync(join(base, dir), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'))).length;
    expect(count(consumer)).toBe(count(root));
    expect(count(root)).toBeGreaterThan(40);
  });

  it('resolves crossborder-sdk to the tarball, not to src/', () => {
    expect(existsSync(join(consumer, 'node_modules', 'crossborder-sdk', 'dist', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(consumer, 'node_modules', 'crossborder-sdk', 'src'))).toBe(false);
  });

  it('type-checks with no error', { timeout: 150_000 }, () => {
    expect(typecheck(tsconfig('tsconfig.docs.json', DOC_CODE.map((d) => `${d}/**/*.ts`)))).toBe('');
  });

  it('a mistake in a guide is caught (the check can fail)', { timeout: 150_000 }, () => {
    const wrong = join(consumer, 'examples', 'zz-wrong.ts');
    writeFileSync(wrong, "import { Crossborder } from 'crossborder-sdk';\nconst cb = new Crossborder();\nexport const q = cb.quotes.create({ lockedCurrencySide: 'SENDING' });\n");
    try {
      const out = typecheck(tsconfig('tsconfig.wrong.json', ['examples/zz-wrong.ts']));
      expect(out).toMatch(/zz-wrong\.ts.*error TS2345/);
      expect(out).toContain('QuoteCreateParams');
    } finally {
      rmSync(wrong);
    }
  });
});
