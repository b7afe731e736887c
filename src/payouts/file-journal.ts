/**
 * The file journal: an append-only log of JSON lines, one record per line, each fsynced before `put`
 * resolves (records written together share one write and one fsync). A `kill -9` at any instant
 * leaves at most a torn last line, which the next open drops (and cuts off the file); a bad line
 * anywhere else is corruption, refused. One writer at a time: a lock file beside the journal
 * (`<file>.lock`, holding the writer's pid), taken over only when that process is gone.
 * @module
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync, readFileSync, fstatSync, ftruncateSync } from 'node:fs';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { PayoutJournalError, type PayoutJournal } from './journal';
import type { PayoutRecord } from './types';

const FORMAT = 'crossborder-payout-journal/1';

/** Options of {@link FileJournal}. */
export interface FileJournalOptions {
  /** Refuse to open when another live process holds the lock (default). False: take it anyway (you know better). */
  lock?: boolean | undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A journal in a file (Node). See the module documentation. */
export class FileJournal implements PayoutJournal {
  readonly path: string;
  readonly #lockPath: string;
  readonly #lock: boolean;
  #handle: FileHandle | undefined;
  #locked = false;
  readonly #index = new Map<string, PayoutRecord>();
  #queue: { line: string; resolve: () => void; reject: (e: unknown) => void }[] = [];
  #flushing: Promise<void> | undefined;
  #closed = false;

  constructor(path: string, options: FileJournalOptions = {}) {
    if (typeof path !== 'string' || path === '') throw new TypeError('path: expected the journal file path');
    this.path = path;
    this.#lockPath = `${path}.lock`;
    this.#lock = options.lock ?? true;
  }

  #takeLock(): void {
    const mine = `${process.pid}@${hostname()}\n`;
    for (let tries = 0; tries < 3; tries++) {
      try {
        const fd = openSync(this.#lockPath, 'wx', 0o600);
        writeSync(fd, mine);
        closeSync(fd);
        this.#locked = true;
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let holder = '';
      try {
        holder = readFileSync(this.#lockPath, 'utf8').trim();
      } catch {
        continue; // released meanwhile
      }
      const [pidText, host] = holder.split('@');
      const pid = Number(pidText);
      const stale = host === hostname() && Number.isInteger(pid) && pid > 0 && !alive(pid);
      // A lock file being written (empty) for an instant, or of a live process: not ours.
      if (!stale && holder !== '') {
        throw new PayoutJournalError('locked', `${this.path} is in use by process ${holder} (lock ${this.#lockPath}). Two runs of one batch at once are refused; stop the other, or delete the lock if that process is gone.`);
      }
      if (!stale) continue;
      try {
        unlinkSync(this.#lockPath); // its writer was killed: the lock is stale
      } catch {
        /* another process took it over first: try again */
      }
    }
    throw new PayoutJournalError('locked', `${this.path}: could not take the lock ${this.#lockPath}.`);
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
      const chunk = Buffer.alloc(1 << 20);
      let carry: Buffer = Buffer.alloc(0);
      let base = 0; // file offset of carry[0]
      let line = 0;
      let header = false;
      let complete = 0; // file offset just after the last newline
      let bad: { line: number; start: number; error: string } | undefined;
      for (let position = 0; position < size; ) {
        const n = readSync(fd, chunk, 0, chunk.length, position);
        if (n <= 0) break;
        position += n;
        const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
        let start = 0;
        for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
          const text = data.subarray(start, nl).toString('utf8');
          const lineStart = base + start;
          line++;
          start = nl + 1;
          complete = base + start;
          if (text.trim() === '') continue;
          if (bad) throw new PayoutJournalError('corrupt', `${this.path}: line ${bad.line} is not a journal record (${bad.error}), and records follow it.`);
          let value: Record<string, unknown>;
          try {
            value = JSON.parse(text) as Record<string, unknown>;
            if (header && (typeof value.reference !== 'string' || typeof value.state !== 'string')) throw new Error('no reference or state');
          } catch (error) {
            bad = { line, start: lineStart, error: (error as Error).message };
            continue;
          }
          if (!header) {
            if (value.format !== FORMAT) throw new PayoutJournalError('corrupt', `${this.path} is not a payout journal (its first line has no format ${FORMAT}).`);
            if (value.batchId !== batchId) throw new PayoutJournalError('other_batch', `${this.path} holds batch ${String(value.batchId)}, not ${batchId}.`);
            header = true;
            continue;
          }
          this.#index.set(value.reference as string, value as unknown as PayoutRecord);
        }
        carry = Buffer.from(data.subarray(start));
        base += start;
      }
      // Bytes after the last newline, or a bad last line: the write a kill interrupted. Cut them off.
      const cutAt = bad ? bad.start : complete;
      if (cutAt < size) ftruncateSync(fd, cutAt);
      if (!header && cutAt > 0) throw new PayoutJournalError('corrupt', `${this.path} is not a payout journal.`);
    } finally {
      closeSync(fd);
    }
  }

  async open(batchId: string): Promise<Iterable<PayoutRecord>> {
    if (this.#handle) throw new PayoutJournalError('closed', `${this.path} is open already.`);
    if (this.#lock) this.#takeLock();
    try {
      this.#load(batchId);
      this.#handle = await openFile(this.path, 'a', 0o600);
      if ((await this.#handle.stat()).size === 0) {
        await this.#handle.write(`${JSON.stringify({ format: FORMAT, batchId, createdAt: new Date().toISOString() })}\n`);
        await this.#handle.sync();
      }
    } catch (error) {
      this.#release();
      throw error;
    }
    return [...this.#index.values()];
  }

  async get(reference: string): Promise<PayoutRecord | undefined> {
    return this.#index.get(reference);
  }

  put(record: PayoutRecord): Promise<void> {
    if (!this.#handle || this.#closed) return Promise.reject(new PayoutJournalError('closed', `${this.path} is not open.`));
    const line = `${JSON.stringify(record)}\n`;
    this.#index.set(record.reference, JSON.parse(line) as PayoutRecord);
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ line, resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  /** Writes everything queued in one write and one fsync, while there is something queued. */
  async #flush(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        try {
          await this.#handle!.write(batch.map((b) => b.line).join(''));
          await this.#handle!.sync();
          for (const b of batch) b.resolve();
        } catch (error) {
          for (const b of batch) b.reject(error);
        }
      }
    } finally {
      this.#flushing = undefined;
    }
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
    if (!this.#locked) return;
    try {
      unlinkSync(this.#lockPath);
    } catch {
      /* gone already */
    }
    this.#locked = false;
  }
}

/** Reads a journal file without locking it (for `payouts status` / `report` while a run goes on): the latest record per reference. */
export function readJournalFile(path: string): { batchId: string; records: PayoutRecord[] } {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const first = lines[0] ? (JSON.parse(lines[0]) as { format?: string; batchId?: string }) : undefined;
  if (!first || first.format !== FORMAT || typeof first.batchId !== 'string') throw new PayoutJournalError('corrupt', `${path} is not a payout journal.`);
  const index = new Map<string, PayoutRecord>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    try {
      const record = JSON.parse(line) as PayoutRecord;
      index.set(record.reference, record);
    } catch {
      if (i === lines.length - 1 || (i === lines.length - 2 && lines[lines.length - 1] === '')) continue; // torn last line
      throw new PayoutJournalError('corrupt', `${path}: line ${i + 1} is not a journal record.`);
    }
  }
  return { batchId: first.batchId, records: [...index.values()] };
}
