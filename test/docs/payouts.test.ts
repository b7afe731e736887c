/**
 * docs/payouts.md's code, run as users run it (the packed tarball): a batch with a file journal (run
 * twice: the second sends nothing), webhooks through the guide's express receiver, BullMQ workers on a
 * real Redis, and the production-like sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crossborder, RateLimitError } from 'crossborder-sdk';
import { createPayoutBatch, MemoryJournal, RedisJournal, type PayoutInstruction } from 'crossborder-sdk/payouts';
import { createSandbox } from 'crossborder-sdk/sandbox';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { instructionsOf, payroll } from '../../examples/guides/payouts/batch';
import { productionLike } from '../../examples/guides/payouts/sandbox';
import { payoutWebhooks } from '../../examples/guides/payouts/webhooks';
import { enqueue, worker } from '../../examples/guides/payouts/workers';
import { startRedisServer } from '../helpers/redis-server';
import { fundedCustomer } from './support';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A sandbox (real clock), a client on it, a funded account, a payee and an UMA receiver. */
async function world(sandbox = createSandbox()) {
  cleanups.push(() => sandbox.close());
  const cb = new Crossborder({
    tokenId: 'test',
    clientSecret: 'test',
    environment: 'sandbox',
    baseUrl: 'http://sandbox.test',
    fetch: sandbox.fetch,
    webhookPublicKey: sandbox.webhookPublicKey.pem,
  });
  const { account, payee } = await fundedCustomer(cb, { amount: 10_000_000 });
  const receiver = await cb.customers.create({
    customerType: 'INDIVIDUAL',
    region: 'US',
    fullName: 'Grace Hopper',
    birthDate: '1906-12-09',
    nationality: 'US',
  });
  return { sandbox, cb, instructions: instructionsOf(account.id, payee.id, receiver.umaAddress) };
}

const references = (sandbox: { ledger: { executions: readonly { description?: string | undefined; createKey?: string | undefined }[] } }) =>
  sandbox.ledger.executions.map((e) => e.createKey);

describe('docs/payouts.md', () => {
  it('payroll(): pays each reference once, and run again sends nothing more', async () => {
    const { sandbox, cb, instructions } = await world();
    const dir = mkdtempSync(join(tmpdir(), 'docs-payouts-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const log: unknown[] = [];
    const console_ = console.log;
    console.log = (...args: unknown[]) => void log.push(args);
    cleanups.push(() => (console.log = console_));
    const summary = await payroll(cb, instructions, join(dir, 'payroll.journal'));
    expect(summary.counts).toEqual({ pending: 0, submitted: 0, processing: 0, completed: 2, failed: 0, needs_attention: 0, rejected: 0 });
    expect(log.at(-1)).toEqual([summary.counts]); // the comment in the guide shows what it logs
    expect(sandbox.ledger.executions).toHaveLength(2);
    const again = await payroll(cb, instructions, join(dir, 'payroll.journal')); // the lock was released
    expect(again.counts.completed).toBe(2);
    expect(sandbox.ledger.executions).toHaveLength(2);
    expect(new Set(references(sandbox)).size).toBe(2);
  });

  it('payoutWebhooks(): verified events settle the batch without polling; an unsigned delivery gets 400', async () => {
    const { sandbox, cb, instructions } = await world();
    let reads = 0;
    const counting = new Crossborder({
      tokenId: 'test',
      clientSecret: 'test',
      environment: 'sandbox',
      baseUrl: 'http://sandbox.test',
      webhookPublicKey: sandbox.webhookPublicKey.pem,
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = input instanceof Request ? input.url : String(input);
        if ((input instanceof Request ? input.method : (init?.method ?? 'GET')) === 'GET' && url.includes('/transactions')) reads++;
        return sandbox.fetch(input, init);
      },
    });
    const batch = createPayoutBatch({ client: counting, batchId: 'docs-webhooks', journal: new MemoryJournal(), webhooks: true });
    const server = payoutWebhooks(counting, batch).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    cleanups.push(() => new Promise((r) => server.close(r)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    await cb.config.update({ webhookEndpoint: url });

    const forged = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ id: 'Webhook:x', type: 'OUTGOING_PAYMENT.COMPLETED', data: {} }),
      headers: { 'X-Service-Signature': 'AAAA' },
    });
    expect(forged.status).toBe(400);

    const run = batch.run(instructions);
    let summary;
    for (let i = 0; i < 200 && summary === undefined; i++) {
      sandbox.clock.advance(1_000); // settlement comes with the sandbox clock
      summary = await Promise.race([run, new Promise<undefined>((r) => setTimeout(r, 50, undefined))]);
    }
    expect(summary?.counts.completed).toBe(2);
    expect(reads).toBe(0); // no transaction was polled: the webhooks settled them
  });

  it('enqueue() and worker(): two workers on a real Redis pay each reference once', { timeout: 60_000 }, async () => {
    const { sandbox, cb, instructions } = await world();
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    const connection = { host: '127.0.0.1', port: redis.port };
    expect((await enqueue(connection, instructions)).enqueued).toBe(2);
    expect(await enqueue(connection, instructions)).toEqual({ read: 2, enqueued: 0 }); // the same job ids: nothing added
    const queue = new Queue('payouts', { connection });
    expect(await queue.count()).toBe(2);
    await queue.close();
    const workers = [await worker(connection, cb), await worker(connection, cb)];
    cleanups.push(() => Promise.all(workers.map((w) => w.close())));
    const reader = await RedisJournal.connect(`redis://127.0.0.1:${redis.port}`);
    cleanups.push(() => reader.close());
    await reader.open('payroll-2026-11'); // the guide's batch id
    const final = async (i: PayoutInstruction) => (await reader.get(i.reference))?.state;
    for (let i = 0; i < 300 && (await Promise.all(instructions.map(final))).some((s) => s !== 'completed'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await Promise.all(instructions.map(final))).toEqual(['completed', 'completed']);
    expect(sandbox.ledger.executions).toHaveLength(2);
  });

  it('productionLike(): the faults the guide names are on; its rate limit answers 429 with Retry-After', async () => {
    const sandbox = productionLike();
    cleanups.push(() => sandbox.close());
    expect(sandbox.faults.get()).toEqual({
      rateLimit: { requestsPerSecond: 50 },
      dailyVolumeLimit: { USD: 1_000_000 },
      failAfterProcessing: { rate: 0.05, reason: 'OFFRAMP_FAILED' },
      latency: { ms: 20, jitterMs: 10 },
    });
    const cb = new Crossborder({
      tokenId: 'test',
      clientSecret: 'test',
      environment: 'sandbox',
      baseUrl: 'http://sandbox.test',
      fetch: sandbox.fetch,
      maxRetries: 0,
    });
    // 150 at once: the bucket holds one second's worth (50), refilled at 50 per second of the wall clock, so at most
    // 50 + 50 × (the seconds the 150 took) are let through (a loaded machine spreads them out).
    const started = performance.now();
    const answers = await Promise.allSettled(Array.from({ length: 150 }, () => cb.customers.list({ limit: 1 })));
    const seconds = (performance.now() - started) / 1000;
    const refused = answers.filter((a) => a.status === 'rejected').map((a) => a.reason as unknown);
    expect(refused.length).toBeGreaterThanOrEqual(Math.max(1, Math.floor(150 - 50 - 50 * seconds)));
    for (const e of refused) expect(e).toBeInstanceOf(RateLimitError);
    expect((refused[0] as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1_000);
  });
});
