/**
 * The Redis journal against a real redis-server: where its records live (the prefix and the batch's
 * key), reading a batch back whole past one HSCAN page, the two client shapes it takes (ioredis `call`,
 * node-redis `sendCommand`, whose replies may be strings), `connect` and `close`, and the typed errors
 * of a journal used before it is opened, on a second batch, or with no client it can use.
 */
import { spawnSync } from 'node:child_process';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { PayoutJournalError, RedisJournal, type PayoutRecord } from '../../src/payouts/index';
import { journalRecord } from './records';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

describe.runIf(hasRedis)('RedisJournal (real redis-server)', () => {
  let server: RedisServer;
  let client: Redis;
  let n = 0;
  /** A prefix no other test uses. */
  const prefix = () => `rj${n++}:`;
  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis({ port: server.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await client?.quit();
    server?.stop();
  });

  it('keeps a batch in one hash, <prefix><batchId> (crossborder:payouts: by default), field = reference, value = the record', async () => {
    const mine = new RedisJournal(client, { prefix: 'acme:' });
    await mine.open('b1');
    await mine.put(journalRecord('r1', 'pending'));
    expect(JSON.parse((await client.hget('acme:b1', 'r1'))!)).toEqual(journalRecord('r1', 'pending'));
    const byDefault = new RedisJournal(client);
    expect(byDefault.prefix).toBe('crossborder:payouts:');
    await byDefault.open('b-default');
    await byDefault.put(journalRecord('r1', 'submitted'));
    expect(JSON.parse((await client.hget('crossborder:payouts:b-default', 'r1'))!)).toMatchObject({ reference: 'r1', state: 'submitted' });
    // batch(id): the same connection and prefix, another key.
    const other = mine.batch('b2');
    await other.put(journalRecord('r9', 'pending'));
    expect(JSON.parse((await client.hget('acme:b2', 'r9'))!)).toMatchObject({ reference: 'r9' });
    expect(other.prefix).toBe('acme:');
    await other.batch('b3').put(journalRecord('r8', 'pending'));
    expect(await client.hkeys('acme:b3')).toEqual(['r8']);
    expect(await client.hkeys('acme:b1')).toEqual(['r1']);
    await client.del('crossborder:payouts:b-default');
  });

  it('open yields every record of the batch, read past one HSCAN page (1,500 references)', async () => {
    const p = prefix();
    const flat: string[] = [];
    for (let i = 0; i < 1500; i++) flat.push(`ref-${i}`, JSON.stringify(journalRecord(`ref-${i}`, i % 2 === 0 ? 'completed' : 'submitted')));
    await client.hset(`${p}big`, ...flat);
    const journal = new RedisJournal(client, { prefix: p });
    const seen = new Map<string, PayoutRecord>();
    for await (const record of await journal.open('big')) seen.set(record.reference, record);
    expect(seen.size).toBe(1500);
    expect(seen.get('ref-0')).toEqual(journalRecord('ref-0', 'completed'));
    expect(seen.get('ref-1499')).toEqual(journalRecord('ref-1499', 'submitted'));
    // An empty batch yields nothing.
    const empty: PayoutRecord[] = [];
    for await (const record of await new RedisJournal(client, { prefix: p }).open('nothing')) empty.push(record);
    expect(empty).toEqual([]);
  });

  it('get answers undefined for a reference it never wrote, and the record for one it did', async () => {
    const journal = new RedisJournal(client, { prefix: prefix() });
    await journal.open('b');
    expect(await journal.get('missing')).toBeUndefined();
    await journal.put(journalRecord('r1', 'pending'));
    expect(await journal.get('r1')).toEqual(journalRecord('r1', 'pending'));
  });

  it('used before open: a PayoutJournalError (closed); a second batch on one object: other_batch, naming both keys; the same batch again: fine', async () => {
    const p = prefix();
    const journal = new RedisJournal(client, { prefix: p });
    for (const call of [() => journal.get('r1'), () => journal.put(journalRecord('r1', 'pending'))]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayoutJournalError);
      expect(error).toMatchObject({ name: 'PayoutJournalError', reason: 'closed', message: 'RedisJournal: open(batchId) first.' });
    }
    expect(await client.exists(`${p}b`)).toBe(0); // nothing written
    await journal.open('b');
    await journal.open('b');
    const error = await journal.open('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutJournalError);
    expect(error).toMatchObject({
      reason: 'other_batch',
      message: `This RedisJournal is open on ${p}b, not ${p}c: use journal.batch(batchId) for another batch.`,
    });
  });

  it('takes a node-redis client (sendCommand), whose replies may come as strings', async () => {
    const p = prefix();
    const commands: string[] = [];
    // A client that answers every reply as text (as some wrappers do): the script's 1 arrives as "1".
    const stringly = {
      sendCommand: async (args: string[]) => {
        commands.push(args[0]!);
        const reply = await client.call(args[0]!, ...args.slice(1));
        return typeof reply === 'number' ? String(reply) : reply;
      },
    };
    const journal = new RedisJournal(stringly, { prefix: p });
    await journal.open('b');
    await journal.put(journalRecord('r1', 'pending'));
    await journal.put(journalRecord('r1', 'submitted'));
    expect(await journal.get('r1')).toEqual(journalRecord('r1', 'submitted'));
    const refused = await journal.put(journalRecord('r1', 'pending')).catch((e: unknown) => e);
    expect(refused).toMatchObject({ reason: 'illegal_move', message: 'Payout "r1": the journal refuses the move from submitted to "pending".' });
    expect(commands).toEqual(['EVAL', 'EVAL', 'HGET', 'EVAL']);
    // A client whose missing field is undefined rather than null.
    const undefinedForMissing = { sendCommand: async (args: string[]) => (await client.call(args[0]!, ...args.slice(1))) ?? undefined };
    const j2 = new RedisJournal(undefinedForMissing, { prefix: p });
    await j2.open('b');
    expect(await j2.get('nobody')).toBeUndefined();
  });

  it('refuses, naming what it needs, a client with neither call nor sendCommand', () => {
    expect(() => new RedisJournal({ get: () => null } as never)).toThrow(
      new TypeError('RedisJournal needs an ioredis client (call) or a redis v4+ client (sendCommand)'),
    );
  });

  it('connect opens its own connection, which close ends; close leaves a client it was given open', async () => {
    const p = prefix();
    const journal = await RedisJournal.connect(`redis://127.0.0.1:${server.port}`, { prefix: p });
    expect(journal.prefix).toBe(p);
    await journal.open('b');
    await journal.put(journalRecord('r1', 'pending'));
    expect(JSON.parse((await client.hget(`${p}b`, 'r1'))!)).toMatchObject({ state: 'pending' });
    await journal.close();
    await expect(journal.get('r1')).rejects.toThrow(/Connection is closed/);
    const given = new RedisJournal(client, { prefix: p });
    await given.open('b');
    await given.close();
    expect(await client.ping()).toBe('PONG');
  });

  it('connect to a Redis that is not there: a command fails within seconds, and nothing is logged as an unhandled error', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const journal = await RedisJournal.connect(`redis://127.0.0.1:${await freePort()}`, { prefix: prefix() });
      await journal.open('b');
      const started = Date.now();
      await expect(journal.put(journalRecord('r1', 'pending'))).rejects.toThrow(/max retries per request|ECONNREFUSED/i);
      // Three reconnections (about 0.3 s), not ioredis's default twenty (about 10 s).
      expect(Date.now() - started).toBeLessThan(5_000);
      await journal.close().catch(() => undefined);
      expect(errors.mock.calls.map((c) => String(c[0]))).not.toContain('[ioredis] Unhandled error event:');
    } finally {
      errors.mockRestore();
    }
  }, 20_000);
});
