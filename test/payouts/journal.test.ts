/** The file journal (torn lines, corruption, the lock) and the adaptive concurrency's bounds. */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AdaptiveConcurrency,
  createPayoutBatch,
  FileJournal,
  journalRecords,
  PayoutJournalError,
  readJournalFile,
  type PayoutClient,
  type PayoutRecord,
} from '../../src/payouts/index';
import { RateLimitError } from '../../src/index';
import { defaultLockDirectory } from '../../src/payouts/file-lock';
import { journalRecord, lockOf as lockIn } from './records';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cb-journal-'));
  dirs.push(d);
  return d;
};

/** The lock of the journal file at `file` (the default lock folder). */
const lockOf = (file: string) => lockIn(file, defaultLockDirectory());

const record = (reference: string, state: PayoutRecord['state'] = 'submitted'): PayoutRecord =>
  journalRecord(reference, state, { updatedAt: '2026-11-27T00:00:00.000Z' });

describe('FileJournal', () => {
  it('keeps the latest record of each reference across a reopen', async () => {
    const file = join(tmp(), 'j');
    const journal = new FileJournal(file);
    expect([...(await journal.open('b'))]).toEqual([]);
    await Promise.all([journal.put(record('r1')), journal.put(record('r2')), journal.put({ ...record('r1'), state: 'completed' })]);
    await journal.close();
    const again = new FileJournal(file);
    const loaded = [...(await again.open('b'))];
    expect(loaded.map((r) => [r.reference, r.state]).sort()).toEqual([
      ['r1', 'completed'],
      ['r2', 'submitted'],
    ]);
    await again.close();
  });

  it('keeps only where each line starts: get() and open() read the records back from the file; journalRecords streams them', async () => {
    const file = join(tmp(), 'j');
    const journal = new FileJournal(file);
    await journal.open('b');
    const put = journal.put({ ...record('r1'), attempts: 7 });
    expect((await journal.get('r1'))?.attempts).toBe(7); // not written yet: read from what is queued
    await put;
    await journal.put(record('r2'));
    await journal.put({ ...record('r1'), state: 'completed', attempts: 8 });
    // Change the bytes of r1's latest line on disk (same length): get() answers what the file says.
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"attempts":8', '"attempts":9'));
    expect(await journal.get('r1')).toMatchObject({ state: 'completed', attempts: 9 });
    expect(await journal.get('r3')).toBeUndefined();
    await journal.close();
    const again = new FileJournal(file);
    expect([...(await again.open('b'))].map((r) => [r.reference, r.state, r.attempts])).toEqual([
      ['r2', 'submitted', 1],
      ['r1', 'completed', 9],
    ]); // the latest of each, in file order
    await again.close();
    appendFileSync(file, '{"reference":"r4","sta'); // torn
    const { batchId, records } = journalRecords(file);
    expect(batchId).toBe('b');
    expect([...records].map((r) => r.reference)).toEqual(['r2', 'r1']);
    appendFileSync(file, `\n${JSON.stringify(record('r5'))}\n`); // a bad line with a record after it
    expect(() => journalRecords(file)).toThrow(PayoutJournalError);
  });

  it('drops a torn last line (a kill mid-write), cuts it off the file, and appends after it', async () => {
    const file = join(tmp(), 'j');
    const journal = new FileJournal(file);
    await journal.open('b');
    await journal.put(record('r1'));
    await journal.close();
    const whole = readFileSync(file, 'utf8');
    const torn = JSON.stringify({ ...record('r1'), state: 'completed' }).slice(0, 40);
    appendFileSync(file, torn);
    const again = new FileJournal(file);
    expect([...(await again.open('b'))].map((r) => r.state)).toEqual(['submitted']);
    expect(readFileSync(file, 'utf8')).toBe(whole);
    await again.put(record('r2'));
    await again.close();
    expect(
      readJournalFile(file)
        .records.map((r) => r.reference)
        .sort(),
    ).toEqual(['r1', 'r2']);
    // A torn line that happens to end in a newline's place (the last line is not JSON) is dropped too.
    appendFileSync(file, '{"reference":"r3","sta\n');
    const third = new FileJournal(file);
    expect([...(await third.open('b'))].map((r) => r.reference).sort()).toEqual(['r1', 'r2']);
    await third.close();
  });

  it('refuses a bad line with records after it (corruption, not a torn write), and another batch', async () => {
    const file = join(tmp(), 'j');
    const journal = new FileJournal(file);
    await journal.open('b');
    await journal.put(record('r1'));
    await journal.close();
    appendFileSync(file, 'garbage\n' + JSON.stringify(record('r2')) + '\n');
    const err = await new FileJournal(file).open('b').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayoutJournalError);
    expect(err).toMatchObject({ reason: 'corrupt', message: expect.stringContaining('line 3') });
    expect(existsSync(lockOf(file))).toBe(false); // released on failure
    const other = join(tmp(), 'k');
    const j2 = new FileJournal(other);
    await j2.open('b');
    await j2.close();
    await expect(new FileJournal(other).open('c')).rejects.toMatchObject({ reason: 'other_batch' });
  });

  it('one writer: a live holder of the lock refuses a second, a dead one (kill -9) is taken over', async () => {
    const file = join(tmp(), 'j');
    const first = new FileJournal(file);
    await first.open('b');
    await expect(new FileJournal(file).open('b')).rejects.toMatchObject({ reason: 'locked', message: expect.stringContaining(String(process.pid)) });
    // A run refused by the lock reports no progress (the CLI printed a line of zeros before the error).
    const events: unknown[] = [];
    const refused = createPayoutBatch({
      client: { quotes: {}, transactions: {}, receiver: {} } as never,
      batchId: 'b',
      journal: new FileJournal(file),
      onProgress: (p) => events.push(p),
    });
    await expect(refused.run([])).rejects.toMatchObject({ reason: 'locked' });
    expect(events).toEqual([]);
    await first.close();
    // The lock of a process that was killed stays behind: it names a pid that no longer runs.
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = await new Promise<number>((resolve) => child.once('exit', () => resolve(child.pid!)));
    const { hostname } = await import('node:os');
    const stale = `${deadPid}@${hostname()} ${'0'.repeat(32)}\n`;
    writeFileSync(lockOf(file), stale);
    const next = new FileJournal(file);
    await next.open('b');
    expect(readFileSync(lockOf(file), 'utf8')).toMatch(new RegExp(`^${process.pid}@${hostname()} [0-9a-f]{32}\n$`));
    await next.close();
    expect(existsSync(lockOf(file))).toBe(false);
  });
});

