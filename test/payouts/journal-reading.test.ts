/**
 * Reading journal files: the header every reader checks (and the exact refusal of each file that is
 * not a journal), blank lines, lines that are JSON but no record, files larger than one read (1 MiB)
 * with lines across the reads, lines longer than the first read of a record, and format-2 change lines
 * whose full line is not where they say. The readers without a lock (`journalRecords`, `readJournalFile`,
 * the CLI's `journalBatchId`) and the journal's own open are held to the same.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileJournal, journalRecords, PayoutJournalError, readJournalFile, type PayoutRecord } from '../../src/payouts/index';
import { journalBatchId } from '../../src/payouts/file-journal';
import { journalRecord } from './records';

const dir = mkdtempSync(join(tmpdir(), 'cb-journal-reading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const HEADER = '{"format":"crossborder-payout-journal/2","batchId":"b","createdAt":"2026-12-01T00:00:00.000Z"}';
/** A file holding `text`. */
const file = (text: string | Buffer): string => {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, text);
  return path;
};
const line = (r: PayoutRecord) => `${JSON.stringify(r)}\n`;

/** Opens `path` with a journal (no lock), yields its records, closes it. */
async function opened(path: string, batchId = 'b'): Promise<PayoutRecord[]> {
  const journal = new FileJournal(path, { lock: false });
  try {
    return [...(await journal.open(batchId))];
  } finally {
    await journal.close();
  }
}

const notAJournal = (path: string, why: string) =>
  `${path} is not a payout journal (${why}); it was left as it is. Use a new file, or the journal of this batch.`;

describe('the header', () => {
  const cases: [string, string, string][] = [
    ['a JSON null', 'null\n', 'its first line has no format crossborder-payout-journal/2 or crossborder-payout-journal/1'],
    [
      'another format',
      '{"format":"crossborder-payout-journal/3","batchId":"b"}\n',
      'its first line has no format crossborder-payout-journal/2 or crossborder-payout-journal/1',
    ],
    ['no batch id', '{"format":"crossborder-payout-journal/2"}\n', 'its first line has no batch id'],
    ['a number as batch id', '{"format":"crossborder-payout-journal/1","batchId":7}\n', 'its first line has no batch id'],
    ['not JSON', 'payroll notes\n', 'its first line is not JSON'],
  ];
  for (const [what, text, why] of cases) {
    it(`${what}: every reader refuses the file, naming it, and it is left as it was`, async () => {
      const path = file(text);
      expect(() => journalBatchId(path)).toThrow(notAJournal(path, why));
      expect(() => journalRecords(path)).toThrow(notAJournal(path, why));
      const error = await opened(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayoutJournalError);
      expect(error).toMatchObject({ reason: 'corrupt', message: notAJournal(path, why) });
      expect(readFileSync(path, 'utf8')).toBe(text);
    });
  }

  it('both formats are read; blank lines before the header and between records are skipped', async () => {
    const v1 = file(`\n  \n${HEADER.replace('journal/2', 'journal/1')}\n\n${line(journalRecord('r1'))}\n   \n${line(journalRecord('r2', 'completed'))}`);
    expect(journalBatchId(v1)).toBe('b');
    expect(readJournalFile(v1)).toEqual({ batchId: 'b', records: [journalRecord('r1'), journalRecord('r2', 'completed')] });
    expect(await opened(v1)).toEqual([journalRecord('r1'), journalRecord('r2', 'completed')]);
  });

  it("another batch's journal: refused by open (other_batch, naming both); the readers name its batch", async () => {
    const path = file(`${HEADER}\n${line(journalRecord('r1'))}`);
    expect(journalBatchId(path)).toBe('b');
    expect(journalRecords(path).batchId).toBe('b');
    await expect(opened(path, 'c')).rejects.toMatchObject({ reason: 'other_batch', message: `${path} holds batch "b", not c.` });
  });

  it('journalBatchId: an empty file, or a header a kill tore, is no journal yet (undefined); anything else unterminated is refused', () => {
    expect(journalBatchId(file(''))).toBeUndefined();
    expect(journalBatchId(file('  \n\n'))).toBeUndefined();
    expect(journalBatchId(file('{"format":"crossborder-payout-journal/2","bat'))).toBeUndefined();
    expect(journalBatchId(file('\n  {"format":"cross'))).toBeUndefined();
    expect(journalBatchId(file('{"form'))).toBeUndefined();
    const other = file('{"name":"x"');
    expect(() => journalBatchId(other)).toThrow(notAJournal(other, 'its first line is not a header'));
    const long = file(Buffer.alloc((1 << 20) + 10, 'a'));
    expect(() => journalBatchId(long)).toThrow(notAJournal(long, 'no header line within its first 1048576 bytes'));
    // Exactly 1 MiB without a newline: within the bound, read as a first line that is not a header.
    const bound = file(Buffer.alloc(1 << 20, 'a'));
    expect(() => journalBatchId(bound)).toThrow(notAJournal(bound, 'its first line is not a header'));
    // A header that ends just before the bound is read.
    const padded = file(`${' '.repeat((1 << 20) - HEADER.length - 1)}${HEADER}\n`);
    expect(journalBatchId(padded)).toBe('b');
  });

  it('journalRecords of an empty file: not a journal, named', () => {
    const path = file('');
    expect(() => journalRecords(path)).toThrow(new PayoutJournalError('corrupt', `${path} is not a payout journal.`));
  });
});

