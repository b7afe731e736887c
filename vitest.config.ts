import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { packedPaths } from './test/setup/packed.ts';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/** `crossborder-sdk`, `crossborder-sdk/wallet` …, each an exact alias (longest subpath first). */
const entries = (target: (subpath: string, importPath: string) => string) => {
  const { exports } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, string | { import?: { default: string } }>;
  };
  return Object.entries(exports)
    .filter((entry): entry is [string, { import: { default: string } }] => typeof entry[1] === 'object' && entry[1].import !== undefined)
    .sort(([a], [b]) => b.length - a.length)
    .map(([subpath, target_]) => ({
      find: new RegExp(`^crossborder-sdk${subpath.slice(1).replace(/[/.]/g, '\\$&')}$`),
      replacement: target(subpath, target_.import.default),
    }));
};

/** In-repo unit tests import the source; the name `crossborder-sdk` is the source too. */
const SOURCE_ENTRIES: Record<string, string> = {
  '.': 'index.ts',
  './errors': 'errors.ts',
  './functions': 'functions.ts',
  './sandbox': 'sandbox/index.ts',
  './sandbox/msw': 'sandbox/msw.ts',
  './wallet': 'wallet/index.ts',
  './webhooks': 'webhooks/receiver.ts',
  './payouts': 'payouts/index.ts',
};

/**
 * What users run: docs, examples, recipes, the package and runtime tests import `crossborder-sdk`
 * from the packed tarball, extracted into a scratch consumer by test/setup/packed.ts.
 */
const OUTSIDE_IN = ['test/docs/**/*.test.ts', 'test/examples/**/*.test.ts', 'test/webhooks/recipes.test.ts', 'test/package/**/*.test.ts', 'test/runtimes/**/*.test.ts', 'test/types/readable.test.ts'];

/**
 * Long end-to-end files (15–50 s each of CLI processes from the packed bin against the HTTP sandbox): they run in
 * `npm run test:slow` (`CROSSBORDER_TEST_SLOW=1`), not in `npm test`, which stays under ~7 minutes on 2 cores.
 * `.ci/run` runs both. One of them alone: `CROSSBORDER_TEST_SLOW=1 npx vitest run test/cli/operations.test.ts`.
 */
export const SLOW = [
  'test/cli/operations.test.ts',
  'test/cli/sandbox-left-as-found.test.ts',
  // The guides' CLI blocks and the CLI guide, run as written in a fresh project with the tarball installed.
  'test/docs/cli-blocks.test.ts',
  'test/docs/cli.test.ts',
  // The sandbox command's banner and shutdown, as a process.
  'test/sandbox/cli-banner.test.ts',
];
const slowToo = process.env.CROSSBORDER_TEST_SLOW === '1';

/** The source aliases, shared with vitest.mutation.config.ts. */
export const sourceAlias = entries((subpath) => {
  const file = SOURCE_ENTRIES[subpath];
  if (!file) throw new Error(`vitest.config.ts: no source file for the export ${subpath}`);
  return src(file);
});

const packed = packedPaths();

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two at a time on 2 cores (vitest's default is cores - 1): most files wait on sockets, timers and child processes.
    maxWorkers: 2,
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    projects: [
      {
        extends: true,
        resolve: { alias: sourceAlias },
        test: {
          name: 'source',
          include: ['test/**/*.test.ts'],
          exclude: [...OUTSIDE_IN, 'test/reliability/**/*.full.test.ts', 'node_modules/**', ...(slowToo ? [] : SLOW)],
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
        },
      },
      {
        extends: true,
        resolve: { alias: entries((_, file) => `${packed.pkg}/${file.replace(/^\.\//, '')}`) },
        test: { name: 'packed', include: OUTSIDE_IN, exclude: ['node_modules/**', ...(slowToo ? [] : SLOW)], globalSetup: ['test/setup/packed.ts'] },
      },
    ],
  },
});
