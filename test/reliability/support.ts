/**
 * Shared by the reliability suite: the CI / full switch, seeded randomness, a bounded worker
 * pool, and the scenario report that `scripts/reliability-table.ts` turns into the docs table.
 */
import { appendFileSync } from 'node:fs';
import { onTestFinished } from 'vitest';

/** `RELIABILITY_FULL=1` selects the full run (≥ 10,000 cases per fuzz property, 1,000 + 1,000 money calls). */
export const FULL = process.env.RELIABILITY_FULL === '1';

/** Seed of every PRNG in the suite; override with `RELIABILITY_SEED` to explore other schedules. */
export const SEED = Number(process.env.RELIABILITY_SEED ?? 20251013);

/** Picks the CI or the full count. */
export function count(ci: number, full: number): number {
  return FULL ? full : ci;
}

/** The command that reproduces a file's scenarios in the current mode. */
export function command(file: string, name?: string): string {
  const env = FULL ? 'RELIABILITY_FULL=1 ' : '';
  return `${env}npx vitest run test/reliability/${file}${name ? ` -t "${name}"` : ''}`;
}

/** mulberry32: small, fast, seedable; the same seed gives the same fault schedule. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Faults in order, one per exchange; `then` decides once the script is used up. Both proxies' plans. */
export function scripted<F, X>(faults: readonly F[], then: (exchange: X) => F): (exchange: X) => F {
  let i = 0;
  return (exchange) => (i < faults.length ? faults[i++]! : then(exchange));
}

/** Faults drawn by a PRNG seeded with `seed` with these weights (a function is given the PRNG); the rest of 1 is `pass`. */
export function drawn<F extends object>(seed: number, weights: readonly (readonly [number, F | ((random: () => number) => F)])[], pass: F): () => F {
  const random = prng(seed);
  const total = weights.reduce((sum, [w]) => sum + w, 0);
  if (total > 1 + 1e-9) throw new Error(`fault weights add up to ${total} > 1`);
  return () => {
    let x = random();
    for (const [w, fault] of weights) {
      if (x < w) return typeof fault === 'function' ? fault(random) : fault;
      x -= w;
    }
    return pass;
  };
}

/** Runs `task` over `items` with at most `width` in flight; resolves when every task settled. */
export async function pool<T, R>(items: readonly T[], width: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/** One row of the reliability table. */
export interface ScenarioReport {
  scenario: string;
  /** What one case is (a call, a generated input, …). */
  unit: string;
  cases: number;
  failures: number;
  command: string;
  /** Extra figures worth showing (faults injected, outcomes). */
  notes?: string;
}

/**
 * Prints the row (so the counts used show in the test output) and, when `RELIABILITY_REPORT` names
 * a file, appends it there as one JSON line for the table script.
 */
export function report(row: ScenarioReport): void {
  const mode = FULL ? 'full' : 'ci';

  console.log(`[reliability:${mode}] ${row.scenario}: ${row.cases} ${row.unit}, ${row.failures} failures${row.notes ? ` (${row.notes})` : ''}`);
  const file = process.env.RELIABILITY_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ ...row, mode })}\n`);
}

/** Runs a fast-check assertion, reports its row, and rethrows a failure. */
export async function reported(row: Omit<ScenarioReport, 'failures'>, run: () => Promise<void> | void): Promise<void> {
  try {
    await run();
  } catch (error) {
    report({ ...row, failures: 1, notes: `${row.notes ? `${row.notes}; ` : ''}first counterexample stops the run` });
    throw error;
  }
  report({ ...row, failures: 0 });
}

/**
 * Reports the running test's row when it finishes, with `failures` from its outcome (1 when any
 * check failed, 0 when all held), so a failing run shows in the table. Fill `notes` as figures come in.
 */
export function reportWhenFinished(row: Omit<ScenarioReport, 'failures'>): Omit<ScenarioReport, 'failures'> {
  onTestFinished(({ task }) => report({ ...row, failures: task.result?.state === 'fail' ? 1 : 0 }));
  return row;
}
