/**
 * What a batch of payouts meets in production, on demand: a rate limit (429 `RATE_LIMITED` with
 * `Retry-After`), the platform's daily volume limit (429 `DAILY_VOLUME_LIMIT_EXCEEDED`), payouts that
 * fail after `PROCESSING` (the sender refunded), and latency. Off unless configured
 * (`createSandbox({ faults })`, `PUT /_sandbox/faults`, `crossborder-sdk sandbox --faults '{"rateLimit":…}'`).
 *
 * Beside them, the ledger of executions: one entry each time a quote's money starts to move (the
 * quote turned `PROCESSING`), with the Idempotency-Key of the request that moved it and the memo,
 * so that a test can count executions per reference or per key (exactly once: 0 doubled, 0 missing).
 *
 * The hooks are small calls from the core (`admit`), the quote routes (`assertDailyVolume`,
 * `outcomeOverride`, `noteQuoteKey`) and the payment state machine (`recordExecution`).
 * @module
 */
import type { Ctx } from './context';
import { formatMoney } from './currencies';
import { SandboxError } from './errors';
import type { FailureReason } from './magic';
import type { QuoteRec, World } from './state';

/** The faults a sandbox injects; each is off when absent. */
export interface SandboxFaults {
  /**
   * A rate limit over the API (not the `/_sandbox/*` controls): a token bucket of `requestsPerSecond`
   * that holds `burst` tokens (default: one second's worth). A request finding it empty is answered
   * 429 `RATE_LIMITED` with `Retry-After` (whole seconds until a token is back, at least 1) and is
   * not acted upon.
   */
  rateLimit?: { requestsPerSecond: number; burst?: number | undefined } | undefined;
  /**
   * The platform's daily volume limit, per sending currency, in the currency's smallest unit (`{ USD:
   * 1_000_000 }`): an execution that would take the day's executed volume (by the sandbox clock, UTC
   * day) past it is refused with 429 `DAILY_VOLUME_LIMIT_EXCEEDED`, and nothing moves.
   */
  dailyVolumeLimit?: Record<string, number> | undefined;
  /**
   * Payouts that fail after `PROCESSING`: a share `rate` (0 to 1) of the quotes created from now on,
   * chosen by their id (the same ids fail on the same seed), end `FAILED` with `reason` (default
   * `OFFRAMP_FAILED`) at settlement, and the sender is refunded (the transaction's `refund`, completed).
   */
  failAfterProcessing?: { rate: number; reason?: string | undefined } | undefined;
  /** Milliseconds every API request waits before it is handled (`jitterMs` more at most, drawn). */
  latency?: { ms: number; jitterMs?: number | undefined } | undefined;
}

/** One execution in the ledger. */
export interface LedgerExecution {
  quoteId: string;
  transactionId: string;
  /** The Idempotency-Key of the request that executed it (create with `immediatelyExecute`, or execute), if any. */
  idempotencyKey: string | undefined;
  /** The Idempotency-Key the quote was created with, if any. */
  createKey: string | undefined;
  /** The quote's memo (`description`), if any. */
  description: string | undefined;
  amount: number;
  currency: string;
  /** When it executed (sandbox clock, ISO). */
  at: string;
}

interface FaultState {
  faults: SandboxFaults;
  tokens: number;
  refilledAt: number;
  /** Executed volume by `YYYY-MM-DD|currency`. */
  volume: Map<string, number>;
}

interface Ledger {
  executions: LedgerExecution[];
  /** quoteId → the Idempotency-Key it was created with. */
  createKeys: Map<string, string>;
  /** quoteId → the Idempotency-Key of the request now executing it. */
  executeKeys: Map<string, string>;
}

const states = new WeakMap<Ctx, FaultState>();
// Kept per world: `reset()` starts an empty ledger with the empty world.
const ledgers = new WeakMap<World, Ledger>();

const realNow = (): number => performance.now();

