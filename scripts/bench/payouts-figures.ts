/**
 * The payout batches' figures, from what `scripts/bench/payouts.ts --json` measured: its lines for people
 * (what it prints, and docs/benchmarks.md shows) and docs/payouts.md's performance table, which
 * `npm run bench` writes between its markers, never by hand. No measuring here: only the results' shape and
 * their rendering, so that the page can be tested against docs/benchmarks.json.
 */

/** What `scripts/bench/payouts.ts --json` prints (a part not run holds NaN, or empty lists). */
export interface PayoutsResult {
  rateLimited: PayoutsLimited;
  rateLimitedBurst1: PayoutsLimited & { burst: number };
  noLimit: {
    payouts: number;
    runner: number;
    runnerCpuMicros: number;
    /** Each concurrency of the hand-written pool tried once: [concurrency, payouts/s]. */
    pools: [number, number][];
    /** The best fixed concurrency, and each finalist's median rate over the rounds. */
    best: { concurrency: number; finalists: Record<string, number>; perSecond: number; cpuMicros: number };
    /** Runner ÷ the pool at the best fixed concurrency: the median, and each round's. */
    ratio: number;
    ratios: number[];
    betterOfTwo: { concurrencies: number[]; perSecond: number; ratio: number; ratios: number[] };
    journaledPool: { perSecond: number; cpuMicros: number; ofPool: number; ofPoolByRound: number[]; runnerRatio: number; runnerRatios: number[] };
  };
  memory: { references: number; heapAt10k: number; heapAt50k: number; heapAtN: number; bytesPerReference: number; gc: boolean };
  /** The one-minute load average when the results were taken. */
  loadAverage: number;
  /** The one-, five- and fifteen-minute load averages then (absent in results before the table was generated). */
  loadAverages?: number[];
  /** The machine's cores. */
  cores?: number;
  /** The runner's journal in the timed parts: `file` (the default) or `memory`. */
  journal?: 'file' | 'memory';
}

interface PayoutsLimited {
  rate: number;
  payouts: number;
  seconds: number;
  payoutsPerSecond: number;
  allowedPerSecond: number;
  ratio: number;
  throttled: { answers: number; rounds: number };
}

/** The targets, as the issue sets them. */
export const PAYOUTS_TARGETS = { rateLimited: 0.9, burst1: 0.8, noLimit: 0.9 } as const;

const f = (n: number) => n.toFixed(1);
const ran = (n: number) => !Number.isNaN(n);

/** The finalists (the two best of one try each), in the order the bench ran them: the faster first. */
function finalists(r: PayoutsResult): number[] {
  return [...r.noLimit.pools]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([c]) => c);
}

/** The lines `scripts/bench/payouts.ts` prints for people (each part that ran), then the load average. */
export function payoutsLines(r: PayoutsResult): string[] {
  const lines: string[] = [];
  const { rateLimited: l, rateLimitedBurst1: b, noLimit: free, memory: mem } = r;
  if (ran(l.seconds))
    lines.push(
      `rate limit ${l.rate} req/s, 20 ms latency, ${l.payouts} payouts: ${f(l.payoutsPerSecond)} payouts/s of ${f(l.allowedPerSecond)} allowed = ${l.ratio.toFixed(3)} (target >= ${PAYOUTS_TARGETS.rateLimited}), in ${l.seconds.toFixed(1)} s, ${l.throttled.answers} 429s in ${l.throttled.rounds} rounds`,
    );
  if (ran(b.seconds))
    lines.push(
      `rate limit ${b.rate} req/s with a burst of ${b.burst}, 20 ms latency, ${b.payouts} payouts: ${f(b.payoutsPerSecond)} payouts/s of ${f(b.allowedPerSecond)} allowed = ${b.ratio.toFixed(3)} (target >= ${PAYOUTS_TARGETS.burst1}), in ${b.seconds.toFixed(1)} s, ${b.throttled.answers} 429s in ${b.throttled.rounds} rounds`,
    );
  if (free.ratios.length > 0) {
    const j = free.journaledPool;
    lines.push(
      `no limit, 20 ms latency, ${free.payouts} payouts: Promise.all pool ${free.pools.map(([c, rate]) => `${c}: ${f(rate)}/s`).join(', ')}; runner (${r.journal ?? 'file'} journal) ${f(free.runner)}/s vs the pool at the best fixed concurrency, ${free.best.concurrency} (medians over ${free.ratios.length} alternating rounds: ${finalists(
        r,
      )
        .map((c) => `${c}: ${f(free.best.finalists[c]!)}/s`)
        .join(
          ', ',
        )}), ratios ${free.ratios.map((x) => x.toFixed(2)).join(' ')}: median ${free.ratio.toFixed(3)} (target >= ${PAYOUTS_TARGETS.noLimit}); vs the better of the two in each round (${free.betterOfTwo.concurrencies.join(', ')}), stricter: ${free.betterOfTwo.ratios.map((x) => x.toFixed(2)).join(' ')}: median ${free.betterOfTwo.ratio.toFixed(3)}`,
      `the same pool journaling what the runner journals (file journal, two lines a payout, same keys): ${f(j.perSecond)}/s, ${j.ofPoolByRound.map((x) => x.toFixed(2)).join(' ')} of the pool: median ${j.ofPool.toFixed(3)}; runner ÷ it ${j.runnerRatios.map((x) => x.toFixed(2)).join(' ')}: median ${j.runnerRatio.toFixed(3)} (the runner's machinery beyond its journal)`,
      `CPU of this process per payout (the sandbox answers from its own): runner ${f(free.runnerCpuMicros)} µs, journaled pool ${f(j.cpuMicros)} µs, pool ${f(free.best.cpuMicros)} µs (the SDK's call alone), so the runner's own ${f(free.runnerCpuMicros - free.best.cpuMicros)} µs, of which the journal and keys ${f(j.cpuMicros - free.best.cpuMicros)} µs`,
    );
  }
  if (ran(mem.heapAtN))
    lines.push(
      `memory, ${mem.references} references from a CSV: heap ${f(mem.heapAt10k / 1e6)} MB at 10,000, ${f(mem.heapAt50k / 1e6)} MB at 50,000, ${f(mem.heapAtN / 1e6)} MB at ${mem.references}: ${f(mem.bytesPerReference)} bytes per reference from 10,000 on`,
    );
  lines.push(`load average ${(r.loadAverages ?? [r.loadAverage]).map((x) => x.toFixed(1)).join(' ')} on ${r.cores ?? 2} cores`);
  return lines;
}

