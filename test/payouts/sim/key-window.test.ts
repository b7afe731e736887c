/**
 * Across the Idempotency-Key window (issue 47 §2, the critical defect): a batch interrupted while
 * outcomes were unknown and resumed after the service forgot its keys (24 hours) must not pay twice.
 * Each case crashes the first process at an effect (every effect, × every fate of the first two writes),
 * moves the clock 25 hours on, and lets a new process finish the batch. A runner that re-sends an
 * unknown payout blind past the window pays it a second time; one that looks it up first does not.
 *
 * These FAIL on the runner of before the fix (it re-sends blind): the first failure printed names the
 * case and the command that replays it.
 */
import { describe, expect, it } from 'vitest';
import { KEY_WINDOW_MS } from './harness';
import { exhaustive } from './exhaustive';

const FULL = process.env.PAYOUTS_FULL === '1';
const JUMP = KEY_WINDOW_MS + 3_600_000;

describe('simulation: a crash at every effect, resumed past the key window', () => {
  for (const n of FULL ? [1, 2, 3, 4] : [1, 2]) {
    it(`${n} payout${n > 1 ? 's' : ''}: resumed 25 h later, nothing is paid twice and every reference ends final`, async () => {
      const { cases, failures, failedCases } = await exhaustive(n, { jumpMs: JUMP });
      expect(failedCases, `${failedCases} of ${cases} cases failed; the first:\n${failures[0]}`).toBe(0);
      expect(cases).toBeGreaterThan(n * 9 * 6);
    });
  }

  it('one payout whose answer was lost after the service acted, resumed 25 h later: paid once, and completed', async () => {
    const { simulate, explain } = await import('./harness');
    // Effect 1: `submitted` journaled; 2: sent; 3: its answer (lost). The crash is at the answer's effect.
    const result = await simulate({ seed: 47, n: 1, writes: ['lostAfter'], crashAt: [3], jumpMs: JUMP, settleMs: 1_500 });
    expect(result.problems, explain(result)).toEqual([]);
    expect(result.executions.get('ExternalAccount:p000')).toBe(1);
    expect(result.records.get('p000')?.state).toBe('completed');
  });
});