describe('AdaptiveConcurrency', () => {
  it('grows from its start while answers are fast, never past max, paces (neither halves nor pauses) on a throttle', () => {
    let now = 0;
    const c = new AdaptiveConcurrency({ max: 10, initial: 2, now: () => now });
    expect(c.limit).toBe(2);
    for (let i = 0; i < 50; i++) {
      const started = now;
      now += 10;
      c.answered(started);
    }
    expect(c.limit).toBe(10);
    // Answers were taken one per 10 ms: the pace is set a little under that (issue 47 §5; ./concurrency-pacing.test.ts).
    c.throttled(2_000);
    expect(c.limit).toBe(10);
    expect(c.pausedUntil).toBe(0);
    expect(c.intervalMs).toBeCloseTo(10 / 0.95, 6);
    expect(c.canStart()).toBe(false);
    expect(c.waitMs()).toBeCloseTo(10 / 0.95, 6);
    c.throttled(1_000); // the same round of refusals: no second slow-down
    expect(c.intervalMs).toBeCloseTo(10 / 0.95, 6);
    now += 11;
    expect(c.canStart()).toBe(true);
    // Slow answers (far past the fastest seen) shrink it.
    const before = c.limit;
    for (let i = 0; i < 5; i++) {
      const started = now;
      now += 1_000;
      c.answered(started);
    }
    expect(c.limit).toBeLessThan(before);
    expect(() => new AdaptiveConcurrency({ max: 0 })).toThrow(/maxConcurrency/);
  });

  it('the runner never has more requests in flight than maxConcurrency, and one 429 paces the batch instead of pausing it for the Retry-After', async () => {
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const waits: number[] = [];
    let lastRefusal = 0;
    const slow = async <T>(value: T): Promise<T> => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return value;
    };
    const client: PayoutClient = {
      quotes: {
        create: async (body) => {
          calls++;
          if (calls === 20) {
            lastRefusal = performance.now();
            throw new RateLimitError({ status: 429, code: 'RATE_LIMITED', message: 'slow down', retryAfter: 300 });
          }
          if (calls === 21) waits.push(performance.now() - lastRefusal);
          return slow({
            id: `Quote:${calls}`,
            status: 'COMPLETED',
            transactionId: `Transaction:${body.description}`,
            totalSendingAmount: body.lockedCurrencyAmount,
            totalReceivingAmount: body.lockedCurrencyAmount,
            feesIncluded: 0,
            exchangeRate: 1,
            sendingCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
            receivingCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
          } as never);
        },
        execute: async () => {
          throw new Error('not used');
        },
      },
      transactions: { retrieve: async () => ({}) as never },
      receiver: { lookupUma: async () => ({}) as never },
    };
    const { MemoryJournal } = await import('../../src/payouts/index');
    const list = Array.from({ length: 200 }, (_, i) => ({
      reference: `r${i}`,
      source: { accountId: 'a' },
      destination: { accountId: 'b' },
      amount: 1 + i,
      description: `r${i}`,
    }));
    const summary = await createPayoutBatch({ client, batchId: 'c', journal: new MemoryJournal(), maxConcurrency: 3 }).run(list);
    expect(summary.counts.completed).toBe(200);
    expect(most).toBe(3);
    // The next request did not wait out the refused one's 300 ms Retry-After (the batch is paced, not paused).
    expect(waits[0]).toBeLessThan(290);
  });
});
