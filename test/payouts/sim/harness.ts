/**
 * Deterministic simulation of payout batches (issue 47 §8), in the spirit of FoundationDB's and
 * TigerBeetle's: the real runner (`createPayoutBatch`, through its public API) against a simulated
 * service, a simulated journal (a disk with durable and not-yet-durable writes) and a simulated clock
 * (vitest's fake timers, `Date` and `performance` included), everything driven by one seed.
 *
 * **Replaying a failure.** Every case has a name that holds all it depends on, printed with the failure
 * together with the command that replays it, e.g.
 *
 *     SIM_CASE='{"seed":1234,"n":100,…}' SIM_TRACE=1 npx vitest run test/payouts/sim/replay.test.ts
 *
 * The same case gives the same run, effect for effect: the runner's randomness (`Math.random`) comes
 * from a stream of the seed, the simulation's choices from another, and time moves only when the
 * driver fires the next fake timer. `SIM_TRACE=1` prints the effect log (each journal write, request
 * sent and answer received, numbered: the numbers are the crash points).
 *
 * **Effects and crashes.** The effects of a run are counted: journal puts, requests sent, answers
 * received. A crash at effect k freezes the process there: the k-th effect and every later call of that
 * process return promises that never settle (a request already on its way still reaches the service:
 * the network does not die with the client). The writes not yet durable are lost or land (a prefix of
 * them, in order, as an append-only file would keep them; the one crashed in lands or not by the
 * case's `land` choice). Then a NEW batch is started on the durable journal, optionally after the clock
 * jumped past the service's Idempotency-Key window, and run to its end.
 *
 * **Invariants after every effect:** no reference executed twice (each reference pays a destination of
 * its own, so the service counts executions per reference without trusting the runner); no journaled
 * record goes back from a final state. **At the end:** every reference final (`needs_attention` with a
 * reason), and nothing the journal says contradicts the service (completed ⇒ executed once and
 * completed there; failed ⇒ not completed there).
 * @module
 */
import { vi } from 'vitest';
import { APIConnectionError, ConflictError, InternalServerError, NotFoundError, RateLimitError } from '../../../src/index';
import {
  createPayoutBatch,
  FINAL_STATES,
  PAYOUT_STATES,
  PayoutJournalError,
  payoutProcessor,
  type PayoutBatch,
  type PayoutBatchOptions,
  type PayoutClient,
  type PayoutInstruction,
  type PayoutJournal,
  type PayoutRecord,
  type PayoutSummary,
} from '../../../src/payouts/index';

// ---------------------------------------------------------------- randomness

/** A seeded generator (mulberry32): the same seed, the same numbers in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** The real `setImmediate`, taken before any fake timers: a turn of the real event loop. */
const realSetImmediate = globalThis.setImmediate;

/** The service's Idempotency-Key replay window. */
export const KEY_WINDOW_MS = 24 * 3_600_000;

/** The longest a request and its answer spend on the wire together (each leg 1–40 ms). */
const MAX_WIRE_MS = 82;

// ---------------------------------------------------------------- the case

/** What happens to one request: answered, lost before the service acts, lost after it acted, or refused. */
export type Fate = 'ok' | 'lostBefore' | 'lostAfter' | 'throttled' | 'unavailable';

