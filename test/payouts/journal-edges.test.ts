/**
 * The file journal between two of its steps: a put while close is under way, a reference put again
 * while its previous line is being written, a failed write whose cut-back fails too, and a file
 * replaced by one on another device that happens to have the same inode number, and a record whose line
 * is longer than the readers' 1 MiB reads.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { FileJournal, PayoutJournalError } from '../../src/payouts/index';
import { journalRecords } from '../../src/payouts/file-journal';
import { journalRecord } from './records';

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs/promises')>();
  return { ...original, open: vi.fn(original.open) };
});
const realOpen = (await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises')).open;
afterEach(() => {
  vi.mocked(fsp.open).mockImplementation(realOpen);
});

const dir = mkdtempSync(join(tmpdir(), 'cb-journal-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
/** A new journal file's path, with a lock folder of its own. */
const place = () => {
  const d = join(dir, `t${n++}`);
  mkdirSync(join(d, 'locks'), { recursive: true, mode: 0o700 });
  return { file: join(d, 'j.journal'), locks: join(d, 'locks') };
};
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('close', () => {
  it('a put made once close has begun is refused (closed, naming the file) and writes nothing', async () => {
    const { file, locks } = place();
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r1', 'pending'));
    const closing = journal.close();
    const late = journal.put(journalRecord('r2', 'pending'));
    await expect(late).rejects.toMatchObject({ reason: 'closed', message: `${file} is not open.` });
    await closing;
    expect(lines(file).map((l) => l.reference ?? 'header')).toEqual(['header', 'r1']);
  });
});

describe('a reference put again while its previous line is being written', () => {
  it('get answers the newer record from the moment it is put, also once the older line is on disk', async () => {
    const { file, locks } = place();
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    const first = journal.put(journalRecord('r1', 'pending'));
    const second = journal.put(journalRecord('r1', 'submitted'));
    expect((await journal.get('r1'))?.state).toBe('submitted');
    await first; // the older line is written; the newer one is still on its way
    expect((await journal.get('r1'))?.state).toBe('submitted');
    await second;
    expect((await journal.get('r1'))?.state).toBe('submitted');
    await journal.close();
    expect([...(await journal.open('b'))].map((r) => [r.reference, r.state])).toEqual([['r1', 'submitted']]);
    await journal.close();
  });
});

describe('a write that fails halfway, and whose cut-back fails too', () => {
  it('every later put is refused (corrupt, naming the file) and writes nothing; opened again, the part line is cut off and the journal writes on', async () => {
    const { file, locks } = place();
    let failNext = false;
    vi.mocked(fsp.open).mockImplementationOnce(async (...args: Parameters<typeof fsp.open>) => {
      const handle = await realOpen(...args);
      const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<{ bytesWritten: number }>;
      handle.write = (async (...a: unknown[]) => {
        if (!failNext || !Buffer.isBuffer(a[0])) return write(...a);
        failNext = false;
        const [buffer, offset, length] = a as [Buffer, number, number];
        await write(buffer, offset, Math.floor(length / 2)); // half the line reaches the disk
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }) as typeof handle.write;
      handle.truncate = () => Promise.reject(Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' }));
      return handle;
    });
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r1', 'pending'));
    const before = readFileSync(file, 'utf8');
    failNext = true;
    // r2's line fails halfway; r3, put while r2's group is written, and r4, put after, are refused too.
    const r2 = journal.put(journalRecord('r2', 'pending'));
    const r3 = journal.put(journalRecord('r3', 'pending'));
    await expect(r2).rejects.toThrow(/^ENOSPC/);
    const broken = {
      reason: 'corrupt',
      message: `${file}: a failed write left part of a line at its end, which could not be cut off (EIO: i/o error, ftruncate); nothing more is written to it. Close the journal and open it again: the open cuts that part off.`,
    };
    await expect(r3).rejects.toMatchObject(broken);
    await expect(journal.put(journalRecord('r4', 'pending'))).rejects.toMatchObject(broken);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).not.toContain('\n'); // only r2's half line, nothing joined to it
    expect(after.length).toBeGreaterThan(before.length);
    expect((await journal.get('r1'))?.state).toBe('pending');
    await journal.close();

    // Opened again: the part line is cut off, and the journal writes on.
    expect([...(await journal.open('b'))].map((r) => r.reference)).toEqual(['r1']);
    expect(readFileSync(file, 'utf8')).toBe(before);
    await journal.put(journalRecord('r4', 'pending'));
    await journal.close();
    expect(lines(file).map((l) => l.reference ?? 'header')).toEqual(['header', 'r1', 'r4']);
  });
});

