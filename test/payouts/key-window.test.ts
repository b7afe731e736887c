/**
 * Never pay twice across time (issue 47 §2). A batch is interrupted while every payout's outcome is
 * unknown (half of the answers lost after the service acted, half lost before it did), then resumed
 * 25 hours later against the same service, which has forgotten its Idempotency-Keys (its window is 24
 * hours). Each reference is paid exactly once: those that moved are found by their marker and settled,
 * those that did not are sent again under fresh keys. Before this change the resumed run replayed the
 * old keys blind, and every payout that had moved was paid a second time.
 *
 * Time: `Date.now()` is moved 25 h ahead for the second run, for the runner and the sandbox alike (the
 * sandbox's clock reads it); timers stay real.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APIUserAbortError } from '../../src/index';
import {
  createPayoutBatch,
  FileJournal,
  findPayout,
  MemoryJournal,
  payoutKey,
  payoutMarker,
  userDescription,
  type PayoutClient,
  type PayoutRecord,
} from '../../src/payouts/index';
import { resendKey } from '../../src/payouts/lookup';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { exactlyOnce, instructions, sandboxClient, setUpWorld } from './world';

const HOUR = 3_600_000;
let sandbox: Sandbox | undefined;
const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox?.close();
  sandbox = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Moves `Date.now()` (the runner's and the sandbox's clock) `ms` ahead of real time. */
const shiftClock = (ms: number) => {
  const real = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => real() + ms);
};

const isQuoteCreate = (input: RequestInfo | URL, init?: RequestInit) =>
  (init?.method ?? 'GET') === 'POST' && /\/quotes$/.test(new URL(String(input instanceof Request ? input.url : input)).pathname);
const referenceOf = (init?: RequestInit) => userDescription((JSON.parse(String(init?.body)) as { description?: string }).description)!;

/** Runs the batch until every reference was sent at least once with no answer, then stops it. */
async function interruptedRun(sb: Sandbox, journal: FileJournal | MemoryJournal, list: ReturnType<typeof instructions>): Promise<void> {
  const sent = new Set<string>();
  const cutting = sandboxClient(sb, async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!isQuoteCreate(input, init)) return sb.fetch(input, init);
    const reference = referenceOf(init);
    sent.add(reference);
    // Even references: the service acts, the answer is lost. Odd ones: lost on the way, nothing happens.
    if (Number(reference.slice(-1)) % 2 === 0) await sb.fetch(input, init);
    throw new TypeError('fetch failed');
  });
  const controller = new AbortController();
  const run = createPayoutBatch({ client: cutting, batchId: 'window', journal, pollIntervalMs: 50, signal: controller.signal }).run(list);
  for (let i = 0; i < 400 && sent.size < list.length; i++) await new Promise((r) => setTimeout(r, 10));
  controller.abort();
  await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
  expect(sent.size).toBe(list.length);
}

