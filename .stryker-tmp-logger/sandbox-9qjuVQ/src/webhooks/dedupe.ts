/**
 * Replay and redelivery protection. Deliveries are at-least-once, and the signature covers the
 * body only (no timestamp), so a captured delivery verifies forever: the event `id` and
 * `timestamp` checked here are what make a replay harmless.
 * @module
 */
// @ts-nocheck

import { checkMaxAge, MAX_FUTURE_SKEW_MS, parseIsoDateTime } from './time';

/**
 * Where seen event ids are remembered. {@link MemoryDedupeStore} works for one process; with several
 * workers use a shared store: {@link RedisDedupeStore} (`SET NX PX`), or any store whose `add` is atomic.
 */
export interface DedupeStore {
  /** Returns true if newly added, false if already present (and not expired). */
  add(id: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets an id, so a delivery whose handling failed is processed when the service retries it. */
  delete?(id: string): void | Promise<void>;
}

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * A hard cap on ids held, for memory safety only (default: none). Ids leave the store when their
   * time is up (the event's age limit, 24 h by default), never because of traffic: a cap below a
   * day's deliveries would let a redelivery through. Beyond a cap the oldest id is dropped.
   */
  maxEntries?: number;
  /** Clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/**
 * In-process {@link DedupeStore}: a map of id → expiry, bounded by time. An id stays until its TTL
 * (what {@link dedupe} asks: until the event turns stale, 24 h + 5 min by default) and is then swept,
 * so memory follows the last day's traffic: about 150 bytes per id (a 1,000,000-event day ≈ 150 MB).
 * For several processes, or more traffic than that, use a shared store ({@link RedisDedupeStore}).
 */
export class MemoryDedupeStore implements DedupeStore {
  private readonly entries = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  /** @param options optional hard cap and clock. */
  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.now = options.now ?? Date.now;
    if (!(this.maxEntries === Number.POSITIVE_INFINITY || (Number.isInteger(this.maxEntries) && this.maxEntries >= 1))) {
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

  // Drops expired ids from the old end (amortized O(1) per add), and the oldest beyond a hard cap.
  private sweep(now: number): void {
    for (const [id, expiresAt] of this.entries) {
      if (expiresAt > now && this.entries.size <= this.maxEntries) break;
      this.entries.delete(id);
    }
  }
}

/**
 * A Redis client, as `ioredis` (`new Redis()`) or `redis` v4+ (`createClient()`, connected) gives it:
 * only a raw-command method is used, so both fit.
 */
export type RedisLikeClient =
  | { call(command: string, ...args: (string | number)[]): Promise<unknown> }
  | { sendCommand(args: string[]): Promise<unknown> };

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** Key prefix. Default `crossborder:webhook:`. */
  prefix?: string;
}

/**
 * A {@link DedupeStore} shared by every worker: one Redis key per event id, set with
 * `SET key 1 NX PX ttl`, so exactly one worker wins a delivery and Redis forgets the id when its
 * time is up.
 *
 * ```ts
 * import Redis from 'ioredis';
 * const store = new RedisDedupeStore(new Redis(process.env.REDIS_URL));
 * // or: const client = createClient({ url }); await client.connect(); new RedisDedupeStore(client);
 * const { duplicate } = await dedupe(event, store);
 * ```
 */
export class RedisDedupeStore implements DedupeStore {
  private readonly prefix: string;
  private readonly command: (args: string[]) => Promise<unknown>;

  /** @param client an ioredis or redis (v4+) client; @param options key prefix. */
  constructor(client: RedisLikeClient, options: RedisDedupeStoreOptions = {}) {
    this.prefix = options.prefix ?? 'crossborder:webhook:';
    if (typeof (client as { call?: unknown }).call === 'function') {
      const c = client as { call(command: string, ...args: string[]): Promise<unknown> };
      this.command = ([command, ...args]) => c.call(command!, ...args);
    } else if (typeof (client as { sendCommand?: unknown }).sendCommand === 'function') {
      const c = client as { sendCommand(args: string[]): Promise<unknown> };
      this.command = (args) => c.sendCommand(args);
    } else {
      throw new TypeError('RedisDedupeStore needs an ioredis client (call) or a redis v4+ client (sendCommand)');
    }
  }

  /** `SET <prefix><id> 1 NX PX <ttl>`: true when this call set it. */
  async add(id: string, ttlMs: number): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(ttlMs));
    return (await this.command(['SET', this.prefix + id, '1', 'NX', 'PX', String(ttl)])) === 'OK';
  }

  /** `DEL <prefix><id>`. */
  async delete(id: string): Promise<void> {
    await this.command(['DEL', this.prefix + id]);
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
  /**
   * Present (true) when the timestamp cannot bound the replay window: unreadable, or more than 5
   * minutes ahead of this clock. The id is remembered for `maxAge` from now (memory stays bounded by
   * time), so a replay later than that is not caught by age: reconcile such an event with the API
   * before acting on it.
   */
  unusableTimestamp?: true;
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
 * An event whose `timestamp` cannot be read (a verified delivery is delivered whatever its shape), or
 * that is dated more than the clock-skew allowance ahead, is remembered for `maxAge` from now and
 * reported with `unusableTimestamp`.
 */
export async function dedupe(
  event: { id: string; timestamp: string },
  store?: DedupeStore,
  options: DedupeOptions = {},
): Promise<DedupeResult> {
  const maxAge = options.maxAge ?? DAY_MS;
  checkMaxAge(maxAge);
  const now = (options.now ?? Date.now)();
  const dated = parseIsoDateTime(event.timestamp);
  // Unreadable, or far ahead: counted as made now, so that no date keeps an id for longer than maxAge + skew.
  const usable = dated !== undefined && dated <= now + MAX_FUTURE_SKEW_MS;
  const at = usable ? dated : now;
  if (now - at > maxAge) return { duplicate: false, stale: true };
  // Remember the id until the event itself turns stale, plus the skew allowance in case the store's clock differs.
  const ttl = at + maxAge - now + MAX_FUTURE_SKEW_MS;
  const added = await (store ?? (defaultStore ??= new MemoryDedupeStore())).add(event.id, ttl);
  return usable ? { duplicate: !added, stale: false } : { duplicate: !added, stale: false, unusableTimestamp: true };
}
