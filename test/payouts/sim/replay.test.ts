/**
 * Replays one simulation case: `SIM_CASE='<the case JSON a failure printed>' SIM_TRACE=1 npx vitest run test/payouts/sim/replay.test.ts`.
 * Without SIM_CASE it runs one small case with a crash, a lost answer and webhooks (so that the file is never empty).
 */
import { describe, expect, it } from 'vitest';
import { explain, simulate, type SimCase } from './harness';
import { seededCase } from './seeded';

const given = process.env.SIM_CASE;

describe('simulation: one case', () => {
  it(given ? `replays ${given}` : 'runs a small case with a crash, a lost answer and webhooks', async () => {
    const c: SimCase = given
      ? (JSON.parse(given) as SimCase)
      : { seed: 7, n: 3, writes: ['lostAfter'], crashAt: [6], webhooks: true, faults: { webhookTwice: 0.5 } };
    const result = await simulate(c);
    if (process.env.SIM_TRACE === '1') console.log(result.log.join('\n'));
    expect(result.problems, explain(result)).toEqual([]);
    expect(result.summary).toBeDefined();
  });

  it('a case replays exactly: the same seed gives the same effects, in the same order, at the same simulated times', async () => {
    const c = { ...seededCase(3), n: 30, crashAt: [40, 95], umaEvery: 4 };
    const first = await simulate(c);
    const second = await simulate(c);
    expect(first.effects).toBeGreaterThan(95);
    expect(first.processes).toBeGreaterThanOrEqual(3);
    expect(first.log.some((line) => line.includes('send receiver.lookupUma'))).toBe(true);
    expect(second.log).toEqual(first.log);
    // And another seed is another run (the seed drives it).
    const other = await simulate({ ...c, seed: 4 });
    expect(other.log).not.toEqual(first.log);
  });
});
