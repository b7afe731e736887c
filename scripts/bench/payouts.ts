/**
 * Payout batches (issue 35): `npx tsx scripts/bench/payouts.ts` (`--json` for one JSON line). It measures
 * the package as built (dist/, and the sandbox's child from dist/ too; built when missing: `npm run build`
 * after changing src/), as the other benchmarks do.
 *
 * The sandbox runs in its own process and answers over HTTP on 127.0.0.1 (as the service answers from
 * elsewhere), so this process holds only the client side. A run is timed until every reference was
 * accepted by the service (processing or final), then stopped by its signal: what follows is the
 * service settling them, the same for any client.
 *
 * 1. Under a sandbox rate limit of R requests/s with 20 ms latency: payouts submitted per second ÷ what
 *    the limit allows over the same time (R per second plus the bucket's burst). Final states would come
 *    by webhook, so a payout is one request. Target ≥ 0.9. Also the 429s it met, and in how many rounds
 *    (the batch waits out each round's `Retry-After`, whole seconds: a round at the very end of a batch
 *    costs up to a second however large the batch, which is why the batch is 2,000 payouts, a month-end
 *    run's order, rather than a few hundred).
 * 2. With no limit (20 ms latency), batches of 10,000 payouts (the issue's batch size): the runner's
 *    submission rate, with a file journal (fsynced, as the CLI runs it), ÷ a hand-written pool of
 *    `Promise.all` workers making the same `quotes.create` (immediatelyExecute) calls against the same
 *    sandbox, at the best fixed concurrency: 8, 16, 32 and 64 are tried once (the runner's
 *    `maxConcurrency` is 64), the two best run in every round, and the one with the higher median rate
 *    over the rounds is the best fixed concurrency; each round's ratio is the runner's rate over that
 *    pool's in the same round. After a warm-up of both, rounds alternate which goes first; the figure is
 *    the median of the rounds' ratios. Target ≥ 0.9. Also the stricter ratio to the better of the two
 *    finalists in each round (the larger of two noisy draws, not one fixed concurrency). Also, each round, the same
 *    pool journaling what the runner journals (a file journal, the `submitted` line with the keys before
 *    each call and the quote's line after): what that durability costs a hand-written loop, and runner ÷
 *    it, what the runner's own machinery costs beyond it. And this process's CPU per payout, each.
 *    Every run meets a sandbox emptied (`POST /_sandbox/reset`) and garbage-collected: the payouts of
 *    earlier runs slowed it down as they piled up (at 10,000 a run, the pool's rate halved over the bench).
 *    A run's fixed cost is the runner's slow start (from 2 requests in flight to 64 takes about five round
 *    trips, ~0.2 s; the pool starts with all of them): ~5 % of a 2,000-payout run, which lasts ~2 s, ~1 %
 *    of this one. BENCH_PAYOUTS_FREE_N=2000 shows it.
 * 3. Memory over 100,000 references streamed from a CSV file, with a file journal and a client that
 *    answers at once (no sandbox: its own state would grow): heap after 10,000, 50,000 and 100,000
 *    references, and the slope (bytes per reference) from 10,000 on. Target: flat.
 *
 * Knobs (env): BENCH_PAYOUTS_RATE (default 100), BENCH_PAYOUTS_N (rate-limited batch, default 2000: about 20 s at 100 requests/s),
 * BENCH_PAYOUTS_FREE_N (no-limit batch, default 10000), BENCH_PAYOUTS_JOURNAL (file, the default, or memory),
 * BENCH_PAYOUTS_INITIAL (the runner's initialConcurrency; default its own, 2), BENCH_PAYOUTS_ROUNDS (default 5), BENCH_PAYOUTS_MEMORY_N (default 100000),
 * BENCH_PAYOUTS_BURST1_RATE (default 40) and BENCH_PAYOUTS_BURST1_N (default 400): the limit with a burst of 1 (target >= 0.8 R),
 * BENCH_PAYOUTS_ONLY (the parts to run, of `limited,burst1,free,memory`; default all).
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import type { QuoteCreateParams } from '../../src/index';
import type { PayoutClient, PayoutInstruction, PayoutRecord } from '../../src/payouts/index';
import type { SandboxFaults } from '../../src/sandbox/index';
import { startChildServer } from './child-server';
import { payoutsLines, type PayoutsResult } from './payouts-figures';
import { loadPayouts, loadSdk } from './dist';
import { instructions, setUpWorld } from '../../test/payouts/world';

// What ships (dist/, as a user's program loads it), never src/ through tsx: tsx keeps every function's
// name with a call made each time a closure is created, a cost the built package does not have.
const { createPayoutBatch, FileJournal, instructionFingerprintV2, MemoryJournal, payoutKey } = await loadPayouts();
const { APIUserAbortError, Crossborder, RateLimitError } = await loadSdk();

const RATE = Number(process.env.BENCH_PAYOUTS_RATE ?? 100);
const N = Number(process.env.BENCH_PAYOUTS_N ?? 2_000);
const FREE_N = Number(process.env.BENCH_PAYOUTS_FREE_N ?? 10_000);
/** The runner's journal in parts 1 and 2: `file` (default, fsynced, as the CLI runs it) or `memory`. */
const JOURNAL = process.env.BENCH_PAYOUTS_JOURNAL === 'memory' ? 'memory' : 'file';
const MEMORY_N = Number(process.env.BENCH_PAYOUTS_MEMORY_N ?? 100_000);
const json = process.argv.includes('--json');