/** The problem with a fault configuration, naming the field; undefined when it is valid. */
export function faultsProblem(faults: unknown): string | undefined {
  if (faults === undefined) return undefined;
  if (typeof faults !== 'object' || faults === null || Array.isArray(faults)) return 'faults: expected an object';
  const f = faults as Record<string, unknown>;
  const positive = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;
  const known = new Set(['rateLimit', 'dailyVolumeLimit', 'failAfterProcessing', 'latency']);
  for (const key of Object.keys(f)) if (!known.has(key)) return `faults.${key}: unknown fault (known: ${[...known].join(', ')})`;
  if (f.rateLimit !== undefined) {
    const r = f.rateLimit as Record<string, unknown>;
    if (typeof r !== 'object' || r === null || !positive(r.requestsPerSecond)) return 'faults.rateLimit.requestsPerSecond: expected a number > 0';
    if (r.burst !== undefined && !(positive(r.burst) && (r.burst as number) >= 1)) return 'faults.rateLimit.burst: expected a number >= 1';
  }
  if (f.dailyVolumeLimit !== undefined) {
    const d = f.dailyVolumeLimit as Record<string, unknown>;
    if (typeof d !== 'object' || d === null || Array.isArray(d)) return 'faults.dailyVolumeLimit: expected { CURRENCY: amount }';
    for (const [code, amount] of Object.entries(d)) {
      if (!(typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0)) return `faults.dailyVolumeLimit.${code}: expected a whole amount >= 0`;
    }
  }
  if (f.failAfterProcessing !== undefined) {
    const p = f.failAfterProcessing as Record<string, unknown>;
    if (typeof p !== 'object' || p === null || typeof p.rate !== 'number' || !(p.rate >= 0 && p.rate <= 1))
      return 'faults.failAfterProcessing.rate: expected a number from 0 to 1';
    if (p.reason !== undefined && (typeof p.reason !== 'string' || p.reason === '')) return 'faults.failAfterProcessing.reason: expected a failure reason';
  }
  if (f.latency !== undefined) {
    const l = f.latency as Record<string, unknown>;
    if (typeof l !== 'object' || l === null || typeof l.ms !== 'number' || !(l.ms >= 0 && l.ms <= 60_000)) return 'faults.latency.ms: expected 0 to 60000';
    if (l.jitterMs !== undefined && !(typeof l.jitterMs === 'number' && l.jitterMs >= 0 && l.jitterMs <= 60_000))
      return 'faults.latency.jitterMs: expected 0 to 60000';
  }
  return undefined;
}

/**
 * The faults of a valid configuration as people read them, one phrase per fault (what the `sandbox`
 * command's banner lists): `rate limit 50 requests/s (burst 50)`, `daily volume limit 10,000.00 USD`,
 * `10% of new payouts fail after PROCESSING (OFFRAMP_FAILED)`, `latency 20 ms (+ up to 5 ms)`. Empty
 * when none is on.
 */
export function describeFaults(faults: SandboxFaults): string[] {
  const phrases: string[] = [];
  const { rateLimit, dailyVolumeLimit, failAfterProcessing, latency } = faults;
  if (rateLimit) phrases.push(`rate limit ${rateLimit.requestsPerSecond} requests/s (burst ${rateLimit.burst ?? rateLimit.requestsPerSecond})`);
  const limits = Object.entries(dailyVolumeLimit ?? {});
  if (limits.length > 0) phrases.push(`daily volume limit ${limits.map(([code, amount]) => formatMoney(amount, code)).join(', ')}`);
  if (failAfterProcessing && failAfterProcessing.rate > 0) {
    phrases.push(
      `${Math.round(failAfterProcessing.rate * 10_000) / 100}% of new payouts fail after PROCESSING (${failAfterProcessing.reason ?? 'OFFRAMP_FAILED'})`,
    );
  }
  if (latency && latency.ms + (latency.jitterMs ?? 0) > 0)
    phrases.push(`latency ${latency.ms} ms${latency.jitterMs ? ` (+ up to ${latency.jitterMs} ms)` : ''}`);
  return phrases;
}

/** Sets (replaces) the faults of a sandbox; `{}` turns them all off. @throws Error naming the field. */
export function configureFaults(ctx: Ctx, faults: SandboxFaults = {}): void {
  const problem = faultsProblem(faults);
  if (problem) throw new Error(problem);
  const previous = states.get(ctx);
  const burst = faults.rateLimit ? (faults.rateLimit.burst ?? faults.rateLimit.requestsPerSecond) : 0;
  states.set(ctx, { faults: structuredClone(faults), tokens: burst, refilledAt: realNow(), volume: previous?.volume ?? new Map() });
}

/** The faults now configured (a copy). */
export function currentFaults(ctx: Ctx): SandboxFaults {
  return structuredClone(states.get(ctx)?.faults ?? {});
}

/**
 * Called by the core before an API request is handled: waits the latency, then takes a token of
 * the rate limit or throws its 429.
 */
