/**
 * `crossborder-sdk payouts run` as a payments engineer meets it: the packed CLI against the HTTP
 * sandbox. Rows with a bad column are rejected with a reason naming it and nothing is sent for them
 * (the rows after them still are); without a terminal stdout is JSON lines to its last line; Ctrl-C
 * (SIGINT) exits 130 saying how much is left, and the same command resumes without paying twice;
 * on a terminal the progress bar never shows a meaningless ETA.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { exactlyOnce, sandboxClient, setUpWorld, type PayoutWorld } from '../payouts/world';
import { userDescription } from '../../src/payouts/index';
import { CLI, cli } from './helpers';

/**
 * Whether the runner takes the CSV reader's rejected rows (issue 47's contract: PayoutRejectedInput, state
 * `rejected`): the exact reasons are the reader's once it does (the runner engineer's part); before, the
 * runner refuses such an input with reasons of its own, and only the references and what is sent are checked.
 */

const HEADER = 'reference,sourceAccountId,destinationAccountId,amount,currency,lockedCurrencySide,description';

let sandbox: Sandbox;
let world: PayoutWorld;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = createSandbox();
  const server = await sandbox.listen(0, '127.0.0.1');
  world = await setUpWorld(sandboxClient(sandbox, fetch, server.url), 2);
  dir = mkdtempSync(join(tmpdir(), 'cb-cli-payouts-'));
  env = {
    CROSSBORDER_TOKEN_ID: 'tok',
    CROSSBORDER_CLIENT_SECRET: 'sk_sandbox',
    CROSSBORDER_ENVIRONMENT: 'sandbox',
    CROSSBORDER_BASE_URL: server.url,
    HOME: dir,
  };
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const row = (reference: string, amount: number | string, destination = world.payees[0]!, source = world.accountId) =>
  [reference, source, destination, amount, 'USD', 'RECEIVING', reference].join(',');
const ledgerRefs = () => sandbox.ledger.executions.map((e) => userDescription(e.description)); // the runner's marker taken off
const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; [k: string]: unknown });

describe('payouts run: the CSV a user writes', () => {
  it(
    'rejects a short row, a row with an extra field and a row without a source, naming why; sends nothing for them and pays the rest',
    { timeout: 60_000 },
    async () => {
      const csv = join(dir, 'rows.csv');
      writeFileSync(
        csv,
        [
          HEADER,
          row('r-ok-1', 500),
          `r-short,${world.accountId},${world.payees[0]}`, // no amount, no currency: csv-parse stopped the whole run here (exit 1)
          `${row('r-comma', '12,50')}`, // an unquoted decimal comma: one field too many (12 would have been paid)
          row('r-nosrc', 300, world.payees[0], ''), // an empty source was sent as account '' (404, no field named)
          row('r-nodest', 300, ''),
          row('r-ok-2', 700),
        ].join('\n') + '\n',
      );
      const ran = await cli(['payouts', 'run', csv, '--journal', join(dir, 'rows.journal')], { env, timeoutMs: 45_000 });
      expect(ran.code, ran.err + ran.out).toBe(9);
      // No terminal: JSON lines, the last one the summary.
      const events = lines(ran.out);
      const summary = events.at(-1)! as unknown as { event: string; counts: Record<string, number>; rejected: { reference: string; reason: string }[] };
      expect(summary.event).toBe('summary');
      expect(summary.counts.completed).toBe(2);
      expect(summary.rejected.map((r) => r.reference).sort()).toEqual(['r-comma', 'r-nodest', 'r-nosrc', 'r-short']);
      // Each with its line, as the CSV reader rejected it (the runner journals it with that reason).
      const reasons = Object.fromEntries(summary.rejected.map((r) => [r.reference, r.reason]));
      expect(reasons['r-short']).toBe('line 3: amount: required; not sent');
      expect(reasons['r-comma']).toBe('line 4: 8 fields, the header has 7 (an unquoted comma?); not sent');
      expect(reasons['r-nosrc']).toBe('line 5: source: required; not sent');
      expect(reasons['r-nodest']).toBe('line 6: destination: required; not sent');
      expect(
        ledgerRefs()
          .filter((r) => r?.startsWith('r-'))
          .sort(),
      ).toEqual(['r-ok-1', 'r-ok-2']);
    },
  );
});