// The sandbox answers from its own process, as the service does from elsewhere: what this process spends
// is the runner's (or the pool's) and the SDK's alone.
const server = await startChildServer('payouts-sandbox.ts');

async function setFaults(faults: SandboxFaults): Promise<void> {
  const res = await fetch(`${server.base}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Basic ${btoa('tok:sk')}` },
    body: JSON.stringify(faults),
  });
  if (!res.ok) throw new Error(`PUT /_sandbox/faults: ${res.status} ${await res.text()}`);
}

/**
 * A sandbox emptied (every run meets the same service: the payouts of earlier runs, tens of thousands,
 * would slow it down as they pile up), a funded account and payees (set up without faults), then
 * `faults` on.
 */
async function world(faults: SandboxFaults) {
  const reset = await fetch(`${server.base}/_sandbox/reset`, { method: 'POST', headers: { authorization: `Basic ${btoa('tok:sk')}` } });
  if (!reset.ok) throw new Error(`POST /_sandbox/reset: ${reset.status} ${await reset.text()}`);
  // The sandbox's garbage of the last run collected now rather than in the middle of this one (this
  // process's is left to V8: a full collection here shrinks its young generation, and every run after it
  // pays more scavenges, the pool as much as the runner).
  if ((await server.send('gc')) !== 'gc done') throw new Error('the sandbox did not collect its garbage');
  await setFaults({});
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', baseUrl: server.base, timeout: 30_000 });
  const w = await setUpWorld(cb, 4);
  await setFaults(faults);
  return { cb, w };
}

const cpuMicros = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return u.user + u.system;
};

interface Rate {
  perSecond: number;
  seconds: number;
  /** 429 answers met, and the rounds they came in (a gap of 200 ms or more starts a round). */
  throttled: { answers: number; rounds: number };
  /** This process's CPU per payout (µs). */
  cpuPerPayout: number;
}

/**
 * Payouts per second until every reference was accepted by the service (processing or final): the run
 * is stopped there (its signal), since what follows is the service settling them.
 */
