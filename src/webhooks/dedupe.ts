/**
 * Replay and redelivery protection. Deliveries are at-least-once, and the signature covers the
 * body only (no timestamp), so a captured delivery verifies forever: the event `id` and
 * `timestamp` checked here are what make a replay harmless.
 * @module
 */
import { checkMaxAge, MAX_FUTURE_SKEW_MS, parseIsoDateTime } from './time';

/**
 * What {@link DedupeStore.claim} found: `claimed` (this call holds the id now, or its own earlier
 * write was found), `done` (handled: confirmed, or recorded by `add`), `busy` (another live claim
 * that is not confirmed yet: handling is under way elsewhere, or was abandoned and its lease runs out).
 */
export type ClaimOutcome = 'claimed' | 'done' | 'busy';

/**
 * Where seen event ids are remembered. {@link MemoryDedupeStore} works for one process; with several
 * workers use a shared store: {@link RedisDedupeStore}, or any store whose `add` is atomic.
 *
 * What a store promises, with {@link dedupe}: **at-least-once processing**, never "at most once": an
 * answer the store cannot be sure of (a timeout, a lost connection, a reply it does not expect) is
 * thrown, never reported as a duplicate, so the receiver answers non-2xx and the service redelivers.
 *
 * The window: `add` records the id as handled *before* the handler runs. A process that dies between
 * the two (or a claim whose reply was lost and never resent) leaves the id recorded and the event
 * unhandled: its redeliveries are answered as duplicates for the rest of the window, and the event is
 * lost. Close it with a claim that expires: `dedupe(event, store, { lease })` claims the id for
 * `lease` ms only, a redelivery meanwhile is reported `inProgress` (answer non-2xx: it comes back),
 * and {@link confirmHandled} after the handler records it as handled for the full window. A crash then
 * repeats the work once the lease runs out, which is why the effect itself should be idempotent.
 */
export interface DedupeStore {
  /** Returns true if newly added (or found as this call's own earlier write), false if already present (and not expired). */
  add(id: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets an id, so a delivery whose handling failed is processed when the service retries it. */
  delete?(id: string): void | Promise<void>;
  /** Claims `id` for `leaseMs` unless it is handled or claimed by a live claim (see {@link ClaimOutcome}). Needed for `dedupe`'s `lease`. */
  claim?(id: string, leaseMs: number): ClaimOutcome | Promise<ClaimOutcome>;
  /** Records `id` as handled for `ttlMs` (after a `claim`). Needed for {@link confirmHandled}. */
  confirm?(id: string, ttlMs: number): void | Promise<void>;
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
  /** Ids claimed and not confirmed yet. */
  private readonly pending = new Set<string>();
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
    if (this.live(id, now)) return false;
    this.put(id, now + ttlMs, now);
    return true;
  }

  /** Claims `id` for `leaseMs`: `busy` while another claim on it is live, `done` once it is confirmed or added. */
  claim(id: string, leaseMs: number): ClaimOutcome {
    const now = this.now();
    if (this.live(id, now)) return this.pending.has(id) ? 'busy' : 'done';
    this.put(id, now + leaseMs, now);
    this.pending.add(id);
    return 'claimed';
  }

  /** Records `id` as handled for `ttlMs`. */
  confirm(id: string, ttlMs: number): void {
    const now = this.now();
    this.put(id, now + ttlMs, now);
  }

  /** Forgets `id`. */
  delete(id: string): void {
    this.entries.delete(id);
    this.pending.delete(id);
  }

  private live(id: string, now: number): boolean {
    const expiresAt = this.entries.get(id);
    return expiresAt !== undefined && expiresAt > now;
  }

  private put(id: string, expiresAt: number, now: number): void {
    // Delete first so a re-added id moves to the newest end of the insertion order.
    this.delete(id);
    this.entries.set(id, expiresAt);
    this.sweep(now);
  }

  // Drops expired ids from the old end (amortized O(1) per add), and the oldest beyond a hard cap.
  private sweep(now: number): void {
    for (const [id, expiresAt] of this.entries) {
      if (expiresAt > now && this.entries.size <= this.maxEntries) break;
      this.delete(id);
    }
  }
}

