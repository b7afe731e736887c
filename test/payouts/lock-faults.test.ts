/**
 * The journal lock when the file system fails under it, or another process moves between two of its
 * steps (staged here at the very call where it could happen): a link that fails for any reason but
 * "exists" is the file system's error, thrown as it is; a lock this user may not read is refused, named
 * and left alone; a lock released just before it is read is taken; a claim whose claimer finishes just
 * before it is read sends the taker back to the lock, which it then finds held; a lock folder that cannot
 * be listed leaves the leftovers of killed takers where they are, and the lock is taken.
 */
import * as fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FileJournal, PayoutJournalError } from '../../src/payouts/index';
import { lockOf } from './records';

vi.mock('node:fs', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs')>();
  return { ...original, linkSync: vi.fn(original.linkSync), openSync: vi.fn(original.openSync), readdirSync: vi.fn(original.readdirSync) };
});

const real = await vi.importActual<typeof import('node:fs')>('node:fs');

/** An error as the file system gives it: a message and a `code`. */
const fsError = (code: string, syscall: string, path: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });

/** Before the lock code's `nth` open of, or link to, `target` (the first by default), runs `act` (once); what it throws is what the call throws. */
function before(call: 'openSync' | 'linkSync', target: string, act: () => void, nth = 1): void {
  let seen = 0;
  const due = (path: fs.PathLike) => String(path) === target && ++seen === nth;
  if (call === 'openSync') {
    vi.mocked(fs.openSync).mockImplementation((...args: Parameters<typeof fs.openSync>) => {
      if (due(args[0])) act();
      return real.openSync(...args);
    });
  } else {
    vi.mocked(fs.linkSync).mockImplementation((from: fs.PathLike, to: fs.PathLike) => {
      if (due(to)) act();
      return real.linkSync(from, to);
    });
  }
}

afterEach(() => {
  vi.mocked(fs.openSync).mockImplementation(real.openSync);
  vi.mocked(fs.linkSync).mockImplementation(real.linkSync);
  vi.mocked(fs.readdirSync).mockImplementation(real.readdirSync);
});

const dir = mkdtempSync(join(tmpdir(), 'cb-lock-faults-'));
let n = 0;
/** A journal file (empty) and a lock folder of its own. */
const place = () => {
  const d = join(dir, `t${n++}`);
  mkdirSync(join(d, 'locks'), { recursive: true, mode: 0o700 });
  const file = join(d, 'j.journal');
  writeFileSync(file, '');
  return { file, locks: join(d, 'locks'), lock: lockOf(file, join(d, 'locks')) };
};
const host = hostname();
const nonce = (c: string) => c.repeat(32);

