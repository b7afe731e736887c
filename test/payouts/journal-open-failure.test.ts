/**
 * The file journal against a disk that fails under it. open(): the header's fsync answers EIO; the
 * error reaches the caller, the file handle opened before it is closed (not left to the garbage
 * collector, which Node warns about and will make an error), and the journal can be opened again.
 * put(): a write stops halfway through a line (ENOSPC); the put fails, the part line is cut off, the
 * next put starts a line of its own, and the file opens again with every record that was put. A sync
 * of a group that answers EIO: the same, whether the sync is the write's own (the file opened `O_DSYNC`,
 * on Linux) or an `fdatasync` after it (elsewhere). And a new journal's directory entry is synced once,
 * when the file is made (a crash must not lose the whole file after its first lines were acknowledged).
 */
import { constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FileJournal, type PayoutRecord } from '../../src/payouts/index';

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs/promises')>();
  return { ...original, open: vi.fn(original.open) };
});

const dir = mkdtempSync(join(tmpdir(), 'cb-journal-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const realOpen = (await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises')).open;

/**
 * The journal's next `open` (every one, with `every`) gives a real handle that `patch` changes first: the
 * disk made to fail where a test says. `every` stays until the test puts back the real `open`.
 */
function onOpen(patch: (handle: fsp.FileHandle, path: string, flags: unknown) => void, every = false): void {
  const opened = async (...args: Parameters<typeof fsp.open>) => {
    const handle = await realOpen(...args);
    patch(handle, String(args[0]), args[1]);
    return handle;
  };
  if (every) vi.mocked(fsp.open).mockImplementation(opened);
  else vi.mocked(fsp.open).mockImplementationOnce(opened);
}

/** How the journal opens its file here: read, append, create, and on Linux O_DSYNC (each write durable as it returns). */
const FILE_FLAGS = process.platform === 'linux' ? String(constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC) : 'a+';

/** Runs `body` as if on `platform` (the journal reads it at each open). */
async function onPlatform<T>(platform: NodeJS.Platform, body: () => Promise<T>): Promise<T> {
  const real = Object.getOwnPropertyDescriptor(process, 'platform')!;
  Object.defineProperty(process, 'platform', { ...real, value: platform });
  try {
    return await body();
  } finally {
    Object.defineProperty(process, 'platform', real);
  }
}

/** A record with what the journal reads (the runner's own fields are not its business). */
const recordOf = (reference: string, state: PayoutRecord['state']): PayoutRecord =>
  ({
    reference,
    state,
    attempts: 0,
    instruction: { reference, source: { accountId: 'InternalAccount:a' }, destination: { accountId: 'ExternalAccount:b' }, amount: 100 },
    fingerprint: `f:${reference}`,
    keys: { create: `k:${reference}` },
    updatedAt: '2026-11-28T00:00:00.000Z',
  }) as unknown as PayoutRecord;