/**
 * A Redis client, as `ioredis` (`new Redis()`) or `redis` v4+ (`createClient()`, connected) gives it:
 * only a raw-command method is used, so both fit.
 */
export type RedisLikeClient = { call(command: string, ...args: (string | number)[]): Promise<unknown> } | { sendCommand(args: string[]): Promise<unknown> };

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** Key prefix. Default `crossborder:webhook:`. */
  prefix?: string;
  /**
   * Milliseconds to wait for each Redis answer (default 5,000). Past it, the call throws: the store
   * cannot know whether Redis ran the command, so it never answers "duplicate" for it. Keep it below
   * the time the service waits for your webhook answer. Set the client's own limits too (ioredis:
   * `commandTimeout`, `maxRetriesPerRequest`) so a command given up on is not run much later.
   */
  timeout?: number;
}

/**
 * The claim, run atomically by Redis: set the key to this claim's token unless it exists; a key that
 * holds this very token is this claim's own earlier write (a command resent after its reply was lost)
 * and counts as claimed. 1 claimed, 0 handled, 2 claimed by another claim not confirmed yet.
 */
const CLAIM_SCRIPT = `local v = redis.call('GET', KEYS[1])
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if v == ARGV[1] then return 1 end
if string.sub(v, 1, 6) == 'claim:' then return 2 end
return 0`;

/** Deletes the key only while it holds this claim's token. */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const MAX_HELD_CLAIMS = 10_000;

const newToken = () => crypto.randomUUID();

/**
 * A {@link DedupeStore} shared by every worker: one Redis key per event id, so exactly one worker wins
 * a delivery and Redis forgets the id when its time is up.
 *
 * Each claim carries a random token, written by one atomic script (`EVAL`: `GET`, then `SET key token
 * PX ttl` if absent; any Redis ≥ 2.6 or compatible server). A claim whose reply was lost and that the
 * client resent on reconnect (ioredis does) finds its own token and is reported new, not a duplicate.
 * An answer the store cannot be sure of (no reply within `timeout`, a connection error, a reply it does
 * not expect) is thrown: answer non-2xx and the service redelivers.
 *
 * Values: `add:<token>` (recorded as handled), `claim:<token>` (a claim with a lease, see {@link dedupe}'s
 * `lease`), `done` (confirmed). A key written by an earlier version (`1`) counts as handled.
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
  private readonly timeout: number;
  /** This store's live claims: id → token. */
  private readonly claims = new Map<string, string>();
  private readonly command: (args: string[]) => Promise<unknown>;

  /** @param client an ioredis or redis (v4+) client; @param options key prefix and answer timeout. */
  constructor(client: RedisLikeClient, options: RedisDedupeStoreOptions = {}) {
    this.prefix = options.prefix ?? 'crossborder:webhook:';
    this.timeout = options.timeout ?? 5_000;
    if (!(Number.isFinite(this.timeout) && this.timeout > 0)) {
      throw new RangeError(`timeout must be a positive number of milliseconds, got ${String(options.timeout)}`);
    }
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

  /** Records `id` as handled for `ttlMs`: true when this call (or its own resend) set it, false when it was there. */
  async add(id: string, ttlMs: number): Promise<boolean> {
    return (await this.runClaim(id, `add:${newToken()}`, ttlMs)) === 1;
  }

  /** Claims `id` for `leaseMs` (see {@link ClaimOutcome}). */
  async claim(id: string, leaseMs: number): Promise<ClaimOutcome> {
    const token = `claim:${newToken()}`;
    const found = await this.runClaim(id, token, leaseMs);
    if (found !== 1) return found === 2 ? 'busy' : 'done';
    // Remembered until confirm or delete, so that delete releases this claim only (bounded: a claim
    // never confirmed nor deleted is forgotten here after 10,000 newer ones, and just runs out in Redis).
    this.claims.delete(id);
    this.claims.set(id, token);
    if (this.claims.size > MAX_HELD_CLAIMS) this.claims.delete(this.claims.keys().next().value!);
    return 'claimed';
  }

  /** `SET <prefix><id> done PX <ttl>`: records `id` as handled. */
  async confirm(id: string, ttlMs: number): Promise<void> {
    const reply = await this.send(['SET', this.prefix + id, 'done', 'PX', String(ttlOf(ttlMs))]);
    if (reply !== 'OK') throw unexpected('SET', reply);
    this.claims.delete(id);
  }

  /**
   * Forgets `id`, so a redelivery handles it: after this store's own `claim`, only while the key still
   * holds that claim (a late release never drops another worker's claim, nor a confirmed id); else `DEL`.
   */
  async delete(id: string): Promise<void> {
    const token = this.claims.get(id);
    const reply = await this.send(token === undefined ? ['DEL', this.prefix + id] : ['EVAL', RELEASE_SCRIPT, '1', this.prefix + id, token]);
    if (reply !== 0 && reply !== 1) throw unexpected(token === undefined ? 'DEL' : 'EVAL', reply);
    this.claims.delete(id);
  }

  private async runClaim(id: string, token: string, ttlMs: number): Promise<0 | 1 | 2> {
    const reply = await this.send(['EVAL', CLAIM_SCRIPT, '1', this.prefix + id, token, String(ttlOf(ttlMs))]);
    if (reply !== 0 && reply !== 1 && reply !== 2) throw unexpected('EVAL', reply);
    return reply;
  }

  /** One command, with an answer within `timeout` or an error. */
  private send(args: string[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`RedisDedupeStore: no answer from Redis within ${this.timeout} ms to ${args[0]}; whether it ran is unknown`)),
        this.timeout,
      );
      this.command(args).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}

