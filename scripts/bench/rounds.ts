/** How every benchmark compares contenders: interleaved rounds, true medians, and the machine's load beside each figure. */
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

/** Each round's ratio `other ÷ base`: their median (the figure) and their lowest and highest (the spread). */
export function ratioSpread(base: readonly number[], other: readonly number[]): { median: number; min: number; max: number } {
  const ratios = base.map((b, i) => other[i]! / b);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** What `requests` requests cost, per request: wall and CPU time (user + system) of this process in µs, and requests per second. */
export interface PerRequest {
  wall: number;
  cpu: number;
  rps: number;
}

/** Runs `fn` `requests` times, `inFlight` at a time (1: one after another), and measures it. */
export async function perRequest(fn: () => PromiseLike<unknown>, requests: number, inFlight = 1): Promise<PerRequest> {
  let next = 0;
  const worker = async () => {
    while (next++ < requests) await fn();
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await (inFlight === 1 ? worker() : Promise.all(Array.from({ length: inFlight }, worker)));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall: (ms * 1000) / requests, cpu: (cpu.user + cpu.system) / requests, rps: (requests * 1000) / ms };
}

/**
 * One round of `requests` requests of every contender, taking turns request by request (who goes
 * first rotates), each request timed: every contender meets the same moments of a machine others
 * share, a few milliseconds apart rather than a whole block apart. Each contender's measure, in order.
 */
export async function turnByTurn(contenders: readonly (() => PromiseLike<unknown>)[], requests: number): Promise<PerRequest[]> {
  const n = contenders.length;
  const wall = new Float64Array(n);
  const cpu = new Float64Array(n);
  for (let i = 0; i < requests; i++) {
    for (let j = 0; j < n; j++) {
      const k = (i + j) % n;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await contenders[k]!();
      wall[k] = wall[k]! + performance.now() - t0;
      const used = process.cpuUsage(cpu0);
      cpu[k] = cpu[k]! + used.user + used.system;
    }
  }
  return contenders.map((_, k) => ({ wall: (wall[k]! * 1000) / requests, cpu: cpu[k]! / requests, rps: (requests * 1000) / wall[k]! }));
}

/**
 * The per-request comparison of the request benchmarks: warms every contender up (`warmup` requests
 * each, `inFlight` at a time), then runs `rounds` rounds of `requests` requests each: a block per
 * contender in turn (`turns: 'block'`, rotating who goes first), or, one at a time, request by
 * request (`turns: 'request'`, {@link turnByTurn}). Each contender's rounds, in the contenders'
 * order, and the load before and after.
 */
export async function compareRequests(
  contenders: readonly (() => PromiseLike<unknown>)[],
  {
    rounds,
    requests,
    inFlight = 1,
    warmup = 300,
    turns = 'block',
  }: { rounds: number; requests: number; inFlight?: number; warmup?: number; turns?: 'block' | 'request' },
): Promise<{ results: PerRequest[][]; load: [number, number] }> {
  for (const fn of contenders) await perRequest(fn, warmup, inFlight); // compiled code, the socket pool
  const before = load1();
  let results: PerRequest[][];
  if (turns === 'request' && inFlight === 1) {
    results = contenders.map(() => []);
    for (let round = 0; round < rounds; round++) (await turnByTurn(contenders, requests)).forEach((r, k) => results[k]!.push(r));
  } else
    results = await interleaved(
      rounds,
      contenders.map((fn) => () => perRequest(fn, requests, inFlight)),
    );
  return { results, load: [before, load1()] };
}

/** One measure of every round: `of(rounds, 'wall')`. */
export const of = (rounds: readonly PerRequest[], key: keyof PerRequest): number[] => rounds.map((r) => r[key]);

/** The two requests of the per-request benchmarks: a list page and a write. */
export const REQUESTS = [
  ['GET list, first page (20 customers)', 'get'],
  ['POST quote create', 'post'],
] as const;

/** One row per case, in order; `done` (stopping the server) runs whatever happens. */
export async function rowsOf<C, R>(cases: readonly C[], row: (c: C) => Promise<R>, done: () => unknown): Promise<R[]> {
  try {
    const rows: R[] = [];
    for (const c of cases) rows.push(await row(c));
    return rows;
  } finally {
    await done();
  }
}

/** When `url` is the script node was started with: runs its benchmark and prints the rows, as JSON with `--json`, else a line each. */
export async function main<R>(url: string, bench: () => Promise<readonly R[]>, line: (row: R) => string): Promise<void> {
  if (!isMain(url)) return;
  const rows = await bench();
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else for (const row of rows) console.log(line(row));
}

/** The 1-minute load average now (2 cores here: above 2, other processes share the CPU). */
export const load1 = () => loadavg()[0]!;

/** A load before → after, as printed beside a figure. */
export const loadText = (load: readonly number[]) => load.map((l) => l.toFixed(2)).join(' → ');

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
