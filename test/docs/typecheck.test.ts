/**
 * Every code block of the README and the guides is a file (test/docs/guides.test.ts holds them
 * verbatim): examples/**, and test/docs/testing/ for docs/testing.md. Here they type-check as a
 * user's project would: copied into a consumer of the packed tarball, `crossborder-sdk` resolved
 * by Node's rules from its node_modules (not this repository's tsconfig paths to src/).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The two settings users' projects have: `Bundler` (Vite, Next.js, tsx) and `NodeNext` (Node's own
 * ESM rules: relative imports name the `.js` file, as the examples do).
 */
const RESOLUTIONS = { bundler: { module: 'esnext', moduleResolution: 'bundler' }, nodenext: { module: 'nodenext', moduleResolution: 'nodenext' } } as const;

function tsconfig(name: string, files: string[], resolution: keyof typeof RESOLUTIONS = 'bundler'): string {
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
    ...RESOLUTIONS[resolution],
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
    const count = (base: string) =>
      DOC_CODE.flatMap((dir) => (readdirSync(join(base, dir), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'))).length;
    expect(count(consumer)).toBe(count(root));
    expect(count(root)).toBeGreaterThan(40);
  });

  it('resolves crossborder-sdk to the tarball, not to src/', () => {
    expect(existsSync(join(consumer, 'node_modules', 'crossborder-sdk', 'dist', 'index.d.ts'))).toBe(true);
    // The installed copy (src/ ships beside dist/ for the source maps): not a link back to this repository.
    expect(realpathSync(join(consumer, 'node_modules', 'crossborder-sdk')).startsWith(realpathSync(consumer))).toBe(true);
  });

  for (const resolution of Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[]) {
    it(`type-checks with no error under module/moduleResolution ${resolution}`, { timeout: 150_000 }, () => {
      expect(
        typecheck(
          tsconfig(
            `tsconfig.docs-${resolution}.json`,
            DOC_CODE.map((d) => `${d}/**/*.ts`),
            resolution,
          ),
        ),
      ).toBe('');
    });
  }

  it('an import NodeNext cannot resolve is caught (a relative import without its .js)', { timeout: 150_000 }, () => {
    const dir = join(consumer, 'examples', 'zz-nodenext');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'client.ts'), "import { Crossborder } from 'crossborder-sdk';\nexport const cb = new Crossborder();\n");
    writeFileSync(join(dir, 'use.ts'), "import { cb } from './client';\nexport const customers = cb.customers;\n");
    try {
      expect(typecheck(tsconfig('tsconfig.zz-bundler.json', ['examples/zz-nodenext/*.ts'], 'bundler'))).toBe('');
      expect(typecheck(tsconfig('tsconfig.zz-nodenext.json', ['examples/zz-nodenext/*.ts'], 'nodenext'))).toMatch(/use\.ts.*error TS2835/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a mistake in a guide is caught (the check can fail)', { timeout: 150_000 }, () => {
    const wrong = join(consumer, 'examples', 'zz-wrong.ts');
    writeFileSync(
      wrong,
      "import { Crossborder } from 'crossborder-sdk';\nconst cb = new Crossborder();\nexport const q = cb.quotes.create({ lockedCurrencySide: 'SENDING' });\n",
    );
    try {
      const out = typecheck(tsconfig('tsconfig.wrong.json', ['examples/zz-wrong.ts']));
      expect(out).toMatch(/zz-wrong\.ts.*error TS2345/);
      expect(out).toContain('QuoteCreateParams');
    } finally {
      rmSync(wrong);
    }
  });
});
