/**
 * The file journal between two of its steps: a put while close is under way, a reference put again
 * while its previous line is being written, a failed write whose cut-back fails too, and a file
 * replaced by one on another device that happens to have the same inode number, a record whose line
 * is longer than the readers' 1 MiB reads, a short write (fewer bytes written than asked), and a failed
 * write followed by a put of the same reference (after it, or queued while it was on its way).
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

/**
 * The journal's next open of its file (fs/promises' `open`) answers a handle whose `write` of a Buffer (a
 * group of lines; the header is written as a string) is `writeOf(write, buffer, offset, length)`.
 */
const stubWrites = (
  writeOf: (
    write: (buffer: Buffer, offset: number, length: number) => Promise<{ bytesWritten: number }>,
    buffer: Buffer,
    offset: number,
    length: number,
  ) => Promise<{ bytesWritten: number }>,
) => {
  vi.mocked(fsp.open).mockImplementationOnce(async (...args: Parameters<typeof fsp.open>) => {
    const handle = await realOpen(...args);
    const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<{ bytesWritten: number }>;
    handle.write = ((...a: unknown[]) => {
      if (!Buffer.isBuffer(a[0])) return write(...a);
      const [buffer, offset, length] = a as [Buffer, number, number];
      return writeOf((b, o, l) => write(b, o, l), buffer, offset, length);
    }) as typeof handle.write;
    return handle;
  });
};

describe('a short write (the file system writes fewer bytes than asked)', () => {
  it('the rest is written after it: the file holds each line once, whole, in order, and every reader reads the records', async () => {
    const { file, locks } = place();
    // Every write of a group's lines writes half of what it is asked (at least a byte): a group goes out in many writes.
    const calls: { offset: number; length: number; written: number }[] = [];
    stubWrites(async (write, buffer, offset, length) => {
      const { bytesWritten } = await write(buffer, offset, Math.max(1, Math.floor(length / 2)));
      calls.push({ offset, length, written: bytesWritten });
      return { bytesWritten };
    });
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    const r1 = journalRecord('r1', 'pending', { failureReason: 'é'.repeat(40) }); // bytes, not UTF-16 units
    const r2 = journalRecord('r2', 'pending');
    const r3 = journalRecord('r3', 'pending');
    await journal.put(r1);
    await Promise.all([journal.put(r2), journal.put(r3)]); // one group of two lines
    r1.state = 'submitted';
    await journal.put(r1); // a line of what changed, naming r1's full line by its byte offset
    // Each group's first write was short, and the next one asked for the rest from where it stopped.
    expect(calls.length).toBeGreaterThan(6);
    expect(calls[0]).toMatchObject({ offset: 0 });
    expect(calls[1]).toEqual({ offset: calls[0]!.written, length: calls[0]!.length - calls[0]!.written, written: expect.any(Number) as number });
    for (const c of calls) expect(c.written).toBe(Math.max(1, Math.floor(c.length / 2)));

    const header = readFileSync(file, 'utf8').split('\n')[0]!;
    const r1At = Buffer.byteLength(`${header}\n`);
    const { instruction: _i, fingerprint: _f, keys: _k, ...changing } = r1;
    const expected = [
      header,
      JSON.stringify(journalRecord('r1', 'pending', { failureReason: 'é'.repeat(40) })),
      JSON.stringify(r2),
      JSON.stringify(r3),
      `{"b":${r1At},${JSON.stringify(changing).slice(1)}`,
    ].join('\n');
    expect(readFileSync(file, 'utf8')).toBe(`${expected}\n`);
    expect(statSync(file).size).toBe(Buffer.byteLength(`${expected}\n`));
    const want = [r2, r3, { ...r1 }]; // in the order of each reference's latest line
    for (const r of want) expect(await journal.get(r.reference)).toEqual(r);
    // The next put after the short writes starts where they ended.
    await journal.put(journalRecord('r4', 'pending'));
    await journal.close();
    expect([...journalRecords(file).records]).toEqual([...want, journalRecord('r4', 'pending')]);
    expect([...(await journal.open('b'))]).toEqual([...want, journalRecord('r4', 'pending')]);
    await journal.close();
  });
});

