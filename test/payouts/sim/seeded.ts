/**
 * Seeded cases of 100-payout batches: every fault of ./harness.ts at a rate drawn from the seed, 0–3
 * crashes at effects drawn from it, webhooks or polling, immediate or separate execution. A failing
 * seed prints its case; `SIM_SEED=<seed> npx vitest run test/payouts/sim/seeded.test.ts` runs that seed
 * alone (with `SIM_TRACE=1`, its whole effect log).
 * @module
 */
import { KEY_WINDOW_MS, rng, type SimCase } from './harness';

/** The case of `seed`; `acrossWindow`: each crash is followed by a jump of 25 hours (past the key window). */
export function seededCase(seed: number, acrossWindow = false, n = 100): SimCase {
  const r = rng(Math.imul(seed, 7919) + 1);
  const pick = (p: number, most: number) => (r() < p ? Math.round(r() * most * 1000) / 1000 : 0);
  const crashes = Math.floor(r() * 4);
  const crashAt = Array.from({ length: crashes }, () => 1 + Math.floor(r() * n * 7)).sort((a, b) => a - b);
  return {
    seed,
    n,
    faults: {
      lostBefore: pick(0.7, 0.1),
      lostAfter: pick(0.7, 0.1),
      throttled: pick(0.5, 0.1),
      unavailable: pick(0.3, 0.03),
      syncFails: pick(0.2, 0.005),
      lateFailure: pick(0.6, 0.2),
      webhookTwice: pick(0.5, 0.5),
      webhookLost: pick(0.5, 0.3),
    },
    crashAt,
    webhooks: r() < 0.5,
    execution: r() < 0.3 ? 'separate' : 'immediate',
    maxConcurrency: 1 + Math.floor(r() * 16),
    umaEvery: r() < 0.3 ? 5 : undefined,
    // Within the window: up to 5 hours after each crash (3 crashes stay under the 24 hours).
    jumpMs: acrossWindow ? KEY_WINDOW_MS + 3_600_000 : r() < 0.3 ? Math.floor(r() * 5 * 3_600_000) : 0,
  };
}