describe('the file replaced while it is opened', () => {
  it('by one on another device with the same inode number: refused (locked), naming it', async () => {
    const { file, locks } = place();
    vi.mocked(fsp.open).mockImplementationOnce(async (...args: Parameters<typeof fsp.open>) => {
      const handle = await realOpen(...args);
      const stat = handle.stat.bind(handle);
      handle.stat = (async (options?: { bigint?: boolean }) => {
        const s = await stat(options as { bigint: true });
        return Object.assign(s, { dev: s.dev + 1n });
      }) as typeof handle.stat;
      return handle;
    });
    const journal = new FileJournal(file, { lockDirectory: locks });
    await expect(journal.open('b')).rejects.toMatchObject({
      reason: 'locked',
      message: `${file} was replaced by another file while it was being opened; open it again.`,
    });
    expect(statSync(file).size).toBe(0);
  });
});

describe('a record whose line is longer than a read (1 MiB)', () => {
  it('is read back whole by journalRecords (status and report), by open and by get', async () => {
    const { file, locks } = place();
    const long = 'é'.repeat(700_000); // 1.4 MB of UTF-8 in one field (a reason kept as the service sent it)
    const record = journalRecord('r1', 'failed', { failureReason: long });
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r0', 'pending'));
    await journal.put(record);
    await journal.put(journalRecord('r2', 'pending'));
    expect(await journal.get('r1')).toEqual(record);
    await journal.close();
    const read = journalRecords(file);
    expect(read.batchId).toBe('b');
    expect([...read.records]).toEqual([journalRecord('r0', 'pending'), record, journalRecord('r2', 'pending')]);
    expect([...(await journal.open('b'))]).toEqual([journalRecord('r0', 'pending'), record, journalRecord('r2', 'pending')]);
    await journal.close();
  });
});

describe('a whole record line that a kill cut just before its newline', () => {
  it('is dropped by journalRecords (status and report) as by the next open: both read the same records', async () => {
    const { file, locks } = place();
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r0', 'pending'));
    await journal.put(journalRecord('r1', 'pending'));
    await journal.close();
    // The kill: the next line written whole but its newline not (never confirmed to the runner).
    appendFileSync(file, JSON.stringify(journalRecord('r1', 'submitted')));
    const read = journalRecords(file);
    expect([...read.records]).toEqual([journalRecord('r0', 'pending'), journalRecord('r1', 'pending')]);
    expect([...(await journal.open('b'))]).toEqual([journalRecord('r0', 'pending'), journalRecord('r1', 'pending')]);
    await journal.close();
    // The open cut it off: the file ends with a newline again.
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
  });
});

describe('what a reader finds where a record should be', () => {
  it('a changed-fields line naming another line as its full one: corrupt, naming the reference (status, report and open)', async () => {
    const { file, locks } = place();
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r1', 'pending'));
    await journal.close();
    // A line of what changed (format 2) naming the header (byte 0), not r1's full line, as its full one.
    const { instruction: _i, fingerprint: _f, keys: _k, ...changing } = journalRecord('r1', 'submitted');
    appendFileSync(file, `{"b":0,${JSON.stringify(changing).slice(1)}\n`);
    const read = journalRecords(file);
    let thrown: unknown;
    try {
      [...read.records];
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PayoutJournalError);
    expect((thrown as PayoutJournalError).reason).toBe('corrupt');
    expect((thrown as Error).message).toContain('"r1" names its full line at byte 0');
  });

  it('a record whose line is cut after status found it (the file truncated under a reader): corrupt, "has no end"', async () => {
    const { file, locks } = place();
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r0', 'pending'));
    await journal.put(journalRecord('r1', 'pending'));
    await journal.close();
    const read = journalRecords(file);
    const size = statSync(file).size;
    truncateSync(file, size - 5); // r1's line loses its end after the first pass noted where it starts
    let thrown: unknown;
    try {
      [...read.records];
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PayoutJournalError);
    expect((thrown as PayoutJournalError).reason).toBe('corrupt');
    expect((thrown as Error).message).toMatch(/the record at byte \d+ has no end/);
  });

  it('a journal path that cannot be opened for another reason than its absence (a folder there) is refused, not taken as a new journal', async () => {
    const { file, locks } = place();
    mkdirSync(file);
    const journal = new FileJournal(file, { lockDirectory: locks });
    await expect(journal.open('b')).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
