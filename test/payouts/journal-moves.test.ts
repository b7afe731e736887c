/**
 * The state machine's check in every journal, whoever opened it: a file journal opened anew (another
 * object, or the same one reopened) knows each reference's state from its file, not only from what a
 * runner told it, so a record that is final is never written back; an illegal move writes nothing.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileJournal, MemoryJournal, PayoutJournalError, type PayoutRecord } from '../../src/payouts/index';
import { journalRecord } from './records';

const dir = mkdtempSync(join(tmpdir(), 'cb-journal-moves-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const place = () => {
  const d = join(dir, `t${n++}`);
  return { file: join(d, 'j.journal'), locks: join(d, 'locks'), d };
};

const refusal = async (put: Promise<void>): Promise<PayoutJournalError> => {
  const error = await put.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayoutJournalError);
  return error as PayoutJournalError;
};

/** Writes `records` with a journal of its own, closed after. */
async function written(file: string, locks: string, records: PayoutRecord[]): Promise<void> {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(locks, { recursive: true, mode: 0o700 });
  const journal = new FileJournal(file, { lockDirectory: locks });
  await journal.open('b');
  for (const r of records) await journal.put(r);
  await journal.close();
}

describe('a file journal opened anew refuses to move a record its file holds final', () => {
  it('another object on the file, its records not read: completed → submitted is refused, and the file is left byte for byte', async () => {
    const { file, locks } = place();
    await written(file, locks, [
      journalRecord('r1', 'pending'),
      journalRecord('r1', 'submitted'),
      journalRecord('r1', 'completed'),
      journalRecord('r2', 'submitted'),
    ]);
    const before = readFileSync(file, 'utf8');
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b'); // what it yields is never read
    const error = await refusal(journal.put(journalRecord('r1', 'submitted')));
    expect(error.reason).toBe('illegal_move');
    expect(error.message).toBe('Payout "r1": the journal refuses the move from completed to "submitted" (completed is final).');
    // A state taken from a change line (format 2: r2's later line carries only what changed).
    await expect(journal.put(journalRecord('r2', 'pending'))).rejects.toThrow('Payout "r2": the journal refuses the move from submitted to "pending".');
    await journal.close();
    expect(readFileSync(file, 'utf8')).toBe(before);
    // The moves the table allows are still written.
    const again = new FileJournal(file, { lockDirectory: locks });
    await again.open('b');
    await again.put(journalRecord('r2', 'processing'));
    await again.put(journalRecord('r3', 'pending'));
    expect((await again.get('r2'))?.state).toBe('processing');
    await again.close();
  });

  it('the same object reopened on a file another journal wrote since: the file says where each record is', async () => {
    const { file, locks } = place();
    await written(file, locks, [journalRecord('r1', 'pending')]);
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r1', 'submitted'));
    await journal.close();
    // Meanwhile another run completes it.
    const other = new FileJournal(file, { lockDirectory: locks });
    await other.open('b');
    await other.put(journalRecord('r1', 'completed'));
    await other.close();
    await journal.open('b');
    expect((await refusal(journal.put(journalRecord('r1', 'processing')))).reason).toBe('illegal_move');
    expect((await journal.get('r1'))?.state).toBe('completed');
    await journal.close();
  });

  it('a torn last line does not count: the state before it is where the next move starts', async () => {
    const { file, locks } = place();
    await written(file, locks, [journalRecord('r1', 'pending'), journalRecord('r1', 'submitted')]);
    // A kill as `completed` was written: the line never ended.
    appendFileSync(file, JSON.stringify(journalRecord('r1', 'completed')).slice(0, 60));
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r1', 'processing')); // submitted → processing: legal
    expect((await journal.get('r1'))?.state).toBe('processing');
    await journal.close();
  });
});

describe('the memory journal', () => {
  it('an illegal move writes nothing: the record, and every other, stay as they were', async () => {
    const journal = new MemoryJournal();
    await journal.open('b');
    await journal.put(journalRecord('r1', 'pending'));
    await journal.put(journalRecord('r1', 'failed', { attempts: 3 }));
    await journal.put(journalRecord('r2', 'pending'));
    const before = journal.records();
    const error = await refusal(journal.put(journalRecord('r1', 'submitted', { attempts: 4 })));
    expect(error.reason).toBe('illegal_move');
    expect(journal.records()).toEqual(before);
    expect(await journal.get('r1')).toEqual(journalRecord('r1', 'failed', { attempts: 3 }));
    // The same state again is allowed (a final record rewritten unchanged in state).
    await journal.put(journalRecord('r1', 'failed', { attempts: 5 }));
    expect((await journal.get('r1'))?.attempts).toBe(5);
  });
});

describe('the memory journal holds one batch, and gives copies', () => {
  it('open yields what it holds; another batch is refused (other_batch, naming both); get of an unknown reference is undefined', async () => {
    const journal = new MemoryJournal();
    expect([...(await journal.open('b'))]).toEqual([]);
    await journal.put(journalRecord('r1', 'pending'));
    await journal.put(journalRecord('r2', 'submitted'));
    expect([...(await journal.open('b'))]).toEqual([journalRecord('r1', 'pending'), journalRecord('r2', 'submitted')]);
    const error = await journal.open('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutJournalError);
    expect(error).toMatchObject({ name: 'PayoutJournalError', reason: 'other_batch', message: 'This journal holds batch b, not c.' });
    expect(await journal.get('r3')).toBeUndefined();
    // records() and get() are copies: changing one changes nothing held.
    const copy = journal.records();
    expect(copy).toEqual([journalRecord('r1', 'pending'), journalRecord('r2', 'submitted')]);
    copy[0]!.state = 'completed';
    const got = (await journal.get('r1'))!;
    got.attempts = 99;
    expect(await journal.get('r1')).toEqual(journalRecord('r1', 'pending'));
  });
});
