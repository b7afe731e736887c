/**
 * The lock of a file journal: one process at a time writes a journal file, whatever path it was given.
 *
 * - **It belongs to the file, not its name.** The lock is named from the file's device and inode
 *   (`<dev>-<ino>.lock` in one folder per user), so a hard link, a symbolic link, a relative and an
 *   absolute path to one journal meet one lock.
 * - **Taken atomically, a stale one too.** A lock file is made whole before it appears: its text (pid,
 *   host, a random nonce) is written to a file of this process's own, then hard-linked to the lock's name,
 *   which fails when the name exists. A lock whose process is gone (`kill -9`) is taken over through a
 *   claim on that very lock: `<lock>.takeover.<its nonce>`, linked the same way, so that exactly one
 *   process may remove it; that process removes it only while it still holds that nonce. A claimer that
 *   died is itself taken over by a claim on its own nonce. No process ever removes a lock it has not
 *   proven stale under an exclusive claim, so two processes starting together on a stale lock never both
 *   hold it.
 * - **Nothing is read through a link.** The lock folder must be a real folder of this user, not writable
 *   by others; a lock or claim is read only as a regular file (`O_NOFOLLOW`), at most 256 bytes, and only
 *   its pid and host, checked to be that, are ever printed.
 * @module
 */
import { closeSync, constants, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PayoutJournalError } from './journal';

/** The default folder of the locks: `crossborder-payouts-<uid>` in the temporary folder. */
export function defaultLockDirectory(): string {
  const uid = process.getuid?.();
  return join(tmpdir(), `crossborder-payouts${uid === undefined ? '' : `-${uid}`}`);
}

/** True while a process with this id runs here (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a lock or claim file says: its process and nonce. */
interface Holder {
  pid: number;
  host: string;
  nonce: string;
}

const HOLDER = /^(\d{1,10})@([A-Za-z0-9._-]{1,255}) ([0-9a-f]{32})\n$/;

/** Whether `holder` is a process of this machine that no longer runs. */
const gone = (holder: Holder) => holder.host === hostname() && holder.pid > 0 && !alive(holder.pid);

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Reads the lock or claim at `path`: its holder, `undefined` when there is none (removed meanwhile), and
 * a {@link PayoutJournalError} when something that is not a lock is there (a link, a folder, other text).
 */
function readHolder(path: string, journal: string): Holder | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw notALock(path, journal, code === 'ELOOP' ? 'a symbolic link' : `not readable: ${code ?? 'error'}`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw notALock(path, journal, 'not a regular file');
    const buffer = Buffer.alloc(256);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const match = HOLDER.exec(buffer.toString('latin1', 0, n));
    if (!match) throw notALock(path, journal, 'not a lock this SDK wrote');
    return { pid: Number(match[1]), host: match[2]!, nonce: match[3]! };
  } finally {
    closeSync(fd);
  }
}

function notALock(path: string, journal: string, why: string): PayoutJournalError {
  return new PayoutJournalError('locked', `${journal}: the lock ${path} is ${why}; it was not read. Remove it if no run of this journal is under way.`);
}