describe('FileJournal.open when the disk fails', () => {
  it('a failed fsync of the header is thrown, its handle closed, and a second open works', async () => {
    const handles: fsp.FileHandle[] = [];
    onOpen((handle) => {
      handles.push(handle);
      handle.sync = () => Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
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

describe('FileJournal.put when a write fails halfway', () => {
  it('the failed put is refused, the part line cut off, and the next lines and a reopen read whole', async () => {
    let failNext = false;
    onOpen((handle) => {
      const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<{ bytesWritten: number }>;
      handle.write = (async (...a: unknown[]) => {
        if (!failNext || !Buffer.isBuffer(a[0])) return write(...a);
        failNext = false;
        const [buffer, offset, length] = a as [Buffer, number, number];
        await write(buffer, offset, Math.floor(length / 2)); // half the line reaches the disk
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }) as typeof handle.write;
    });
    const file = join(dir, 'half');
    const journal = new FileJournal(file);
    await journal.open('bh');
    await journal.put(recordOf('r1', 'pending'));
    failNext = true;
    await expect(journal.put(recordOf('r2', 'pending'))).rejects.toThrow(/ENOSPC/);
    await journal.put(recordOf('r3', 'pending'));
    await journal.put(recordOf('r1', 'submitted')); // a move the state machine allows (pending → completed is refused)
    expect((await journal.get('r3'))?.state).toBe('pending');
    await journal.close();
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow(); // no part line left anywhere
    const again = new FileJournal(file);
    const read = [...(await again.open('bh'))].map((r) => [r.reference, r.state]);
    await again.close();
    expect(read.sort()).toEqual([
      ['r1', 'submitted'],
      ['r3', 'pending'],
    ]);
  });
});

describe('FileJournal.put when the sync of its lines fails', () => {
  /** The journal's file opened with a handle whose syncs are recorded (and whose group `fdatasync` or write fails when `failNext`). */
  function recordSyncs(failing: 'fdatasync' | 'write') {
    const state = { failNext: false, syncs: [] as string[], flags: [] as string[], kernelFlags: [] as number[] };
    onOpen((handle, _path, flags) => {
      state.flags.push(String(flags));
      // What the kernel holds for the open file (Linux): the flags as it took them, not as they were asked for.
      if (process.platform === 'linux')
        state.kernelFlags.push(parseInt(/flags:\s*([0-7]+)/.exec(readFileSync(`/proc/self/fdinfo/${handle.fd}`, 'utf8'))![1]!, 8));
      const datasync = handle.datasync.bind(handle);
      const sync = handle.sync.bind(handle);
      const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<{ bytesWritten: number }>;
      handle.sync = () => {
        state.syncs.push('fsync');
        return sync();
      };
      handle.datasync = () => {
        state.syncs.push('fdatasync');
        if (!state.failNext || failing !== 'fdatasync') return datasync();
        state.failNext = false;
        return Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      };
      handle.write = (async (...a: unknown[]) => {
        if (!state.failNext || failing !== 'write' || !Buffer.isBuffer(a[0])) return write(...a);
        state.failNext = false;
        await write(...a); // the lines reached the file; their sync, which an O_DSYNC write does, did not
        throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      }) as typeof handle.write;
    });
    return state;
  }

  async function refusedAndCutOff(file: string, state: { failNext: boolean }): Promise<void> {
    const journal = new FileJournal(file);
    await journal.open('be');
    await journal.put(recordOf('r1', 'pending'));
    state.failNext = true;
    await expect(journal.put(recordOf('r2', 'pending'))).rejects.toThrow(/EIO/);
    await journal.put(recordOf('r3', 'pending'));
    await journal.close();
    expect(readFileSync(file, 'utf8')).not.toContain('"r2"');
    const again = new FileJournal(file);
    const read = [...(await again.open('be'))].map((r) => r.reference);
    await again.close();
    expect(read.sort()).toEqual(['r1', 'r3']);
  }

  it.runIf(process.platform === 'linux')(
    'on Linux (O_DSYNC, each write its sync): the put is refused, its line cut off, and a reopen reads the records put before and after',
    async () => {
      const state = recordSyncs('write');
      await refusedAndCutOff(join(dir, 'eio-dsync'), state);
      // Opened O_DSYNC; the header with a full fsync when the file is made; the groups' writes need no fdatasync.
      expect(state.flags[0]).toBe(String(constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC));
      expect(state.kernelFlags[0]! & (constants.O_DSYNC | constants.O_APPEND | 3) /* O_ACCMODE */).toBe(
        constants.O_DSYNC | constants.O_APPEND | constants.O_RDWR,
      );
      expect(state.syncs).toEqual(['fsync']);
    },
  );

  it('elsewhere (a write, then an fdatasync): the put is refused, its line cut off, and a reopen reads the records put before and after', async () => {
    await onPlatform('darwin', async () => {
      const state = recordSyncs('fdatasync');
      await refusedAndCutOff(join(dir, 'eio'), state);
      // Opened 'a+'; the header with a full fsync when the file is made; each group of lines with an fdatasync.
      expect(state.flags[0]).toBe('a+');
      expect(state.syncs).toEqual(['fsync', 'fdatasync', 'fdatasync', 'fdatasync']);
    });
  });
});

describe('FileJournal.open of a new file', () => {
  it('syncs the directory that names it, before the header, once: a journal that exists already is not synced again', async () => {
    const synced: string[] = [];
    onOpen((handle, path, flags) => {
      const sync = handle.sync.bind(handle);
      handle.sync = () => {
        synced.push(`${path} ${String(flags)}`);
        return sync();
      };
    }, true);
    try {
      const file = join(dir, 'fresh', 'journal');
      const { mkdirSync } = await import('node:fs');
      mkdirSync(dirname(file));
      const journal = new FileJournal(file);
      await journal.open('bd');
      await journal.put(recordOf('r1', 'pending'));
      await journal.close();
      expect(synced).toEqual([`${dirname(file)} r`, `${file} ${FILE_FLAGS}`]);
      synced.length = 0;
      const again = new FileJournal(file);
      await again.open('bd');
      await again.close();
      expect(synced).toEqual([]);
    } finally {
      vi.mocked(fsp.open).mockImplementation(realOpen);
    }
  });

  it('a failed sync of the directory is thrown before the header is written, and the next open syncs it and writes the header', async () => {
    const synced: string[] = [];
    let failDirectory = true;
    onOpen((handle, path, flags) => {
      const sync = handle.sync.bind(handle);
      handle.sync = () => {
        synced.push(`${path} ${String(flags)}`);
        if (flags === 'r' && failDirectory) {
          failDirectory = false;
          return Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
        }
        return sync();
      };
    }, true);
    try {
      const file = join(dir, 'dir-eio', 'journal');
      const { mkdirSync } = await import('node:fs');
      mkdirSync(dirname(file));
      const journal = new FileJournal(file);
      await expect(journal.open('bx')).rejects.toThrow(/EIO/);
      // Nothing written: the file is empty, so the next open does it all again (the name first).
      expect(readFileSync(file, 'utf8')).toBe('');
      expect(synced).toEqual([`${dirname(file)} r`]);
      synced.length = 0;
      expect([...(await journal.open('bx'))]).toEqual([]);
      await journal.close();
      expect(synced).toEqual([`${dirname(file)} r`, `${file} ${FILE_FLAGS}`]);
      expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ batchId: 'bx' });
    } finally {
      vi.mocked(fsp.open).mockImplementation(realOpen);
    }
  });
});
