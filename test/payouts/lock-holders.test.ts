/**
 * What the journal lock makes of what it finds: lock texts that are and are not its own, holders on
 * another machine, a claimer that still runs, a chain of claimers that died, the leftovers of processes
 * killed while they took it, its folder, the lock of an earlier version, and a release that never
 * removes another's lock. Each refusal is a PayoutJournalError (`locked`) whose message names the lock.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileJournal, PayoutJournalError } from '../../src/payouts/index';
import { defaultLockDirectory, FileLock } from '../../src/payouts/file-lock';
import { lockOf } from './records';

const dir = mkdtempSync(join(tmpdir(), 'cb-lock-holders-'));
let n = 0;
/** A journal file (empty) and a lock folder of its own. */
const place = () => {
  const d = join(dir, `t${n++}`);
  mkdirSync(join(d, 'locks'), { recursive: true, mode: 0o700 });
  const file = join(d, 'j.journal');
  writeFileSync(file, '');
  return { d, file, locks: join(d, 'locks'), lock: lockOf(file, join(d, 'locks')) };
};
const host = hostname();
const nonce = (c: string) => c.repeat(32);

/** A pid that no longer runs. */
let dead = 0;
/** A process that runs for the whole file (a live holder that is not this process). */
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

async function refusal(file: string, locks: string): Promise<PayoutJournalError> {
  const error = await new FileJournal(file, { lockDirectory: locks }).open('b').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PayoutJournalError);
  expect((error as PayoutJournalError).reason).toBe('locked');
  return error as PayoutJournalError;
}

async function opensAndCloses(file: string, locks: string): Promise<void> {
  const journal = new FileJournal(file, { lockDirectory: locks });
  await journal.open('b');
  expect(readFileSync(lockOf(file, locks), 'utf8')).toMatch(new RegExp(`^${process.pid}@${host.replace(/[.]/g, '\\.')} [0-9a-f]{32}\\n$`));
  await journal.close();
  expect(existsSync(lockOf(file, locks))).toBe(false);
}

describe('the lock text', () => {
  it('only pid@host nonce, whole, is a lock: anything around it, a short or upper-case nonce, or no newline is not one, and is left as it is', async () => {
    const texts = [
      `x${dead}@${host} ${nonce('a')}\n`, // text before it
      `${dead}@${host} ${nonce('a')}\nmore`, // text after it
      `${dead}@${host} ${nonce('a')}`, // no newline
      `${dead}@${host} ${'a'.repeat(31)}\n`, // a short nonce
      `${dead}@${host} ${'A'.repeat(32)}\n`, // not lower-case hex
      `${dead}@${host}  ${nonce('a')}\n`, // two spaces
      `@${host} ${nonce('a')}\n`, // no pid
      `${dead}@ ${nonce('a')}\n`, // no host
      `${dead}@bad host ${nonce('a')}\n`, // a host with a space
      `12345678901@${host} ${nonce('a')}\n`, // an 11-digit pid
    ];
    for (const text of texts) {
      const { file, locks, lock } = place();
      writeFileSync(lock, text);
      const error = await refusal(file, locks);
      expect(error.message, JSON.stringify(text)).toBe(
        `${file}: the lock ${lock} is not a lock this SDK wrote; it was not read. Remove it if no run of this journal is under way.`,
      );
      expect(readFileSync(lock, 'utf8')).toBe(text);
    }
  });

  it('a folder or a FIFO at the lock path is not a regular file: refused without reading (a FIFO never blocks the open)', async () => {
    const { file, locks, lock } = place();
    mkdirSync(lock);
    expect((await refusal(file, locks)).message).toBe(
      `${file}: the lock ${lock} is not a regular file; it was not read. Remove it if no run of this journal is under way.`,
    );
    rmSync(lock, { recursive: true });
    expect(spawnSync('mkfifo', [lock]).status).toBe(0);
    expect((await refusal(file, locks)).message).toContain(`the lock ${lock} is not a regular file`);
    expect(lstatSync(lock).isFIFO()).toBe(true);
  });
});