describe('payouts run: UMA payees', () => {
  it('sends the payer data of senderCustomerInfo.<FIELD> columns, which an UMA receiver asks for', { timeout: 60_000 }, async () => {
    const cb = sandboxClient(sandbox, fetch, env.CROSSBORDER_BASE_URL);
    const receiver = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region: 'US',
      fullName: 'Grace Hopper',
      birthDate: '1906-12-09',
      nationality: 'US',
    });
    const csv = join(dir, 'uma.csv');
    writeFileSync(
      csv,
      [
        `${HEADER},purposeOfPayment,senderCustomerInfo.FULL_NAME`,
        `uma-named,${world.accountId},${receiver.umaAddress},1500,USD,RECEIVING,uma-named,,Ada Lovelace`,
        `uma-anonymous,${world.accountId},${receiver.umaAddress},1500,USD,RECEIVING,uma-anonymous,,`,
      ].join('\n') + '\n',
    );
    const ran = await cli(['payouts', 'run', csv, '--journal', join(dir, 'uma.journal'), '--json'], { env, timeoutMs: 45_000 });
    expect(ran.code, ran.err + ran.out).toBe(9);
    const summary = lines(ran.out).at(-1)! as unknown as { counts: Record<string, number>; failed: { reference: string; reason: string }[] };
    expect(summary.counts.completed).toBe(1);
    expect(summary.failed.map((f) => f.reference)).toEqual(['uma-anonymous']);
    expect(summary.failed[0]!.reason).toContain('FULL_NAME');
    expect(ledgerRefs().filter((r) => r?.startsWith('uma-'))).toEqual(['uma-named']);
  });
});

describe('payouts run: Ctrl-C, then the same command', () => {
  it(
    'stops on SIGINT with exit 130 counting the rows not read yet as not finished, then resumes and pays each reference once',
    { timeout: 120_000 },
    async () => {
      const n = 60;
      const refs = Array.from({ length: n }, (_, i) => `s-${String(i).padStart(3, '0')}`);
      const csv = join(dir, 'stop.csv');
      writeFileSync(csv, [HEADER, ...refs.map((r, i) => row(r, 100 + i, world.payees[i % 2]))].join('\n') + '\n');
      const args = ['payouts', 'run', csv, '--journal', join(dir, 'stop.journal'), '--max-concurrency', '2'];
      sandbox.faults.set({ latency: { ms: 150 } });
      try {
        const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        // Bounded wait for a few payouts to be final, then Ctrl-C.
        for (let i = 0; i < 300 && sandbox.ledger.executions.filter((e) => userDescription(e.description)?.startsWith('s-')).length < 3; i++)
          await new Promise((r) => setTimeout(r, 50));
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        const code = await exited;
        clearTimeout(timer);
        expect(code, out).toBe(130);
        const stopped = lines(out).at(-1)! as unknown as { event: string; done: number; notFinished: number };
        expect(stopped.event).toBe('stopped');
        expect(stopped.done).toBeLessThan(n);
        // Every row of the file not final is "not finished", not only the references read so far.
        expect(stopped.notFinished).toBe(n - stopped.done);
      } finally {
        sandbox.faults.set({});
      }
      const again = await cli(args, { env, timeoutMs: 60_000 });
      expect(again.code, again.err + again.out).toBe(0);
      expect(lines(again.out).at(-1)).toMatchObject({ event: 'summary', counts: { completed: n, failed: 0, needs_attention: 0 } });
      expect(exactlyOnce(sandbox, refs)).toMatchObject({ doubled: [], missing: [] });
    },
  );
});

describe("payouts run: last month's journal with this month's file", () => {
  it("says that the CSV changed since the journal's batch began, and that its final references are not paid again", { timeout: 60_000 }, async () => {
    const csv = join(dir, 'month.csv');
    const journal = join(dir, 'month.journal');
    writeFileSync(csv, [HEADER, row('m-alice', 1000), row('m-bob', 2000)].join('\n') + '\n');
    const first = await cli(['payouts', 'run', csv, '--journal', journal], { env, timeoutMs: 45_000 });
    expect(first.code, first.err + first.out).toBe(0);
    const same = await cli(['payouts', 'run', csv, '--journal', journal], { env, timeoutMs: 45_000 });
    expect(same.code).toBe(0);
    expect(same.err).not.toContain('has changed');
    // Next month: the same payees and amounts, one more row, the documented command again.
    writeFileSync(csv, [HEADER, row('m-alice', 1000), row('m-bob', 2000), row('m-carol', 3000)].join('\n') + '\n');
    const next = await cli(['payouts', 'run', csv, '--journal', journal], { env, timeoutMs: 45_000 });
    expect(next.code, next.err + next.out).toBe(0);
    expect(next.err).toContain(`note: ${csv} has changed since ${journal}'s batch month.csv#`);
    expect(next.err).toContain('its references already final there are not paid again (a new batch needs a new --journal)');
    expect(
      ledgerRefs()
        .filter((r) => r?.startsWith('m-'))
        .sort(),
    ).toEqual(['m-alice', 'm-bob', 'm-carol']);
  });
});