describe('a failed write, and a later put of the same reference', () => {
  /**
   * The journal's writes of lines, steered: `fail()` makes the next one write half its lines and fail (no space
   * left; the journal cuts the half line off), `hold()` makes the one after that wait until its release.
   */
  const steered = () => {
    let failNext = false;
    let held: Promise<void> | undefined;
    stubWrites(async (write, buffer, offset, length) => {
      if (failNext) {
        failNext = false;
        await write(buffer, offset, Math.floor(length / 2));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      const wait = held;
      held = undefined;
      if (wait) await wait;
      return write(buffer, offset, length);
    });
    return {
      fail: () => void (failNext = true),
      hold: () => {
        let release!: () => void;
        held = new Promise<void>((resolve) => (release = resolve));
        return release;
      },
    };
  };

  it('put after the failed line: until then get answers the line on disk, not the failed one; the new line is written whole and read back', async () => {
    const { file, locks } = place();
    const writes = steered();
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    const r = journalRecord('r1', 'pending');
    await journal.put(r);
    const before = readFileSync(file, 'utf8');
    r.state = 'submitted'; // the runner's record object, moved on
    writes.fail();
    await expect(journal.put(r)).rejects.toThrow(/^ENOSPC/);
    expect(readFileSync(file, 'utf8')).toBe(before); // the half line cut off
    expect(await journal.get('r1')).toEqual(journalRecord('r1', 'pending'));
    // Put again (the same state: the journal's check of moves took it when it was first put).
    await journal.put(r);
    expect(await journal.get('r1')).toEqual(journalRecord('r1', 'submitted'));
    await journal.close();
    // Its full line's place is unsure after the failure: the line put again is whole, not one of what changed.
    expect(readFileSync(file, 'utf8')).toBe(`${before}${JSON.stringify(journalRecord('r1', 'submitted'))}\n`);
    expect([...journalRecords(file).records]).toEqual([journalRecord('r1', 'submitted')]);
    expect([...(await journal.open('b'))]).toEqual([journalRecord('r1', 'submitted')]);
    await journal.close();
  });

  it('put while the failed line was being written: get answers the newer record from when the failure is heard until its line is on disk, then reads it back', async () => {
    const { file, locks } = place();
    const writes = steered();
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(journalRecord('r1', 'pending'));
    const before = readFileSync(file, 'utf8');
    writes.fail();
    const release = writes.hold(); // the newer line's write waits until the failure is heard and get is asked
    const failed = journal.put(journalRecord('r1', 'submitted'));
    const newer = journal.put(journalRecord('r1', 'submitted', { attempts: 2 })); // queued while the failed write is on its way
    let written = false;
    void newer.then(() => (written = true));
    try {
      await expect(failed).rejects.toThrow(/^ENOSPC/);
      expect(written).toBe(false);
      expect(await journal.get('r1')).toEqual(journalRecord('r1', 'submitted', { attempts: 2 }));
      expect(readFileSync(file, 'utf8')).toBe(before);
    } finally {
      release();
    }
    await newer;
    expect(await journal.get('r1')).toEqual(journalRecord('r1', 'submitted', { attempts: 2 }));
    await journal.close();
    expect(readFileSync(file, 'utf8')).toBe(`${before}${JSON.stringify(journalRecord('r1', 'submitted', { attempts: 2 }))}\n`);
    expect([...journalRecords(file).records]).toEqual([journalRecord('r1', 'submitted', { attempts: 2 })]);
    expect([...(await journal.open('b'))]).toEqual([journalRecord('r1', 'submitted', { attempts: 2 })]);
    await journal.close();
  });
});
