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
const OUTSIDE_IN = [
  'test/docs/**/*.test.ts',
  'test/examples/**/*.test.ts',
  'test/webhooks/recipes.test.ts',
  'test/package/**/*.test.ts',
  'test/runtimes/**/*.test.ts',
  'test/types/readable.test.ts',
];

/**
 * The longest files (15–50 s each: CLI processes from the packed bin against the HTTP sandbox, the package's consumer
 * projects, the guides type-checked and the API reference built against the tarball): they run in `npm run test:slow`
 * (`CROSSBORDER_TEST_SLOW=only`: these alone), not in `npm test`, which stays near ~7 minutes on 2 cores. `.ci/run`
 * runs both. `CROSSBORDER_TEST_SLOW=1` runs them with the rest; one of them alone:
 * `CROSSBORDER_TEST_SLOW=1 npx vitest run test/cli/operations.test.ts`.
 */
export const SLOW = [
  'test/cli/operations.test.ts',
  'test/cli/sandbox-left-as-found.test.ts',
  // The guides' CLI blocks and the CLI guide, run as written in a fresh project with the tarball installed.
  'test/docs/cli-blocks.test.ts',
  'test/docs/cli.test.ts',
  // The sandbox command's banner and shutdown, as a process.
  'test/sandbox/cli-banner.test.ts',
  // The CLI as processes: the sandbox and listen processes, payouts run/status/report, hostile input, webhooks.
  'test/cli/sandbox-process.test.ts',
  'test/cli/payouts.test.ts',
  'test/cli/adversarial.test.ts',
  'test/cli/webhooks.test.ts',
  // Receivers and the sandbox's edges as processes (ports, disks, clocks).
  'test/reliability/edges.test.ts',
  // The tarball installed into consumer projects; the guides type-checked and the API reference built against it.
  'test/package/pack.test.ts',
  'test/docs/typecheck.test.ts',
  'test/docs/typedoc.test.ts',
];
const slowMode = process.env.CROSSBORDER_TEST_SLOW;
if (slowMode !== undefined && slowMode !== '1' && slowMode !== 'only') throw new Error(`CROSSBORDER_TEST_SLOW is 1 or only, not ${slowMode}`);
const slowToo = slowMode === '1' || slowMode === 'only';
// A folder glob (`test/docs/` + `**/*.test.ts`) or one file, the two forms OUTSIDE_IN uses: does `file` fall under it?
const under = (glob: string, file: string) => (glob.endsWith('/**/*.test.ts') ? file.startsWith(glob.slice(0, -'**/*.test.ts'.length)) : file === glob);
const outsideIn = (file: string) => OUTSIDE_IN.some((glob) => under(glob, file));

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
          include: slowMode === 'only' ? SLOW.filter((file) => !outsideIn(file)) : ['test/**/*.test.ts'],
          exclude: [...OUTSIDE_IN, 'test/reliability/**/*.full.test.ts', 'node_modules/**', ...(slowToo ? [] : SLOW)],
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
        },
      },
      {
        extends: true,
        resolve: { alias: entries((_, file) => `${packed.pkg}/${file.replace(/^\.\//, '')}`) },
        test: {
          name: 'packed',
          include: slowMode === 'only' ? SLOW.filter(outsideIn) : OUTSIDE_IN,
          exclude: ['node_modules/**', ...(slowToo ? [] : SLOW)],
          globalSetup: ['test/setup/packed.ts'],
        },
      },
    ],
  },
});
