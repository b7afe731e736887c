// Mutation testing of the payout state machine, the journals and the journal lock
// (`npm run test:mutation:payouts`; not part of `npm test`). The scores, and every survivor judged
// equivalent, are in maintainers/reliability.md.
//
// It reuses vitest.mutation.config.ts with the tests that reach these files. Left out (under
// Stryker's instrumentation each would run for every mutant it covers): the six processes racing for a
// stale lock (about 30 s; the single-process takeover tests reach the same code), the journal cut at
// every byte (about 15 s; the torn-line tests reach the same code) and the runner's concurrency test
// in journal.test.ts. MUTATION_TESTS / MUTATION_SKIP set in the environment win over these.
import base from './stryker.config.mjs';

process.env.MUTATION_TESTS ??= [
  'test/payouts/machine.test.ts',
  'test/payouts/journal.test.ts',
  'test/payouts/journal-lock.test.ts',
  'test/payouts/journal-format.test.ts',
  'test/payouts/journal-open-failure.test.ts',
  'test/payouts/journal-moves.test.ts',
  'test/payouts/redis-journal.test.ts',
  'test/payouts/journal-reading.test.ts',
  'test/payouts/journal-writing.test.ts',
  'test/payouts/lock-holders.test.ts',
  'test/payouts/lock-faults.test.ts',
  'test/payouts/journal-edges.test.ts',
  'test/payouts/journal-readers.test.ts',
].join(',');
process.env.MUTATION_SKIP ??= 'started together on one stale lock|cut at any byte|never has more requests in flight';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate: ['src/payouts/machine.ts', 'src/payouts/journal.ts', 'src/payouts/file-journal.ts', 'src/payouts/redis-journal.ts', 'src/payouts/file-lock.ts'],
  jsonReporter: { fileName: 'reports/mutation/payouts.json' },
  incrementalFile: 'reports/stryker-incremental-payouts.json',
  // Its own sandboxes, so that it never collides with a run of stryker.config.mjs in the same checkout.
  tempDirName: '.stryker-tmp-payouts',
};