describe('open of a file with no whole header', () => {
  it('a header torn as it was written (alone in the file, even a few bytes of it) is cut off and the journal made anew', async () => {
    for (const text of ['{"format":"crossborder-payout-journal/2","batchId":"b"', '{"format":"cross', '{', '  {"format"']) {
      const path = file(text);
      expect(await opened(path)).toEqual([]);
      expect(JSON.parse(readFileSync(path, 'utf8').split('\n')[0]!)).toMatchObject({ format: 'crossborder-payout-journal/2', batchId: 'b' });
    }
  });

  it('anything else is refused, named, and left byte for byte: other text, blank lines only, a first line past 1 MiB', async () => {
    const cases: [string | Buffer, string][] = [
      ['{"name":"x"', 'its first line is not a header'],
      ['notes', 'its first line is not a header'],
      ['\n \n', 'it holds only blank lines'],
      ['\n{"format":"cross', 'it holds only blank lines'],
      [Buffer.alloc((1 << 20) + 10, 'a'), 'no header line within its first 1048576 bytes'],
    ];
    for (const [text, why] of cases) {
      const path = file(text);
      await expect(opened(path)).rejects.toMatchObject({ reason: 'corrupt', message: notAJournal(path, why) });
      expect(readFileSync(path).equals(Buffer.from(text))).toBe(true);
    }
  });
});

describe('lines that are JSON but no record', () => {
  it('the last one is a torn write: dropped by every reader (open cuts it off); one with records after it is corruption', async () => {
    for (const bad of ['{"reference":"r9"}', '{"state":"pending"}', '{"reference":7,"state":"pending"}', '[1]']) {
      const good = `${HEADER}\n${line(journalRecord('r1'))}`;
      const last = file(`${good}${bad}\n`);
      expect(readJournalFile(last).records).toEqual([journalRecord('r1')]);
      expect(await opened(last)).toEqual([journalRecord('r1')]);
      expect(readFileSync(last, 'utf8')).toBe(good);
      const middle = file(`${good}${bad}\n${line(journalRecord('r2'))}`);
      await expect(opened(middle)).rejects.toMatchObject({
        reason: 'corrupt',
        message: `${middle}: line 3 is not a journal record (no reference or state), and records follow it.`,
      });
      expect(readFileSync(middle, 'utf8')).toBe(`${good}${bad}\n${line(journalRecord('r2'))}`);
    }
  });

  it('journalRecords names the byte where a bad line with records after it starts', () => {
    const head = `${HEADER}\n${line(journalRecord('r1'))}`;
    const path = file(`${head}garbage\n${line(journalRecord('r2'))}`);
    expect(() => journalRecords(path)).toThrow(
      new PayoutJournalError('corrupt', `${path}: the line at byte ${Buffer.byteLength(head)} is not a journal record, and records follow it.`),
    );
  });
});