/** Everything a simulated run depends on (JSON: it is the replay's name). */
export interface SimCase {
  seed: number;
  /** Payouts in the batch (references `p000`, …, each to a destination of its own). */
  n: number;
  /**
   * Fates of the first writes (quotes.create / quotes.execute), in the order the service gets them, over
   * all processes; the writes after them, and every read, draw from `faults`.
   */
  writes?: Fate[] | undefined;
  /** Effects (1-based, counted over all processes) at which the process then running dies. */
  crashAt?: number[] | undefined;
  /** Whether the journal write a crash happens in lands (default: drawn from the seed). */
  land?: boolean | undefined;
  /** Ms the clock jumps after each crash (e.g. past the key window), before the next process starts. */
  jumpMs?: number | undefined;
  /** Probabilities per request (from the seed otherwise zero). */
  faults?:
    (Partial<Record<Exclude<Fate, 'ok'>, number>> & { syncFails?: number; lateFailure?: number; webhookTwice?: number; webhookLost?: number }) | undefined;
  webhooks?: boolean | undefined;
  execution?: 'immediate' | 'separate' | undefined;
  maxConcurrency?: number | undefined;
  /** Ms a transaction takes to end (default: 0–20 s from the seed). */
  settleMs?: number | undefined;
  /** Whether a transaction is `PENDING` for the first half of its time, then `PROCESSING` (a status that changes before the final one). */
  pendingFirst?: boolean | undefined;
  /** Every how-many-th reference pays an UMA address (looked up first) instead of an account (default none). */
  umaEvery?: number | undefined;
  /** Extra runner options (JSON-able), e.g. `keyWindowMs` once it exists. */
  options?: Record<string, unknown> | undefined;
  /**
   * Which driver runs the batch: `batch` (default, `createPayoutBatch`) or `bullmq` (`payoutProcessor`,
   * one job per instruction, `maxConcurrency` jobs at a time, as a BullMQ worker runs them; a job that
   * throws ends the process, and the next one runs every job again, as BullMQ retries them). The
   * processor takes no webhooks: with it, `webhooks` stays false.
   */
  driver?: 'batch' | 'bullmq' | undefined;
}

/** What a test adds to a simulation that is not part of its case (not JSON): options per process, and an observer of every effect. */
export interface SimHooks {
  /** More options for the batch (or processor) of `proc`. */
  options?: ((proc: Process) => Record<string | symbol, unknown>) | undefined;
  /** Hears every effect as it happens (`what`: as the trace writes it), before a crash there. */
  effect?: ((proc: Process, what: string, world: World) => void) | undefined;
}

export const caseName = (c: SimCase): string => JSON.stringify(c);
export const replayCommand = (c: SimCase): string => `SIM_CASE='${caseName(c)}' SIM_TRACE=1 npx vitest run test/payouts/sim/replay.test.ts`;

// ---------------------------------------------------------------- processes and effects

/** One run of the program (a process): it dies at a crash, and everything it calls then freezes. */
export class Process {
  alive = true;
  constructor(readonly id: number) {}
}

/** What went wrong, found while the simulation ran or at its end. */
export class SimFailure extends Error {
  override name = 'SimFailure';
}

export class World {
  readonly random: () => number;
  readonly log: string[] = [];
  effects = 0;
  readonly violations: string[] = [];
  readonly service: SimService;
  readonly disk = new SimDisk();
  /** The batch of the process now running (webhooks go to it). */
  batch: PayoutBatch | undefined;
  process: Process = new Process(0);
  readonly #crashAt: Set<number>;
  /** Journals of the processes, to settle the writes a crash leaves in flight. */
  readonly journals = new Map<Process, SimJournal>();
  #lastCrashLand: boolean | undefined;

  constructor(
    readonly c: SimCase,
    readonly hooks: SimHooks = {},
  ) {
    this.random = rng(c.seed ^ 0x5eed);
    this.#crashAt = new Set(c.crashAt ?? []);
    this.service = new SimService(this);
  }

  /** Counts an effect of `proc`: false when the caller must freeze (its process is dead, or dies here). */
  step(proc: Process, what: string): boolean {
    if (!proc.alive) return false;
    this.hooks.effect?.(proc, what, this);
    this.effects++;
    this.log.push(`${this.effects} p${proc.id} ${what} @${Date.now() - START}`);
    if (this.#crashAt.has(this.effects)) {
      this.log.push(`   crash of p${proc.id}`);
      this.crash(proc, this.c.land ?? this.random() < 0.5);
      return false;
    }
    this.check(`after effect ${this.effects} (${what})`);
    return true;
  }

  /** The process dies: its journal's writes not yet durable land (a prefix) or not. */
  crash(proc: Process, landCurrent: boolean): void {
    if (!proc.alive) return;
    proc.alive = false;
    this.#lastCrashLand = landCurrent;
    this.journals.get(proc)?.die(landCurrent);
  }