/** Makes (or checks) the lock folder: a folder of this user's, not writable by others, never a link. */
function lockFolder(directory: string): void {
  try {
    mkdirSync(directory, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(directory);
  const uid = process.getuid?.();
  const why = stat.isSymbolicLink()
    ? 'is a symbolic link'
    : !stat.isDirectory()
      ? 'is not a folder'
      : uid !== undefined && stat.uid !== uid
        ? `belongs to another user (uid ${stat.uid})`
        : process.platform !== 'win32' && (stat.mode & 0o022) !== 0
          ? `is writable by others (mode ${(stat.mode & 0o777).toString(8)})`
          : undefined;
  if (why) throw new PayoutJournalError('locked', `The payout journals' lock folder ${directory} ${why}: refused (choose another with lockDirectory).`);
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** How long a process waits for another that is taking a stale lock over (it takes microseconds). */
const TAKEOVER_WAIT_MS = 2_000;
/** How many claimers in a row may have died mid-takeover before the lock is refused. */
const MOST_CLAIMS = 16;

/** A lock held by this process (see the module documentation). */
export class FileLock {
  readonly path: string;
  readonly #nonce: string;
  #held = true;

  private constructor(path: string, nonce: string) {
    this.path = path;
    this.#nonce = nonce;
  }

  /**
   * Takes the lock of the file whose device and inode are `dev` and `ino` (the journal `journal`, named
   * in errors), in `directory`. Refused ({@link PayoutJournalError} `locked`) while a live process holds it.
   */
  static take(journal: string, dev: number | bigint, ino: number | bigint, directory: string = defaultLockDirectory()): FileLock {
    lockFolder(directory);
    const path = join(directory, `${dev}-${ino}.lock`);
    removeLeftovers(directory, `.${dev}-${ino}.`);
    const nonce = randomBytes(16).toString('hex');
    // The lock's whole text in a file of this process, linked to the lock's name (and to claims): a lock
    // is never seen empty or half written.
    const mine = join(directory, `.${dev}-${ino}.${process.pid}.${nonce}.tmp`);
    const fd = openSync(mine, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
    try {
      writeSync(fd, `${process.pid}@${hostname()} ${nonce}\n`);
    } finally {
      closeSync(fd);
    }
    try {
      const deadline = Date.now() + TAKEOVER_WAIT_MS;
      for (;;) {
        if (tryLink(mine, path)) return new FileLock(path, nonce);
        const holder = readHolder(path, journal);
        if (holder === undefined) continue; // released meanwhile: try again
        if (!gone(holder)) {
          throw new PayoutJournalError(
            'locked',
            `${journal} is in use by process ${holder.pid}@${holder.host} (lock ${path}). Two runs of one batch at once are refused; stop the other, or delete the lock if that process is gone.`,
          );
        }
        const claimed = claim(mine, path, holder, journal);
        if (claimed === 'busy') {
          if (Date.now() > deadline)
            throw new PayoutJournalError(
              'locked',
              `${journal}: another process has been taking over the stale lock ${path} for ${TAKEOVER_WAIT_MS} ms; try again.`,
            );
          sleep(5);
          continue;
        }
        // An exclusive claim on this stale lock: it is removed only if it is still that one.
        const now = readHolder(path, journal);
        if (now?.nonce === holder.nonce) unlinkQuietly(path);
        const won = tryLink(mine, path);
        for (const c of claimed) unlinkQuietly(c);
        if (won) return new FileLock(path, nonce);
      }
    } finally {
      unlinkQuietly(mine);
    }
  }

  /** Whether this process still holds the lock. */
  get held(): boolean {
    return this.#held;
  }

  /** Releases the lock (only while it is still this process's own: never another's). */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    let holder: Holder | undefined;
    try {
      holder = readHolder(this.path, this.path);
    } catch {
      return; // not a lock of ours any more: left alone
    }
    if (holder?.nonce === this.#nonce) unlinkQuietly(this.path);
  }
}

/**
 * The process that holds the lock an earlier version of this SDK took (`<journal>.lock`, holding
 * `pid@host`), when it still runs here: a run started before an upgrade still writes the journal. Read
 * without following a link, at most 256 bytes; anything else there is no such lock.
 */
export function legacyHolder(journal: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(`${journal}.lock`, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(256);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const match = /^(\d{1,10})@([A-Za-z0-9._-]{1,255})\n?$/.exec(buffer.toString('latin1', 0, n));
    if (!match) return undefined;
    const pid = Number(match[1]);
    return match[2] === hostname() && pid > 0 && pid !== process.pid && alive(pid) ? `${pid}@${match[2]}` : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Removes the files of processes killed while they took this lock (`.<dev>-<ino>.<pid>.<nonce>.tmp`, their pid gone). */
function removeLeftovers(directory: string, prefix: string): void {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) unlinkQuietly(join(directory, name));
  }
}

/** Links `from` to `to`; false when `to` exists. */
function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* gone already */
  }
}

/**
 * Claims the stale lock `lock` held by `holder`: links `mine` to `<lock>.takeover.<nonce>`; when a claimer
 * that is gone holds that, claims its claim, and so on. The claims made (to remove once the lock is taken
 * over), or `busy` while a live process holds a claim.
 */
function claim(mine: string, lock: string, holder: Holder, journal: string): string[] | 'busy' {
  const chain: string[] = [];
  let nonce = holder.nonce;
  for (let depth = 0; depth < MOST_CLAIMS; depth++) {
    const path = `${lock}.takeover.${nonce}`;
    if (tryLink(mine, path)) return [...chain, path];
    const claimer = readHolder(path, journal);
    if (claimer === undefined) return 'busy'; // its claimer is done: look at the lock again
    if (!gone(claimer)) return 'busy';
    chain.push(path);
    nonce = claimer.nonce;
  }
  throw new PayoutJournalError(
    'locked',
    `${journal}: ${MOST_CLAIMS} processes in a row died taking over its stale lock ${lock}; remove ${lock}.takeover.* and the lock if no run of this journal is under way.`,
  );
}
