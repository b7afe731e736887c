/**
 * The file journal: an append-only log of JSON lines, one record per line, each on disk before `put`
 * resolves (records written together share one write, made durable as `fdatasync` makes it: the data and
 * the file size reading it back needs, as write-ahead logs sync, without the timestamps `fsync` adds; see
 * `syncedWrites` below. A new file's directory entry is synced once, when it is made). Format 2 (the files this
 * version makes): a reference's first line in the file holds its whole record; each later one
 * only what can change (state, attempts, quote, transaction, error, times) and `b`, the byte offset of
 * that full line, whose instruction, fingerprint and keys it takes. Format 1 files (every line a
 * whole record) are read, and written on, as they are. A `kill -9` at any instant
 * leaves at most a torn last line, which the next open drops (and cuts off the file); a bad line
 * anywhere else is corruption, refused. In memory it keeps only where each reference's latest line
 * starts (and the lines not yet written): the file is the record, read back by `get` and `open`
 * (100,000 references in a few MB), and each one's state, where the state machine's check of `put` starts
 * (./machine). One writer at a time: a lock named from the file's device and inode (./file-lock), taken
 * over only when its process is gone.
 * @module
 */
import { closeSync, constants, openSync, readSync, fstatSync, ftruncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { FileLock, legacyHolder } from './file-lock';
import { PayoutJournalError, type PayoutJournal } from './journal';
import { journalGuard } from './machine';
import type { PayoutRecord, PayoutState } from './types';

/** The first line's `format`: 1, every line a whole record; 2, later lines of a reference carry what changed. */
const FORMAT_V1 = 'crossborder-payout-journal/1';
const FORMAT_V2 = 'crossborder-payout-journal/2';
const FORMATS: ReadonlySet<unknown> = new Set([FORMAT_V1, FORMAT_V2]);

/** What a format-2 line that carries only what changed takes from its reference's full line. */
interface Base {
  /** The open journal it was written in (a record put in another, or before a reopen, gets a full line). */
  opened: object;
  offset: number;
  instruction: PayoutRecord['instruction'];
  fingerprint: string;
  keys: PayoutRecord['keys'];
}

/**
 * Whether the journal's file is opened `O_DSYNC`, so that each write returns once it is as durable as an
 * `fdatasync` after it would make it: on Linux, where the kernel runs that same sync over the range written,
 * in the write itself. A group of lines is then one call to libuv's thread pool, not two (a write, then its
 * `fdatasync`): on the benchmark, 8 rounds of 10,000 payouts, the runner read 1.01–1.11 (median
 * 1.03) of the same runner with the two calls, with ~45 µs less CPU a payout. Elsewhere each group's write
 * is followed by an `fdatasync`: on macOS libuv's is `F_FULLFSYNC`, which flushes the drive's cache and
 * `O_DSYNC` does not; Windows has no `O_DSYNC`. Read at each open.
 */
function syncedWrites(): boolean {
  return process.platform === 'linux' && typeof constants.O_DSYNC === 'number';
}

/** Options of {@link FileJournal}. */
export interface FileJournalOptions {
  /** Refuse to open when another live process holds the lock (default). False: take it anyway (you know better). */
  lock?: boolean | undefined;
  /**
   * Where the locks live (default: `crossborder-payouts-<uid>` in the system's temporary folder, made
   * owner-only). A lock is named from the journal file's device and inode, so every path to one file
   * (a hard link, a symbolic link, a relative path) meets the same lock. Processes that share a journal
   * must share this folder: one machine.
   */
  lockDirectory?: string | undefined;
}

/** A journal in a file (Node). See the module documentation. */
export class FileJournal implements PayoutJournal {
  readonly path: string;
  readonly #lock: boolean;
  #handle: FileHandle | undefined;
  readonly #lockDirectory: string | undefined;
  /** The lock this process holds, while it holds it. */
  #lockHeld: FileLock | undefined;
  /** The device and inode of the file whose lock is held. */
  #file: { dev: bigint; ino: bigint } | undefined;
  /** Each reference's latest line: its offset in the file. */
  readonly #index = new Map<string, number>();
  /** Lines queued or being written, by reference (the latest wins; read by `get` until written). */
  readonly #unwritten = new Map<string, Queued>();
  /** Where a group of lines is encoded before its write (kept between writes up to 1 MiB). */
  #buffer: Buffer | undefined;
  /** The file's size: where the next line goes. */
  #size = 0;
  #queue: Queued[] = [];
  /** The file's format: 2 unless it was made as 1. */
  #format = FORMAT_V2;
  /**
   * This opening of the journal: format 2 keeps, on each record object (under a symbol JSON never
   * writes), where its full line is and what that line holds that never changes, stamped with this. A
   * property rather than a `WeakMap` entry per payout: gone with the object, and no weak table for every
   * garbage collection to walk.
   */
  #opened: object = {};
  #flushing: Promise<void> | undefined;
  #closed = false;
  /** Opened `O_DSYNC` (`syncedWrites`): a group's write is its sync. */
  #dsync = false;
  /**
   * Set when a failed write left part of a line at the file's end that could not be cut off: every later
   * put is refused with it until the journal is opened again (whose open cuts that part off). A line
   * written after it would join it, and the next open would drop both as one torn line.
   */
  #broken: PayoutJournalError | undefined;

  constructor(path: string, options: FileJournalOptions = {}) {
    if (typeof path !== 'string' || path === '') throw new TypeError('path: expected the journal file path');
    this.path = path;
    this.#lock = options.lock ?? true;
    this.#lockDirectory = options.lockDirectory;
  }

  /**
   * Takes the lock of the journal's file (made here, empty, when it does not exist yet): named from its
   * device and inode, so that every path to the file meets the same lock (see ./file-lock).
   */
  #takeLock(): void {
    // A file system error (a missing folder, no permission) is the file system's own, naming the path.
    const fd = openSync(this.path, constants.O_RDWR | constants.O_CREAT, 0o600);
    try {
      const stat = fstatSync(fd, { bigint: true });
      if (!stat.isFile()) throw new PayoutJournalError('corrupt', `${this.path} is not a payout journal (not a regular file).`);
      this.#lockHeld = FileLock.take(this.path, stat.dev, stat.ino, this.#lockDirectory);
      this.#file = { dev: stat.dev, ino: stat.ino };
      // A run of an earlier version (its lock beside the journal) that still runs: refused as well.
      const legacy = legacyHolder(this.path);
      if (legacy !== undefined) {
        this.#release();
        throw new PayoutJournalError(
          'locked',
          `${this.path} is in use by process ${legacy} (lock ${this.path}.lock, of an earlier version). Two runs of one batch at once are refused; stop the other, or delete the lock if that process is gone.`,
        );
      }
    } finally {
      closeSync(fd);
    }
  }

  /** After the file is open for writing: it is still the file whose lock this process took (not replaced meanwhile). */
  #checkSameFile(dev: bigint, ino: bigint): void {
    if (this.#file && (this.#file.dev !== dev || this.#file.ino !== ino)) {
      throw new PayoutJournalError('locked', `${this.path} was replaced by another file while it was being opened; open it again.`);
    }
  }

  /** Reads the journal, dropping (and cutting off) a torn last line. */
  #load(batchId: string): void {
    let fd: number;
    try {
      fd = openSync(this.path, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const size = fstatSync(fd).size;
      let line = 0;
      let header = false;
      let tail = ''; // the last line when its newline is missing: a torn write
      let bad: { line: number; start: number; error: string } | undefined;
      const guard = journalGuard(this);
      // complete: the file offset just after the last newline.
      const complete = scanLines(
        fd,
        (text, lineStart, end) => {
          if (end === undefined) {
            tail = text;
            return;
          }
          line++;
          if (text.trim() === '') return;
          if (bad) throw new PayoutJournalError('corrupt', `${this.path}: line ${bad.line} is not a journal record (${bad.error}), and records follow it.`);
          let value: Record<string, unknown>;
          try {
            value = JSON.parse(text) as Record<string, unknown>;
            if (header && (typeof value.reference !== 'string' || typeof value.state !== 'string')) throw new Error('no reference or state');
          } catch (error) {
            // A first line that is not a header, whole (its newline is there): not a journal. Never cut.
            if (!header) throw notAJournal(this.path, 'its first line is not JSON');
            bad = { line, start: lineStart, error: (error as Error).message };
            return;
          }
          if (!header) {
            this.#format = headerOf(text, this.path).format;
            if (value.batchId !== batchId)
              throw new PayoutJournalError('other_batch', `${this.path} holds batch ${JSON.stringify(value.batchId)}, not ${batchId}.`);
            header = true;
            return;
          }
          this.#index.set(value.reference as string, lineStart);
          // Where the reference's next move starts: its state in the file (which a run may have written since this object last had it open).
          guard.seen({ reference: value.reference as string, state: value.state as PayoutState });
        },
        (_start, pending) => {
          // No header line within its bound: not a journal (and never read whole).
          if (!header && pending > HEADER_LIMIT) throw notAJournal(this.path, `no header line within its first ${HEADER_LIMIT} bytes`);
        },
      );
      if (!header) {
        // Only a header that a kill interrupted as it was written may be cut off (nothing else is in the
        // file then): anything else is someone's file, refused and left as it is.
        const rest = tail.trimStart();
        const torn = rest.length > 0 && (rest.startsWith(HEADER_START) || HEADER_START.startsWith(rest));
        if (complete > 0 || (rest.length > 0 && !torn))
          throw notAJournal(this.path, complete > 0 ? 'it holds only blank lines' : 'its first line is not a header');
      }
      // Bytes after the last newline, or a bad last line: the write a kill interrupted. Cut them off.
      const cutAt = bad ? bad.start : complete;
      if (cutAt < size) ftruncateSync(fd, cutAt);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Opens the journal and yields the latest record of each reference, read back from the file one at a
   * time (in the order of those latest lines in the file), so that a large journal is never all in memory.
   */
  async open(batchId: string): Promise<Iterable<PayoutRecord>> {
    if (this.#handle) throw new PayoutJournalError('closed', `${this.path} is open already.`);
    // A journal closed before opens again: a new opening, its lock taken anew.
    this.#closed = false;
    this.#broken = undefined;
    this.#index.clear();
    this.#unwritten.clear();
    this.#size = 0;
    this.#format = FORMAT_V2;
    this.#file = undefined;
    this.#opened = {};
    try {
      if (this.#lock) this.#takeLock();
      this.#load(batchId);
      this.#dsync = syncedWrites();
      // 'a+' (read, append, create), and O_DSYNC where each write is then durable as it returns.
      this.#handle = await openFile(this.path, this.#dsync ? constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC : 'a+', 0o600);
      const stat = await this.#handle.stat({ bigint: true });
      this.#checkSameFile(stat.dev, stat.ino);
      this.#size = Number(stat.size);
      if (this.#size === 0) {
        // The file's name first, while the file is empty: if this sync fails, the next open finds the
        // file empty and syncs it again; once it has succeeded, a failure of the header's write or fsync
        // leaves nothing to redo for the name. (Synced after the header, a failure there left a file
        // with a header, whose name no later open synced.)
        await syncDirectory(this.path);
        this.#format = FORMAT_V2;
        const header = `${JSON.stringify({ format: FORMAT_V2, batchId, createdAt: new Date().toISOString() })}\n`;
        await this.#handle.write(header);
        await this.#handle.sync();
        this.#size = Buffer.byteLength(header);
      }
    } catch (error) {
      // A handle opened before the failure (its stat, the directory's sync, the header's write or fsync
      // failed) is closed, not left to the garbage collector, and the journal can be opened again.
      await this.#handle?.close().catch(() => {});
      this.#handle = undefined;
      this.#release();
      throw error;
    }
    const offsets = [...this.#index.values()].sort((a, b) => a - b);
    const path = this.path;
    return (function* () {
      const fd = openSync(path, 'r');
      try {
        for (const offset of offsets) yield readLineAt(fd, offset, path);
      } finally {
        closeSync(fd);
      }
    })();
  }

  async get(reference: string): Promise<PayoutRecord | undefined> {
    const unwritten = this.#unwritten.get(reference);
    const fd = this.#handle?.fd;
    if (unwritten !== undefined) return withBase(JSON.parse(unwritten.head + unwritten.body) as LineRecord, fd, this.path);
    const offset = this.#index.get(reference);
    if (offset === undefined || fd === undefined) return undefined;
    return readLineAt(fd, offset, this.path);
  }

  put(record: PayoutRecord): Promise<void> {
    if (!this.#handle || this.#closed) return Promise.reject(new PayoutJournalError('closed', `${this.path} is not open.`));
    if (this.#broken) return Promise.reject(this.#broken);
    const illegal = journalGuard(this).refusal(record);
    if (illegal) return Promise.reject(illegal); // the state machine's one check (./machine)
    // Format 2: what can change, when this object's full line is on disk with the same instruction, fingerprint and keys.
    const base = this.#format === FORMAT_V2 ? (record as BasedRecord)[BASE] : undefined;
    const full =
      base === undefined ||
      base.opened !== this.#opened ||
      base.instruction !== record.instruction ||
      base.fingerprint !== record.fingerprint ||
      base.keys !== record.keys;
    // The line in two flat pieces (no string concatenated to be flattened, copied or measured again):
    // written one after the other, with its newline, straight into the write's buffer.
    let head = '';
    let body: string;
    if (full) body = JSON.stringify(record);
    else {
      const { instruction: _i, fingerprint: _f, keys: _k, ...changing } = record;
      head = `{"b":${base.offset},`;
      body = JSON.stringify(changing).slice(1);
    }
    return new Promise<void>((resolve, reject) => {
      const queued: Queued = { record, head, body, full, bytes: 0, resolve, reject };
      this.#unwritten.set(record.reference, queued);
      this.#queue.push(queued);
      this.#flushing ??= this.#flush();
    });
  }

  /**
   * Group commit: everything queued while the previous group was written goes out in one write (`O_DSYNC`)
   * or one write and one `fdatasync` (see `syncedWrites`); each `put` resolves once its line is on disk.
   */
  async #flush(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        try {
          if (this.#broken) throw this.#broken;
          const { buffer, length } = this.#encode(batch);
          for (let done = 0; done < length;) done += (await this.#handle!.write(buffer, done, length - done)).bytesWritten;
          // fdatasync: the lines and the file's new size (what reading them back needs), not its times.
          // Opened O_DSYNC, the write above did just that before it returned.
          if (!this.#dsync) await this.#handle!.datasync();
          let offset = this.#size;
          for (const b of batch) {
            const reference = b.record.reference;
            this.#index.set(reference, offset);
            if (b.full && this.#format === FORMAT_V2)
              based(b.record, { opened: this.#opened, offset, instruction: b.record.instruction, fingerprint: b.record.fingerprint, keys: b.record.keys });
            offset += b.bytes;
            if (this.#unwritten.get(reference) === b) this.#unwritten.delete(reference);
          }
          this.#size = offset;
          for (const b of batch) b.resolve();
        } catch (error) {
          // A failed write may have left part of a line, and a failed sync lines whose callers hear a
          // failure: the file is cut back to where this group began, so that the next line starts a line
          // of its own (part of a line anywhere but at the end is corruption at the next open). When even
          // that fails, nothing more is written: what is at the end stays the torn last line that the
          // next open cuts off, and no acknowledged line is ever joined to it.
          if (!this.#broken)
            await this.#handle!.truncate(this.#size).catch((cause: unknown) => {
              this.#broken = new PayoutJournalError(
                'corrupt',
                `${this.path}: a failed write left part of a line at its end, which could not be cut off (${(cause as Error).message}); nothing more is written to it. Close the journal and open it again: the open cuts that part off.`,
              );
            });
          for (const b of batch) {
            if (this.#unwritten.get(b.record.reference) === b) this.#unwritten.delete(b.record.reference);
            based(b.record, undefined); // what is on disk is unsure: its next line is a full one
            b.reject(error);
          }
        }
      }
    } finally {
      this.#flushing = undefined;
    }
  }

  /** The lines of `batch` in UTF-8, each with its newline, in one buffer; each line's byte count noted on it. */
  #encode(batch: Queued[]): { buffer: Buffer; length: number } {
    let most = 0;
    for (const b of batch) most += (b.head.length + b.body.length) * 3 + 1; // at most 3 bytes a UTF-16 unit
    let buffer = this.#buffer;
    if (buffer === undefined || buffer.length < most) {
      buffer = Buffer.allocUnsafe(Math.max(most, 64 * 1024));
      if (buffer.length <= 1 << 20) this.#buffer = buffer;
    }
    let length = 0;
    for (const b of batch) {
      const start = length;
      if (b.head !== '') length += buffer.write(b.head, length);
      length += buffer.write(b.body, length);
      buffer[length++] = 10;
      b.bytes = length - start;
    }
    return { buffer, length };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    while (this.#flushing) await this.#flushing;
    this.#closed = true;
    await this.#handle?.close();
    this.#handle = undefined;
    this.#release();
  }

  #release(): void {
    this.#lockHeld?.release();
    this.#lockHeld = undefined;
  }
}

/** What a journal's header line starts with (as this module writes it). */
const HEADER_START = '{"format":"crossborder-payout-journal/';
/** The longest header line read looking for one: 1 MiB. */
const HEADER_LIMIT = 1 << 20;

/** A file that is not a payout journal, named; it is never cut or written. */
function notAJournal(path: string, why: string): PayoutJournalError {
  return new PayoutJournalError('corrupt', `${path} is not a payout journal (${why}); it was left as it is. Use a new file, or the journal of this batch.`);
}

/**
 * Makes the entry of a file just created in its directory durable (POSIX: syncing the file does not sync
 * the directory that names it), so that a crash cannot lose the whole journal after its first lines were
 * acknowledged. Where a directory cannot be opened or synced (Windows, some network file systems) there
 * is nothing to do.
 */
async function syncDirectory(path: string): Promise<void> {
  let directory: FileHandle;
  try {
    directory = await openFile(dirname(path), 'r');
  } catch (error) {
    if (UNSYNCABLE_DIRECTORY.has((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    await directory.sync();
  } catch (error) {
    if (!UNSYNCABLE_DIRECTORY.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await directory.close();
  }
}

/** What opening or syncing a directory answers where the platform or file system does not do it. */
const UNSYNCABLE_DIRECTORY: ReadonlySet<string> = new Set(['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EBADF']);

/** A line waiting for its write: `head` + `body` is its JSON (`head` empty for a full line); `bytes` its size with its newline, once encoded. */
interface Queued {
  record: PayoutRecord;
  head: string;
  body: string;
  full: boolean;
  bytes: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** Where a record object's full line is (format 2): a symbol, so JSON never writes it. */
const BASE = Symbol('crossborder.payoutJournalBase');
type BasedRecord = PayoutRecord & { [BASE]?: Base };

/** Notes `base` on `record`, not enumerable: a copy of the record (spread, `toEqual`) neither carries nor sees it. */
function based(record: PayoutRecord, base: Base | undefined): void {
  const r = record as BasedRecord;
  if (Object.prototype.hasOwnProperty.call(r, BASE)) r[BASE] = base;
  else if (base !== undefined) Object.defineProperty(r, BASE, { value: base, writable: true, configurable: true, enumerable: false });
}

/** A journal line as stored: a whole record, or (format 2) what changed and `b`, the offset of the reference's full line. */
type LineRecord = PayoutRecord & { b?: unknown };

/** The line starting at `offset` of `fd`, parsed (not resolved). */
function lineAt(fd: number, offset: number, path: string): LineRecord {
  let length = 2048;
  for (;;) {
    const buffer = Buffer.allocUnsafe(length);
    const n = readSync(fd, buffer, 0, length, offset);
    const end = buffer.subarray(0, n).indexOf(10);
    if (end !== -1) return JSON.parse(buffer.toString('utf8', 0, end)) as LineRecord;
    if (n < length) throw new PayoutJournalError('corrupt', `${path}: the record at byte ${offset} has no end.`);
    length *= 4;
  }
}

/** The record a line stands for: itself, or (a format-2 line of what changed) it on its full line's instruction, fingerprint and keys. */
function withBase(line: LineRecord, fd: number | undefined, path: string): PayoutRecord {
  if (line.b === undefined) return line;
  const at = line.b;
  let base: LineRecord | undefined;
  try {
    base = typeof at === 'number' && Number.isSafeInteger(at) && at >= 0 && fd !== undefined ? lineAt(fd, at, path) : undefined;
  } catch {
    base = undefined; // not the start of a line
  }
  if (!base || base.b !== undefined || base.reference !== line.reference) {
    throw new PayoutJournalError(
      'corrupt',
      `${path}: the record of ${JSON.stringify(line.reference)} names its full line at byte ${String(at)}, which is not that reference's.`,
    );
  }
  const { b: _b, ...changing } = line;
  return { ...changing, fingerprint: base.fingerprint, instruction: base.instruction, keys: base.keys };
}

/** The record of the journal line starting at `offset` of `fd`. */
function readLineAt(fd: number, offset: number, path: string): PayoutRecord {
  return withBase(lineAt(fd, offset, path), fd, path);
}

/**
 * The latest record of each reference of a journal file, read without locking it (for `payouts status`
 * and `report` while a run goes on), streamed: a first pass notes where each reference's latest line
 * starts, a second yields those lines in file order. A torn last line is skipped.
 */
export function journalRecords(path: string): { batchId: string; records: Iterable<PayoutRecord> } {
  const latest = new Map<string, number>();
  let batchId: string | undefined;
  let bad: number | undefined; // a line that does not read: a torn write when nothing follows it
  const fd = openSync(path, 'r');
  try {
    scanLines(fd, (text, offset, end) => {
      // Blank lines are skipped, before the header too, as the journal's own open does.
      if (text.trim() === '') return;
      // A record line without its newline was never confirmed (a put returns once its whole line is written): a kill cut
      // it, and the journal's next open drops it. So do status and report, even when what is there parses.
      if (end === undefined && batchId !== undefined) return;
      if (batchId === undefined) {
        batchId = headerOf(text, path).batchId;
        return;
      }
      if (bad !== undefined) throw new PayoutJournalError('corrupt', `${path}: the line at byte ${bad} is not a journal record, and records follow it.`);
      // A record has a reference and a state, as the journal's open requires: any other line is a torn write at the end, corruption before a record.
      let value: { reference?: unknown; state?: unknown } | null;
      try {
        value = JSON.parse(text) as { reference?: unknown; state?: unknown } | null;
      } catch {
        value = null;
      }
      if (value === null || typeof value !== 'object' || typeof value.reference !== 'string' || typeof value.state !== 'string') {
        bad = offset;
        return;
      }
      latest.set(value.reference, offset);
    });
  } finally {
    closeSync(fd);
  }
  if (batchId === undefined) throw new PayoutJournalError('corrupt', `${path} is not a payout journal.`);
  return {
    batchId,
    records: {
      *[Symbol.iterator]() {
        const fd = openSync(path, 'r');
        try {
          for (const offset of [...latest.values()].sort((a, b) => a - b)) yield readLineAt(fd, offset, path);
        } finally {
          closeSync(fd);
        }
      },
    },
  };
}

/** The header line `text` of the journal at `path`: its format and batch id; anything else is not a journal. */
function headerOf(text: string, path: string): { format: string; batchId: string } {
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch {
    throw notAJournal(path, 'its first line is not JSON');
  }
  const h = header as { format?: unknown; batchId?: unknown } | null;
  if (h === null || typeof h !== 'object' || !FORMATS.has(h.format)) throw notAJournal(path, `its first line has no format ${FORMAT_V2} or ${FORMAT_V1}`);
  if (typeof h.batchId !== 'string') throw notAJournal(path, 'its first line has no batch id');
  return { format: h.format as string, batchId: h.batchId };
}

/**
 * The batch id of the journal file at `path`, read from its header line alone (at most 1 MiB of it);
 * `undefined` for an empty file, or one whose header a kill tore as it was first written (no journal
 * yet). A file that is not a journal is a {@link PayoutJournalError} naming it.
 */
export function journalBatchId(path: string): string | undefined {
  const fd = openSync(path, 'r');
  try {
    let batchId: string | undefined;
    scanLines(
      fd,
      (text, start, end) => {
        if (end === undefined) {
          // The file's end (within the bound: `pending` refused it otherwise), with no header line before it.
          const tail = text.trimStart();
          if (tail === '' || tail.startsWith(HEADER_START) || HEADER_START.startsWith(tail)) return;
          throw notAJournal(path, 'its first line is not a header');
        }
        // Blank lines before the header are skipped, as every reader does.
        if (text.trim() === '') return;
        // Its newline within the file's first HEADER_LIMIT + 1 bytes.
        if (end > HEADER_LIMIT + 1) throw notAJournal(path, `no header line within its first ${HEADER_LIMIT} bytes`);
        batchId = headerOf(text, path).batchId;
        return true;
      },
      (start, pending) => {
        if (start + pending > HEADER_LIMIT) throw notAJournal(path, `no header line within its first ${HEADER_LIMIT} bytes`);
      },
    );
    return batchId;
  } finally {
    closeSync(fd);
  }
}

/**
 * The one line reader of journal files, for `FileJournal`'s open, `journalRecords` and `journalBatchId`:
 * calls `each` with every line of `fd` from its start, in order: its text (UTF-8, without its newline), the
 * byte offset where it starts, and `end`, the offset just after its newline (undefined for a last line
 * without one, which a kill cut: passed last, and only when it has a byte). Reads 1 MiB at a time; a line
 * longer than that is joined across reads. `each` returning true stops the reading. After each read,
 * `pending` (when given) hears where the line not yet ended starts and how many bytes of it are read, to
 * refuse it over a bound before reading on. Returns the offset just after the last newline read.
 */
function scanLines(
  fd: number,
  each: (text: string, start: number, end: number | undefined) => boolean | void,
  pending?: (start: number, bytes: number) => void,
): number {
  const chunk = Buffer.alloc(1 << 20);
  let carry = Buffer.alloc(0);
  let base = 0;
  for (;;) {
    const n = readSync(fd, chunk, 0, chunk.length, base + carry.length);
    const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    let start = 0;
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, start)) {
      const end = base + nl + 1;
      if (each(data.toString('utf8', start, nl), base + start, end) === true) return end;
      start = nl + 1;
    }
    base += start;
    carry = Buffer.from(data.subarray(start));
    if (n === 0) {
      if (carry.length > 0) each(carry.toString('utf8'), base, undefined);
      return base;
    }
    pending?.(base, carry.length);
  }
}

/** Reads a journal file without locking it (for `payouts status` / `report` while a run goes on): the latest record per reference. */
export function readJournalFile(path: string): { batchId: string; records: PayoutRecord[] } {
  const { batchId, records } = journalRecords(path);
  return { batchId, records: [...records] };
}