  get lastCrashLand(): boolean | undefined {
    return this.#lastCrashLand;
  }

  /** The invariants that hold after every step. */
  check(when: string): void {
    for (const [destination, n] of this.service.executions) {
      if (n > 1) this.violate(`${destination} executed ${n} times, ${when}`);
    }
  }

  violate(message: string): void {
    if (!this.violations.includes(message)) this.violations.push(message);
  }
}

const START = Date.UTC(2026, 10, 30, 9, 0, 0);

// ---------------------------------------------------------------- the service

interface SimTransaction {
  id: string;
  quoteId: string;
  destination: string;
  amount: number;
  description: string | undefined;
  createdAt: number;
  finalAt: number;
  finalStatus: 'COMPLETED' | 'FAILED';
}

interface SimQuote {
  id: string;
  status: string;
  destination: string;
  amount: number;
  description: string | undefined;
  transactionId?: string | undefined;
}

type Stored = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The service: quotes, transactions, Idempotency-Keys with a window, faults, webhooks. */
export class SimService {
  readonly keys = new Map<string, { at: number; body: string; result: Stored }>();
  readonly quotes = new Map<string, SimQuote>();
  readonly transactions = new Map<string, SimTransaction>();
  /** Executions per destination (one destination per reference). */
  readonly executions = new Map<string, number>();
  #writes = 0;
  #ids = 0;

  constructor(readonly world: World) {}

