/**
 * The payout runner against the in-process sandbox: exactly once per reference under lost answers
 * and 429s, the keys it sends, the states it ends in, and its reruns.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { APIUserAbortError } from '../../src/index';
import {
  createPayoutBatch,
  MemoryJournal,
  payoutKey,
  payoutMarker,
  rejectedKey,
  reportCsv,
  reportRows,
  userDescription,
  type PayoutInstruction,
  type PayoutProgress,
} from '../../src/payouts/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { exactlyOnce, instructions, sandboxClient, setUpWorld } from './world';

let sandbox: Sandbox;
afterEach(() => sandbox?.close());

/** A fetch over the sandbox that lets the sandbox act, then loses the answer, for the writes `lose` picks. */
function losing(sb: Sandbox, lose: (n: number, method: string) => boolean) {
  let n = 0;
  const stats = { lost: 0, statuses: [] as number[] };
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const response = await sb.fetch(input, init);
    stats.statuses.push(response.status);
    if (method === 'POST' && lose(n++, method)) {
      stats.lost++;
      throw new TypeError('fetch failed: socket hang up (answer lost)');
    }
    return response;
  }) as typeof fetch;
  return { fetch: f, stats };
}

describe('payout batches against the sandbox', () => {
  it('pays each reference once, with the keys derived from (batch, reference, step), and reports amounts', async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb);
    const list = instructions(world, 25);
    const journal = new MemoryJournal();
    const progress: PayoutProgress[] = [];
    const batch = createPayoutBatch({ client: cb, batchId: 'b-1', journal, pollIntervalMs: 300, onProgress: (p) => progress.push(p), progressIntervalMs: 0 });
    const summary = await batch.run(list);
    expect(summary.counts).toMatchObject({ completed: 25, failed: 0, needs_attention: 0, pending: 0, submitted: 0, processing: 0 });
    const once = exactlyOnce(
      sandbox,
      list.map((i) => i.reference),
    );
    expect(once).toEqual({ doubled: [], missing: [], executions: 25 });
    // The key of each execution is the derived one: the same on any machine, any rerun.
    const byDescription = new Map(sandbox.ledger.executions.map((e) => [userDescription(e.description), e]));
    // The description sent is the user's, then the marker findPayout matches.
    expect(byDescription.get('ref-00003')!.description).toBe(`ref-00003 ${payoutMarker('b-1', 'ref-00003')}`);
    expect(byDescription.get('ref-00003')!.createKey).toBe(payoutKey('b-1', 'ref-00003', 'create'));
    expect(payoutKey('b-1', 'ref-00003', 'create')).toMatch(/^po1_[0-9a-f]{48}$/);
    expect(payoutKey('b-1', 'ref-00003', 'create')).not.toBe(payoutKey('b-2', 'ref-00003', 'create'));
    expect(payoutKey('b-1', 'ref-00003', 'create')).not.toBe(payoutKey('b-1', 'ref-00003', 'execute'));
    expect(payoutKey('b-1', 'a|b', 'create')).not.toBe(payoutKey('b-1|a', 'b', 'create'));
    // The report carries the quote's figures and the transaction.
    const rows = reportRows(journal.records());
    const row = rows.find((r) => r.reference === 'ref-00007')!;
    const tx = await cb.transactions.retrieve(row.transactionId!);
    expect(tx.status).toBe('COMPLETED');
    expect(row).toMatchObject({
      state: 'completed',
      transactionStatus: 'COMPLETED',
      receivingAmount: 107,
      receivingCurrency: 'USD',
      sendingCurrency: 'USD',
      attempts: 1,
    });
    expect(row.sendingAmount).toBe(107 + row.fees!);
    expect(reportCsv([row]).split('\r\n')[1]).toBe(
      `ref-00007,completed,${row.transactionId},COMPLETED,,${row.sendingAmount},USD,107,USD,${row.fees},${row.exchangeRate},1,,`,
    );
    const last = progress[progress.length - 1]!;
    expect(last).toMatchObject({ total: 25, done: 25, batchId: 'b-1' });
    expect(last.counts.completed).toBe(25);

    // Run again: nothing is sent for a finished reference.
    const before = sandbox.ledger.executions.length;
    const again = await createPayoutBatch({ client: cb, batchId: 'b-1', journal, pollIntervalMs: 300 }).run(list);
    expect(again.counts.completed).toBe(25);
    expect(sandbox.ledger.executions.length).toBe(before);
  });

  it('loses 30 % of the answers to writes and still pays each reference exactly once', async () => {
    sandbox = createSandbox();
    const world = await setUpWorld(sandboxClient(sandbox));
    const { fetch, stats } = losing(sandbox, (n) => n % 10 < 3);
    const cb = sandboxClient(sandbox, fetch);
    const list = instructions(world, 40);
    const journal = new MemoryJournal();
    const summary = await createPayoutBatch({ client: cb, batchId: 'lossy', journal, pollIntervalMs: 300, sleep: async () => {} }).run(list);
    expect(stats.lost).toBeGreaterThan(10);
    expect(summary.counts.completed).toBe(40);
    expect(
      exactlyOnce(
        sandbox,
        list.map((i) => i.reference),
      ),
    ).toEqual({ doubled: [], missing: [], executions: 40 });
    // The replays are counted: some references needed more than one attempt.
    expect(journal.records().some((r) => r.attempts > 1)).toBe(true);
  });

  it('under a rate limit, slows down on 429 with Retry-After and still pays each reference once', async () => {
    sandbox = createSandbox();
    const world = await setUpWorld(sandboxClient(sandbox));
    sandbox.faults.set({ rateLimit: { requestsPerSecond: 40 } });
    const statuses: number[] = [];
    // Besides the sandbox's own limit (whose 429s depend on how fast the requests come, so on the load),
    // a limiter scripted by count: every third of the first 30 requests is refused before it reaches the
    // service, with a 429 and Retry-After, whatever the speed. At least 10 refusals, every run.
    let requests = 0;
    const cb = sandboxClient(sandbox, async (i: RequestInfo | URL, init?: RequestInit) => {
      const n = ++requests;
      const r =
        n <= 30 && n % 3 === 0
          ? new Response(JSON.stringify({ status: 429, code: 'RATE_LIMITED', message: 'Too many requests (scripted limiter).' }), {
              status: 429,
              headers: { 'content-type': 'application/json', 'retry-after': '1' },
            })
          : await sandbox.fetch(i, init);
      statuses.push(r.status);
      return r;
    });
    const list = instructions(world, 60);
    const summary = await createPayoutBatch({ client: cb, batchId: 'limited', journal: new MemoryJournal(), pollIntervalMs: 300, maxConcurrency: 32 }).run(
      list,
    );
    expect(summary.counts.completed).toBe(60);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
    expect(
      exactlyOnce(
        sandbox,
        list.map((i) => i.reference),
      ),
    ).toEqual({ doubled: [], missing: [], executions: 60 });
  }, 90_000); // about 6 s alone; a loaded suite slows the answers, and the runner backs off on latency as it should

  it('fails or pauses an item with its reason and goes on: validation, daily volume limit, failure after PROCESSING', async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb);
    sandbox.faults.set({ dailyVolumeLimit: { USD: 1_000_000 } });
    const sent: string[] = [];
    const counting = sandboxClient(sandbox, async (i: RequestInfo | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'POST') sent.push(String(init?.body));
      return sandbox.fetch(i, init);
    });
    const list: PayoutInstruction[] = [
      ...instructions(world, 5),
      {
        reference: 'too-big',
        source: { accountId: world.accountId },
        destination: { accountId: world.payees[0]! },
        amount: 9_000_000_000_000_001,
        description: 'too-big',
      },
      {
        reference: 'over-daily',
        source: { accountId: world.accountId },
        destination: { accountId: world.payees[0]! },
        amount: 2_000_000,
        description: 'over-daily',
      },
      { reference: 'offramp', source: { accountId: world.accountId }, destination: { accountId: world.failingPayee }, amount: 500, description: 'offramp' },
      {
        reference: 'no-such-payee',
        source: { accountId: world.accountId },
        destination: { accountId: 'ExternalAccount:nope' },
        amount: 500,
        description: 'no-such-payee',
      },
    ];
    const journal = new MemoryJournal();
    const summary = await createPayoutBatch({ client: counting, batchId: 'mixed', journal, pollIntervalMs: 300 }).run(list);
    expect(summary.counts).toMatchObject({ completed: 5, failed: 2, needs_attention: 1, rejected: 1 });
    const byRef = new Map(journal.records().map((r) => [r.reference, r]));
    // Above production's bound: refused locally, journaled as rejected under a key of its own, never sent.
    expect(byRef.get(rejectedKey({ reference: 'too-big' }, 0))).toMatchObject({
      state: 'rejected',
      inputReference: 'too-big',
      lastError: { code: 'REJECTED', message: 'amount: expected at most 9000000000000000, got 9000000000000001' },
    });
    expect(byRef.has('too-big')).toBe(false);
    expect(sent.filter((b) => b.includes('"too-big')).length).toBe(0);
    expect(summary.rejected).toEqual([{ reference: 'too-big', reason: 'amount: expected at most 9000000000000000, got 9000000000000001' }]);
    expect(byRef.get('over-daily')).toMatchObject({ state: 'needs_attention', lastError: { code: 'DAILY_VOLUME_LIMIT_EXCEEDED', status: 429 } });
    expect(byRef.get('offramp')).toMatchObject({ state: 'failed', transactionStatus: 'FAILED', failureReason: 'OFFRAMP_FAILED' });
    expect(byRef.get('no-such-payee')).toMatchObject({ state: 'failed', lastError: { status: 404 } });
    // The daily limit is never retried blindly: one request for it.
    expect(sent.filter((b) => b.includes('"description":"over-daily [cb-payout:')).length).toBe(1);
    expect(summary.needsAttention).toEqual([{ reference: 'over-daily', reason: expect.stringContaining('DAILY_VOLUME_LIMIT_EXCEEDED') }]);
    expect(summary.failed.map((f) => f.reference).sort()).toEqual(['no-such-payee', 'offramp']);
    expect(exactlyOnce(sandbox, ['ref-00000', 'offramp']).doubled).toEqual([]);
  });

  it('payouts failing after PROCESSING end failed with the reason, and the sender is refunded', async () => {
    sandbox = createSandbox({ faults: { failAfterProcessing: { rate: 1, reason: 'OFFRAMP_FAILED' } } });
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb, 1, 1_000_000);
    const journal = new MemoryJournal();
    const summary = await createPayoutBatch({ client: cb, batchId: 'refunds', journal, pollIntervalMs: 300 }).run(instructions(world, 3));
    expect(summary.counts.failed).toBe(3);
    expect(journal.records().every((r) => r.failureReason === 'OFFRAMP_FAILED' && r.transactionStatus === 'FAILED')).toBe(true);
    const account = (await cb.internalAccounts.list({ currency: 'USD' })).data.find((a) => a.id === world.accountId)!;
    expect(account.balance.amount).toBe(1_000_000);
  });

  it('settles from webhooks fed to onWebhookEvent, without polling', async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb);
    let gets = 0;
    const client = sandboxClient(sandbox, async (i: RequestInfo | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'GET') gets++;
      return sandbox.fetch(i, init);
    });
    const batch = createPayoutBatch({ client, batchId: 'hooks', journal: new MemoryJournal(), webhooks: true, webhookFallbackMs: 60_000 });
    const running = batch.run(instructions(world, 4));
    // The sandbox settles when asked after 2 s; its events go to the batch (as a receiver would after unwrap).
    const deadline = Date.now() + 10_000;
    let settled = 0;
    while (settled < 4 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      sandbox.clock.advance(0); // runs what is due
      const { data } = await cb.transactions.list({ type: 'OUTGOING' });
      settled = 0;
      for (const tx of data) {
        if (tx.status === 'COMPLETED' && batch.onWebhookEvent({ type: 'OUTGOING_PAYMENT.COMPLETED', data: tx })) settled++;
      }
    }
    const summary = await running;
    expect(summary.counts.completed).toBe(4);
    expect(gets).toBe(0);
    expect(batch.onWebhookEvent({ type: 'CUSTOMER.KYC_APPROVED', data: { id: 'x' } })).toBe(false);
  });

  it('stops on abort with every state journaled, and a rerun finishes without paying twice', async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb);
    const list = instructions(world, 30);
    const journal = new MemoryJournal();
    const controller = new AbortController();
    const first = createPayoutBatch({
      client: cb,
      batchId: 'stop',
      journal,
      pollIntervalMs: 300,
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.counts.processing + p.done >= 10) controller.abort();
      },
    });
    await expect(first.run(list)).rejects.toBeInstanceOf(APIUserAbortError);
    expect(journal.records().length).toBeLessThan(30);
    const summary = await createPayoutBatch({ client: cb, batchId: 'stop', journal, pollIntervalMs: 300 }).run(list);
    expect(summary.counts.completed).toBe(30);
    expect(
      exactlyOnce(
        sandbox,
        list.map((i) => i.reference),
      ),
    ).toEqual({ doubled: [], missing: [], executions: 30 });
  });

  it('refuses a reference seen twice in one run, and a changed instruction under a journaled reference, without sending either', async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb);
    const [a, b] = instructions(world, 2);
    const journal = new MemoryJournal();
    const summary = await createPayoutBatch({ client: cb, batchId: 'dupes', journal, pollIntervalMs: 300 }).run([a!, b!, { ...a!, amount: 999 }]);
    expect(summary.counts.completed).toBe(2);
    expect(summary.rejected).toEqual([{ reference: a!.reference, reason: expect.stringContaining('seen twice') }]);
    const rerun = await createPayoutBatch({ client: cb, batchId: 'dupes', journal, pollIntervalMs: 300 }).run([{ ...a!, amount: 999 }, b!]);
    expect(rerun.rejected).toEqual([{ reference: a!.reference, reason: expect.stringContaining('INSTRUCTION_CHANGED') }]);
    expect(sandbox.ledger.executions.map((e) => userDescription(e.description)).sort()).toEqual([a!.reference, b!.reference]);
    expect(sandbox.ledger.executions).toHaveLength(2);
  });

  it('pays an UMA address: one receiver lookup, its lookupId journaled and reused when the quote answer is lost', async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb, 1);
    const receiver = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region: 'US',
      fullName: 'Grace Hopper',
      birthDate: '1906-12-09',
      nationality: 'US',
    });
    let lookups = 0;
    let creates = 0;
    const client = sandboxClient(sandbox, async (i: RequestInfo | URL, init?: RequestInit) => {
      const url = String(i instanceof Request ? i.url : i);
      if (url.includes('/receiver/uma/')) lookups++;
      const response = await sandbox.fetch(i, init);
      if ((init?.method ?? 'GET') === 'POST' && url.endsWith('/quotes') && ++creates === 1) throw new TypeError('fetch failed (answer lost)');
      return response;
    });
    const journal = new MemoryJournal();
    const summary = await createPayoutBatch({ client, batchId: 'uma', journal, pollIntervalMs: 300, sleep: async () => {} }).run([
      {
        reference: 'uma-1',
        source: { accountId: world.accountId },
        destination: { umaAddress: receiver.umaAddress, currency: 'USD' },
        amount: 1_234,
        description: 'uma-1',
        senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
      },
    ]);
    const [record] = journal.records();
    expect(summary.counts.completed, JSON.stringify(record)).toBe(1);
    expect(record).toMatchObject({ state: 'completed', lookupId: expect.stringMatching(/^Lookup:/), attempts: 2 });
    expect(lookups).toBe(1);
    expect(creates).toBe(2);
    expect(exactlyOnce(sandbox, ['uma-1'])).toEqual({ doubled: [], missing: [], executions: 1 });
  });
});
