/**
 * A payout batch in OpenTelemetry, through the client's own telemetry (no second mechanism): one
 * INTERNAL span for the run of the batch, one per reference under it with the reference and its final
 * state, and the SDK's CLIENT spans of that reference's requests under the reference's span.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crossborder, type ClientOptions } from '../../src/index';
import { createPayoutBatch, MemoryJournal, type PayoutClient } from '../../src/payouts/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { otel, plain } from '../telemetry/helpers';
import { instructions, setUpWorld } from './world';

/** A client over the in-process sandbox whose spans go to `tel`'s provider (`options` on top). */
const tracedClient = (sandbox: Sandbox, tel: ReturnType<typeof otel>, options: Partial<ClientOptions> = {}) =>
  new Crossborder({
    tokenId: 'tok',
    clientSecret: 'sk_sandbox',
    environment: 'sandbox',
    baseUrl: 'http://sandbox.test',
    fetch: sandbox.fetch,
    tracerProvider: tel.tracerProvider,
    ...options,
  });

describe('payout batches in OpenTelemetry', () => {
  let sandbox: Sandbox;
  const manager = new AsyncLocalStorageContextManager();

  beforeEach(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterEach(async () => {
    context.disable();
    await sandbox?.close();
  });

  it('one span per reference under the batch span, with the reference, final state and transaction; its requests under it', async () => {
    sandbox = createSandbox();
    const tel = otel();
    const cb = tracedClient(sandbox, tel);
    const world = await setUpWorld(cb, 2);
    const [a, b] = instructions(world, 2, 'tel');
    const failing = {
      reference: 'tel-fail',
      source: { accountId: world.accountId },
      destination: { accountId: world.failingPayee },
      amount: 500,
      description: 'tel-fail',
    };
    const before = tel.spans().length; // the world's own calls
    const journal = new MemoryJournal();
    const summary = await createPayoutBatch({ client: cb, batchId: 'traced', journal, pollIntervalMs: 300 }).run([a!, b!, failing]);
    expect(summary.counts).toMatchObject({ completed: 2, failed: 1 });

    const spans = tel.spans().slice(before).map(plain);
    const batch = spans.filter((s) => s.name === 'crossborder.payouts.batch');
    expect(batch).toHaveLength(1);
    expect(batch[0]!.attributes).toEqual({
      'crossborder.payout.batch_id': 'traced',
      'crossborder.payout.total': 3,
      'crossborder.payout.completed': 2,
      'crossborder.payout.failed': 1,
      'crossborder.payout.needs_attention': 0,
      'crossborder.payout.rejected': 0,
    });
    const items = spans.filter((s) => s.name === 'crossborder.payout');
    expect(items.map((s) => s.attributes['crossborder.payout.reference']).sort()).toEqual([a!.reference, b!.reference, 'tel-fail'].sort());
    const records = new Map(journal.records().map((r) => [r.reference, r]));
    for (const item of items) {
      const reference = item.attributes['crossborder.payout.reference'] as string;
      const record = records.get(reference)!;
      expect(item.parentSpanId).toBe(batch[0]!.spanId);
      expect(item.traceId).toBe(batch[0]!.traceId);
      expect(item.kind).toBe(0); // INTERNAL
      expect(item.attributes).toMatchObject({
        'crossborder.payout.batch_id': 'traced',
        'crossborder.payout.state': record.state,
        'crossborder.transaction.id': record.transactionId,
        'crossborder.payout.attempts': 1,
      });
      // The reference's requests (its quote, its polls) are its children.
      const children = spans.filter((s) => s.parentSpanId === item.spanId);
      expect(children.map((s) => s.name)).toContain('POST /quotes');
      expect(children.every((s) => s.kind === 2)).toBe(true);
    }
    const failed = items.find((s) => s.attributes['crossborder.payout.reference'] === 'tel-fail')!;
    expect(failed.attributes['crossborder.payout.state']).toBe('failed');
    expect(failed.status).toEqual({ code: 2, message: records.get('tel-fail')!.lastError!.code });
    expect(items.find((s) => s.attributes['crossborder.payout.reference'] === a!.reference)!.status.code).toBe(0);
  });

  it('records nothing when the client records nothing (telemetry: false), and the batch runs the same', async () => {
    sandbox = createSandbox();
    const tel = otel();
    const cb = tracedClient(sandbox, tel, { telemetry: false });
    const world = await setUpWorld(cb, 1);
    const summary = await createPayoutBatch({ client: cb, batchId: 'untraced', journal: new MemoryJournal(), pollIntervalMs: 300 }).run(
      instructions(world, 2, 'off'),
    );
    expect(summary.counts.completed).toBe(2);
    expect(tel.spans()).toEqual([]);
  });

  it("a client whose telemetry is not a WorkTelemetry (a wrapper's own) is typed as before and still runs, without spans", async () => {
    sandbox = createSandbox();
    const tel = otel();
    const cb = tracedClient(sandbox, tel);
    const world = await setUpWorld(cb, 1);
    const before = tel.spans().length;
    // A wrapper over the client's resources whose `telemetry` is its own setting: the type accepts it (the public
    // type is `unknown`, as it was), and the batch does not call into it.
    const wrapper: PayoutClient = { quotes: cb.quotes, transactions: cb.transactions, receiver: cb.receiver, telemetry: { work: 'metrics-off' } };
    const summary = await createPayoutBatch({ client: wrapper, batchId: 'wrapped', journal: new MemoryJournal(), pollIntervalMs: 300 }).run(
      instructions(world, 2, 'wrapped'),
    );
    expect(summary.counts.completed).toBe(2);
    expect(
      tel
        .spans()
        .slice(before)
        .filter((s) => s.name.startsWith('crossborder.payout')),
    ).toEqual([]);
    // An option that is not a recorder either (`telemetry: true`) is not one: still no batch spans, still a run.
    const again = await createPayoutBatch({ client: cb, batchId: 'flagged', journal: new MemoryJournal(), pollIntervalMs: 300, telemetry: true }).run(
      instructions(world, 1, 'flagged'),
    );
    expect(again.counts.completed).toBe(1);
    expect(
      tel
        .spans()
        .slice(before)
        .filter((s) => s.name.startsWith('crossborder.payout')),
    ).toEqual([]);
    // The client's own recorder, given in the option to a wrapper without one, records the batch.
    const recorded = await createPayoutBatch({
      client: { ...wrapper, telemetry: undefined },
      batchId: 'given',
      journal: new MemoryJournal(),
      pollIntervalMs: 300,
      telemetry: cb.telemetry,
    }).run(instructions(world, 1, 'given'));
    expect(recorded.counts.completed).toBe(1);
    expect(
      tel
        .spans()
        .slice(before)
        .filter((s) => s.name === 'crossborder.payouts.batch')
        .map((s) => plain(s).attributes['crossborder.payout.batch_id']),
    ).toEqual(['given']);
  });
});