export async function admit(ctx: Ctx): Promise<void> {
  const state = states.get(ctx);
  if (!state) return;
  const { latency, rateLimit } = state.faults;
  if (latency && latency.ms + (latency.jitterMs ?? 0) > 0) {
    const wait = latency.ms + (latency.jitterMs ? Math.random() * latency.jitterMs : 0);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  if (!rateLimit) return;
  const burst = rateLimit.burst ?? rateLimit.requestsPerSecond;
  const at = realNow();
  state.tokens = Math.min(burst, state.tokens + ((at - state.refilledAt) / 1000) * rateLimit.requestsPerSecond);
  state.refilledAt = at;
  if (state.tokens >= 1) {
    state.tokens -= 1;
    return;
  }
  const seconds = Math.max(1, Math.ceil((1 - state.tokens) / rateLimit.requestsPerSecond));
  throw new SandboxError(
    429,
    'RATE_LIMITED',
    `Too many requests: this sandbox allows ${rateLimit.requestsPerSecond} per second; retry after ${seconds} s.`,
    { limit: rateLimit.requestsPerSecond },
    { 'Retry-After': String(seconds) },
  );
}

function dayKey(ctx: Ctx, currency: string): string {
  return `${new Date(ctx.clock.now()).toISOString().slice(0, 10)}|${currency}`;
}

/** 429 DAILY_VOLUME_LIMIT_EXCEEDED when executing `amount` `currency` now would pass the day's limit. */
export function assertDailyVolume(ctx: Ctx, currency: string, amount: number): void {
  const state = states.get(ctx);
  const limit = state?.faults.dailyVolumeLimit?.[currency];
  if (state === undefined || limit === undefined) return;
  const used = state.volume.get(dayKey(ctx, currency)) ?? 0;
  if (used + amount > limit) {
    const money = (value: number) => formatMoney(value, currency);
    throw new SandboxError(
      429,
      'DAILY_VOLUME_LIMIT_EXCEEDED',
      `${money(amount)} would pass the platform's daily volume limit (${money(used)} of ${money(limit)} used today).`,
      {
        field: 'lockedCurrencyAmount',
        amount,
        currency,
        used,
        limit,
      },
    );
  }
}

/** The outcome a new quote is forced to by `failAfterProcessing`, if it is one of the chosen share. */
export function outcomeOverride(ctx: Ctx, quoteId: string): FailureReason | undefined {
  const fail = states.get(ctx)?.faults.failAfterProcessing;
  if (!fail || fail.rate <= 0) return undefined;
  // FNV-1a of the id: deterministic per id, spread over [0, 1).
  let h = 0x811c9dc5;
  for (let i = 0; i < quoteId.length; i++) h = Math.imul(h ^ quoteId.charCodeAt(i), 0x01000193) >>> 0;
  return h / 2 ** 32 < fail.rate ? ((fail.reason ?? 'OFFRAMP_FAILED') as FailureReason) : undefined;
}

function ledgerOf(world: World): Ledger {
  let ledger = ledgers.get(world);
  if (!ledger) ledgers.set(world, (ledger = { executions: [], createKeys: new Map(), executeKeys: new Map() }));
  return ledger;
}

/** Remembers the Idempotency-Key a quote was made with, and the one of the request executing it. */
export function noteQuoteKey(ctx: Ctx, quoteId: string, step: 'create' | 'execute', key: string | undefined): void {
  if (key === undefined) return;
  const ledger = ledgerOf(ctx.world);
  (step === 'create' ? ledger.createKeys : ledger.executeKeys).set(quoteId, key);
}

/** Called when a quote's money starts to move: the ledger entry, and the day's volume. */
export function recordExecution(ctx: Ctx, quote: QuoteRec): void {
  const ledger = ledgerOf(ctx.world);
  const createKey = ledger.createKeys.get(quote.data.id);
  const executeKey = ledger.executeKeys.get(quote.data.id);
  const tx = ctx.world.transactions.get(quote.data.transactionId);
  ledger.executions.push({
    quoteId: quote.data.id,
    transactionId: quote.data.transactionId,
    idempotencyKey: executeKey ?? createKey,
    createKey,
    description: tx?.data.description,
    amount: quote.data.totalSendingAmount,
    currency: sandboxCurrency(quote.data.sendingCurrency),
    at: new Date(ctx.clock.now()).toISOString(),
  });
  const state = states.get(ctx);
  if (state) {
    const key = dayKey(ctx, sandboxCurrency(quote.data.sendingCurrency));
    state.volume.set(key, (state.volume.get(key) ?? 0) + quote.data.totalSendingAmount);
  }
}

/** The executions so far (oldest first), in the current world. */
export function ledgerExecutions(ctx: Ctx): readonly LedgerExecution[] {
  return ledgerOf(ctx.world).executions;
}

/** The code of a currency the sandbox made itself (its quotes always carry one; the API's type lets production omit it). */
export function sandboxCurrency(currency: { code?: string | undefined }): string {
  if (currency.code === undefined) throw new Error('sandbox: a quote of its own without a currency code');
  return currency.code;
}