/** Markers around docs/payouts.md's performance table, which `npm run bench` writes. */
export const PAYOUTS_SECTION_MARKERS = [
  '<!-- npm run bench: the payout batches (scripts/bench/payouts-figures.ts payoutsSection) -->',
  '<!-- end of what npm run bench writes about payout batches -->',
] as const;

const n = (x: number) => x.toLocaleString('en');
const verdict = (value: number, target: number) => `≥ ${target}: **${value >= target ? 'met' : 'not met'}**`;

/** docs/payouts.md's performance table, from one run of the payouts bench taken on `date`. */
export function payoutsSection(r: PayoutsResult, date: string): string {
  const { rateLimited: l, rateLimitedBurst1: b, noLimit: free, memory: mem } = r;
  const rows: string[] = [];
  if (ran(l.seconds))
    rows.push(
      `| under a rate limit of ${n(l.rate)} requests/s, payouts/s ÷ what the limit allows (${n(l.payouts)} payouts; the burst counted as allowed) | **${l.ratio.toFixed(3)}** (${f(l.payoutsPerSecond)} payouts/s of ${f(l.allowedPerSecond)} allowed, in ${f(l.seconds)} s: ${n(l.throttled.answers)} answers of 429 in ${n(l.throttled.rounds)} rounds) | ${verdict(l.ratio, PAYOUTS_TARGETS.rateLimited)} |`,
    );
  if (ran(b.seconds))
    rows.push(
      `| under a limit of ${n(b.rate)} requests/s with a burst of ${b.burst}, the same ratio (${n(b.payouts)} payouts) | **${b.ratio.toFixed(3)}** (${f(b.payoutsPerSecond)} payouts/s of ${f(b.allowedPerSecond)} allowed, in ${f(b.seconds)} s: ${n(b.throttled.answers)} answers of 429 in ${n(b.throttled.rounds)} rounds) | ${verdict(b.ratio, PAYOUTS_TARGETS.burst1)} |`,
    );
  if (free.ratios.length > 0) {
    const j = free.journaledPool;
    rows.push(
      `| no limit (${n(free.payouts)} payouts a run): the runner (${r.journal ?? 'file'} journal) ÷ a hand-written \`Promise.all\` pool at its best fixed concurrency, the median of ${free.ratios.length} alternating rounds | **${free.ratio.toFixed(3)}** (rounds ${free.ratios.map((x) => x.toFixed(2)).join(', ')}; the runner ${f(free.runner)}/s, the pool at ${free.best.concurrency} ${f(free.best.perSecond)}/s); against the better of the two finalists in each round, stricter: ${free.betterOfTwo.ratio.toFixed(3)} | ${verdict(free.ratio, PAYOUTS_TARGETS.noLimit)} |`,
      `| the same pool journaling what the runner journals (a file journal, two lines a payout) | ${j.ofPool.toFixed(3)} of the pool; the runner ${j.runnerRatio.toFixed(3)} of it (its machinery beyond the journal) | none |`,
      `| this process's CPU per payout (the sandbox answers from its own) | the runner ${f(free.runnerCpuMicros)} µs, the journaling pool ${f(j.cpuMicros)} µs, the pool ${f(free.best.cpuMicros)} µs (the SDK's call alone) | none |`,
    );
  }
  if (ran(mem.heapAtN))
    rows.push(
      `| heap over ${n(mem.references)} references streamed from a CSV (file journal) | ${f(mem.heapAt10k / 1e6)} MB at 10,000, ${f(mem.heapAt50k / 1e6)} MB at 50,000, ${f(mem.heapAtN / 1e6)} MB at ${n(mem.references)}: **${f(mem.bytesPerReference)} bytes per reference** from 10,000 on | flat |`,
    );
  return [
    PAYOUTS_SECTION_MARKERS[0],
    '| figure | measured | target |',
    '|---|---|---|',
    ...rows,
    '',
    `Measured ${date} (load average ${(r.loadAverages ?? [r.loadAverage]).map((x) => x.toFixed(1)).join(', ')} on ${r.cores ?? 2} cores) by \`npm run bench\`; its payouts`,
    'part alone: `npm run bench -- --only payouts`. It writes this table from docs/benchmarks.json.',
    PAYOUTS_SECTION_MARKERS[1],
  ].join('\n');
}

/** Replaces docs/payouts.md's marked section (markers included) by `section`, which carries them. */
export function withPayoutsSection(page: string, section: string): string {
  const [open, close] = PAYOUTS_SECTION_MARKERS;
  const start = page.indexOf(open);
  const end = page.indexOf(close, start);
  if (start < 0 || end < start) throw new Error(`docs/payouts.md has no section marked ${open} … ${close}`);
  return page.slice(0, start) + section + page.slice(end + close.length);
}
