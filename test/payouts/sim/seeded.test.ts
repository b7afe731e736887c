/**
 * Thousands of seeded runs of 100-payout batches (issue 47 §8): `npm run test:payouts` (PAYOUTS_FULL=1)
 * runs SIM_RUNS seeds (default 2,000) within the key window and 200 across it; `npm test` a few of each.
 * `SIM_SEED=<seed>` runs that seed alone, `SIM_TRACE=1` prints its effect log. See ./harness.ts.
 */
import { describe, expect, it } from 'vitest';
import { explain, simulate } from './harness';
import { seededCase } from './seeded';

const FULL = process.env.PAYOUTS_FULL === '1';
const ONE = process.env.SIM_SEED === undefined ? undefined : Number(process.env.SIM_SEED);
const seeds = (count: number, from: number) => (ONE !== undefined ? [ONE] : Array.from({ length: count }, (_, i) => from + i));

async function runSeeds(list: number[], acrossWindow: boolean): Promise<{ failed: number[]; first: string | undefined; payouts: number }> {
  const failed: number[] = [];
  let first: string | undefined;
  let payouts = 0;
  for (const seed of list) {
    const result = await simulate(seededCase(seed, acrossWindow));
    payouts += result.records.size;
    if (process.env.SIM_TRACE === '1') console.log(result.log.join('\n'));
    if (result.problems.length > 0) {
      failed.push(seed);
      first ??= `${explain(result, 40)}\nor this seed alone: SIM_SEED=${seed} SIM_TRACE=1 npx vitest run test/payouts/sim/seeded.test.ts`;
    }
  }
  return { failed, first, payouts };
}

describe('simulation: seeded 100-payout batches', () => {
  it(
    `within the key window (${ONE !== undefined ? `seed ${ONE}` : `${FULL ? (process.env.SIM_RUNS ?? '2000') : '8'} seeds`}): nothing twice, everything final, no record back from final`,
    async () => {
      const list = seeds(FULL ? Number(process.env.SIM_RUNS ?? 2_000) : 8, 1);
      const { failed, first, payouts } = await runSeeds(list, false);
      expect(failed, `seeds ${failed.join(', ')} failed; the first:\n${first}`).toEqual([]);
      expect(payouts).toBe(list.length * 100);
    },
    FULL ? 3_600_000 : 120_000,
  );

  it(
    `across the key window (${ONE !== undefined ? `seed ${ONE}` : `${FULL ? '200' : '3'} seeds`}, each crash followed by 25 hours): nothing twice, everything final`,
    async () => {
      const list = seeds(FULL ? 200 : 3, 100_001);
      const { failed, first } = await runSeeds(list, true);
      expect(failed, `seeds ${failed.join(', ')} failed; the first:\n${first}`).toEqual([]);
    },
    FULL ? 3_600_000 : 120_000,
  );
});
