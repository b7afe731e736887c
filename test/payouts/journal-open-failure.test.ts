/**
 * The file journal's open() against a disk that fails under it: the header's fsync answers EIO. The
 * error reaches the caller, the file handle opened before it is closed (not left to the garbage
 * collector, which Node warns about and will make an error), and the journal can be opened again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FileJournal } from '../../src/payouts/index';

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs/promises')>();
  return { ...original, open: vi.fn(original.open) };
});

const dir = mkdtempSync(join(tmpdir(), 'cb-journal-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FileJournal.open when the disk fails', () => {
  it('a failed fsync of the header is thrown, its handle closed, and a second open works', async () => {
    const realOpen = (await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises')).open;
    const handles: fsp.FileHandle[] = [];
    vi.mocked(fsp.open).mockImplementationOnce(async (...args: Parameters<typeof fsp.open>) => {
      const handle = await realOpen(...args);
      handles.push(handle);
      handle.sync = () => Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
      return handle;
    });
    const file = join(dir, 'journal');
    const journal = new FileJournal(file);
    await expect(journal.open('bz')).rejects.toThrow(/EIO/);
    expect(handles).toHaveLength(1);
    expect(handles[0]!.fd).toBe(-1); // closed by the journal
    // Opened again (the disk is back): the header written before the failed fsync is this batch's.
    const records = [...(await journal.open('bz'))];
    expect(records).toEqual([]);
    await journal.close();
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ batchId: 'bz' });
  });
});
