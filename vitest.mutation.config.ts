import { defineConfig } from 'vitest/config';
import { sourceAlias } from './vitest.config';

// The tests that exercise the mutated files: the core pipeline and webhook verification. Built from
// the base config by hand: mergeConfig would concatenate the include lists. Left out: the packed recipes, and the
// pagination memory test (8,000 pages, which under Stryker's instrumentation outlasts any per-test
// timeout; pagination.test.ts covers the same code).
const skip = process.env.MUTATION_SKIP ?? '8,000 pages|1,000 concurrent';

export default defineConfig({
  resolve: { alias: sourceAlias },
  test: {
    // MUTATION_TESTS (comma-separated globs) narrows the run to the tests of the files mutated, for
    // a run of a few files on a loaded machine; docs/reliability.md says which runs used it.
    include: process.env.MUTATION_TESTS ? process.env.MUTATION_TESTS.split(',') : ['test/core/**/*.test.ts', 'test/webhooks/*.test.ts'],
    // The Redis store's tests start their own redis-server (installed by scripts/ensure-system-deps.mjs;
    // about 3 s); MUTATION_REDIS=0 leaves them out on a machine without it.
    exclude: [
      ...(process.env.MUTATION_REDIS === '0' ? ['test/webhooks/redis.test.ts'] : []),
      'test/webhooks/recipes.test.ts',
      'test/core/pagination-memory.test.ts',
      'node_modules/**',
    ],
    // MUTATION_SKIP (test-name fragments separated by `|`) leaves out tests too slow under
    // instrumentation; by default the two 8,000-page memory tests of pagination.test.ts (82 s each
    // under load) and transport's 1,000 concurrent calls (16 s): what they reach, the bounded
    // pagination and transport tests reach. MUTATION_SKIP= (empty) keeps every test.
    testNamePattern:
      skip === ''
        ? undefined
        : new RegExp(
            `^(?!.*(${skip
              .split('|')
              .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
              .join('|')}))`,
          ),
    testTimeout: 30_000,
    pool: 'forks',
    // Each run of a test file in a temporary folder of its own (test/setup/own-tmpdir.ts): no lock one mutant leaves
    // held can fail the tests of the next.
    setupFiles: ['test/setup/own-tmpdir.ts'],
  },
});
