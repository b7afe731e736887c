/**
 * The Redis journal, for many workers on one batch: one hash per batch (`<prefix><batchId>`, field =
 * reference, value = the record's JSON). A write never takes a reference back from a final state
 * (a stalled worker's late write cannot undo another's `completed`): the check and the write are one
 * Lua script. Durable as far as Redis is (configure AOF with `appendfsync always` for the strongest).
 * Takes your Redis client (ioredis `call`, or node-redis v4+ `sendCommand`), as `RedisDedupeStore` does;
 * {@link RedisJournal.connect} loads ioredis itself, only when called.
 * @module
 */
import { PayoutJournalError, type PayoutJournal } from './journal';
import type { PayoutRecord } from './types';

/** An ioredis client (`call`) or a node-redis v4+ client (`sendCommand`). */
export type RedisJournalClient = { call(command: string, ...args: (string | number)[]): Promise<unknown> } | { sendCommand(args: string[]): Promise<unknown> };

/** Options of {@link RedisJournal}. */
export interface RedisJournalOptions {
  /** Key prefix. Default `crossborder:payouts:`. */
  prefix?: string | undefined;
}

// KEYS[1] the hash; ARGV[1] reference, ARGV[2] record JSON, ARGV[3] 1 when the new state is final.
const PUT = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old and ARGV[3] == '0' then
  local ok, rec = pcall(cjson.decode, old)
  if ok and (rec.state == 'completed' or rec.state == 'failed' or rec.state == 'needs_attention') then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

const FINAL = new Set(['completed', 'failed', 'needs_attention']);

/** A journal in Redis. See the module documentation. */
export class RedisJournal implements PayoutJournal {
  readonly prefix: string;
  readonly #command: (args: string[]) => Promise<unknown>;
  #key: string | undefined;
  readonly #owned: { quit(): Promise<unknown> } | undefined;

  constructor(client: RedisJournalClient, options: RedisJournalOptions = {}, owned?: { quit(): Promise<unknown> }) {
    this.prefix = options.prefix ?? 'crossborder:payouts:';
    if (typeof (client as { call?: unknown }).call === 'function') {
      const c = client as { call(command: string, ...args: string[]): Promise<unknown> };
      this.#command = ([command, ...args]) => c.call(command!, ...args);
    } else if (typeof (client as { sendCommand?: unknown }).sendCommand === 'function') {
      const c = client as { sendCommand(args: string[]): Promise<unknown> };
      this.#command = (args) => c.sendCommand(args);
    } else {
      throw new TypeError('RedisJournal needs an ioredis client (call) or a redis v4+ client (sendCommand)');
    }
    this.#owned = owned;
  }

  /** A journal on a new ioredis connection to `url` (loads ioredis, an optional dependency you install); `close()` ends it. */
  static async connect(url: string, options: RedisJournalOptions = {}): Promise<RedisJournal> {
    let Redis: new (url: string, options: object) => RedisJournalClient & { quit(): Promise<unknown> };
    try {
      ({ default: Redis } = (await import('ioredis')) as unknown as { default: typeof Redis });
    } catch {
      throw new Error('RedisJournal.connect needs ioredis: npm install ioredis (or pass your own client to new RedisJournal(client))');
    }
    const client = new Redis(url, { maxRetriesPerRequest: 3 });
    // A lost connection surfaces as the failing command (the run stops, a rerun resumes); ioredis would also log it as unhandled.
    (client as unknown as { on(event: string, listener: () => void): void }).on('error', () => undefined);
    return new RedisJournal(client, options, client);
  }

  #hash(): string {
    if (this.#key === undefined) throw new PayoutJournalError('closed', 'RedisJournal: open(batchId) first.');
    return this.#key;
  }

  async open(batchId: string): Promise<AsyncIterable<PayoutRecord>> {
    this.#key = `${this.prefix}${batchId}`;
    const key = this.#key;
    const command = this.#command;
    return {
      async *[Symbol.asyncIterator]() {
        let cursor = '0';
        do {
          const [next, flat] = (await command(['HSCAN', key, cursor, 'COUNT', '1000'])) as [string, string[]];
          cursor = String(next);
          for (let i = 1; i < flat.length; i += 2) yield JSON.parse(String(flat[i])) as PayoutRecord;
        } while (cursor !== '0');
      },
    };
  }

  async get(reference: string): Promise<PayoutRecord | undefined> {
    const text = await this.#command(['HGET', this.#hash(), reference]);
    return text === null || text === undefined ? undefined : (JSON.parse(String(text)) as PayoutRecord);
  }

  async put(record: PayoutRecord): Promise<void> {
    await this.#command(['EVAL', PUT, '1', this.#hash(), record.reference, JSON.stringify(record), FINAL.has(record.state) ? '1' : '0']);
  }

  async close(): Promise<void> {
    await this.#owned?.quit();
  }
}
