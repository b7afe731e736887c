/**
 * The runner runs a move's effects as the state machine's table lists them, in its order. Past the key
 * window, a lookup that proves the payout did not move takes it by `not_found`, whose effects are fresh
 * keys, a journal write, then the request: the fresh keys are journaled before anything is sent under
 * them, and that send is journaled (attempts + 1) before its request leaves.
 */
import { describe, expect, it } from 'vitest';
import { createPayoutBatch, MemoryJournal, payoutKey, payoutMarker, transition, type PayoutClient, type PayoutRecord } from '../../src/payouts/index';
import { resendKey } from '../../src/payouts/lookup';

const HOUR = 3_600_000;

describe('the effects of a move, in the table order', () => {
  it('not_found: fresh keys journaled, then the send journaled, then the request under the fresh key', async () => {
    expect(transition('submitted', 'not_found')?.effects).toEqual(['fresh_keys', 'journal', 'request']);
    const events: string[] = [];
    const journaled: PayoutRecord[] = [];
    class Journal extends MemoryJournal {
      override async put(record: PayoutRecord): Promise<void> {
        journaled.push(JSON.parse(JSON.stringify(record)) as PayoutRecord);
        events.push(
          `put ${record.state} attempts=${record.attempts} key=${record.keys.create === payoutKey('b', 'r1', 'create') ? 'old' : record.keys.create === resendKey('b', 'r1', 'create', 1) ? 'fresh' : '?'}`,
        );
        return super.put(record);
      }
    }
    const journal = new Journal();
    await journal.open('b');
    const instruction = { reference: 'r1', source: { accountId: 'InternalAccount:a' }, destination: { accountId: 'ExternalAccount:b' }, amount: 100 };
    const firstSent = new Date(Date.now() - 30 * HOUR).toISOString();
    // A payout sent 30 hours ago with no answer: past the 24-hour window less its margin.
    await journal.put({
      reference: 'r1',
      state: 'submitted',
      fingerprint: 'f2:unused',
      instruction,
      keys: { create: payoutKey('b', 'r1', 'create'), execute: payoutKey('b', 'r1', 'execute') },
      attempts: 2,
      marker: payoutMarker('b', 'r1'),
      firstSentAt: firstSent,
      unknownSince: firstSent,
      updatedAt: firstSent,
    });
    events.length = 0;
    journaled.length = 0;
    const client: PayoutClient = {
      quotes: {
        create: async (_body, options) => {
          events.push(`create key=${options?.idempotencyKey === resendKey('b', 'r1', 'create', 1) ? 'fresh' : 'other'}`);
          return { id: 'Quote:1', status: 'COMPLETED', transactionId: 'Transaction:1', totalSendingAmount: 100, totalReceivingAmount: 100 } as never;
        },
        execute: async () => ({}) as never,
      },
      transactions: {
        retrieve: async () => ({}) as never,
        list: async () => {
          events.push('list');
          return { data: [], hasMore: false };
        },
      },
      receiver: { lookupUma: async () => ({}) as never },
    };
    const summary = await createPayoutBatch({ client, batchId: 'b', journal }).run([]);
    expect(summary.counts.completed).toBe(1);
    expect(events).toEqual([
      'list',
      'put submitted attempts=2 key=fresh', // fresh_keys, journal
      'put submitted attempts=3 key=fresh', // request: its send journaled first
      'create key=fresh',
      'put processing attempts=3 key=fresh',
      'put completed attempts=3 key=fresh',
    ]);
    expect(journaled[0]).toMatchObject({ resends: 1, keys: { create: resendKey('b', 'r1', 'create', 1), execute: resendKey('b', 'r1', 'execute', 1) } });
    expect(journaled[0]!.quote).toBeUndefined();
    expect(journaled[0]!.unknownSince).toBeUndefined();
    expect(Date.parse(journaled[0]!.firstSentAt!)).toBeGreaterThan(Date.parse(firstSent));
  });
});
