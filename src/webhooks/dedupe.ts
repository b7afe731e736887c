/**
 * Replay and redelivery protection. Deliveries are at-least-once, and the signature covers the
 * body only (no timestamp), so a captured delivery verifies forever: the event `id` and
 * `timestamp` checked here are what make a replay harmless.
 * @module
 */
import { WebhookVerificationError } from '../core/errors';
import { checkMaxAge, MAX_FUTURE_SKEW_MS, parseIsoDateTime } from './time';

/**
 * Where seen event ids are remembered. {@link MemoryDedupeStore} works for one process; with
 * several instances use a shared store, e.g. Redis:
 * `add: async (id, ttlMs) => (await redis.set(`webhook:${id}`, '1', { NX: true, PX: ttlMs })) === 'OK'`.
 */
export interface DedupeStore {
  /** Returns true if newly added, false if already present (and not expired). */
  add(id: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets an id, so a delivery whose handling failed is processed when the service retries it. */
  delete?(id: string): void | Promise<void>;
}

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /** Most ids kept; beyond it the oldest is evicted. Default 10 000. */
  maxEntries?: number;
  /** Clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/**
 * In-process {@link DedupeStore}: a bounded map of id → expiry. Memory stays at `maxEntries` at
 * most; when full the oldest id is dropped, which only weakens protection for that old id.
 */
export class MemoryDedupeStore implements DedupeStore {
  private readonly entries = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  /** @param options size bound and clock. */
  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError(`maxEntries must be an integer ≥ 1, got ${String(options.maxEntries)}`);
    }
  }

  /** Number of ids held (expired ones may still count until swept). */
  get size(): number {
    return this.entries.size;
  }

  /** @returns true if `id` was not present (or had expired) and is now stored for `ttlMs`. */
  add(id: string, ttlMs: number): boolean {
    const now = this.now();
    const expiresAt = this.entries.get(id);
    if (expiresAt !== undefined && expiresAt > now) return false;
    // Delete first so a re-added id moves to the newest end of the insertion order.
    this.entries.delete(id);
    this.entries.set(id, now + ttlMs);
    this.sweep(now);
    return true;
  }

  /** Forgets `id`. */
  delete(id: string): void {
    this.entries.delete(id);
  }

  // Drops expired ids at the old end, then the oldest beyond the bound; amortized O(1) per add.
  private sweep(now: number): void {
    for (const [id, expiresAt] of this.entries) {
      if (expiresAt > now && this.entries.size <= this.maxEntries) break;
      this.entries.delete(id);
    }
  }
}

/** Options of {@link dedupe}. */
export interface DedupeOptions {
  /** Events older than this many milliseconds are reported stale. Default 24 hours. */
  maxAge?: number;
  /** Clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** Outcome of {@link dedupe}. */
export interface DedupeResult {
  /** The id was seen before within its window: acknowledge (2xx) without acting again. */
  duplicate: boolean;
  /** The timestamp is older than `maxAge`: not stored and not to be acted on; log it and reconcile. */
  stale: boolean;
}

const DAY_MS = 24 * 60 * 60_000;
let defaultStore: MemoryDedupeStore | undefined;

/**
 * Records an event id and says whether it was seen before or is too old.
 *
 * The signature has no timestamp, so replay protection comes from here: an id is remembered
 * until its event turns stale, and a stale event is refused by age, so a replay is caught either
 * way. Dedupe by the event `id`, never by the signature (ECDSA signatures are malleable).
 * If handling fails after this call, call `store.delete(event.id)` so the retry is processed.
 * @param event the verified event (its `id` and ISO `timestamp`).
 * @param store where ids are kept. Default: one in-process {@link MemoryDedupeStore} shared by all calls.
 * @param options `maxAge` (default 24 h) and clock.
 * @throws {@link WebhookVerificationError} `invalid_event` if `timestamp` is not an ISO date-time.
 */
export async function dedupe(
  event: { id: string; timestamp: string },
  store?: DedupeStore,
  options: DedupeOptions = {},
): Promise<DedupeResult> {
  const maxAge = options.maxAge ?? DAY_MS;
  checkMaxAge(maxAge);
  const at = parseIsoDateTime(event.timestamp);
  if (at === undefined) {
    throw new WebhookVerificationError('invalid_event', 'the webhook event field "timestamp" must be an ISO 8601 date-time string');
  }
  const now = (options.now ?? Date.now)();
  if (now - at > maxAge) return { duplicate: false, stale: true };
  // Remember the id until the event itself turns stale, plus the skew allowance in case the store's clock differs.
  const ttl = at + maxAge - now + MAX_FUTURE_SKEW_MS;
  const added = await (store ?? (defaultStore ??= new MemoryDedupeStore())).add(event.id, ttl);
  return { duplicate: !added, stale: false };
}