  #fate(write: boolean): Fate {
    const c = this.world.c;
    if (write) {
      const i = this.#writes++;
      const scripted = c.writes?.[i];
      if (scripted !== undefined) return scripted;
    }
    const f = c.faults ?? {};
    const r = this.world.random();
    let acc = 0;
    for (const fate of ['lostBefore', 'lostAfter', 'throttled', 'unavailable'] as const) {
      acc += f[fate] ?? 0;
      if (r < acc) return fate;
    }
    return 'ok';
  }

  #latency(): number {
    return 1 + Math.floor(this.world.random() * (MAX_WIRE_MS / 2 - 1));
  }

  /** One request of `proc`: sent (an effect), carried, acted on (or not), answered (an effect). */
  async #call<T>(proc: Process, what: string, write: boolean, key: string | undefined, body: string, act: () => T): Promise<T> {
    if (!this.world.step(proc, `send ${what}`)) return never();
    const fate = this.#fate(write);
    await new Promise((resolve) => setTimeout(resolve, this.#latency()));
    let result: Stored | undefined;
    if (fate === 'ok' || fate === 'lostAfter') {
      try {
        result = { ok: true, value: this.#idempotent(key, body, act) };
      } catch (error) {
        result = { ok: false, error };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, this.#latency()));
    if (!this.world.step(proc, `answer ${what}: ${fate === 'ok' ? (result!.ok ? 'ok' : (result as { error: Error }).error.message.slice(0, 40)) : fate}`))
      return never();
    switch (fate) {
      case 'throttled':
        throw new RateLimitError({
          status: 429,
          code: 'RATE_LIMITED',
          message: 'Too many requests (simulated)',
          retryAfter: 1_000,
          headers: { 'retry-after': '1' },
          idempotencyKey: key,
        });
      case 'unavailable':
        throw new InternalServerError({
          status: 503,
          code: 'SERVICE_UNAVAILABLE',
          message: 'Unavailable (simulated, before acting)',
          retryAfter: 1_000,
          idempotencyKey: key,
          outcomeUnknown: write,
        });
      case 'lostBefore':
      case 'lostAfter':
        throw new APIConnectionError(`Connection lost (simulated, ${fate === 'lostBefore' ? 'before' : 'after'} the service acted)`, {
          outcomeUnknown: true,
          idempotencyKey: key,
        });
      default:
        if (!result!.ok) throw result!.error;
        return structuredClone(result!.value) as T;
    }
  }

  /** A key known within its window: its first answer again (another body: 409); else act and keep the answer. */
  #idempotent<T>(key: string | undefined, body: string, act: () => T): T {
    if (key === undefined) return act();
    const now = Date.now();
    const known = this.keys.get(key);
    if (known && now - known.at < KEY_WINDOW_MS) {
      if (known.body !== body) {
        throw new ConflictError({
          status: 409,
          code: 'IDEMPOTENCY_KEY_REUSED',
          message: 'This Idempotency-Key was used with another body.',
          idempotencyKey: key,
        });
      }
      if (!known.result.ok) throw known.result.error;
      return structuredClone(known.result.value) as T;
    }
    let result: Stored;
    try {
      result = { ok: true, value: structuredClone(act()) };
    } catch (error) {
      result = { ok: false, error };
    }
    this.keys.set(key, { at: now, body, result }); // forgotten after the window: a replay then acts again
    if (!result.ok) throw result.error;
    return structuredClone(result.value) as T;
  }

  #statusOf(t: SimTransaction): string {
    const now = Date.now();
    if (now >= t.finalAt) return t.finalStatus;
    return this.world.c.pendingFirst && now < (t.createdAt + t.finalAt) / 2 ? 'PENDING' : 'PROCESSING';
  }

  #quoteAnswer(q: SimQuote): unknown {
    const t = q.transactionId ? this.transactions.get(q.transactionId) : undefined;
    const status = t ? this.#statusOf(t) : q.status;
    return {
      id: q.id,
      status,
      transactionId: q.transactionId,
      totalSendingAmount: q.amount + 1,
      totalReceivingAmount: q.amount,
      sendingCurrency: { code: 'USD' },
      receivingCurrency: { code: 'USD' },
      feesIncluded: 1,
      exchangeRate: 1,
      ...(q.description !== undefined ? { description: q.description } : {}),
    };
  }

  #execute(q: SimQuote): void {
    if (q.status !== 'PENDING') throw new ConflictError({ status: 409, code: 'INVALID_STATE_TRANSITION', message: `Quote ${q.id} is ${q.status}.` });
    const c = this.world.c;
    const now = Date.now();
    const id = `Transaction:${++this.#ids}`;
    const settle = c.settleMs ?? Math.floor(this.world.random() * 20_000);
    const t: SimTransaction = {
      id,
      quoteId: q.id,
      destination: q.destination,
      amount: q.amount,
      description: q.description,
      createdAt: now,
      finalAt: now + settle,
      finalStatus: this.world.random() < (c.faults?.lateFailure ?? 0) ? 'FAILED' : 'COMPLETED',
    };
    this.transactions.set(id, t);
    q.status = 'PROCESSING';
    q.transactionId = id;
    this.executions.set(q.destination, (this.executions.get(q.destination) ?? 0) + 1);
    this.world.log.push(`   executed ${q.destination} as ${id} (${t.finalStatus} at +${settle} ms)`);
    this.world.check(`at the execution of ${q.destination}`);
    if (c.webhooks) this.#webhooks(t);
  }

  /** The final event after the transaction ends, perhaps twice, and a stale PROCESSING one after it. */
  #webhooks(t: SimTransaction): void {
    const f = this.world.c.faults ?? {};
    const deliver = (status: string, failureReason?: string) => {
      this.world.batch?.onWebhookEvent({ type: `OUTGOING_PAYMENT.${status}`, data: { id: t.id, status, ...(failureReason ? { failureReason } : {}) } });
    };
    const final = t.finalStatus;
    const reason = final === 'FAILED' ? 'BENEFICIARY_BANK_REJECTED' : undefined;
    if (this.world.random() >= (f.webhookLost ?? 0)) {
      setTimeout(() => deliver(final, reason), t.finalAt - Date.now() + Math.floor(this.world.random() * 5_000));
      if (this.world.random() < (f.webhookTwice ?? 0))
        setTimeout(() => deliver(final, reason), t.finalAt - Date.now() + Math.floor(this.world.random() * 60_000));
    }
    // Out of order: a PROCESSING event that arrives after the final one.
    setTimeout(() => deliver('PROCESSING'), t.finalAt - Date.now() + 5_000 + Math.floor(this.world.random() * 5_000));
  }

  /** The client a process uses. */
  clientFor(proc: Process): PayoutClient {
    const service = this;
    return {
      quotes: {
        create(params, options) {
          const p = params as unknown as Record<string, unknown>;
          const destination =
            (p.destination as { accountId?: string; umaAddress?: string }).accountId ?? (p.destination as { umaAddress?: string }).umaAddress ?? '?';
          return service.#call(proc, `quotes.create ${destination}`, true, options?.idempotencyKey, JSON.stringify(params), () => {
            const q: SimQuote = {
              id: `Quote:${++service.#ids}`,
              status: 'PENDING',
              destination,
              amount: Number(p.lockedCurrencyAmount),
              description: p.description as string | undefined,
            };
            service.quotes.set(q.id, q);
            if (p.immediatelyExecute === true) service.#execute(q);
            return service.#quoteAnswer(q);
          }) as never;
        },
        execute(quoteId, options) {
          return service.#call(proc, `quotes.execute ${quoteId}`, true, options?.idempotencyKey, quoteId, () => {
            const q = service.quotes.get(quoteId);
            if (!q) throw new NotFoundError({ status: 404, code: 'NOT_FOUND', message: `No quote ${quoteId}.` });
            service.#execute(q);
            return service.#quoteAnswer(q);
          }) as never;
        },
      },
      transactions: {
        retrieve(id) {
          return service.#call(proc, `transactions.retrieve ${id}`, false, undefined, id, () => {
            const t = service.transactions.get(id);
            if (!t) throw new NotFoundError({ status: 404, code: 'NOT_FOUND', message: `No transaction ${id}.` });
            return service.#transaction(t);
          }) as never;
        },
        list(params) {
          return service.#call(proc, `transactions.list ${JSON.stringify(params)}`, false, undefined, '', () => service.#list({ ...params })) as never;
        },
      },
      receiver: {
        lookupUma(address) {
          return service.#call(proc, `receiver.lookupUma ${address}`, false, undefined, address, () => ({ lookupId: `Lookup:${address}` })) as never;
        },
      },
    };
  }

  #transaction(t: SimTransaction): unknown {
    const status = this.#statusOf(t);
    return {
      id: t.id,
      status,
      type: 'OUTGOING',
      quoteId: t.quoteId,
      destination: { destinationType: 'ACCOUNT', accountId: t.destination },
      receivedAmount: { amount: t.amount, currency: { code: 'USD' } },
      createdAt: new Date(t.createdAt).toISOString(),
      updatedAt: new Date(Math.min(Date.now(), t.finalAt)).toISOString(),
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(status === 'FAILED' ? { failureReason: 'BENEFICIARY_BANK_REJECTED' } : {}),
    };
  }

  /** `GET /transactions`: outgoing ones by creation, filtered by dates and status, a page at a time. */
  #list(params: Record<string, unknown>): { data: unknown[]; hasMore: boolean; nextCursor?: string } {
    const start = typeof params.startDate === 'string' ? Date.parse(params.startDate) : -Infinity;
    const end = typeof params.endDate === 'string' ? Date.parse(params.endDate) : Infinity;
    const all = [...this.transactions.values()].filter(
      (t) =>
        t.createdAt >= start &&
        t.createdAt <= end &&
        (params.type === undefined || params.type === 'OUTGOING') &&
        (params.status === undefined || this.#statusOf(t) === params.status),
    );
    const from = typeof params.cursor === 'string' ? Number(params.cursor) : 0;
    const limit = typeof params.limit === 'number' ? params.limit : 20;
    const page = all.slice(from, from + limit).map((t) => this.#transaction(t));
    const hasMore = from + limit < all.length;
    return { data: page, hasMore, ...(hasMore ? { nextCursor: String(from + limit) } : {}) };
  }
}