const ttlOf = (ms: number) => Math.max(1, Math.ceil(ms));

function unexpected(command: string, reply: unknown): Error {
  const shown = typeof reply === 'string' || typeof reply === 'number' ? JSON.stringify(reply).slice(0, 40) : typeof reply;
  return new Error(`RedisDedupeStore: unexpected reply to ${command} (${shown}); whether the id is held is unknown`);
}

/** Options of {@link dedupe}. */
export interface DedupeOptions {
  /** Events older than this many milliseconds are reported stale. Default 24 hours. */
  maxAge?: number;
  /** Clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /**
   * Claim the id for this many milliseconds only, instead of recording it as handled at once (the
   * store needs `claim`: both stores here have it). Call {@link confirmHandled} once the handler is
   * done. A redelivery meanwhile is reported `inProgress` (answer non-2xx so it comes back); if the
   * handler never confirms (a crash, a lost claim reply), the next redelivery after the lease handles
   * it. Choose a lease longer than your handler takes, and shorter than the service's retry schedule.
   */
  lease?: number;
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
  /**
   * Present (true) only with `lease`: another claim on this id is live and not confirmed (handling is
   * under way elsewhere, or was abandoned and its lease runs out). Do not act; answer non-2xx (409 or
   * 503) so the service delivers it again.
   */
  inProgress?: true;
}

const DAY_MS = 24 * 60 * 60_000;
let defaultStore: MemoryDedupeStore | undefined;

/** The event's window: stale, or the ttl that remembers its id until it turns stale. */
function windowOf(event: { timestamp: string }, options: DedupeOptions): { stale: true } | { stale: false; ttl: number; usable: boolean } {
  const maxAge = options.maxAge ?? DAY_MS;
  checkMaxAge(maxAge);
  const now = (options.now ?? Date.now)();
  const dated = parseIsoDateTime(event.timestamp);
  // Unreadable, or far ahead: counted as made now, so that no date keeps an id for longer than maxAge + skew.
  const usable = dated !== undefined && dated <= now + MAX_FUTURE_SKEW_MS;
  const at = usable ? dated : now;
  if (now - at > maxAge) return { stale: true };
  // Remember the id until the event itself turns stale, plus the skew allowance in case the store's clock differs.
  return { stale: false, ttl: at + maxAge - now + MAX_FUTURE_SKEW_MS, usable };
}

const CLAIM_OUTCOMES: readonly unknown[] = ['claimed', 'done', 'busy'];

