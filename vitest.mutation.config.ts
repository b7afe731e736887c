import { defineConfig } from 'vitest/config';
import { sourceAlias } from './vitest.config';

// The tests that exercise the mutated files: the core pipeline and webhook verification. Built from
// the base config by hand: mergeConfig would concatenate the include lists.
export default defineConfig({
  resolve: { alias: sourceAlias },
  test: {
    include: ['test/core/**/*.test.ts', 'test/webhooks/*.test.ts'],
    exclude: ['test/webhooks/redis.test.ts', 'test/webhooks/recipes.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