describe('whose lock it is', () => {
  it('a live holder, another process of this machine: refused, naming it and the lock; the lock stays', async () => {
    const { file, locks, lock } = place();
    const text = `${sleeper.pid}@${host} ${nonce('b')}\n`;
    writeFileSync(lock, text);
    expect((await refusal(file, locks)).message).toBe(
      `${file} is in use by process ${sleeper.pid}@${host} (lock ${lock}). Two runs of one batch at once are refused; stop the other, or delete the lock if that process is gone.`,
    );
    expect(readFileSync(lock, 'utf8')).toBe(text);
  });

  it('a holder on another machine is never taken over, even with a pid that does not run here', async () => {
    const { file, locks, lock } = place();
    const text = `${dead}@another-host.example ${nonce('c')}\n`;
    writeFileSync(lock, text);
    expect((await refusal(file, locks)).message).toContain(`in use by process ${dead}@another-host.example`);
    expect(readFileSync(lock, 'utf8')).toBe(text);
  });

  it('a stale lock that a live process is taking over: this one waits about 2 s for it, then refuses; the lock and the claim stay', async () => {
    const { file, locks, lock } = place();
    writeFileSync(lock, `${dead}@${host} ${nonce('d')}\n`);
    const claim = `${lock}.takeover.${nonce('d')}`;
    writeFileSync(claim, `${sleeper.pid}@${host} ${nonce('e')}\n`);
    const started = Date.now();
    const error = await refusal(file, locks);
    const waited = Date.now() - started;
    expect(error.message).toBe(`${file}: another process has been taking over the stale lock ${lock} for 2000 ms; try again.`);
    expect(waited).toBeGreaterThanOrEqual(1_900);
    expect(waited).toBeLessThan(15_000);
    expect(readFileSync(lock, 'utf8')).toBe(`${dead}@${host} ${nonce('d')}\n`);
    expect(readFileSync(claim, 'utf8')).toBe(`${sleeper.pid}@${host} ${nonce('e')}\n`);
  }, 30_000);

  it('a chain of claimers that all died is followed (3 deep) and cleared; 16 in a row is refused, naming the files to remove', async () => {
    const { file, locks, lock } = place();
    const hex = '0123456789abcdef';
    writeFileSync(lock, `${dead}@${host} ${nonce(hex[0]!)}\n`);
    for (let i = 0; i < 3; i++) writeFileSync(`${lock}.takeover.${nonce(hex[i]!)}`, `${dead}@${host} ${nonce(hex[i + 1]!)}\n`);
    await opensAndCloses(file, locks);
    expect(readdirSync(locks)).toEqual([]);

    // Sixteen claimers in a row, all gone (the seventeenth claim would be free): refused, not followed further.
    const nth = (i: number) => i.toString(16).padStart(32, '0');
    writeFileSync(lock, `${dead}@${host} ${nth(0)}\n`);
    for (let i = 0; i < 16; i++) writeFileSync(`${lock}.takeover.${nth(i)}`, `${dead}@${host} ${nth(i + 1)}\n`);
    const error = await refusal(file, locks);
    expect(error.message).toBe(
      `${file}: 16 processes in a row died taking over its stale lock ${lock}; remove ${lock}.takeover.* and the lock if no run of this journal is under way.`,
    );
    expect(existsSync(lock)).toBe(true);
  });

  it("the leftovers of processes killed while taking this lock are removed; a live process's, this one's, another file's and other names stay", async () => {
    const { file, locks } = place();
    const { dev, ino } = statSync(file, { bigint: true });
    const mine = `.${dev}-${ino}.`;
    const names = {
      deadOne: `${mine}${dead}.${nonce('a')}.tmp`,
      live: `${mine}${sleeper.pid}.${nonce('b')}.tmp`,
      self: `${mine}${process.pid}.${nonce('c')}.tmp`,
      otherFile: `.${dev}-${ino}9.${dead}.${nonce('d')}.tmp`,
      notTmp: `${mine}${dead}.${nonce('e')}.txt`,
      noPid: `${mine}x${dead}.${nonce('f')}.tmp`,
      negativePid: `${mine}-99999.${nonce('f')}.tmp`,
    };
    for (const name of Object.values(names)) writeFileSync(join(locks, name), 'x');
    await opensAndCloses(file, locks);
    expect(readdirSync(locks).sort()).toEqual([names.live, names.self, names.otherFile, names.notTmp, names.noPid, names.negativePid].sort());
  });
});

