/**
 * The runner's request slots: a slot is held only while a request is in flight (never across a journal
 * write), and the requests carry the run's signal, aborted when the run stops.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { APIUserAbortError } from '../../src/index';
import { createPayoutBatch, MemoryJournal, type PayoutCallOptions, type PayoutClient, type PayoutRecord } from '../../src/payouts/index';

const instruction = (reference: string) => ({
  reference,
  source: { accountId: 'InternalAccount:a' },
  destination: { accountId: 'ExternalAccount:b' },
  amount: 100,
});

/**
 * A client whose quotes answer after `ms` (COMPLETED), counting the requests in flight and keeping each
 * call's signal. It follows the signal as the SDK does, with a listener taken off when the call ends; and
 * notes the most abort listeners on it that are not its own calls' (what the runner adds per payout: none).
 */
function fakeClient(ms: number, hang = false) {
  let inFlight = 0;
  const seen = { peak: 0, othersListening: 0, calls: [] as { description: string | undefined; signal: AbortSignal | undefined }[] };
  let q = 0;
  const client: PayoutClient = {
    quotes: {
      create: async (body, options?: PayoutCallOptions) => {
        inFlight++;
        seen.peak = Math.max(seen.peak, inFlight);
        seen.calls.push({ description: (body as { description?: string }).description, signal: options?.signal });
        const signal = options?.signal;
        // Listening now: one for each of the other calls in flight (this fake's), and what else is on it.
        if (signal) seen.othersListening = Math.max(seen.othersListening, getEventListeners(signal, 'abort').length - (inFlight - 1));
        let onAbort: (() => void) | undefined;
        try {
          await new Promise<void>((resolve, reject) => {
            const timer = hang ? undefined : setTimeout(resolve, ms);
            onAbort = () => {
              clearTimeout(timer);
              reject(new APIUserAbortError('aborted', { outcomeUnknown: true }));
            };
            signal?.addEventListener('abort', onAbort, { once: true });
          });
        } finally {
          inFlight--;
          if (onAbort) signal?.removeEventListener('abort', onAbort);
        }
        q++;
        return {
          id: `Quote:${q}`,
          status: 'COMPLETED',
          transactionId: `Transaction:${q}`,
          totalSendingAmount: body.lockedCurrencyAmount,
          totalReceivingAmount: body.lockedCurrencyAmount,
        } as never;
      },
      execute: async () => ({}) as never,
    },
    transactions: { retrieve: async () => ({}) as never },
    receiver: { lookupUma: async () => ({}) as never },
  };
  return { client, seen };
}

describe('request slots', () => {
  it('a journal write that hangs holds no request slot: the other payouts use both slots meanwhile', async () => {
    const { client, seen } = fakeClient(20);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    class SlowJournal extends MemoryJournal {
      override async put(record: PayoutRecord): Promise<void> {
        if (record.reference === 'slow' && record.state === 'submitted') await held;
        return super.put(record);
      }
    }
    const batch = createPayoutBatch({ client, batchId: 'slots', journal: new SlowJournal(), maxConcurrency: 2, initialConcurrency: 2 });
    const run = batch.run(['slow', 'a', 'b', 'c', 'd', 'e'].map((reference) => instruction(reference)));
    // Until `slow` is journaled, it sends nothing: the others go two at a time.
    for (let i = 0; i < 200 && seen.calls.length < 5; i++) await new Promise((r) => setTimeout(r, 5));
    expect(seen.calls.map((c) => c.description)).not.toContain('slow');
    expect(seen.calls.length).toBe(5);
    expect(seen.peak).toBe(2);
    release();
    const summary = await run;
    expect(summary.counts.completed).toBe(6);
    expect(seen.peak).toBeLessThanOrEqual(2);
  });

  it("requests carry the run's signal, aborted when the run stops; the caller's signal is left with no listener", async () => {
    const { client, seen } = fakeClient(1);
    const user = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const batch = createPayoutBatch({
      client,
      batchId: 'signals',
      journal: new MemoryJournal(),
      maxConcurrency: 8,
      initialConcurrency: 8,
      signal: user.signal,
    });
    const summary = await batch.run(Array.from({ length: 300 }, (_, i) => instruction(`r${i}`)));
    await new Promise((r) => setTimeout(r, 10)); // (warnings are emitted on the next tick)
    process.off('warning', onWarning);
    expect(summary.counts.completed).toBe(300);
    // The run's signal had one listener of the runner's (its wake-up), not one per payout in flight (the
    // SDK follows it with one more, however many calls share it: test/core/dispatcher.test.ts). With this
    // fake's 8, never the signal's warning threshold (11; this fake used to leave its listeners on).
    expect(seen.peak).toBe(8);
    expect(seen.othersListening).toBe(1);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    // One signal for the run's requests (the SDK follows it with one listener: see test/core/dispatcher.test.ts).
    expect(new Set(seen.calls.map((c) => c.signal)).size).toBe(1);
    expect(seen.calls[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(getEventListeners(user.signal, 'abort').length).toBe(0);

    // A run stopped with requests in flight aborts each of their signals.
    const hanging = fakeClient(0, true);
    const stop = new AbortController();
    const stopped = createPayoutBatch({
      client: hanging.client,
      batchId: 'hang',
      journal: new MemoryJournal(),
      maxConcurrency: 4,
      initialConcurrency: 4,
      signal: stop.signal,
    });
    const run = stopped.run(Array.from({ length: 10 }, (_, i) => instruction(`h${i}`)));
    for (let i = 0; i < 200 && hanging.seen.calls.length < 4; i++) await new Promise((r) => setTimeout(r, 5));
    expect(hanging.seen.calls.length).toBe(4);
    expect(hanging.seen.calls.every((c) => c.signal && !c.signal.aborted)).toBe(true);
    stop.abort();
    await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
    expect(hanging.seen.calls.every((c) => c.signal?.aborted)).toBe(true);
  });
});
