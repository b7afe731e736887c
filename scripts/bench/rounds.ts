/** How every benchmark compares contenders: interleaved rounds and medians, so machine noise hits all alike. */

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Runs each contender once per round, rotating who goes first so that none always runs on a warmer
 * (or busier) machine. Returns each contender's results, round by round, in the contenders' order.
 */
export async function interleaved<T>(rounds: number, contenders: (() => Promise<T>)[]): Promise<T[][]> {
  const results = contenders.map(() => [] as T[]);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const k = (round + i) % contenders.length;
      results[k]!.push(await contenders[k]!());
    }
  }
  return results;
}