describe('a payout whose outcome is unknown past the Idempotency-Key window', () => {
  it(
    'resumed 25 h later against a service that forgot its keys: each reference paid once (found, or re-sent under fresh keys)',
    { timeout: 60_000 },
    async () => {
      sandbox = createSandbox();
      const sb = sandbox;
      const cb = sandboxClient(sb);
      const world = await setUpWorld(cb, 2);
      const list = instructions(world, 6, 'win');
      const dir = mkdtempSync(join(tmpdir(), 'cb-window-'));
      dirs.push(dir);
      const path = join(dir, 'payouts.journal');

      const first = new FileJournal(path);
      await interruptedRun(sb, first, list);
      await first.close();
      expect(sb.ledger.executions.map((e) => userDescription(e.description)).sort()).toEqual(['win-00000', 'win-00002', 'win-00004']);

      shiftClock(25 * HOUR);
      const creates: string[] = [];
      const counting = sandboxClient(sb, async (input: RequestInfo | URL, init?: RequestInit) => {
        if (isQuoteCreate(input, init)) creates.push(`${referenceOf(init)} ${new Headers(init?.headers).get('idempotency-key')}`);
        return sb.fetch(input, init);
      });
      const journal = new FileJournal(path);
      let found: unknown;
      const summary = await createPayoutBatch({ client: counting, batchId: 'window', journal, pollIntervalMs: 50, onResume: (f) => (found = f) }).run(list);
      await journal.close();

      expect(found).toEqual({ final: 0, rejected: 0, replay: 0, lookup: 6, waiting: 0 });
      expect(summary.counts).toMatchObject({ completed: 6, needs_attention: 0, failed: 0 });
      expect(
        exactlyOnce(
          sb,
          list.map((i) => i.reference),
        ),
      ).toEqual({ doubled: [], missing: [], executions: 6 });
      // Only the three that never moved were sent again, each under its fresh key, never under the old one.
      expect(creates.sort()).toEqual(['win-00001', 'win-00003', 'win-00005'].map((r) => `${r} ${resendKey('window', r, 'create', 1)}`));
      const byReference = new Map(sb.ledger.executions.map((e) => [userDescription(e.description), e.createKey]));
      expect(byReference.get('win-00000')).toBe(payoutKey('window', 'win-00000', 'create'));
      expect(byReference.get('win-00001')).toBe(resendKey('window', 'win-00001', 'create', 1));
      // The journal holds the fresh keys and when they were first sent (in the shifted time).
      const reread = new FileJournal(path);
      const records = new Map<string, PayoutRecord>();
      for (const r of await reread.open('window')) records.set(r.reference, r);
      await reread.close();
      expect(records.get('win-00001')).toMatchObject({ state: 'completed', resends: 1, keys: { create: resendKey('window', 'win-00001', 'create', 1) } });
      expect(Date.parse(records.get('win-00001')!.firstSentAt!)).toBeGreaterThan(Date.now() - HOUR);
      expect(records.get('win-00000')).toMatchObject({ state: 'completed', keys: { create: payoutKey('window', 'win-00000', 'create') } });
      expect(records.get('win-00000')!.resends).toBeUndefined();
    },
  );

  it('resumed within the window: replayed under its keys (the service answers from them), no lookup', { timeout: 60_000 }, async () => {
    sandbox = createSandbox();
    const sb = sandbox;
    const cb = sandboxClient(sb);
    const world = await setUpWorld(cb, 2);
    const list = instructions(world, 4, 'in');
    const journal = new MemoryJournal();
    await interruptedRun(sb, journal, list);
    shiftClock(19 * HOUR); // inside 24 h less the 4 h margin
    const lists: string[] = [];
    const watching = sandboxClient(sb, async (input: RequestInfo | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'GET' && /\/transactions$/.test(new URL(String(input)).pathname)) lists.push(String(input));
      return sb.fetch(input, init);
    });
    let found: unknown;
    const summary = await createPayoutBatch({ client: watching, batchId: 'window', journal, pollIntervalMs: 50, onResume: (f) => (found = f) }).run(list);
    expect(found).toEqual({ final: 0, rejected: 0, replay: 4, lookup: 0, waiting: 0 });
    expect(summary.counts.completed).toBe(4);
    expect(lists).toEqual([]);
    expect(
      exactlyOnce(
        sb,
        list.map((i) => i.reference),
      ),
    ).toEqual({ doubled: [], missing: [], executions: 4 });
  });

  it('past the window with a lookup that cannot tell (the listing fails): needs attention with the reason, nothing sent', { timeout: 60_000 }, async () => {
    sandbox = createSandbox();
    const sb = sandbox;
    const cb = sandboxClient(sb);
    const world = await setUpWorld(cb, 2);
    const list = instructions(world, 2, 'unk');
    const journal = new MemoryJournal();
    await interruptedRun(sb, journal, list);
    shiftClock(21 * HOUR); // past 24 h less the 4 h margin
    const executed = sb.ledger.executions.length;
    let sentQuotes = 0;
    const client: PayoutClient = {
      quotes: {
        create: () => {
          sentQuotes++;
          return Promise.reject(new Error('never sent'));
        },
        execute: () => Promise.reject(new Error('never sent')),
      },
      transactions: {
        retrieve: (id) => cb.transactions.retrieve(id),
        list: () => Promise.reject(new TypeError('fetch failed')),
      },
      receiver: { lookupUma: () => Promise.reject(new Error('unused')) },
    };
    const summary = await createPayoutBatch({ client, batchId: 'window', journal }).run(list);
    expect(sentQuotes).toBe(0);
    expect(sb.ledger.executions.length).toBe(executed);
    expect(summary.counts.needs_attention).toBe(2);
    expect(summary.needsAttention.map((n) => n.reason)).toEqual([
      'OUTCOME_UNKNOWN: No answer to its send within the Idempotency-Key window, and the lookup could not tell: the transactions could not be listed (page 1): fetch failed',
      'OUTCOME_UNKNOWN: No answer to its send within the Idempotency-Key window, and the lookup could not tell: the transactions could not be listed (page 1): fetch failed',
    ]);
  });
});

