/**
 * One runner per journal (issue 47 §3): the file journal's lock belongs to the file, not its name (a hard
 * link, a symbolic link, a relative path), is taken atomically even from a stale holder (processes racing
 * for real), is released on close (and a closed journal opens again), reads nothing through a link
 * planted at its path, and a file that is not a journal is refused, named, and left as it was.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FileJournal, PayoutJournalError, type PayoutRecord } from '../../src/payouts/index';
import { root } from '../setup/packed';
import { journalRecord, lockOf } from './records';

const dir = mkdtempSync(join(tmpdir(), 'cb-journal-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
/** A fresh folder with its own lock folder. */
const place = () => {
  const d = join(dir, `t${n++}`);
  mkdirSync(join(d, 'locks'), { recursive: true, mode: 0o700 });
  return { d, locks: join(d, 'locks') };
};
const record = (reference: string, state: PayoutRecord['state'] = 'submitted'): PayoutRecord => journalRecord(reference, state);

/** A pid that no longer runs (a child that exited). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  return new Promise<number>((resolve) => child.once('exit', () => resolve(child.pid!)));
}

describe('the journal lock belongs to the file', () => {
  it('a second path to a journal in use (hard link in another folder, symbolic link, relative path) is refused, naming the holder', async () => {
    const { d, locks } = place();
    const file = join(d, 'payroll.journal');
    const first = new FileJournal(file, { lockDirectory: locks });
    await first.open('b');
    mkdirSync(join(d, 'elsewhere'));
    const hard = join(d, 'elsewhere', 'hard.journal');
    linkSync(file, hard);
    const soft = join(d, 'soft.journal');
    symlinkSync(file, soft);
    const rel = relative(process.cwd(), file);
    expect(rel.startsWith('/')).toBe(false);
    for (const path of [file, hard, soft, rel, `${d}/./elsewhere/../payroll.journal`]) {
      const err = await new FileJournal(path, { lockDirectory: locks }).open('b').catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(PayoutJournalError);
      expect(err, path).toMatchObject({ reason: 'locked', message: expect.stringContaining(`in use by process ${process.pid}@${hostname()}`) });
    }
    // The holder still writes, and nothing else was written by the refused opens.
    await first.put(record('r1'));
    await first.close();
    // Released: any of the paths opens it now, with what was written.
    const viaLink = new FileJournal(hard, { lockDirectory: locks });
    expect([...(await viaLink.open('b'))].map((r) => r.reference)).toEqual(['r1']);
    await expect(new FileJournal(soft, { lockDirectory: locks }).open('b')).rejects.toMatchObject({ reason: 'locked' });
    await viaLink.close();
  });

  it('is released on close, and a closed journal opens again (the same object), keeping its records', async () => {
    const { d, locks } = place();
    const file = join(d, 'j');
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.put(record('r1'));
    expect(existsSync(lockOf(file, locks))).toBe(true);
    await journal.close();
    expect(existsSync(lockOf(file, locks))).toBe(false);
    await expect(journal.put(record('r2'))).rejects.toMatchObject({ reason: 'closed' });
    const again = [...(await journal.open('b'))];
    expect(again.map((r) => [r.reference, r.state])).toEqual([['r1', 'submitted']]);
    expect(existsSync(lockOf(file, locks))).toBe(true);
    await journal.put({ ...record('r1'), state: 'completed' });
    expect(await journal.get('r1')).toMatchObject({ state: 'completed' });
    await expect(new FileJournal(file, { lockDirectory: locks }).open('b')).rejects.toMatchObject({ reason: 'locked' });
    await journal.close();
    const third = new FileJournal(file, { lockDirectory: locks });
    expect([...(await third.open('b'))].map((r) => [r.reference, r.state])).toEqual([['r1', 'completed']]);
    await third.close();
  });

  it('refuses a journal whose lock an earlier version took (<journal>.lock) while that process runs', async () => {
    const { d, locks } = place();
    const file = join(d, 'j');
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(`${file}.lock`, `${sleeper.pid}@${hostname()}\n`);
      const err = await new FileJournal(file, { lockDirectory: locks }).open('b').catch((e: unknown) => e);
      expect(err).toMatchObject({
        reason: 'locked',
        message: expect.stringContaining(`in use by process ${sleeper.pid}@${hostname()} (lock ${file}.lock, of an earlier version)`),
      });
      expect(existsSync(lockOf(file, locks))).toBe(false); // released
    } finally {
      sleeper.kill('SIGKILL');
    }
    // That process gone, its old lock is ignored.
    writeFileSync(`${file}.lock`, `${await deadPid()}@${hostname()}\n`);
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    await journal.close();
  });

  it('takes over the lock of a process that is gone, and leaves no claim behind', async () => {
    const { d, locks } = place();
    const file = join(d, 'j');
    writeFileSync(file, '');
    const lock = lockOf(file, locks);
    const killed = await deadPid();
    writeFileSync(lock, `${killed}@${hostname()} ${'a'.repeat(32)}\n`);
    // What a process killed as it took the lock leaves: its own file, removed with the stale lock.
    const { dev, ino } = statSync(file, { bigint: true });
    writeFileSync(join(locks, `.${dev}-${ino}.${killed}.${'a'.repeat(32)}.tmp`), `${killed}@${hostname()} ${'a'.repeat(32)}\n`);
    const journal = new FileJournal(file, { lockDirectory: locks });
    await journal.open('b');
    expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid}@${hostname()} [0-9a-f]{32}\\n$`));
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(locks)).toEqual([`${dev}-${ino}.lock`]);
    await journal.close();
    expect(existsSync(lock)).toBe(false);
    // A claimer that died mid-takeover (its claim on the stale lock stays) is taken over in turn.
    writeFileSync(lock, `${await deadPid()}@${hostname()} ${'b'.repeat(32)}\n`);
    writeFileSync(`${lock}.takeover.${'b'.repeat(32)}`, `${await deadPid()}@${hostname()} ${'c'.repeat(32)}\n`);
    await journal.open('b');
    expect(readFileSync(lock, 'utf8')).toContain(`${process.pid}@`);
    await journal.close();
    expect(readdirSync(locks)).toEqual([]);
  });

  it('reads and prints nothing through a link planted at the lock path, and refuses a lock folder others may write', async () => {
    const { d, locks } = place();
    const file = join(d, 'j');
    writeFileSync(file, '');
    const secret = join(d, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-CONTENTS\n');
    symlinkSync(secret, lockOf(file, locks));
    const err = (await new FileJournal(file, { lockDirectory: locks }).open('b').catch((e: unknown) => e)) as PayoutJournalError;
    expect(err).toBeInstanceOf(PayoutJournalError);
    expect(err.reason).toBe('locked');
    expect(err.message).toContain('is a symbolic link; it was not read');
    expect(err.message).not.toContain('TOP-SECRET');
    expect(readFileSync(secret, 'utf8')).toBe('TOP-SECRET-CONTENTS\n');
    expect(readFileSync(file, 'utf8')).toBe('');
    // A lock file that is not one (text of someone else's) is neither printed nor removed.
    rmSync(lockOf(file, locks));
    writeFileSync(lockOf(file, locks), '\x1b[2J batch OK: 0 failed\n');
    const err2 = (await new FileJournal(file, { lockDirectory: locks }).open('b').catch((e: unknown) => e)) as PayoutJournalError;
    expect(err2.message).toContain('not a lock this SDK wrote');
    expect(err2.message).not.toContain('batch OK');
    expect(readFileSync(lockOf(file, locks), 'utf8')).toBe('\x1b[2J batch OK: 0 failed\n');
    // The lock folder: a symbolic link, or writable by others, is refused.
    const linked = join(d, 'linked-locks');
    symlinkSync(locks, linked);
    await expect(new FileJournal(file, { lockDirectory: linked }).open('b')).rejects.toMatchObject({
      reason: 'locked',
      message: expect.stringContaining('is a symbolic link'),
    });
    const open = join(d, 'open-locks');
    mkdirSync(open);
    chmodSync(open, 0o777);
    await expect(new FileJournal(file, { lockDirectory: open }).open('b')).rejects.toMatchObject({
      reason: 'locked',
      message: expect.stringContaining('is writable by others (mode 777)'),
    });
  });
});

describe('a file that is not a journal', () => {
  it('is refused with a typed error naming it, and left byte for byte as it was', async () => {
    const { d, locks } = place();
    const cases: [string, string][] = [
      ['one-line.txt', 'my notes about payroll'], // one line, no newline: it was cut to nothing and overwritten
      ['two-lines.txt', 'hello\nworld\n'],
      ['json.txt', '{"name":"not a journal"}\n{"reference":"r1","state":"completed"}\n'],
      ['blank.txt', '\n\n  \n'],
      ['array.json', '[1,2,3]\n'],
    ];
    for (const [name, text] of cases) {
      const file = join(d, name);
      writeFileSync(file, text);
      const err = await new FileJournal(file, { lockDirectory: locks }).open('b').catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(PayoutJournalError);
      expect(err, name).toMatchObject({ reason: 'corrupt', message: expect.stringContaining(`${file} is not a payout journal`) });
      expect(readFileSync(file, 'utf8'), name).toBe(text);
      expect(existsSync(lockOf(file, locks)), name).toBe(false); // released
    }
    // A header a kill tore as it was written (nothing else in the file) is cut off, and the journal made anew.
    const torn = join(d, 'torn.journal');
    writeFileSync(torn, '{"format":"crossborder-payout-journal/2","batch');
    const journal = new FileJournal(torn, { lockDirectory: locks });
    expect([...(await journal.open('b'))]).toEqual([]);
    await journal.close();
    expect(JSON.parse(readFileSync(torn, 'utf8').split('\n')[0]!)).toMatchObject({ format: 'crossborder-payout-journal/2', batchId: 'b' });
  });
});

describe('processes racing for a stale lock', () => {
  it('of several node processes started together on one stale lock, exactly one takes it; the others are refused', { timeout: 120_000 }, async () => {
    const { d, locks } = place();
    const file = join(d, 'race.journal');
    writeFileSync(file, '');
    const child = join(d, 'child.mjs');
    const source = pathToFileURL(join(root, 'src/payouts/file-journal.ts')).href;
    writeFileSync(
      child,
      `import { existsSync, renameSync, writeFileSync } from 'node:fs';
const { FileJournal } = await import(${JSON.stringify(source)});
const [file, locks, go, done, out] = process.argv.slice(2);
const wait = async (path) => { const end = Date.now() + 60000; while (!existsSync(path)) { if (Date.now() > end) process.exit(3); await new Promise((r) => setTimeout(r, 2)); } };
const answer = (text) => (writeFileSync(out + '.tmp', text), renameSync(out + '.tmp', out)); // whole when it appears
writeFileSync(out + '.ready', '');
await wait(go);
const journal = new FileJournal(file, { lockDirectory: locks });
try {
  await journal.open('b');
  answer('won');
  await wait(done); // held until every process has answered
  await journal.close();
} catch (error) {
  answer('refused:' + error.reason);
}
`,
    );
    const CHILDREN = 6;
    for (let round = 0; round < 2; round++) {
      const lock = lockOf(file, locks);
      writeFileSync(lock, `${await deadPid()}@${hostname()} ${String(round).repeat(32)}\n`);
      const go = join(d, `go-${round}`);
      const done = join(d, `done-${round}`);
      const outs = Array.from({ length: CHILDREN }, (_, i) => join(d, `out-${round}-${i}`));
      const exits = outs.map((out) => {
        const c = spawn(process.execPath, ['--import', 'tsx', child, file, locks, go, done, out], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        c.stderr.on('data', (b: Buffer) => (err += b.toString()));
        const timer = setTimeout(() => c.kill('SIGKILL'), 90_000);
        return new Promise<{ code: number | null; err: string }>((resolve) => c.once('exit', (code) => (clearTimeout(timer), resolve({ code, err }))));
      });
      const until = async (check: () => boolean, what: string) => {
        const end = Date.now() + 60_000;
        while (!check()) {
          if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await until(() => outs.every((o) => existsSync(`${o}.ready`)), 'the children to start');
      writeFileSync(go, '');
      await until(() => outs.every((o) => existsSync(o)), 'every child to answer');
      const answers = outs.map((o) => readFileSync(o, 'utf8')).sort();
      writeFileSync(done, '');
      const ended = await Promise.all(exits);
      for (const e of ended) expect(e.code, e.err).toBe(0);
      expect(answers, `round ${round}`).toEqual(['refused:locked', 'refused:locked', 'refused:locked', 'refused:locked', 'refused:locked', 'won']);
      expect(existsSync(lock)).toBe(false); // the winner released it
    }
    // One header: the journal opens and reads.
    const journal = new FileJournal(file, { lockDirectory: locks });
    expect([...(await journal.open('b'))]).toEqual([]);
    await journal.close();
    expect(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"format"')),
    ).toHaveLength(1);
  });
});
