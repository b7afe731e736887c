/**
 * Writing a file journal: what its constructor and an unopened or closed journal refuse, a path that is
 * no regular file, the lock option, when a format-2 line is written whole (a record whose instruction,
 * fingerprint or keys changed, or one put before the journal was opened again), and a close that waits
 * for every line put before it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileJournal, PayoutJournalError, payoutKey, readJournalFile, type PayoutRecord } from '../../src/payouts/index';
import { journalRecord } from './records';

const dir = mkdtempSync(join(tmpdir(), 'cb-journal-writing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `j${n++}`);
const locks = join(dir, 'locks');
mkdirSync(locks, { mode: 0o700 });
/** The file's lines after the header, parsed. */
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('what a file journal refuses', () => {
  it('a path that is not a non-empty string: a TypeError naming it', () => {
    for (const path of ['', 5, undefined]) expect(() => new FileJournal(path as string)).toThrow(new TypeError('path: expected the journal file path'));
  });

  it('put before open or after close: closed, naming the file; get answers undefined; a second open while open: closed', async () => {
    const path = fresh();
    const journal = new FileJournal(path, { lockDirectory: locks });
    await expect(journal.put(journalRecord('r1', 'pending'))).rejects.toThrow(new PayoutJournalError('closed', `${path} is not open.`));
    expect(await journal.get('r1')).toBeUndefined();
    await journal.open('b');
    await journal.put(journalRecord('r1', 'pending'));
    await expect(journal.open('b')).rejects.toMatchObject({ reason: 'closed', message: `${path} is open already.` });
    expect((await journal.get('r1'))?.state).toBe('pending'); // the refused second open changed nothing
    await journal.close();
    await journal.close(); // twice: nothing more
    expect(await journal.get('r1')).toBeUndefined();
    await expect(journal.put(journalRecord('r1', 'submitted'))).rejects.toMatchObject({ reason: 'closed' });
    expect(readJournalFile(path).records).toEqual([journalRecord('r1', 'pending')]);
  });

  it('a path that is no regular file (a FIFO): not a payout journal, named; nothing written to it', async () => {
    const path = fresh();
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    await expect(new FileJournal(path, { lockDirectory: locks }).open('b')).rejects.toMatchObject({
      reason: 'corrupt',
      message: `${path} is not a payout journal (not a regular file).`,
    });
  });

  it('lock: false takes no lock (two journals open on one file); by default the second is refused', async () => {
    const path = fresh();
    const a = new FileJournal(path, { lock: false, lockDirectory: locks });
    const b = new FileJournal(path, { lock: false, lockDirectory: locks });
    await a.open('b');
    await b.open('b');
    await a.close();
    await b.close();
    const c = new FileJournal(path, { lockDirectory: locks });
    await c.open('b');
    await expect(new FileJournal(path, { lockDirectory: locks }).open('b')).rejects.toMatchObject({ reason: 'locked' });
    await c.close();
  });
});

describe('format 2: when a line is written whole', () => {
  it('a record object put again writes only what changed, unless its instruction, fingerprint or keys changed: then the whole record', async () => {
    const path = fresh();
    const journal = new FileJournal(path, { lockDirectory: locks });
    await journal.open('b');
    const r: PayoutRecord = journalRecord('r1', 'pending');
    await journal.put(r);
    r.state = 'submitted';
    await journal.put(r);
    // Fresh keys (the lookup proved it was never moved): the new keys must be what a reopen reads.
    r.keys = { create: payoutKey('b2', 'r1', 'create'), execute: payoutKey('b2', 'r1', 'execute') };
    await journal.put(r);
    r.attempts = 2;
    await journal.put(r);
    r.fingerprint = 'f-changed';
    await journal.put(r);
    r.instruction = { ...r.instruction, amount: 101 };
    await journal.put(r);
    r.state = 'processing';
    await journal.put(r);
    await journal.close();
    expect(lines(path).map((l) => ('b' in l ? 'change' : 'whole'))).toEqual(['whole', 'change', 'whole', 'change', 'whole', 'whole', 'change']);
    const again = new FileJournal(path, { lockDirectory: locks });
    expect([...(await again.open('b'))]).toEqual([
      {
        ...journalRecord('r1', 'processing'),
        attempts: 2,
        fingerprint: 'f-changed',
        keys: r.keys,
        instruction: { ...journalRecord('r1').instruction, amount: 101 },
      },
    ]);
    await again.close();
  });

  it('a record put before the journal was closed is written whole after it opens again (its old line may be gone: the file was replaced meanwhile)', async () => {
    const path = fresh();
    const journal = new FileJournal(path, { lockDirectory: locks });
    await journal.open('b');
    const r = journalRecord('r1', 'pending');
    await journal.put(r);
    await journal.close();
    // The file replaced by another journal of the batch, with other lines before r1's.
    rmSync(path);
    const other = new FileJournal(path, { lockDirectory: locks });
    await other.open('b');
    await other.put(journalRecord('r0', 'pending', { instruction: { ...journalRecord('r0').instruction, description: 'x'.repeat(500) } }));
    await other.put(journalRecord('r1', 'pending'));
    await other.close();
    await journal.open('b');
    r.state = 'submitted';
    await journal.put(r);
    await journal.close();
    expect('b' in lines(path).at(-1)!).toBe(false);
    expect(readJournalFile(path).records.find((x) => x.reference === 'r1')).toEqual(journalRecord('r1', 'submitted'));
  });
});

describe('close', () => {
  it('waits for every line put before it: 200 puts not awaited, then close; each is on disk and resolved', async () => {
    const path = fresh();
    const journal = new FileJournal(path, { lockDirectory: locks });
    await journal.open('b');
    let resolved = 0;
    const puts = Array.from({ length: 200 }, (_, i) => journal.put(journalRecord(`r${i}`, 'pending')).then(() => void resolved++));
    await journal.close();
    expect(resolved).toBe(200);
    await Promise.all(puts);
    expect(readJournalFile(path).records.map((r) => r.reference)).toEqual(Array.from({ length: 200 }, (_, i) => `r${i}`));
  });
});