describe('within one run', () => {
  it(
    'a payout retried with no answer until its first send is past the window is looked up, then re-sent under a fresh key only once proven not moved',
    { timeout: 30_000 },
    async () => {
      const sent: string[] = [];
      const listed: unknown[] = [];
      let shifted = false;
      const client: PayoutClient = {
        quotes: {
          create: async (_body, options) => {
            sent.push(options!.idempotencyKey!);
            if (sent.length === 1) {
              // No answer to the first send; the next attempt comes 21 h later (past 24 h less the 4 h margin).
              const real = Date.now.bind(Date);
              vi.spyOn(Date, 'now').mockImplementation(() => real() + 21 * HOUR);
              shifted = true;
              throw new APIConnectionError('fetch failed', { outcomeUnknown: true });
            }
            return { id: 'Quote:1', status: 'COMPLETED', transactionId: 'Transaction:1', totalSendingAmount: 1, totalReceivingAmount: 1 } as never;
          },
          execute: async () => ({}) as never,
        },
        transactions: {
          retrieve: async (id) => ({ id, status: 'COMPLETED' }) as never,
          list: async (params) => {
            listed.push(params);
            return { data: [], hasMore: false };
          },
        },
        receiver: { lookupUma: async () => ({}) as never },
      };
      const summary = await createPayoutBatch({ client, batchId: 'in-run', journal: new MemoryJournal(), maxUnknownMs: 48 * HOUR }).run([
        { reference: 'r1', source: { accountId: 'InternalAccount:a' }, destination: { accountId: 'ExternalAccount:b' }, amount: 100 },
      ]);
      expect(shifted).toBe(true);
      expect(summary.counts.completed).toBe(1);
      expect(sent).toEqual([payoutKey('in-run', 'r1', 'create'), resendKey('in-run', 'r1', 'create', 1)]);
      expect(listed).toEqual([expect.objectContaining({ type: 'OUTGOING', senderAccountIdentifier: 'InternalAccount:a' })]);
    },
  );
});

describe('findPayout', () => {
  it('finds a payout by its batch and reference (the marker after the user description), and proves one absent', { timeout: 60_000 }, async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb, 1);
    const journal = new MemoryJournal();
    const [a, b] = instructions(world, 2, 'fp');
    const noDescription = { ...b!, description: undefined };
    const summary = await createPayoutBatch({ client: cb, batchId: 'fp-batch', journal, pollIntervalMs: 50 }).run([a!, noDescription]);
    expect(summary.counts.completed).toBe(2);
    const foundA = await findPayout(cb, { batchId: 'fp-batch', reference: a!.reference, senderAccountIdentifier: world.accountId, pageSize: 1 });
    expect(foundA.outcome).toBe('found');
    if (foundA.outcome !== 'found') return;
    expect(foundA.transaction.id).toBe((await journal.get(a!.reference))!.transactionId);
    expect(foundA.transaction.description).toBe(`${a!.description} ${payoutMarker('fp-batch', a!.reference)}`);
    expect(foundA.transactions).toHaveLength(1);
    // Without a description of its own, the marker alone: still found.
    const foundB = await findPayout(cb, { batchId: 'fp-batch', reference: b!.reference });
    expect(foundB.outcome === 'found' && foundB.transaction.id).toBe((await journal.get(b!.reference))!.transactionId);
    expect(foundB.outcome === 'found' && foundB.transaction.description).toBe(payoutMarker('fp-batch', b!.reference));
    // Another batch's reference, or one never paid: every page read, none carries the marker.
    expect(await findPayout(cb, { batchId: 'other-batch', reference: a!.reference, pageSize: 1 })).toEqual({ outcome: 'not_found', pages: 2 });
    expect((await findPayout(cb, { batchId: 'fp-batch', reference: 'never', pageSize: 1, maxPages: 1 })).outcome).toBe('unknown');
    await expect(findPayout(cb, { batchId: '', reference: 'x' })).rejects.toThrow('batchId: expected a non-empty string');
  });
});
