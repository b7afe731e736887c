import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

// The tests that exercise the mutated files: the core pipeline and webhook verification.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['test/core/**/*.test.ts', 'test/webhooks/*.test.ts'],
      exclude: ['test/webhooks/redis.test.ts', 'test/webhooks/recipes.test.ts', 'node_modules/**'],
      typecheck: { enabled: false },
      reporters: ['default'],
    },
  }),
);