describe('release', () => {
  it('held until released, once; a lock that is no longer its own (replaced, or a link planted there) is left alone', async () => {
    const { file, locks, lock } = place();
    const { dev, ino } = statSync(file);
    const held = FileLock.take(file, dev, ino, locks);
    expect(held.path).toBe(lock);
    expect(held.held).toBe(true);
    held.release();
    expect(held.held).toBe(false);
    expect(existsSync(lock)).toBe(false);
    // Released twice: the second does nothing, even to a lock taken since by another.
    const other = FileLock.take(file, dev, ino, locks);
    held.release();
    expect(existsSync(lock)).toBe(true);
    other.release();

    // Replaced under it (someone deleted it, another process took it): not removed.
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    rmSync(lock);
    const theirs = `${sleeper.pid}@${host} ${nonce('f')}\n`;
    writeFileSync(lock, theirs);
    await journal.close();
    expect(readFileSync(lock, 'utf8')).toBe(theirs);
    rmSync(lock);

    // A link planted at its path: not followed, not removed.
    await journal.open('b');
    rmSync(lock);
    const target = join(dirnameOf(lock), '..', 'target.txt');
    writeFileSync(target, 'T');
    symlinkSync(target, lock);
    await journal.close();
    expect(lstatSync(lock).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('T');
  });
});

const dirnameOf = (path: string) => path.slice(0, path.lastIndexOf('/'));

describe('the lock folder', () => {
  it('is made owner-only when missing, in crossborder-payouts-<uid> of the temporary folder by default', () => {
    expect(defaultLockDirectory()).toBe(join(tmpdir(), `crossborder-payouts-${process.getuid!()}`));
    const { file } = place();
    const fresh = join(dir, `fresh-locks-${n++}`);
    const { dev, ino } = statSync(file);
    FileLock.take(file, dev, ino, fresh).release();
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });

  it("a folder that cannot be made is the file system's error; a file there is not a folder", async () => {
    const { d, file } = place();
    await expect(new FileJournal(file, { lockDirectory: join(d, 'no', 'such') }).open('b')).rejects.toThrow(/^ENOENT: no such file or directory, mkdir/);
    const plain = join(d, 'plain');
    writeFileSync(plain, '');
    const error = await refusal(file, plain);
    expect(error.message).toBe(`The payout journals' lock folder ${plain} is not a folder: refused (choose another with lockDirectory).`);
  });

  it.runIf(process.getuid?.() === 0)('a folder of another user is refused (run as root, which can make one)', async () => {
    const { d, file } = place();
    const theirs = join(d, 'theirs');
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, 4242, 4242);
    expect((await refusal(file, theirs)).message).toBe(
      `The payout journals' lock folder ${theirs} belongs to another user (uid 4242): refused (choose another with lockDirectory).`,
    );
  });
});

describe('the lock of an earlier version (<journal>.lock, pid@host)', () => {
  it('refuses while another live process of this machine holds it (with or without its newline); ignores this process, another machine, a dead pid, a link, a folder and other text', async () => {
    const { file, locks } = place();
    const legacy = `${file}.lock`;
    for (const text of [`${sleeper.pid}@${host}\n`, `${sleeper.pid}@${host}`]) {
      writeFileSync(legacy, text);
      expect((await refusal(file, locks)).message).toBe(
        `${file} is in use by process ${sleeper.pid}@${host} (lock ${legacy}, of an earlier version). Two runs of one batch at once are refused; stop the other, or delete the lock if that process is gone.`,
      );
    }
    for (const text of [
      `${process.pid}@${host}\n`,
      `${sleeper.pid}@another-host\n`,
      `${dead}@${host}\n`,
      `x${sleeper.pid}@${host}\n`,
      `${sleeper.pid}@${host}\nmore`,
      `0@${host}\n`,
    ]) {
      writeFileSync(legacy, text);
      await opensAndCloses(file, locks);
    }
    rmSync(legacy);
    const target = join(dirnameOf(file), 'live.txt');
    writeFileSync(target, `${sleeper.pid}@${host}\n`);
    symlinkSync(target, legacy);
    await opensAndCloses(file, locks);
    rmSync(legacy);
    mkdirSync(legacy);
    await opensAndCloses(file, locks);
  });
});

describe('file descriptors', () => {
  it.runIf(process.platform === 'linux')('none is left open by a lock taken and released, or refused, 20 times over', async () => {
    const { file, locks, lock } = place();
    const open = () => readdirSync('/proc/self/fd').length;
    await opensAndCloses(file, locks); // the first open loads what it needs
    const before = open();
    for (let i = 0; i < 20; i++) await opensAndCloses(file, locks);
    writeFileSync(lock, `${sleeper.pid}@${host} ${nonce('9')}\n`);
    for (let i = 0; i < 20; i++) await refusal(file, locks);
    expect(open()).toBe(before);
  });
});