async function runnerRate(faults: SandboxFaults, prefix: string, n: number, maxConcurrency = 64): Promise<Rate> {
  const { cb, w } = await world(faults);
  const dir = mkdtempSync(join(tmpdir(), 'bench-payouts-'));
  const journal = JOURNAL === 'memory' ? new MemoryJournal() : new FileJournal(join(dir, 'journal'));
  const stop = new AbortController();
  let submittedAt = 0;
  let cpu = 0;
  let accepted = 0;
  const throttled = { answers: 0, rounds: 0 };
  let lastThrottle = -Infinity;
  const list = instructions(w, n, prefix);
  // The end is the n-th quote the service accepted, as for the pool: counted on the client the runner
  // calls (the runner's progress events, every 500 ms by default, stay as a user has them).
  const client: PayoutClient = {
    quotes: {
      create: async (params, options) => {
        let quote: Awaited<ReturnType<typeof cb.quotes.create>>;
        try {
          quote = await cb.quotes.create(params, options as never);
        } catch (error) {
          if (error instanceof RateLimitError) {
            throttled.answers++;
            if (performance.now() - lastThrottle >= 200) throttled.rounds++;
            lastThrottle = performance.now();
          }
          throw error;
        }
        if (++accepted === n) {
          submittedAt = performance.now();
          cpu = cpuMicros(cpu0);
          setImmediate(() => stop.abort());
        }
        return quote;
      },
      execute: (id, options) => cb.quotes.execute(id, options as never),
    },
    transactions: cb.transactions,
    receiver: cb.receiver,
  };
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const batch = createPayoutBatch({
    client,
    batchId: prefix,
    journal,
    maxConcurrency,
    webhooks: true,
    signal: stop.signal,
    ...(process.env.BENCH_PAYOUTS_INITIAL ? { initialConcurrency: Number(process.env.BENCH_PAYOUTS_INITIAL) } : {}),
  });
  await batch.run(list).catch((error: unknown) => {
    if (!(error instanceof APIUserAbortError) || !submittedAt) throw error;
  });
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
  const seconds = (submittedAt - started) / 1000;
  return { perSecond: n / seconds, seconds, cpuPerPayout: cpu / n, throttled };
}

/**
 * A hand-written pool: `concurrency` workers calling quotes.create(immediatelyExecute) in turn. With
 * `journaled`, each call is journaled as the runner journals it (as a hand-written loop that wants to
 * survive a crash must): a file journal, the `submitted` line with the instruction, its fingerprint and
 * keys before the call, the quote's line after. Its workers are twice as many, and `concurrency` bounds
 * the requests in flight (as the runner's slots do: a worker waiting for its lines to reach the disk holds
 * none, else the pool is bound by those waits, not by its CPU). No retries, no adaptive concurrency, no
 * webhooks: runner ÷ that is what the runner's own machinery costs beyond the durability it provides.
 */
