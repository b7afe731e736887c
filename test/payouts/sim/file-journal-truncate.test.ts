/**
 * A crash at any byte (issue 47 §8): a small REAL `FileJournal` file, cut at every byte offset, opened
 * again. Each cut either is refused clearly (a `PayoutJournalError` naming the file) or reads as a
 * consistent prefix: exactly the records of the puts whose lines are whole in what is left, never a
 * record that was not written, never a later state with an earlier line's fields. The readers without a
 * lock (`journalRecords`, `readJournalFile`, for `payouts status` and `report`) are held to the same, at every
 * offset; the journal's own open at every offset with PAYOUTS_FULL=1 (`npm run test:payouts`), and in the
 * fast run at every offset near a line's end or inside a multi-byte character, and every 5th between.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileJournal, journalRecords, PayoutJournalError, readJournalFile, type PayoutRecord, type PayoutState } from '../../../src/payouts/index';

const FULL = process.env.PAYOUTS_FULL === '1';
/** A memory file system where there is one (its fsyncs cost nothing: the parsing is under test here, not the disk). */
const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'sim-journal-cut-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BATCH = 'cut-batch';
const plain = (r: PayoutRecord): PayoutRecord => JSON.parse(JSON.stringify(r)) as PayoutRecord;
const byReference = (records: Iterable<PayoutRecord>) => [...records].map(plain).sort((a, b) => a.reference.localeCompare(b.reference));

function record(reference: string, amount: number): PayoutRecord {
  return {
    reference,
    state: 'pending',
    fingerprint: `f2:${reference}`,
    instruction: { reference, source: { accountId: 'I:a' }, destination: { accountId: `E:${reference}` }, amount, description: 'é𝄞' },
    keys: { create: `k-${reference}-c`, execute: `k-${reference}-e` }, // short: the fewer bytes, the fewer cuts to open
    attempts: 0,
    updatedAt: '2026-11-30T09:00:00.000Z',
  };
}

/** Writes the journal one put at a time; returns its bytes and, after each put, the records it then holds. */
async function writeJournal(path: string): Promise<{ bytes: Buffer; after: PayoutRecord[][] }> {
  const journal = new FileJournal(path, { lock: false });
  await journal.open(BATCH);
  const a = record('a-1', 100);
  const b = record('b-2', 200);
  const latest = new Map<string, PayoutRecord>();
  const after: PayoutRecord[][] = [[]]; // after the header: nothing
  const put = async (r: PayoutRecord, state: PayoutState, change: (r: PayoutRecord) => void = () => {}) => {
    r.state = state;
    change(r);
    await journal.put(r); // one line per put (each awaited: no group of two)
    latest.set(r.reference, plain(r));
    after.push(byReference(latest.values()));
  };
  await put(a, 'pending');
  await put(a, 'submitted', (r) => (r.attempts = 1));
  await put(b, 'submitted', (r) => (r.attempts = 1));
  await put(a, 'processing', (r) => {
    r.transactionId = 'T:1';
    r.quote = { quoteId: 'Q:1', sendingAmount: 101, sendingCurrency: 'USD', receivingAmount: 100, receivingCurrency: 'USD', fees: 1, exchangeRate: 1 };
  });
  await put(b, 'needs_attention', (r) => (r.lastError = { code: 'OUTCOME_UNKNOWN', message: 'No answer for 361 min' }));
  await put(a, 'completed', (r) => (r.transactionStatus = 'COMPLETED'));
  await journal.close();
  return { bytes: readFileSync(path), after };
}

describe('file journal: cut at every byte', () => {
  it('reopening a journal cut at any byte refuses clearly or reads exactly the puts whose lines are whole', async () => {
    const { bytes, after } = await writeJournal(join(dir, 'whole.journal'));
    const lines = bytes.toString('utf8').split('\n').length - 1;
    expect(lines).toBe(after.length); // the header and one line per put
    let refused = 0;
    let read = 0;
    const cut = join(dir, 'cut.journal');
    for (let length = 0; length <= bytes.length; length++) {
      const prefix = bytes.subarray(0, length);
      // Whole lines in the prefix: the header is line 1, then one per put.
      let whole = 0;
      for (const byte of prefix) if (byte === 10) whole++;
      const expected = whole === 0 ? [] : after[whole - 1]!;
      const where = `cut at byte ${length} of ${bytes.length} (${whole} whole lines)`;

      // The readers without a lock first (they never change the file).
      writeFileSync(cut, prefix);
      for (const reader of [() => [...journalRecords(cut).records], () => readJournalFile(cut).records]) {
        let records: PayoutRecord[] | undefined;
        try {
          records = reader();
        } catch (error) {
          expect(error, where).toBeInstanceOf(PayoutJournalError);
          expect((error as Error).message, where).toContain(cut);
          continue;
        }
        expect(byReference(records), where).toEqual(expected);
      }

      // Then the journal itself, and a second open that reads what the first left (a torn tail cut off). With
      // PAYOUTS_FULL=1 at every offset; in the fast run (an open is a few file calls through the thread
      // pool) within 3 bytes of each line's end, in every UTF-8 sequence of the description, and at every
      // 5th offset between.
      const nearEnd = [-3, -2, -1, 0, 1, 2, 3].some((d) => bytes[length + d] === 10);
      const inSequence = length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80; // a cut inside a multi-byte character
      if (!FULL && !nearEnd && !inSequence && length % 5 !== 0) continue;
      for (const pass of [1, 2]) {
        const journal = new FileJournal(cut, { lock: false });
        let records: PayoutRecord[] | undefined;
        try {
          records = [...(await journal.open(BATCH))];
        } catch (error) {
          expect(error, `${where}, open ${pass}`).toBeInstanceOf(PayoutJournalError);
          expect((error as Error).message, where).toContain(cut);
          refused++;
          await journal.close();
          break;
        }
        read++;
        expect(byReference(records), `${where}, open ${pass}`).toEqual(expected);
        // `get` agrees with what open yielded, for every reference (and knows none that was not written).
        for (const reference of ['a-1', 'b-2']) {
          const got = await journal.get(reference);
          expect(got === undefined ? undefined : plain(got), `${where}: get(${reference})`).toEqual(expected.find((r) => r.reference === reference));
        }
        await journal.close();
      }
    }
    // Every cut inside the header (no whole line) reads as an empty journal; so most cuts read, none invents.
    expect(read).toBeGreaterThan(FULL ? bytes.length : bytes.length / 5);
    expect(refused).toBeLessThan(read);
  }, 180_000);
});
