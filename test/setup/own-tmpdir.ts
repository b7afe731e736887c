/**
 * Mutation runs (vitest.mutation.config.ts): each run of a test file gets a temporary folder of its own, removed
 * after it. A Stryker worker runs the tests of mutant after mutant in one process, and a mutant that breaks a
 * journal's close leaves its lock held by that live process: the payout journals' default lock folder is in the
 * temporary folder (`crossborder-payouts-<uid>`, src/payouts/file-lock.ts) and a lock is named by its journal's
 * inode, which the file system reuses, so a later mutant's test could meet that lock ("is in use by process …")
 * and count as a kill it never earned (maintainers/reliability.md, run P).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// The folder the first setup found: later setups in the same process see TMPDIR already changed.
const base = (process.env.CROSSBORDER_MUTATION_TMP_BASE ??= tmpdir());
// A worker Stryker stops (a timed-out mutant, the run's end) runs no afterAll: what such workers left, an hour old, goes.
for (const name of readdirSync(base).filter((n) => n.startsWith('crossborder-mutation-'))) {
  const left = join(base, name);
  if (Date.now() - (statSync(left, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 3_600_000) rmSync(left, { recursive: true, force: true });
}
const own = mkdtempSync(join(base, 'crossborder-mutation-'));
process.env.TMPDIR = own;
afterAll(() => {
  process.env.TMPDIR = base;
  rmSync(own, { recursive: true, force: true });
});