async function poolRate(concurrency: number, prefix: string, n: number, journaled = false): Promise<Rate> {
  const { cb, w } = await world({ latency: { ms: 20 } });
  const list = instructions(w, n, prefix);
  const dir = journaled ? mkdtempSync(join(tmpdir(), 'bench-payouts-')) : undefined;
  const journal = dir === undefined ? undefined : new FileJournal(join(dir, 'journal'));
  await journal?.open(prefix);
  let next = 0;
  // The journaled pool's request slots: a counter and the workers waiting for one.
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: journal === undefined ? concurrency : concurrency * 2 }, async () => {
      while (next < list.length) {
        const i = list[next++]!;
        const body: QuoteCreateParams = {
          source: { sourceType: 'ACCOUNT', accountId: w.accountId },
          destination: { destinationType: 'ACCOUNT', accountId: (i.destination as { accountId: string }).accountId },
          lockedCurrencySide: 'RECEIVING',
          lockedCurrencyAmount: i.amount,
          immediatelyExecute: true,
          description: i.reference,
        };
        if (journal === undefined) {
          await cb.quotes.create(body, { idempotencyKey: `${prefix}-${i.reference}` });
          continue;
        }
        const record: PayoutRecord = {
          reference: i.reference,
          state: 'submitted',
          fingerprint: instructionFingerprintV2(i),
          instruction: i,
          keys: { create: payoutKey(prefix, i.reference, 'create'), execute: payoutKey(prefix, i.reference, 'execute') },
          attempts: 1,
          updatedAt: new Date().toISOString(),
        };
        await journal.put(record);
        if (inFlight >= concurrency) await new Promise<void>((granted) => waiting.push(granted));
        else inFlight++;
        const quote = await cb.quotes.create(body, { idempotencyKey: record.keys.create, maxRetries: 0 }).finally(() => {
          const nextOne = waiting.shift();
          if (nextOne) nextOne();
          else inFlight--;
        });
        record.state = 'processing';
        record.quote = {
          quoteId: quote.id,
          sendingAmount: quote.totalSendingAmount,
          sendingCurrency: quote.sendingCurrency?.code,
          receivingAmount: quote.totalReceivingAmount,
          receivingCurrency: quote.receivingCurrency?.code,
          fees: quote.feesIncluded,
          exchangeRate: quote.exchangeRate,
        };
        record.transactionId = quote.transactionId;
        record.transactionStatus = quote.status;
        record.updatedAt = new Date().toISOString();
        await journal.put(record);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuMicros(cpu0);
  await journal?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  return { perSecond: n / seconds, seconds, cpuPerPayout: cpu / n, throttled: { answers: 0, rounds: 0 } };
}

/** Heap (after GC) at 10,000, 50,000 and MEMORY_N references of a CSV streamed through the runner. */
async function memory(): Promise<{ at10k: number; at50k: number; atN: number; perReference: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-payouts-'));
  const csv = join(dir, 'payouts.csv');
  const lines = ['reference,sourceAccountId,destinationAccountId,amount,currency,lockedCurrencySide,description'];
  for (let i = 0; i < MEMORY_N; i++) lines.push(`r${i},InternalAccount:a,ExternalAccount:b,${100 + (i % 1000)},USD,RECEIVING,invoice ${i}`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  let q = 0;
  const client: PayoutClient = {
    quotes: {
      create: async (body) =>
        ({
          id: `Quote:${++q}`,
          status: 'COMPLETED',
          transactionId: `Transaction:${q}`,
          totalSendingAmount: body.lockedCurrencyAmount + 30,
          totalReceivingAmount: body.lockedCurrencyAmount,
          feesIncluded: 30,
          exchangeRate: 1,
          sendingCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
          receivingCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
        }) as never,
      execute: async () => ({}) as never,
    },
    transactions: { retrieve: async () => ({}) as never },
    receiver: { lookupUma: async () => ({}) as never },
  };
  // Exact heap figures need a full GC: exposed here when node was not started with --expose-gc (npm run bench).
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') setFlagsFromString('--expose-gc');
  const gc = (globalThis as { gc?: () => void }).gc ?? (runInNewContext('gc') as () => void);
  const heap = () => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  let at10k = 0;
  let at50k = 0;
  const journal = new FileJournal(join(dir, 'journal'));
  const batch = createPayoutBatch({
    client,
    batchId: 'memory',
    journal,
    maxConcurrency: 32,
    progressIntervalMs: 0,
    onProgress: (p) => {
      if (!at10k && p.done >= 10_000) at10k = heap();
      if (!at50k && p.done >= 50_000) at50k = heap();
    },
  });
  async function* rows(): AsyncGenerator<PayoutInstruction> {
    for await (const r of createReadStream(csv).pipe(parse({ columns: true })) as AsyncIterable<Record<string, string>>) {
      yield {
        reference: r.reference!,
        source: { accountId: r.sourceAccountId! },
        destination: { accountId: r.destinationAccountId! },
        amount: Number(r.amount),
        description: r.description,
      };
    }
  }
  await batch.run(rows());
  const atN = heap();
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
  return { at10k, at50k, atN, perReference: (atN - at10k) / (MEMORY_N - 10_000) };
}

/** Parts to run (`limited`, `burst1`, `free`, `memory`; default all): BENCH_PAYOUTS_ONLY=free,memory. */
const ONLY = new Set((process.env.BENCH_PAYOUTS_ONLY ?? 'limited,burst1,free,memory').split(','));
const limited = ONLY.has('limited')
  ? await runnerRate({ rateLimit: { requestsPerSecond: RATE }, latency: { ms: 20 } }, 'limited', N, 32)
  : { perSecond: Number.NaN, seconds: Number.NaN, cpuPerPayout: Number.NaN, throttled: { answers: 0, rounds: 0 } };
// What the limit allows over that time: RATE per second, plus the bucket's burst (RATE) at the start.
const allowed = (RATE * limited.seconds + RATE) / limited.seconds;
// A limit with a burst of 1 (the bucket holds one request): the runner must pace to R, not fill a burst and halve.
const BURST1_RATE = Number(process.env.BENCH_PAYOUTS_BURST1_RATE ?? 40);
const BURST1_N = Number(process.env.BENCH_PAYOUTS_BURST1_N ?? 400);
const burst1 = ONLY.has('burst1')
  ? await runnerRate({ rateLimit: { requestsPerSecond: BURST1_RATE, burst: 1 }, latency: { ms: 20 } }, 'burst1', BURST1_N, 32)
  : { perSecond: Number.NaN, seconds: Number.NaN, cpuPerPayout: Number.NaN, throttled: { answers: 0, rounds: 0 } };
const burst1Allowed = (BURST1_RATE * burst1.seconds + 1) / burst1.seconds;

// No limit. Warm both up (the JIT, the sandbox's code), find the best fixed concurrency of the pool, then
// alternate runner and best pool in rounds (the machine is shared: each ratio compares neighbours).
const ROUNDS = Number(process.env.BENCH_PAYOUTS_ROUNDS ?? 5);
const latency = { latency: { ms: 20 } };
const pools: [number, number][] = [];
let finalists: number[] = [];
/** Runner ÷ the better of the two finalists in that round (a stricter figure: the larger of two noisy draws). */
const betterOfTwoRatios: number[] = [];
const runnerRates: Rate[] = [];
const bestRates: Rate[] = [];
const bestConcurrency: number[] = [];
/** Each finalist's rate in every round (index = round). */
const finalistRates: Record<number, Rate[]> = {};
/** The journaled pool (same concurrency as the round's best pool): its rates, runner ÷ it, and it ÷ the pool. */
const journaledRates: Rate[] = [];
const journaledRatios: number[] = [];
const journaledOfPool: number[] = [];
if (ONLY.has('free')) {
  await runnerRate(latency, 'warm', FREE_N);
  await poolRate(32, 'warm-pool', FREE_N);
  await poolRate(32, 'warm-journaled', FREE_N, true);
  for (const c of [8, 16, 32, 64]) pools.push([c, (await poolRate(c, `pool${c}`, FREE_N)).perSecond]);
  // The two best of one try each go on to the rounds (one try picks the wrong one on a noisy machine); each
  // round's pool figure is the better of the two there.
  finalists = [...pools]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([c]) => c);
  const poolRound = async (round: number) => {
    const tried: [number, Rate][] = [];
    for (const c of round % 2 === 0 ? finalists : [...finalists].reverse()) {
      const rate = await poolRate(c, `best${c}-${round}`, FREE_N);
      tried.push([c, rate]);
      (finalistRates[c] ??= []).push(rate);
    }
    return tried.reduce((a, b) => (b[1].perSecond > a[1].perSecond ? b : a));
  };
  for (let round = 0; round < ROUNDS; round++) {
    let r: Rate;
    let p: [number, Rate];
    if (round % 2 === 0) {
      r = await runnerRate(latency, `free${round}`, FREE_N);
      p = await poolRound(round);
    } else {
      p = await poolRound(round);
      r = await runnerRate(latency, `free${round}`, FREE_N);
    }
    const j = await poolRate(p[0], `journaled${round}`, FREE_N, true);
    runnerRates.push(r);
    bestRates.push(p[1]);
    bestConcurrency.push(p[0]);
    betterOfTwoRatios.push(r.perSecond / p[1].perSecond);
    journaledRates.push(j);
    journaledRatios.push(r.perSecond / j.perSecond);
    journaledOfPool.push(j.perSecond / p[1].perSecond);
  }
}
server.stop();
const med = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1]! : Number.NaN);
// The best fixed concurrency, as the issue has it: one concurrency for every round, the finalist with the
// higher median rate over the rounds; each round's ratio is the runner's over that pool's in the same round.
// (Taking, round by round, the better of two pools picks the larger of two noisy draws each time, which
// sits above either pool's own rate: kept as a second, stricter figure.)
const finalistMedians: Record<number, number> = Object.fromEntries(finalists.map((c) => [c, med((finalistRates[c] ?? []).map((r) => r.perSecond))]));
const fixed = finalists.length ? finalists.reduce((a, b) => (finalistMedians[b]! > finalistMedians[a]! ? b : a)) : Number.NaN;
const fixedRates = finalistRates[fixed] ?? [];
/** Runner ÷ the pool at that fixed concurrency, round by round. */
const ratios = runnerRates.map((r, round) => r.perSecond / fixedRates[round]!.perSecond);
const free = { perSecond: med(runnerRates.map((r) => r.perSecond)), cpuPerPayout: med(runnerRates.map((r) => r.cpuPerPayout)) };
const bestPool = { perSecond: med(fixedRates.map((r) => r.perSecond)), cpuPerPayout: med(fixedRates.map((r) => r.cpuPerPayout)) };
const journaled = { perSecond: med(journaledRates.map((r) => r.perSecond)), cpuPerPayout: med(journaledRates.map((r) => r.cpuPerPayout)) };
const mem = ONLY.has('memory') ? await memory() : { at10k: Number.NaN, at50k: Number.NaN, atN: Number.NaN, perReference: Number.NaN };