describe('payouts run: a resumed run says what it found first', () => {
  it('prints the counts onResume gives (final, rejected, to replay, to look up, waiting) before any progress', { timeout: 90_000 }, async () => {
    const csv = join(dir, 'resume.csv');
    const journal = join(dir, 'resume.journal');
    writeFileSync(csv, [HEADER, row('res-1', 100), row('res-2', 200), row('res-bad', 0)].join('\n') + '\n');
    const first = await cli(['payouts', 'run', csv, '--journal', journal], { env, timeoutMs: 45_000 });
    expect(first.code, first.err + first.out).toBe(9);
    expect(lines(first.out).filter((e) => e.event === 'resume')).toEqual([]); // a new batch: nothing found
    const again = await cli(['payouts', 'run', csv, '--journal', journal], { env, timeoutMs: 45_000 });
    const events = lines(again.out);
    // Everything final (whether `final` counts the rejected row among them is the runner's word).
    expect(events[0]).toMatchObject({ event: 'resume', rejected: 1, replay: 0, lookup: 0, waiting: 0 });
    expect([2, 3]).toContain(events[0]!.final);
    expect(events.slice(1).some((e) => e.event === 'resume')).toBe(false);
  });
});

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasScript)('payouts run on a terminal', () => {
  it(
    'draws the bar with counts, throughput and the ETA, never "NFs", ends at 100 % with a rejected row, and prints the summary as text',
    { timeout: 60_000 },
    async () => {
      const refs = Array.from({ length: 8 }, (_, i) => `t-${i}`);
      const csv = join(dir, 'tty.csv');
      // A reference that tries to draw its own line ("batch OK: 0 failed") over the screen, and to reorder the text after it.
      const forged = 't-\x1b[2K\x1b[1Gbatch OK: 0 failed\u202e';
      writeFileSync(csv, [HEADER, ...refs.map((r, i) => row(r, 100 + i)), row('t-bad', '1.5'), row(forged, 0)].join('\n') + '\n');
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const command = [process.execPath, CLI, 'payouts', 'run', csv, '--journal', join(dir, 'tty.journal')].map(quote).join(' ');
      const ran = await new Promise<{ code: number | null; out: string }>((resolve) => {
        // script(1) gives the CLI a pseudo-terminal, as a user's shell does.
        const child = spawn('script', ['-qfec', command, '/dev/null'], {
          env: { PATH: process.env.PATH ?? '', TERM: 'xterm', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
        child.once('exit', (code) => (clearTimeout(timer), resolve({ code, out })));
      });
      expect(ran.code, ran.out).toBe(9);
      const frames = ran.out.split(/\r|\n|\x1b\[1G/).filter((l) => l.startsWith('payouts |'));
      expect(frames.length).toBeGreaterThan(0);
      for (const frame of frames)
        expect(frame).toMatch(/\| completed \d+ failed \d+ attention \d+ \| [\d.]+\/s \| ETA (-|\d+s|\d+m\d\ds) \| in flight \d+\/\d+/);
      expect(ran.out).not.toContain('NFs');
      expect(frames.at(-1)).toContain('| 100% 10/10 | completed 8 failed 0 attention 0 |');
      expect(ran.out).toMatch(/: 8 completed, 0 failed, 0 need attention, 2 rejected rows \(8 references/);
      expect(ran.out).toContain('rejected row t-bad: ');
      expect(ran.out).toContain('rejected row t-bad: line 10: amount: expected a whole number of minor units (cents for USD); not sent');
      // The forged reference is printed visibly, never acted on.
      expect(ran.out).toContain('rejected row t-\\x1b[2K\\x1b[1Gbatch OK: 0 failed\\u202e: ');
      expect(ran.out).not.toContain('\x1b[2K\x1b[1Gbatch OK');
      expect(ran.out).not.toContain('\u202e');
      expect(exactlyOnce(sandbox, refs)).toMatchObject({ doubled: [], missing: [] });
    },
  );
});
