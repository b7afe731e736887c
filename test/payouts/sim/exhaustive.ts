/**
 * The exhaustive enumeration of crash points (see ./harness.ts for the model and for how to replay a case).
 * @module
 */
import { explain, simulate, type Fate, type SimCase } from './harness';

const FATES: Fate[] = ['ok', 'lostBefore', 'lostAfter'];

/** Every fate of the first two writes. */
export const WRITE_CHOICES: Fate[][] = FATES.flatMap((a) => FATES.map((b) => [a, b]));

/**
 * For `n` payouts: each choice of the first two writes' fates, a run without a crash (which counts the
 * effects), then one run per effect crashing there (twice for a journal write: it lands, or not).
 * Returns how many cases ran and the explained failures (at most `keep`).
 */
export async function exhaustive(n: number, extra: Partial<SimCase>, keep = 3): Promise<{ cases: number; failures: string[]; failedCases: number }> {
  let cases = 0;
  let failedCases = 0;
  const failures: string[] = [];
  const record = (result: Awaited<ReturnType<typeof simulate>>) => {
    cases++;
    if (result.problems.length === 0) return;
    failedCases++;
    if (failures.length < keep) failures.push(explain(result, 40));
  };
  for (const writes of WRITE_CHOICES) {
    const base: SimCase = { seed: 4_700 + n, n, writes, settleMs: 1_500, ...extra };
    const dry = await simulate(base);
    record(dry);
    for (let k = 1; k <= dry.effects; k++) {
      const isPut = dry.log.some((line) => line.startsWith(`${k} p`) && / put /.test(line));
      for (const land of isPut ? [true, false] : [false]) record(await simulate({ ...base, crashAt: [k], land }));
    }
  }
  return { cases, failures, failedCases };
}