// ---------------------------------------------------------------- the disk and the journal

/** What survives a crash: the durable records, and the batch the journal belongs to. */
export class SimDisk {
  batchId: string | undefined;
  readonly durable = new Map<string, string>();
}

/** A journal on the simulated disk, for one process: writes are visible at once, durable a little later. */
export class SimJournal implements PayoutJournal {
  /** This process's view: the disk's records when it opened, and its own writes since. */
  readonly #view = new Map<string, string>();
  /** Writes not yet durable, in order. */
  #unsynced: { reference: string; json: string }[] = [];
  #opened = false;

  constructor(
    readonly world: World,
    readonly proc: Process,
  ) {
    world.journals.set(proc, this);
  }

  async open(batchId: string): Promise<Iterable<PayoutRecord>> {
    const disk = this.world.disk;
    if (disk.batchId !== undefined && disk.batchId !== batchId)
      throw new PayoutJournalError('other_batch', `This journal holds batch ${disk.batchId}, not ${batchId}.`);
    disk.batchId = batchId;
    for (const [reference, json] of disk.durable) this.#view.set(reference, json);
    this.#opened = true;
    return [...this.#view.values()].map((json) => JSON.parse(json) as PayoutRecord);
  }

  async get(reference: string): Promise<PayoutRecord | undefined> {
    if (!this.proc.alive) return never();
    const json = this.#view.get(reference);
    return json === undefined ? undefined : (JSON.parse(json) as PayoutRecord);
  }

  async put(record: PayoutRecord): Promise<void> {
    if (!this.#opened) throw new PayoutJournalError('closed', 'put before open');
    const json = JSON.stringify(record);
    const before = this.#view.get(record.reference);
    if (before !== undefined) {
      const was = (JSON.parse(before) as PayoutRecord).state;
      if (FINAL_STATES.has(was) && was !== record.state)
        this.world.violate(`${record.reference} went back from ${was} to ${record.state} (journal write ${this.world.effects + 1})`);
    }
    const entry = { reference: record.reference, json };
    this.#unsynced.push(entry);
    if (!this.world.step(this.proc, `put ${record.reference} ${record.state}`)) return never(); // die() settled it
    this.#view.set(record.reference, json);
    // The write is in the file; its sync takes a moment (another effect may crash the process meanwhile).
    const syncMs = Math.floor(this.world.random() * 3);
    const fails = this.world.random() < (this.world.c.faults?.syncFails ?? 0);
    if (syncMs > 0) await new Promise((resolve) => setTimeout(resolve, syncMs));
    if (!this.proc.alive) return never();
    const at = this.#unsynced.indexOf(entry);
    if (fails) {
      // An fsync error: the data may or may not be on disk; this process cannot go on (the run fails).
      const lands = this.world.random() < 0.5;
      this.#sync(lands ? at + 1 : at);
      this.world.log.push(`   sync of ${record.reference} ${record.state} failed (${lands ? 'landed' : 'lost'})`);
      throw Object.assign(new Error('EIO: i/o error, fdatasync (simulated)'), { code: 'EIO' });
    }
    this.#sync(at + 1);
  }

  /** The first `count` unsynced writes become durable (an append-only file keeps a prefix). */
  #sync(count: number): void {
    for (const w of this.#unsynced.slice(0, count)) this.world.disk.durable.set(w.reference, w.json);
    this.#unsynced = this.#unsynced.slice(count);
  }

  /** The process died: the write it died in lands or not, and so does a prefix of the others before it. */
  die(landCurrent: boolean): void {
    const n = this.#unsynced.length;
    if (n === 0) return;
    // The last one is the write being made when the crash came (if the crash was in a put), or one in sync.
    const keep = landCurrent ? n : Math.floor(this.world.random() * n);
    this.#sync(keep);
    this.#unsynced = [];
  }

  async close(): Promise<void> {}
}

// ---------------------------------------------------------------- the driver

export interface SimResult {
  c: SimCase;
  effects: number;
  processes: number;
  summary: PayoutSummary | undefined;
  /** Durable records, by reference. */
  records: Map<string, PayoutRecord>;
  log: string[];
  /** Everything found wrong (empty: the case passed). */
  problems: string[];
  executions: Map<string, number>;
}

/** The instructions of a case: one destination per reference (an account, or every `umaEvery`-th an UMA address). */
export function simInstructions(n: number, umaEvery?: number): PayoutInstruction[] {
  return Array.from({ length: n }, (_, i) => {
    const reference = `p${String(i).padStart(3, '0')}`;
    const destination = umaEvery && i % umaEvery === umaEvery - 1 ? { umaAddress: `$${reference}@sim.test` } : { accountId: `ExternalAccount:${reference}` };
    return { reference, source: { accountId: 'InternalAccount:sim' }, destination, amount: 1_000 + i };
  });
}

/** Where an instruction pays (the service counts executions by it). */
export const destinationOf = (i: PayoutInstruction): string => ('umaAddress' in i.destination ? i.destination.umaAddress : i.destination.accountId);

const MAX_STEPS = 200_000;
const MAX_PROCESSES = 12;

/**
 * Runs a case to its end: the batch, its crashes, a new process after each on the durable journal,
 * until one run resolves. Fake timers are installed for the run and removed after it.
 */
export async function simulate(c: SimCase, hooks: SimHooks = {}): Promise<SimResult> {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date', 'performance'],
    now: START,
  });
  const runnerRandom = rng(c.seed);
  const spy = vi.spyOn(Math, 'random').mockImplementation(runnerRandom);
  const world = new World(c, hooks);
  const list = simInstructions(c.n, c.umaEvery);
  const problems: string[] = [];
  let summary: PayoutSummary | undefined;
  let processes = 0;
  try {
    for (;;) {
      processes++;
      if (processes > MAX_PROCESSES) {
        problems.push(`more than ${MAX_PROCESSES} processes: the batch never finishes`);
        break;
      }
      const proc = new Process(processes);
      world.process = proc;
      const journal = new SimJournal(world, proc);
      const options: PayoutBatchOptions = {
        client: world.service.clientFor(proc),
        batchId: 'sim-batch',
        journal,
        maxConcurrency: c.maxConcurrency ?? 4,
        webhooks: c.webhooks ?? false,
        execution: c.execution ?? 'immediate',
        ...(c.options as Partial<PayoutBatchOptions> | undefined),
        ...hooks.options?.(proc),
      };
      const batch = c.driver === 'bullmq' ? processorBatch(options) : createPayoutBatch(options);
      world.batch = batch;
      world.log.push(`-- process ${proc.id} starts at +${Date.now() - START} ms`);
      let outcome: { ok: true; summary: PayoutSummary } | { ok: false; error: unknown } | undefined;
      void batch.run(list).then(
        (s) => (outcome = { ok: true, summary: s }),
        (error: unknown) => (outcome = { ok: false, error }),
      );
      let steps = 0;
      for (; outcome === undefined && proc.alive && world.violations.length === 0; steps++) {
        if (steps > MAX_STEPS) break;
        if (vi.getTimerCount() === 0) {
          // Nothing scheduled: let every promise chain settle (a turn of the real event loop runs only once
          // the microtasks are drained); a run still waiting after that, with no timer, waits forever.
          for (let i = 0; i < 3 && outcome === undefined && proc.alive && vi.getTimerCount() === 0; i++)
            await new Promise((resolve) => realSetImmediate(resolve));
          if (outcome === undefined && proc.alive && vi.getTimerCount() === 0) break;
          continue;
        }
        await vi.advanceTimersToNextTimerAsync();
      }
      if (world.violations.length > 0) break;
      if (outcome === undefined && proc.alive) {
        problems.push(`process ${proc.id}'s run neither ended nor crashed (${steps} timer steps, ${vi.getTimerCount()} timers left): it hangs`);
        break;
      }
      if (outcome?.ok) {
        summary = outcome.summary;
        break;
      }
      if (outcome && !outcome.ok) {
        // The run failed (an fsync error, say): the process exits, as the CLI does.
        world.log.push(`   run of p${proc.id} failed: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`);
        world.crash(proc, false);
        if (!(outcome.error instanceof Error && /EIO/.test(outcome.error.message))) problems.push(`run of process ${proc.id} failed: ${String(outcome.error)}`);
      }
      if (c.jumpMs) {
        // Requests the dead process left on the wire reach the service (or not) within their latency,
        // not after the jump: a request is not delayed by a day. Only then does the clock jump.
        await vi.advanceTimersByTimeAsync(MAX_WIRE_MS);
        vi.setSystemTime(Date.now() + c.jumpMs);
        world.log.push(`   the clock jumps ${c.jumpMs} ms`);
      }
    }
    problems.push(...world.violations);
    const records = new Map([...world.disk.durable].map(([reference, json]) => [reference, JSON.parse(json) as PayoutRecord]));
    if (problems.length === 0) problems.push(...finalProblems(world, list, records));
    return { c, effects: world.effects, processes, summary, records, log: world.log, problems, executions: world.service.executions };
  } finally {
    spy.mockRestore();
    vi.clearAllTimers();
    vi.useRealTimers();
  }
}

