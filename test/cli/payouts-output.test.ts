/**
 * What `payouts` prints, as the packed CLI prints it: `status` and `report` show rejected rows (counted,
 * with their reason and line) read through the journal's one reader; references and reasons that carry
 * terminal controls (ESC, C1, DEL, bidi overrides) are written visibly, so a reference cannot forge a
 * "batch OK: 0 failed" line; JSON keeps the exact value; the CSV stays defused. And `payouts run --help`
 * states defaults that are the behaviour (issue 50 §4).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileJournal, REJECTED_KEY_PREFIX } from '../../src/payouts/index';
import { journalRecord } from '../payouts/records';
import { cli } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'cb-cli-payouts-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Characters a terminal acts on: none may reach it raw from a reference or a reason. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const FORGED = 'evil\r\x1b[2K\x1b[1Gbatch OK: 0 failed';
const BIDI = 'pay\u202Egnp.exe\u2066x\u2069';
const C1 = 'c1\x9b31mred\x7f';

const record = journalRecord;

/** A journal as the runner leaves it: a completed payout, a failed and a needs-attention one with hostile text, two rejected rows (issue 47's contract: state `rejected`, `REJECTED`, the line). */
async function journalWithEverything(): Promise<string> {
  const file = join(dir, `j-${Math.random().toString(36).slice(2)}.journal`);
  const journal = new FileJournal(file, { lockDirectory: join(dir, 'locks') });
  await journal.open('month-end');
  await journal.put(record('r-ok', 'completed', { transactionId: 'Transaction:1', transactionStatus: 'COMPLETED' }));
  await journal.put(record(FORGED, 'failed', { lastError: { code: 'VALIDATION_ERROR', message: `bad payee \x1b]0;title\x07${C1}` } }));
  await journal.put(record(BIDI, 'needs_attention', { lastError: { code: 'OUTCOME_UNKNOWN', message: `looked up ${BIDI}` } }));
  // Rejected rows as the runner journals them: under a key of their own, with the reference their input gave.
  await journal.put(
    record(`${REJECTED_KEY_PREFIX}line:4`, 'rejected', {
      attempts: 0,
      inputReference: 'r-neg',
      lastError: { code: 'REJECTED', message: 'line 4: amount: must be more than 0; not sent' },
      line: 4,
    }),
  );
  await journal.put(
    record(`${REJECTED_KEY_PREFIX}line:7`, 'rejected', {
      attempts: 0,
      inputReference: '=HYPERLINK("http://x")',
      lastError: { code: 'REJECTED', message: 'line 7: 8 fields, the header has 7 (an unquoted comma?); not sent' },
      line: 7,
    }),
  );
  await journal.close();
  return file;
}

describe('payouts status and report: rejected rows, and text a terminal can trust', () => {
  it('status counts the rejected rows and names each with its reason; references and reasons are escaped visibly', { timeout: 60_000 }, async () => {
    const file = await journalWithEverything();
    const ran = await cli(['payouts', 'status', '--journal', file]);
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).not.toMatch(RAW);
    const lines = ran.out.split('\n');
    expect(lines[0]).toBe('batch month-end: 5 references');
    expect(lines).toContain(`  ${'completed'.padEnd(16)} 1`);
    expect(lines).toContain(`  ${'rejected'.padEnd(16)} 2`);
    expect(lines).toContain('failed evil\\x0d\\x1b[2K\\x1b[1Gbatch OK: 0 failed: VALIDATION_ERROR: bad payee \\x1b]0;title\\x07c1\\x9b31mred\\x7f');
    expect(lines).toContain('needs_attention pay\\u202egnp.exe\\u2066x\\u2069: OUTCOME_UNKNOWN: looked up pay\\u202egnp.exe\\u2066x\\u2069');
    expect(lines).toContain('rejected row r-neg: REJECTED: line 4: amount: must be more than 0; not sent');
    // No line of the output is the forged one.
    expect(lines.filter((l) => l.trim() === 'batch OK: 0 failed')).toEqual([]);

    const json = await cli(['payouts', 'status', '--journal', file, '--json']);
    expect(json.code, json.err).toBe(0);
    expect(json.out).not.toMatch(RAW);
    const parsed = JSON.parse(json.out) as { counts: Record<string, number>; unsettled: { reference: string; state: string; reason: string; line?: number }[] };
    expect(parsed.counts).toMatchObject({ completed: 1, failed: 1, needs_attention: 1, rejected: 2 });
    // JSON keeps the exact values (escaped as \uXXXX, which every JSON reader reads back).
    expect(parsed.unsettled.map((u) => [u.state, u.reference, u.line])).toEqual([
      ['failed', FORGED, undefined],
      ['needs_attention', BIDI, undefined],
      ['rejected', 'r-neg', 4],
      ['rejected', '=HYPERLINK("http://x")', 7],
    ]);
    expect(parsed.unsettled[0]!.reason).toBe(`VALIDATION_ERROR: bad payee \x1b]0;title\x07${C1}`);
  });

  it('report lists the rejected rows in JSON and CSV; the CSV is escaped and its formulas defused', { timeout: 60_000 }, async () => {
    const file = await journalWithEverything();
    const json = await cli(['payouts', 'report', '--journal', file]);
    expect(json.code, json.err).toBe(0);
    expect(json.out).not.toMatch(RAW);
    const rows = json.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.reference, r.state, r.errorCode])).toEqual([
      ['r-ok', 'completed', undefined],
      [FORGED, 'failed', 'VALIDATION_ERROR'],
      [BIDI, 'needs_attention', 'OUTCOME_UNKNOWN'],
      ['r-neg', 'rejected', 'REJECTED'],
      ['=HYPERLINK("http://x")', 'rejected', 'REJECTED'],
    ]);
    expect(rows[3]!.errorMessage).toBe('line 4: amount: must be more than 0; not sent');

    const csv = await cli(['payouts', 'report', '--journal', file, '--csv']);
    expect(csv.code, csv.err).toBe(0);
    expect(csv.out.replace(/\r\n/g, '')).not.toMatch(RAW);
    const lines = csv.out.split('\r\n');
    expect(lines[0]).toMatch(/^reference,state,/);
    expect(lines[2]).toMatch(/^evil\\x0d\\x1b\[2K\\x1b\[1Gbatch OK: 0 failed,failed,/);
    expect(lines[3]).toMatch(/^pay\\u202egnp\.exe\\u2066x\\u2069,needs_attention,/);
    expect(lines[4]).toBe('r-neg,rejected,,,,,,,,,,0,REJECTED,line 4: amount: must be more than 0; not sent');
    expect(lines[5]).toMatch(/^"'=HYPERLINK\(""http:\/\/x""\)",rejected,/);
  });
});

