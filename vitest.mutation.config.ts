import { defineConfig } from 'vitest/config';
import { sourceAlias } from './vitest.config';

// The tests that exercise the mutated files: the core pipeline and webhook verification. Built from
// the base config by hand: mergeConfig would concatenate the include lists. Left out: the Redis
// store's tests (need a redis-server), the packed recipes, and the pagination memory test (8,000
// pages, which under Stryker's instrumentation outlasts any per-test timeout; pagination.test.ts
// covers the same code).
export default defineConfig({
  resolve: { alias: sourceAlias },
  test: {
    // MUTATION_TESTS (comma-separated globs) narrows the run to the tests of the files mutated, for
    // a run of a few files on a loaded machine; docs/reliability.md says which runs used it.
    include: process.env.MUTATION_TESTS ? process.env.MUTATION_TESTS.split(',') : ['test/core/**/*.test.ts', 'test/webhooks/*.test.ts'],
    // MUTATION_REDIS=1 keeps the Redis store's tests (they start their own /usr/bin/redis-server; about 3 s).
    exclude: [...(process.env.MUTATION_REDIS === '1' ? [] : ['test/webhooks/redis.test.ts']), 'test/webhooks/recipes.test.ts', 'test/core/pagination-memory.test.ts', 'node_modules/**'],
    // MUTATION_SKIP (a test-name fragment) leaves out tests too slow under instrumentation.
    testNamePattern: process.env.MUTATION_SKIP ? new RegExp(`^(?!.*${process.env.MUTATION_SKIP.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`) : undefined,
    testTimeout: 30_000,
    pool: 'forks',
  },
});
