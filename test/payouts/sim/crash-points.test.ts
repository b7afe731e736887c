/**
 * Crashes at every effect boundary, not at random (issue 47 §8): for batches of 1 to 4 payouts, every
 * choice of fate for the first two writes (answered, lost before the service acted, lost after it
 * acted) × every effect of the run as the crash point (× the write crashed in landing or not), then a
 * new process on the durable journal runs the batch to its end. The invariants of ./harness.ts hold
 * after every effect and at the end. A failure prints the case and the command that replays it.
 *
 * The same crash points with the clock jumping past the service's 24-hour Idempotency-Key window
 * before the new process starts are in ./key-window.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { exhaustive } from './exhaustive';
import type { SimCase } from './harness';

const FULL = process.env.PAYOUTS_FULL === '1';

describe('simulation: a crash at every effect, within the key window', () => {
  for (const n of [1, 2, 3, 4]) {
    it(`${n} payout${n > 1 ? 's' : ''}: every crash point × every lost answer of the first two writes`, async () => {
      const { cases, failures, failedCases } = await exhaustive(n, { jumpMs: 0 });
      expect(failedCases, `${failedCases} of ${cases} cases failed; the first:\n${failures[0]}`).toBe(0);
      expect(cases).toBeGreaterThan(n * 9 * 6); // the enumeration ran (each of the 9 choices has >= 6 effects a payout)
    });
  }
});

/** With PAYOUTS_FULL=1: the same enumeration with a create-then-execute flow, and with webhooks (each final event delivered twice, a stale one after it). */
describe.runIf(FULL)('simulation: a crash at every effect, other flows (PAYOUTS_FULL=1)', () => {
  const variants: [string, Partial<SimCase>][] = [
    ['separate execution (create, then execute)', { execution: 'separate' }],
    ['webhooks, each final event twice', { webhooks: true, faults: { webhookTwice: 1 } }],
  ];
  for (const [name, extra] of variants) {
    for (const n of [1, 2, 3]) {
      it(`${name}, ${n} payout${n > 1 ? 's' : ''}: every crash point × every lost answer of the first two writes`, async () => {
        const { cases, failures, failedCases } = await exhaustive(n, { jumpMs: 0, ...extra });
        expect(failedCases, `${failedCases} of ${cases} cases failed; the first:\n${failures[0]}`).toBe(0);
        expect(cases).toBeGreaterThan(n * 9 * 6);
      }, 600_000);
    }
  }
});
