/**
 * Keeps a sandbox's state in a file as it changes (what `crossborder-sdk sandbox --state FILE` does):
 * written atomically (a temporary file beside it, flushed to disk, then renamed over it) shortly
 * after each change, so a process killed without warning (`kill -9`, a crash, `docker kill`) loses at
 * most the last moments. Node only (node:fs): `crossborder-sdk/sandbox` loads it lazily
 * (`persistStateTo`), so browser bundles of the sandbox never reach node:*.
 * @module
 */
import { closeSync, fsyncSync, lstatSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SandboxStateDocument } from './persist';
import { stringifyState } from './persist';

/** What `persistStateTo` needs of a sandbox: a `Sandbox` has both. */
export interface PersistableSandbox {
  /** The state as a document (what is written). */
  exportState(): SandboxStateDocument;
  /** Subscribes to changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

/** Options of `persistStateTo`. */
export interface PersistStateOptions {
  /**
   * How long after a change the file is written, in ms (default 200). Changes in between are written
   * together; a steady stream of changes is still written every `delayMs` (a throttle, not a debounce
   * that waits for quiet). 0 writes on the next turn of the event loop.
   */
  delayMs?: number;
  /** Called when a write fails (the next change tries again). Default: `console.error`. */
  onError?: (error: unknown) => void;
  /**
   * Write the current state at once, before any change (default false): the file exists from the
   * start, e.g. so a fixture file is normalised. Without it the first write follows the first change.
   */
  writeNow?: boolean;
}

/** A running persister. */
export interface StatePersister {
  /** The file written. */
  readonly file: string;
  /** Writes now if a change is waiting (synchronously: safe in a signal handler). */
  flush(): void;
  /** Writes what is waiting, then stops listening. Idempotent. */
  close(): void;
  /** Writes that reached the file so far. */
  readonly writes: number;
}

/**
 * Writes `text` to `file` atomically: a temporary file in the same directory, flushed to disk
 * (fsync), then renamed over `file`. A reader sees the old content or the new, never half of one.
 */
export function writeFileAtomic(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  let fd: number | undefined;
  try {
    // Created new ('wx': O_EXCL, which never follows a link); one a killed process with this pid left is removed first.
    try {
      fd = openSync(temporary, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      rmSync(temporary, { force: true });
      fd = openSync(temporary, 'wx', 0o600);
    }
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** True while a process with this id runs (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files {@link writeFileAtomic} leaves beside `file` when its process is killed
 * between writing and renaming (`state.json.<pid>.tmp`): those of a process that no longer runs, or
 * older than a minute (a write renames its file within moments; the pid may have been reused since).
 * Only regular files of exactly that name are removed; the answer lists them.
 */
export function removeStaleTemporaries(file: string): string[] {
  const folder = dirname(file);
  const name = basename(file);
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.startsWith(`${name}.`) || !entry.endsWith('.tmp')) continue;
    const pid = entry.slice(name.length + 1, -'.tmp'.length);
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const path = join(folder, entry);
    try {
      const stat = lstatSync(path);
      if (!stat.isFile()) continue;
      if (running(Number(pid)) && Date.now() - stat.mtimeMs < 60_000) continue;
      rmSync(path, { force: true });
      removed.push(path);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** The document without its `savedAt` (the clock moves on; the state may not have). */
const contentOf = (text: string) => text.replace(/^ {2}"savedAt": ".*",$/m, '');

/**
 * Writes `sandbox`'s state to `file` shortly after each change (see {@link PersistStateOptions.delayMs}),
 * atomically ({@link writeFileAtomic}), skipping writes when the content has not changed. Call
 * `close()` (or `flush()`) on shutdown to write the last change at once. Temporary files an earlier
 * process killed mid-write left beside `file` are removed first ({@link removeStaleTemporaries}).
 *
 * ```ts
 * const persister = createStatePersister(sandbox, 'sandbox-state.json');
 * process.once('SIGTERM', () => { persister.close(); process.exit(0); });
 * ```
 */
export function createStatePersister(sandbox: PersistableSandbox, file: string, options: PersistStateOptions = {}): StatePersister {
  removeStaleTemporaries(file);
  const delayMs = options.delayMs ?? 200;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0)
    throw new Error(`delayMs must be a number of ms, 0 or more, got ${String(delayMs)}`);
  const onError = options.onError ?? ((error: unknown) => console.error('[crossborder sandbox] could not write the state to', file, error));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = false;
  let closed = false;
  let writes = 0;
  let last: string | undefined;

  const write = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    try {
      const text = stringifyState(sandbox.exportState());
      const content = contentOf(text);
      if (content === last) return;
      writeFileAtomic(file, text);
      last = content;
      writes++;
    } catch (error) {
      dirty = true; // tried again at the next change or flush
      onError(error);
    }
  };
  const unsubscribe = sandbox.onChange(() => {
    if (closed) return;
    dirty = true;
    if (timer === undefined) {
      timer = setTimeout(write, delayMs);
      // A pending write never keeps the process alive by itself: close() (or flush()) writes it on the way out.
      (timer as { unref?: () => void }).unref?.();
    }
  });
  if (options.writeNow) {
    dirty = true;
    write();
  }
  return {
    file,
    flush: write,
    close() {
      if (closed) return;
      write();
      closed = true;
      unsubscribe();
    },
    get writes() {
      return writes;
    },
  };
}
