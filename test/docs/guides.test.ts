/**
 * The guides show code that runs: every TypeScript block of a guide is a file that a test executes
 * (`<!-- embed: path -->` on the line before the fence), shown verbatim, and every such file is shown.
 * Links between the guides, the README and the examples resolve.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks, codeBlocks, read, root } from './markdown';

/** Each guide and the folder holding the code it shows (every `.ts` file there must be shown). */
const GUIDES: Record<string, string | undefined> = {
  'docs/quickstart.md': 'examples/guides/quickstart',
  'docs/authentication.md': 'examples/guides/authentication',
  'docs/pagination.md': 'examples/guides/pagination',
  'docs/idempotency-and-retries.md': 'examples/guides/idempotency-and-retries',
  'docs/errors.md': 'examples/guides/errors',
  'docs/quotes-and-fx.md': 'examples/guides/quotes-and-fx',
  'docs/wallet.md': 'examples/guides/wallet',
  'docs/customers-and-kyc.md': 'examples/guides/customers-and-kyc',
  'docs/testing.md': 'test/docs/testing',
  'docs/observability.md': 'test/telemetry/guide',
  'docs/performance.md': 'examples/guides/performance',
  'docs/payouts.md': 'examples/guides/payouts',
  'docs/hooks.md': 'examples/guides/hooks',
  'docs/cards.md': 'examples/guides/cards',
  'docs/agents.md': 'examples/guides/agents',
  'docs/README.md': undefined,
  'README.md': undefined,
};

/** Written by others, linked from here: a link to one is only checked once the file exists. */
const PENDING = new Set(['docs/benchmarks.md', 'docs/reliability.md']);

const tsFiles = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f}`)
    .sort();

for (const [guide, dir] of Object.entries(GUIDES)) {
  describe(guide, () => {
    const blocks = codeBlocks(read(guide));

    it('shows TypeScript only as embedded files, each verbatim', () => {
      for (const block of blocks) {
        if (block.lang === 'ts' || block.lang === 'typescript')
          expect(block.file, `a ts block without an embed marker: ${block.code.slice(0, 80)}`).toBeDefined();
        if (block.file === undefined) continue;
        // A CSV sample is shown as text: TypeDoc, which makes the guides pages of the reference, highlights no CSV.
        expect(block.lang).toBe(block.file.endsWith('.csv') ? 'text' : 'ts');
        expect(existsSync(join(root, block.file)), block.file).toBe(true);
        expect(block.code, `${guide} shows ${block.file} out of date`).toBe(read(block.file));
      }
    });

    if (dir) {
      it(`shows every file of ${dir}`, () => {
        expect(
          blocks
            .map((b) => b.file)
            .filter((f) => f?.endsWith('.ts'))
            .sort(),
        ).toEqual(tsFiles(dir));
      });
    }

    it('has no broken relative links', () => {
      expect(brokenLinks(guide, (target) => PENDING.has(target))).toEqual([]);
    });
  });
}

describe('docs/README.md (the index)', () => {
  it('links every guide in docs/', () => {
    const index = read('docs/README.md');
    const guides = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    for (const guide of [...new Set([...guides, ...[...PENDING].map((p) => p.slice('docs/'.length))])]) {
      expect(index, guide).toContain(`](${guide})`);
    }
  });
});

describe('README.md', () => {
  const readme = read('README.md');
  it('links every guide and the API reference', () => {
    for (const guide of Object.keys(GUIDES).filter((g) => g.startsWith('docs/'))) expect(readme, guide).toContain(`](${guide})`);
    expect(readme).toContain('](docs/webhooks.md)');
    expect(readme).toContain('npm run docs');
    expect(readme).toContain('docs/api/index.html');
  });

  it("names where a package user opens the API reference: the installed package's declarations", () => {
    expect(readme).toContain('`node_modules/crossborder-sdk/dist/*.d.cts`');
    expect(readme).toContain('`index.d.cts` for the client');
  });

  it("the build line lists every entry of package.json's exports", () => {
    const line = /`npm run build` \(tsup\) makes[\s\S]*?\n- /.exec(readme)?.[0];
    expect(line, 'the build line').toBeDefined();
    const { exports } = JSON.parse(read('package.json')) as { exports: Record<string, unknown> };
    const entries = Object.keys(exports).filter((e) => e !== './package.json');
    expect(entries.length).toBeGreaterThanOrEqual(7);
    for (const entry of entries) expect(line, entry).toContain(`\`${entry}\``);
  });

  it('says how to get tsx before `npx tsx` (which fails non-interactively when tsx is not installed)', () => {
    expect(readme).toContain('`npm install -D tsx`');
    expect(readme).toContain('`npx --yes tsx readme.mts`');
  });

  it('keeps the two commands on its first screen', () => {
    const firstScreen = readme.split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toContain('npm install && npm run demo');
    expect(firstScreen).toContain('npm test');
    expect(firstScreen).toContain('for await');
  });
});