const result: PayoutsResult = {
  rateLimited: {
    rate: RATE,
    payouts: N,
    seconds: limited.seconds,
    payoutsPerSecond: limited.perSecond,
    allowedPerSecond: allowed,
    ratio: limited.perSecond / allowed,
    throttled: limited.throttled,
  },
  rateLimitedBurst1: {
    rate: BURST1_RATE,
    burst: 1,
    payouts: BURST1_N,
    seconds: burst1.seconds,
    payoutsPerSecond: burst1.perSecond,
    allowedPerSecond: burst1Allowed,
    ratio: burst1.perSecond / burst1Allowed,
    throttled: burst1.throttled,
  },
  noLimit: {
    payouts: FREE_N,
    runner: free.perSecond,
    runnerCpuMicros: free.cpuPerPayout,
    pools,
    best: { concurrency: fixed, finalists: finalistMedians, perSecond: bestPool.perSecond, cpuMicros: bestPool.cpuPerPayout },
    ratio: med(ratios),
    ratios,
    betterOfTwo: {
      concurrencies: bestConcurrency,
      perSecond: med(bestRates.map((r) => r.perSecond)),
      ratio: med(betterOfTwoRatios),
      ratios: betterOfTwoRatios,
    },
    journaledPool: {
      perSecond: journaled.perSecond,
      cpuMicros: journaled.cpuPerPayout,
      ofPool: med(journaledOfPool),
      ofPoolByRound: journaledOfPool,
      runnerRatio: med(journaledRatios),
      runnerRatios: journaledRatios,
    },
  },
  memory: { references: MEMORY_N, heapAt10k: mem.at10k, heapAt50k: mem.at50k, heapAtN: mem.atN, bytesPerReference: mem.perReference, gc: true },
  loadAverage: loadavg()[0]!,
  loadAverages: loadavg(),
  cores: cpus().length,
  journal: JOURNAL,
};
if (json) console.log(JSON.stringify(result));
else for (const line of payoutsLines(result)) console.log(line);
