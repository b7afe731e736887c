/**
 * `crossborder-sdk/payouts` from the packed package, beside `crossborder-sdk` and `crossborder-sdk/sandbox`:
 * the entry resolves, a batch pays against the sandbox, and the error classes are the shared ones (a daily
 * volume limit thrown by the main entry is recognized by the payouts entry: the item needs attention, it is
 * not retried); a Redis journal on a real Redis keeps a final state against a late write.
 */
import { Crossborder } from 'crossborder-sdk';
import { createPayoutBatch, MemoryJournal, payoutKey, RedisJournal } from 'crossborder-sdk/payouts';
import { createSandbox } from 'crossborder-sdk/sandbox';
import Redis from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startRedisServer } from '../helpers/redis-server';

describe('crossborder-sdk/payouts, packed', () => {
  it('pays a small batch exactly once; the daily volume limit needs attention', async () => {
    const sandbox = createSandbox();
    const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', baseUrl: 'http://sandbox.test', fetch: sandbox.fetch });
    try {
      const customer = await cb.customers.create({
        customerType: 'INDIVIDUAL',
        region: 'US',
        fullName: 'Ada Lovelace',
        birthDate: '1990-12-10',
        nationality: 'GB',
      });
      const {
        data: [account],
      } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
      await cb.sandbox.fundInternalAccount(account!.id, { amount: 10_000_000 });
      const payee = await cb.externalAccounts.create({
        customerId: customer.id,
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: '000123456789',
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
        },
      });
      sandbox.faults.set({ dailyVolumeLimit: { USD: 100_000 } });
      const journal = new MemoryJournal();
      const row = (reference: string, amount: number) => ({
        reference,
        source: { accountId: account!.id },
        destination: { accountId: payee.id },
        amount,
        description: reference,
      });
      const summary = await createPayoutBatch({ client: cb, batchId: 'packed', journal, pollIntervalMs: 300 }).run([
        row('a', 1_000),
        row('b', 2_000),
        row('huge', 500_000),
      ]);
      expect(summary.counts).toMatchObject({ completed: 2, needs_attention: 1, failed: 0 });
      expect(summary.needsAttention).toEqual([{ reference: 'huge', reason: expect.stringContaining('DAILY_VOLUME_LIMIT_EXCEEDED') }]);
      expect(sandbox.ledger.executions.map((e) => e.createKey).sort()).toEqual([payoutKey('packed', 'a', 'create'), payoutKey('packed', 'b', 'create')].sort());
    } finally {
      await sandbox.close();
    }
  });

  it('RedisJournal: records round-trip; a late non-final write is refused and never undoes a final state', async () => {
    const server = await startRedisServer();
    const redis = new Redis({ port: server.port, host: '127.0.0.1' });
    try {
      const journal = new RedisJournal(redis);
      await journal.open('batch');
      const base = {
        reference: 'r1',
        fingerprint: 'f',
        instruction: { reference: 'r1', source: { accountId: 'a' }, destination: { accountId: 'b' }, amount: 1 },
        keys: { create: 'k1', execute: 'k2' },
        attempts: 1,
        updatedAt: 'x',
      };
      await journal.put({ ...base, state: 'completed' });
      // A stalled worker, late: refused as every journal refuses a move the state machine does not allow.
      await expect(journal.put({ ...base, state: 'submitted' })).rejects.toMatchObject({ name: 'PayoutJournalError', reason: 'illegal_move' });
      expect((await journal.get('r1'))!.state).toBe('completed');
      await journal.put({ ...base, reference: 'r2', state: 'submitted' });
      await journal.put({ ...base, reference: 'r2', state: 'failed' });
      const all: string[] = [];
      for await (const r of await journal.open('batch')) all.push(`${r.reference}:${r.state}`);
      expect(all.sort()).toEqual(['r1:completed', 'r2:failed']);
    } finally {
      redis.disconnect();
      server.stop();
    }
  });
});