describe('large files and long lines', () => {
  it('1,200 records of about 1 KiB (a line across the 1 MiB reads), multi-byte text included: each reader reads every one', async () => {
    const records = Array.from({ length: 1200 }, (_, i) =>
      journalRecord(`ref-${i}`, 'submitted', { instruction: { ...journalRecord(`ref-${i}`).instruction, description: `é𝄞 ${'x'.repeat(900 + (i % 50))}` } }),
    );
    const path = file(`${HEADER}\n${records.map(line).join('')}`);
    expect(readFileSync(path).length).toBeGreaterThan(1 << 20);
    expect(readJournalFile(path).records).toEqual(records);
    const read = await opened(path);
    expect(read.length).toBe(1200);
    expect(read[1100]).toEqual(records[1100]);
    expect(read[1199]).toEqual(records[1199]);
  });

  it('a record longer than the first read of a line (2 KiB, and past 8 KiB) is read back whole by get', async () => {
    const path = join(dir, `long${n++}`);
    const journal = new FileJournal(path, { lock: false });
    await journal.open('b');
    const long = journalRecord('long', 'pending', { instruction: { ...journalRecord('long').instruction, description: 'd'.repeat(40_000) } });
    const mid = journalRecord('mid', 'pending', { instruction: { ...journalRecord('mid').instruction, description: 'm'.repeat(3_000) } });
    await journal.put(long);
    await journal.put(mid);
    await journal.close();
    await journal.open('b');
    expect(await journal.get('long')).toEqual(long);
    expect(await journal.get('mid')).toEqual(mid);
    await journal.close();
  });
});

describe('format-2 change lines', () => {
  it('a change line whose full line is not a line of its reference (negative, fractional, text, a change line, past the end) is corruption, naming the byte', () => {
    const full = line(journalRecord('r1'));
    const head = `${HEADER}\n`;
    const at = Buffer.byteLength(head);
    const change = (b: unknown) => `${JSON.stringify({ b, reference: 'r1', state: 'processing', attempts: 2, updatedAt: 'x' })}\n`;
    for (const b of [-1, 1.5, `${at}`, 10_000_000]) {
      const path = file(`${head}${full}${change(b)}`);
      expect(() => readJournalFile(path), String(b)).toThrow(
        `${path}: the record of "r1" names its full line at byte ${String(b)}, which is not that reference's.`,
      );
    }
    // A change line naming another change line.
    const second = at + Buffer.byteLength(full);
    const path = file(`${head}${full}${change(at)}${change(second)}`);
    expect(() => readJournalFile(path)).toThrow(`names its full line at byte ${second}`);
    // The right offset: the change on the full line's instruction, fingerprint and keys.
    const good = file(`${head}${full}${change(at)}`);
    expect(readJournalFile(good).records).toEqual([{ ...journalRecord('r1'), state: 'processing', attempts: 2, updatedAt: 'x' }]);
  });
});

describe('file descriptors', () => {
  it.runIf(process.platform === 'linux')('the readers without a lock leave none open', () => {
    const path = file(`${HEADER}\n${line(journalRecord('r1'))}`);
    const open = () => readdirSync('/proc/self/fd').length;
    readJournalFile(path);
    const before = open();
    for (let i = 0; i < 20; i++) {
      expect(journalBatchId(path)).toBe('b');
      expect(readJournalFile(path).records).toHaveLength(1);
    }
    expect(open()).toBe(before);
  });

  it.runIf(process.platform === 'linux')("the journal's open leaves none open once its records are read and it is closed", async () => {
    const path = file(`${HEADER}\n${line(journalRecord('r1'))}${line(journalRecord('r2'))}`);
    const open = () => readdirSync('/proc/self/fd').length;
    expect(await opened(path)).toHaveLength(2);
    const before = open();
    for (let i = 0; i < 20; i++) expect((await opened(path)).map((r) => r.reference)).toEqual(['r1', 'r2']);
    expect(open()).toBe(before);
  });
});