describe('a file that is not a journal, given as --journal', () => {
  it('is refused by run, status and report, naming it, and left byte for byte as it was', { timeout: 60_000 }, async () => {
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my notes about payroll'); // one line, no newline: run cut it to nothing and wrote a header in it
    const csv = join(dir, 'one.csv');
    writeFileSync(csv, 'reference,sourceAccountId,destinationAccountId,amount\n');
    for (const args of [
      ['run', csv, '--journal', notes],
      ['status', '--journal', notes],
      ['report', '--journal', notes],
    ]) {
      const ran = await cli(['payouts', ...args], { env: { HOME: dir } });
      expect(ran.code, args.join(' ')).toBe(1);
      expect(ran.err, args.join(' ')).toContain(`${notes} is not a payout journal`);
      expect(readFileSync(notes, 'utf8')).toBe('my notes about payroll');
    }
  });
});

describe('payouts run --help tells the truth (issue 50 §4)', () => {
  it('marks --journal required, and states defaults that are what the run does', { timeout: 90_000 }, async () => {
    const help = await cli(['payouts', 'run', '--help']);
    expect(help.code).toBe(0);
    const text = help.out.replace(/\s+/g, ' ');
    expect(text).toContain('--journal <file> required:');
    expect(text).not.toMatch(/else production\)/);
    const missing = await cli(['payouts', 'run', join(dir, 'none.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("required option '--journal <file>' not specified");

    // --base-url: the address the help names as the default is where a run goes with nothing set.
    const stated =
      /--base-url <url> service address \(default: the profile, else CROSSBORDER_BASE_URL, else (\S+), the local sandbox; production only when the profile or CROSSBORDER_ENVIRONMENT says production\)/.exec(
        text,
      );
    expect(stated, text).not.toBeNull();
    const csv = join(dir, 'header-only.csv');
    writeFileSync(csv, 'reference,sourceAccountId,destinationAccountId,amount,currency\n'); // no rows: nothing is sent
    const journal = join(dir, 'help.journal');
    const plain = await cli(['payouts', 'run', csv, '--journal', journal, '--json'], { env: { HOME: dir } });
    expect(plain.code, plain.err).toBe(0);
    const pointed = /payouts: pointed at (\S+) \(the local default, environment sandbox\)/.exec(plain.err);
    expect(pointed, plain.err).not.toBeNull();
    expect(new URL(pointed![1]!).origin).toBe(stated![1]);
    // --batch-id: the CSV's name and content hash, when there is no journal yet.
    const header = JSON.parse(readFileSync(journal, 'utf8').split('\n')[0]!) as { batchId: string };
    expect(text).toContain("(default: the journal's, else the CSV's name and content hash)");
    expect(header.batchId).toBe(`header-only.csv#${createHash('sha256').update(readFileSync(csv)).digest('hex').slice(0, 16)}`);
    // "production only when CROSSBORDER_ENVIRONMENT says production".
    const production = await cli(['payouts', 'run', csv, '--journal', join(dir, 'help-prod.journal'), '--json'], {
      env: { HOME: dir, CROSSBORDER_ENVIRONMENT: 'production', CROSSBORDER_TOKEN_ID: 'x', CROSSBORDER_CLIENT_SECRET: 'y' },
    });
    expect(production.code, production.err).toBe(0);
    expect(production.err).toMatch(/payouts: pointed at https:\/\/\S+ \(from production, environment production\)/);
    // --max-concurrency and --execution: the defaults named are the ones the run uses (16, immediate).
    expect(text).toContain('most requests in flight (default 16;');
    expect(text).toContain('(default immediate)');
  });
});