/**
 * Records an event id and says whether it was seen before or is too old.
 *
 * The signature has no timestamp, so replay protection comes from here: an id is remembered
 * until its event turns stale, and a stale event is refused by age, so a replay is caught either
 * way. Dedupe by the event `id`, never by the signature (ECDSA signatures are malleable).
 * If handling fails after this call, call `store.delete(event.id)` so the retry is processed.
 *
 * Processing is at-least-once: when the store cannot give a sure answer (Redis timed out, the
 * connection dropped, a reply it did not expect), this throws; answer non-2xx and the service
 * redelivers. Without `lease`, the id is recorded as handled before your handler runs, so a process
 * that dies in between loses the event (see {@link DedupeStore}); with `lease` and
 * {@link confirmHandled} it is handled again after the lease instead.
 * @param event the verified event (its `id` and ISO `timestamp`).
 * @param store where ids are kept. Default: one in-process {@link MemoryDedupeStore} shared by all calls.
 * @param options `maxAge` (default 24 h), clock, and `lease` (claim, then confirm).
 * An event whose `timestamp` cannot be read (a verified delivery is delivered whatever its shape), or
 * that is dated more than the clock-skew allowance ahead, is remembered for `maxAge` from now and
 * reported with `unusableTimestamp`.
 */
export async function dedupe(event: { id: string; timestamp: string }, store?: DedupeStore, options: DedupeOptions = {}): Promise<DedupeResult> {
  const { lease } = options;
  if (lease !== undefined && !(Number.isFinite(lease) && lease > 0)) {
    throw new RangeError(`lease must be a positive number of milliseconds, got ${String(lease)}`);
  }
  const window = windowOf(event, options);
  if (window.stale) return { duplicate: false, stale: true };
  const target = store ?? (defaultStore ??= new MemoryDedupeStore());
  const flags = window.usable ? {} : { unusableTimestamp: true as const };
  if (lease === undefined) {
    const added = await target.add(event.id, window.ttl);
    if (typeof added !== 'boolean') throw new TypeError(`dedupe: the store's add answered ${typeof added}, not a boolean; whether the id is held is unknown`);
    return { duplicate: !added, stale: false, ...flags };
  }
  if (typeof target.claim !== 'function') throw new TypeError('dedupe: `lease` needs a store with claim() (MemoryDedupeStore, RedisDedupeStore)');
  // A lease beyond the window would hold the id longer than a replay can be caught by age anyway.
  const outcome = await target.claim(event.id, Math.min(lease, window.ttl));
  if (!CLAIM_OUTCOMES.includes(outcome))
    throw new TypeError(
      `dedupe: the store's claim answered ${typeof outcome === 'string' ? JSON.stringify(outcome.slice(0, 20)) : typeof outcome}; whether the id is held is unknown`,
    );
  if (outcome === 'busy') return { duplicate: false, stale: false, ...flags, inProgress: true };
  return { duplicate: outcome === 'done', stale: false, ...flags };
}

/**
 * Records a claimed event as handled (after `dedupe(event, store, { lease })` and your handler), so
 * its redeliveries are duplicates until the event turns stale. Give it the same `store` and options
 * as `dedupe`. Throws when the store cannot confirm; the claim then runs out and a redelivery after
 * the lease handles the event again (at-least-once), so answer non-2xx or make the effect idempotent.
 * @param event the verified event.
 * @param store the store given to `dedupe` (default: the same in-process store).
 * @param options the options given to `dedupe` (`maxAge`, clock).
 */
export async function confirmHandled(event: { id: string; timestamp: string }, store?: DedupeStore, options: DedupeOptions = {}): Promise<void> {
  const window = windowOf(event, options);
  const target = store ?? (defaultStore ??= new MemoryDedupeStore());
  if (typeof target.confirm !== 'function') throw new TypeError('confirmHandled needs a store with confirm() (MemoryDedupeStore, RedisDedupeStore)');
  // A stale event is refused by age from now on: nothing left to remember.
  if (window.stale) return;
  await target.confirm(event.id, window.ttl);
}
