// Mutation testing of the money, secret and signature paths (`npm run test:mutation`; not part of
// `npm test`: it runs the relevant tests once per mutant). Every mutant that survives is either
// killed by a new test or listed with the reason in maintainers/reliability.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'src/core/plan.ts',
    'src/core/retry.ts',
    'src/core/transport.ts',
    'src/core/answers.ts',
    'src/core/wire.ts',
    'src/core/signed-retry.ts',
    'src/core/call-options.ts',
    'src/core/client.ts',
    'src/core/pagination.ts',
    'src/core/logger.ts',
    'src/webhooks/verify.ts',
    'src/webhooks/dedupe.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  // Runs side by side in one checkout (with their own tempDirName) must not copy each other's sandboxes.
  ignorePatterns: ['/.stryker-tmp*'],
  cleanTempDir: 'always',
  ignoreStatic: true,
};
