/**
 * The Redis journal, for many workers on one batch: one hash per batch (`<prefix><batchId>`, field =
 * reference, value = the record's JSON). A write the state machine does not allow is refused (a
 * stalled worker's late write cannot undo another's `completed`): the check and the write are one Lua
 * script, and the refusal is the same {@link PayoutJournalError} every journal throws. Durable as far as Redis is (configure AOF with `appendfsync always` for the strongest).
 * Takes your Redis client (ioredis `call`, or node-redis v4+ `sendCommand`), as `RedisDedupeStore` does;
 * {@link RedisJournal.connect} loads ioredis itself, only when called.
 * @module
 */
import { PayoutJournalError, type PayoutJournal } from './journal';
import { checkMove, legalMove } from './machine';
import { PAYOUT_STATES, type PayoutRecord, type PayoutState } from './types';

/** An ioredis client (`call`) or a node-redis v4+ client (`sendCommand`). */
export type RedisJournalClient = { call(command: string, ...args: (string | number)[]): Promise<unknown> } | { sendCommand(args: string[]): Promise<unknown> };

/** Options of {@link RedisJournal}. */
export interface RedisJournalOptions {
  /** Key prefix. Default `crossborder:payouts:`. */
  prefix?: string | undefined;
}

/**
 * The moves the state machine allows (./machine), as a Lua table of `prev>next`: the check and the write
 * are one script, and a refusal names the state found, for {@link checkMove} to throw as every journal does.
 */
const LEGAL = PAYOUT_STATES.flatMap((prev) =>
  PAYOUT_STATES.filter((next) => prev !== next && legalMove(prev, next)).map((next) => `['${prev}>${next}']=true`),
).join(',');

// KEYS[1] the hash; ARGV[1] reference, ARGV[2] record JSON, ARGV[3] the new state.
// Returns 1 when written, else the state found (a move the table refuses: nothing written).
const PUT = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local legal = {${LEGAL}}
  local ok, rec = pcall(cjson.decode, old)
  local prev = (ok and type(rec) == 'table' and type(rec.state) == 'string') and rec.state or '?'
  if prev ~= ARGV[3] and not legal[prev .. '>' .. ARGV[3]] then return prev end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

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
    const key = `${this.prefix}${batchId}`;
    // One batch per journal object (another batch's records would land under this one's key): `batch(id)` gives one per batch.
    if (this.#key !== undefined && this.#key !== key) {
      throw new PayoutJournalError('other_batch', `This RedisJournal is open on ${this.#key}, not ${key}: use journal.batch(batchId) for another batch.`);
    }
    this.#key = key;
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
    checkMove(record.reference, undefined, record.state); // a state the machine does not know is refused before Redis is asked
    const written = await this.#command(['EVAL', PUT, '1', this.#hash(), record.reference, JSON.stringify(record), record.state]);
    if (written !== 1 && written !== '1') checkMove(record.reference, String(written) as PayoutState, record.state);
  }

  /**
   * A journal of batch `batchId` on the same connection and prefix: one object per batch, so that a
   * worker taking jobs of several batches never writes one batch's records under another's key.
   */
  batch(batchId: string): RedisJournal {
    const journal = new RedisJournal({ sendCommand: (args: string[]) => this.#command(args) }, { prefix: this.prefix });
    journal.#key = `${this.prefix}${batchId}`;
    return journal;
  }

  async close(): Promise<void> {
    await this.#owned?.quit();
  }
}