let dead = 0;
let sleeper: ReturnType<typeof spawn>;
beforeAll(async () => {
  const child = spawn(process.execPath, ['-e', '0']);
  dead = await new Promise<number>((resolve) => child.once('exit', () => resolve(child.pid!)));
  sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
});
afterAll(() => {
  sleeper?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const openError = (file: string, locks: string) => new FileJournal(file, { lockDirectory: locks }).open('b').catch((e: unknown) => e);

describe('a link the file system refuses for another reason than "exists"', () => {
  it("taking a free lock: the file system's error, as it is; no lock, no file of this process left, the journal untouched", async () => {
    const { file, locks, lock } = place();
    before('linkSync', lock, () => {
      throw fsError('EIO', 'link', lock);
    });
    const error = await openError(file, locks);
    expect(error).not.toBeInstanceOf(PayoutJournalError);
    expect(error).toMatchObject({ code: 'EIO', syscall: 'link', path: lock });
    expect(readdirSync(locks)).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('');
    // Nothing stays taken: the next open works.
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.close();
  });

  it("claiming a stale lock: the file system's error, not a claim taken for busy; the stale lock stays", async () => {
    const { file, locks, lock } = place();
    const stale = `${dead}@${host} ${nonce('a')}\n`;
    writeFileSync(lock, stale);
    const claim = `${lock}.takeover.${nonce('a')}`;
    before('linkSync', claim, () => {
      throw fsError('EIO', 'link', claim);
    });
    const started = Date.now();
    const error = await openError(file, locks);
    expect(error).not.toBeInstanceOf(PayoutJournalError);
    expect(error).toMatchObject({ code: 'EIO', syscall: 'link', path: claim });
    // Thrown at once, not after waiting for a claimer that does not exist.
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(readdirSync(locks)).toEqual([lock.slice(locks.length + 1)]);
    expect(readFileSync(lock, 'utf8')).toBe(stale);
  });
});

describe('a lock this user may not read (another user’s, mode 0600)', () => {
  it('is refused (locked), naming it and the error, and left as it is', async () => {
    const { file, locks, lock } = place();
    const theirs = `${sleeper.pid}@${host} ${nonce('b')}\n`;
    writeFileSync(lock, theirs);
    before('openSync', lock, () => {
      throw fsError('EACCES', 'open', lock);
    });
    const error = await openError(file, locks);
    expect(error).toBeInstanceOf(PayoutJournalError);
    expect(error).toMatchObject({
      reason: 'locked',
      message: `${file}: the lock ${lock} is not readable: EACCES; it was not read. Remove it if no run of this journal is under way.`,
    });
    expect(readFileSync(lock, 'utf8')).toBe(theirs);
  });

  it('an error without a code is named as an error', async () => {
    const { file, locks, lock } = place();
    writeFileSync(lock, `${sleeper.pid}@${host} ${nonce('c')}\n`);
    before('openSync', lock, () => {
      throw new Error('no code');
    });
    expect(await openError(file, locks)).toMatchObject({
      reason: 'locked',
      message: `${file}: the lock ${lock} is not readable: error; it was not read. Remove it if no run of this journal is under way.`,
    });
  });
});

describe('a claimer that finishes between our claim failing and our reading its claim', () => {
  it('sends this process back to the lock, which it finds held by that claimer: refused, naming it', async () => {
    const { file, locks, lock } = place();
    writeFileSync(lock, `${dead}@${host} ${nonce('d')}\n`);
    const claim = `${lock}.takeover.${nonce('d')}`;
    const claimer = `${sleeper.pid}@${host} ${nonce('e')}\n`;
    writeFileSync(claim, claimer);
    // The live claimer takes the lock over and removes its claim, just before this process reads the claim.
    before('openSync', claim, () => {
      unlinkSync(lock);
      writeFileSync(lock, claimer);
      unlinkSync(claim);
    });
    const error = await openError(file, locks);
    expect(error).toMatchObject({
      reason: 'locked',
      message: `${file} is in use by process ${sleeper.pid}@${host} (lock ${lock}). Two runs of one batch at once are refused; stop the other, or delete the lock if that process is gone.`,
    });
    expect(readFileSync(lock, 'utf8')).toBe(claimer);
    expect(existsSync(claim)).toBe(false);
    expect(readdirSync(locks)).toEqual([lock.slice(locks.length + 1)]);
    expect(statSync(file).size).toBe(0);
  });
});

describe('a holder that releases the lock between our link failing and our reading it', () => {
  it('the lock is taken (tried again, not refused)', async () => {
    const { file, locks, lock } = place();
    writeFileSync(lock, `${sleeper.pid}@${host} ${nonce('f')}\n`);
    before('openSync', lock, () => unlinkSync(lock));
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid}@`));
    await journal.close();
    expect(readdirSync(locks)).toEqual([]);
  });
});

describe('a lock folder that cannot be listed', () => {
  it('the leftovers of killed takers stay (they are only untidy), and the lock is taken', async () => {
    const { file, locks } = place();
    const { dev, ino } = statSync(file, { bigint: true });
    const leftover = `.${dev}-${ino}.${dead}.${nonce('9')}.tmp`;
    writeFileSync(join(locks, leftover), 'x');
    vi.mocked(fs.readdirSync).mockImplementation(((path: fs.PathLike, ...rest: unknown[]) => {
      if (String(path) === locks) throw fsError('EIO', 'scandir', locks);
      return (real.readdirSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.readdirSync);
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.close();
    vi.mocked(fs.readdirSync).mockImplementation(real.readdirSync);
    expect(readdirSync(locks)).toEqual([leftover]);
  });
});

describe('a stale lock replaced by hand while this process holds the claim on it', () => {
  // Someone deletes the stale lock, as the refusal message suggests, after this process claimed it and
  // before it reads the lock again (its second open of the lock).
  it('replaced by another live run: that lock is never removed; refused, naming that run', async () => {
    const { file, locks, lock } = place();
    writeFileSync(lock, `${dead}@${host} ${nonce('1')}\n`);
    const theirs = `${sleeper.pid}@${host} ${nonce('2')}\n`;
    before(
      'openSync',
      lock,
      () => {
        unlinkSync(lock);
        writeFileSync(lock, theirs);
      },
      2,
    );
    expect(await openError(file, locks)).toMatchObject({
      reason: 'locked',
      message: expect.stringContaining(`${file} is in use by process ${sleeper.pid}@${host} (lock ${lock})`) as unknown,
    });
    expect(readFileSync(lock, 'utf8')).toBe(theirs);
    expect(readdirSync(locks)).toEqual([lock.slice(locks.length + 1)]); // the claim removed
  });

  it('removed and not replaced: the lock is taken, and its claim removed', async () => {
    const { file, locks, lock } = place();
    writeFileSync(lock, `${dead}@${host} ${nonce('3')}\n`);
    before('openSync', lock, () => unlinkSync(lock), 2);
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid}@`));
    expect(readdirSync(locks)).toEqual([lock.slice(locks.length + 1)]);
    await journal.close();
  });
});

describe('a lock deleted by hand while its journal is open', () => {
  it('close resolves and removes nothing else; the journal opens again', async () => {
    const { file, locks, lock } = place();
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    unlinkSync(lock);
    const other = join(locks, 'unrelated');
    writeFileSync(other, 'x');
    await journal.close();
    expect(readdirSync(locks)).toEqual(['unrelated']);
    await journal.open('b');
    expect(existsSync(lock)).toBe(true);
    await journal.close();
  });
});