/**
 * The BullMQ processor as a batch: one job per instruction, `maxConcurrency` at a time (a worker's
 * concurrency), each through {@link payoutProcessor} on the process's journal. A job that throws fails
 * the run (the process ends; the next one runs every job again). It hears no webhooks.
 */
function processorBatch(options: PayoutBatchOptions): PayoutBatch {
  const { batchId, onProgress: _p, expectedTotal: _e, webhooks: _w, ...rest } = options;
  const processor = payoutProcessor({ ...rest, webhooks: false });
  return {
    batchId,
    onWebhookEvent: () => false,
    progress: () => {
      throw new Error('the processor reports no progress');
    },
    async run(instructions) {
      const jobs = [...(instructions as Iterable<PayoutInstruction>)];
      const counts = Object.fromEntries(PAYOUT_STATES.map((s) => [s, 0])) as PayoutSummary['counts'];
      let next = 0;
      const worker = async () => {
        while (next < jobs.length) {
          const instruction = jobs[next++]!;
          const result = await processor({ data: { batchId, instruction } });
          counts[result.state]++;
        }
      };
      await Promise.all(Array.from({ length: options.maxConcurrency ?? 4 }, worker));
      return { batchId, counts, total: jobs.length, failed: [], needsAttention: [], rejected: [], seconds: 0 };
    },
  };
}

