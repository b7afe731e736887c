import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // Examples and guides import the package by name, as users do; in this repository that is the source.
  resolve: {
    alias: [
      { find: /^crossborder-sdk\/errors$/, replacement: src('errors.ts') },
      { find: /^crossborder-sdk\/sandbox\/msw$/, replacement: src('sandbox/msw.ts') },
      { find: /^crossborder-sdk\/sandbox$/, replacement: src('sandbox/index.ts') },
      { find: /^crossborder-sdk\/wallet$/, replacement: src('wallet/index.ts') },
      { find: /^crossborder-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/reliability/**/*.full.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
