/**
 * `payouts run`'s reading of its files, in pieces: the row count (for the ETA), the batch id from the
 * CSV's bytes (a stored format: the same file gives the same id, so the same keys, in any version) and
 * the journal's header line, none of them holding a whole file.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batchIdFor, countRows, readCsv, type CsvItem } from '../../src/cli/payouts';
import { FileJournal, PayoutJournalError } from '../../src/payouts/index';

const dir = mkdtempSync(join(tmpdir(), 'cb-payouts-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('payouts run: its files, read in pieces', () => {
  it('counts the rows with something on them, but the header, across 64 KiB pieces, CRLF and no final newline', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => `r${i},InternalAccount:a,ExternalAccount:b,${100 + i},USD`);
    const file = join(dir, 'rows.csv');
    writeFileSync(
      file,
      `reference,sourceAccountId,destinationAccountId,amount,currency\r\n${rows.slice(0, 2_500).join('\r\n')}\r\n\r\n   \t\r\n${rows.slice(2_500).join('\n')}`,
    );
    expect(countRows(file)).toBe(5_000);
    writeFileSync(file, 'reference,amount\n');
    expect(countRows(file)).toBe(0);
    writeFileSync(file, '');
    expect(countRows(file)).toBe(0);
  });

  it('derives the batch id from the CSV name and the SHA-256 of all its bytes, and reads it back from a journal header past 64 KiB', () => {
    const csv = join(dir, 'month-end.csv');
    const bytes = Buffer.from(`reference,amount\n${Array.from({ length: 20_000 }, (_, i) => `r${i},${i}`).join('\n')}\n`);
    expect(bytes.length).toBeGreaterThan(3 * 65_536);
    writeFileSync(csv, bytes);
    const id = batchIdFor(csv, join(dir, 'absent.journal'), undefined);
    expect(id).toBe(`month-end.csv#${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`);
    // One byte more at the very end: another file, another id.
    writeFileSync(csv, Buffer.concat([bytes, Buffer.from('x')]));
    expect(batchIdFor(csv, join(dir, 'absent.journal'), undefined)).not.toBe(id);
    // A journal's own batch id wins, read from its first line however long the journal is.
    const journal = join(dir, 'big.journal');
    writeFileSync(
      journal,
      `${JSON.stringify({ format: 'crossborder-payout-journal/1', batchId: 'from-the-journal', pad: 'p'.repeat(200_000) })}\n${'{"reference":"r"}\n'.repeat(10_000)}`,
    );
    expect(batchIdFor(csv, journal, undefined)).toBe('from-the-journal');
  });

  it("reads the batch id of a journal through the journal's own reader, and refuses a file that is not a journal, naming it", async () => {
    const csv = join(dir, 'ids.csv');
    writeFileSync(csv, 'reference,amount\nr,1\n');
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my notes'); // a one-line text file given as --journal
    expect(() => batchIdFor(csv, notes, undefined)).toThrow(PayoutJournalError);
    expect(() => batchIdFor(csv, notes, undefined)).toThrow(`${notes} is not a payout journal`);
    const empty = join(dir, 'empty.journal');
    writeFileSync(empty, '');
    expect(batchIdFor(csv, empty, 'given')).toBe('given');
    const journal = new FileJournal(join(dir, 'real.journal'), { lockDirectory: join(dir, 'locks') });
    await journal.open('the-batch');
    await journal.close();
    expect(batchIdFor(csv, join(dir, 'real.journal'), undefined)).toBe('the-batch');
    expect(() => batchIdFor(csv, join(dir, 'real.journal'), 'other')).toThrow('--batch-id other: ');
  });
});

const HEADER = 'reference,sourceAccountId,destinationAccountId,amount,currency,lockedCurrencySide,description';
const ok = (reference: string, amount: number | string = 100) => `${reference},InternalAccount:a,ExternalAccount:b,${amount},USD,RECEIVING,${reference}`;
async function items(file: string): Promise<CsvItem[]> {
  const all: CsvItem[] = [];
  for await (const item of readCsv(file)) all.push(item);
  return all;
}
const rejectedOf = (all: CsvItem[]) => all.filter((i): i is Extract<CsvItem, { rejected: string }> => 'rejected' in i);
const referencesOf = (all: CsvItem[]) => all.filter((i) => !('rejected' in i)).map((i) => (i as { reference: string }).reference);

describe('payouts run: a malformed row never stops the batch (issue 47 §4)', () => {
  it('rejects a stray quote in row 2,500 of 3,000 with its line, and reads every row after it', async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => ok(`r${i}`, 100 + i));
    rows[2_499] = `r2499,InternalAccount:a,ExternalAccount:b,"100,USD,RECEIVING,r2499`; // an opening quote never closed
    rows[2_700] = `r2700,InternalAccount:a,ExternalAccount:b,700,USD,RECEIVING,"a 5" screen"`; // text after a closing quote
    const file = join(dir, 'stray.csv');
    writeFileSync(file, `${HEADER}\n${rows.join('\n')}\n`);
    const all = await items(file);
    expect(rejectedOf(all)).toEqual([
      { rejected: 'line 2501: a quote that is never closed (an unbalanced quote); not sent', reference: 'r2499', line: 2501 },
      { rejected: 'line 2702: text after a closing quote; not sent', reference: 'r2700', line: 2702 },
    ]);
    const paid = referencesOf(all);
    expect(paid).toHaveLength(2_998);
    expect(paid.at(-1)).toBe('r2999');
    expect(paid).toContain('r2500');
    expect(all.find((i) => (i as { reference?: string }).reference === 'r2999')).toMatchObject({
      amount: 3099,
      destination: { accountId: 'ExternalAccount:b', currency: 'USD' },
    });
  });

  it('rejects a wrong column count, an amount that is not a whole number, negative or zero, and a missing field, each with its line; keeps quoted commas and line breaks', async () => {
    const file = join(dir, 'bad-rows.csv');
    writeFileSync(
      file,
      [
        HEADER,
        ok('good-1'),
        ok('comma', '12,50'), // line 3: one field too many
        ok('decimal', '1.5'),
        ok('negative', '-500'), // line 5: sent today, and refused by the service
        ok('zero', 0),
        ok('huge', '9000000000000001'),
        `nosource,,ExternalAccount:b,100,USD,RECEIVING,x`,
        `short,InternalAccount:a,ExternalAccount:b`, // line 9: no amount
        `quoted,InternalAccount:a,ExternalAccount:b,200,USD,RECEIVING,"rent, flat 2\r\nsecond ""line"""`, // lines 10-11: one record
        `inside,InternalAccount:a,ExternalAccount:b,200,USD,RECEIVING,5"screen`,
        '',
        '   ',
        ok('good-2', '+300'),
      ].join('\r\n') + '\r\n',
    );
    const all = await items(file);
    expect(rejectedOf(all)).toEqual([
      { rejected: 'line 3: 8 fields, the header has 7 (an unquoted comma?); not sent', reference: 'comma', line: 3 },
      { rejected: 'line 4: amount: expected a whole number of minor units (cents for USD); not sent', reference: 'decimal', line: 4 },
      { rejected: 'line 5: amount: must be more than 0; not sent', reference: 'negative', line: 5 },
      { rejected: 'line 6: amount: must be more than 0; not sent', reference: 'zero', line: 6 },
      { rejected: 'line 7: amount: at most 9000000000000000; not sent', reference: 'huge', line: 7 },
      { rejected: 'line 8: source: required; not sent', reference: 'nosource', line: 8 },
      { rejected: 'line 9: amount: required; not sent', reference: 'short', line: 9 },
      { rejected: 'line 12: a quote inside a field that is not quoted; not sent', reference: 'inside', line: 12 },
    ]);
    expect(referencesOf(all)).toEqual(['good-1', 'quoted', 'good-2']);
    expect(all.find((i) => (i as { reference?: string }).reference === 'quoted')).toMatchObject({ amount: 200, description: 'rent, flat 2\r\nsecond "line"' });
    expect(all.at(-1)).toMatchObject({ reference: 'good-2', amount: 300 });
  });

  it('rejects a record over 64 KiB without reading it whole (a 600 MiB line), and reads the rows after it', { timeout: 60_000 }, async () => {
    const file = join(dir, 'huge.csv');
    const fd = openSync(file, 'w');
    const head = `${HEADER}\n${ok('before')}\nhuge-row,`;
    writeSync(fd, head);
    const size = 600 * 1024 * 1024;
    // A sparse file: 600 MiB of zero bytes with no line break (what V8 cannot hold as one string), then two rows.
    writeSync(fd, `\n${ok('after-1')}\n${ok('after-2')}\n`, size);
    closeSync(fd);
    const before = process.memoryUsage();
    const all = await items(file);
    const after = process.memoryUsage();
    expect(rejectedOf(all)).toEqual([{ rejected: 'line 3: a record over 64 KiB (the limit); not read; not sent', line: 3 }]);
    expect(referencesOf(all)).toEqual(['before', 'after-1', 'after-2']);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
    rmSync(file);
  });

  it('a malformed header line stops the run before anything is read, naming it', async () => {
    const file = join(dir, 'bad-header.csv');
    writeFileSync(file, `reference,"amount\n${ok('r1')}\n`);
    await expect(items(file)).rejects.toThrow(`${file}: line 1, the header line: a quote that is never closed`);
    writeFileSync(file, `reference,amount\n${ok('r1')}\n`);
    await expect(items(file)).rejects.toThrow('the header line has no column sourceAccountId, destinationAccountId');
  });
});