/** What must hold once a run resolved: every reference final, and nothing that contradicts the service. */
function finalProblems(world: World, list: PayoutInstruction[], records: Map<string, PayoutRecord>): string[] {
  const problems: string[] = [];
  const service = world.service;
  for (const instruction of list) {
    const reference = instruction.reference;
    const r = records.get(reference);
    const dest = destinationOf(instruction);
    const executed = service.executions.get(dest) ?? 0;
    const tx = [...service.transactions.values()].find((t) => t.destination === dest);
    if (!r) {
      problems.push(`${reference}: no journaled record`);
      continue;
    }
    if (!FINAL_STATES.has(r.state)) problems.push(`${reference}: ends ${r.state}, not final`);
    if (r.state === 'needs_attention' && !(r.lastError?.message ?? r.failureReason)) problems.push(`${reference}: needs_attention without a reason`);
    if (r.state === 'completed') {
      if (executed !== 1) problems.push(`${reference}: completed, but executed ${executed} times`);
      else if (tx && tx.finalStatus !== 'COMPLETED') problems.push(`${reference}: completed, but its transaction ${tx.id} ended ${tx.finalStatus}`);
      else if (tx && r.transactionId !== tx.id)
        problems.push(`${reference}: completed with transaction ${r.transactionId}, but the service paid it as ${tx.id}`);
    }
    if (r.state === 'failed' && tx && tx.finalStatus === 'COMPLETED') problems.push(`${reference}: failed, but the service paid it (${tx.id} COMPLETED)`);
  }
  return problems;
}

/** A case's failure message: the problems, the replay command, and the end of the trace. */
export function explain(result: SimResult, traceLines = 60): string {
  const trace = process.env.SIM_TRACE === '1' ? result.log : result.log.slice(-traceLines);
  return [
    `simulation case failed: ${result.problems.join('; ')}`,
    `replay: ${replayCommand(result.c)}`,
    `effects: ${result.effects}, processes: ${result.processes}`,
    `trace (${process.env.SIM_TRACE === '1' ? 'whole' : `last ${traceLines} lines`}):`,
    ...trace.map((l) => `  ${l}`),
  ].join('\n');
}
