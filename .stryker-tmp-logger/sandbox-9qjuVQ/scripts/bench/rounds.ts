/** How every benchmark compares contenders: interleaved rounds, true medians, and the machine's load beside each figure. */
// @ts-nocheck

import { loadavg } from 'node:os';

/** The median: the middle value, or the mean of the two middle values of an even count. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Each round's ratio `other ÷ base` (same round, same machine state), then their median. */
export const medianRatio = (base: readonly number[], other: readonly number[]) => median(base.map((b, i) => other[i]! / b));

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

/** The 1-minute load average now (2 cores here: above 2, other processes share the CPU). */
export const load1 = () => loadavg()[0]!;

/** Runs `fn` and returns its result with the 1-minute load average before and after. */
export async function withLoad<T>(fn: () => Promise<T>): Promise<T & { load: [number, number] }> {
  const before = load1();
  const result = await fn();
  return Object.assign(result as object, { load: [before, load1()] as [number, number] }) as T & { load: [number, number] };
}

/** `--name value` from the command line, as a number. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** True when this module is the script node was started with. */
export const isMain = (url: string) => url === `file://${process.argv[1]}`;
