/**
 * `payouts run`'s reading of its files, in pieces: the row count (for the ETA), the batch id from the
 * CSV's bytes (a stored format: the same file gives the same id, so the same keys, in any version) and
 * the journal's header line, none of them holding a whole file.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batchIdFor, countRows } from '../../src/cli/payouts';

const dir = mkdtempSync(join(tmpdir(), 'cb-payouts-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('payouts run: its files, read in pieces', () => {
  it('counts the rows with something on them, but the header, across 64 KiB pieces, CRLF and no final newline', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => `r${i},InternalAccount:a,ExternalAccount:b,${100 + i},USD`);
    const file = join(dir, 'rows.csv');
    writeFileSync(file, `reference,sourceAccountId,destinationAccountId,amount,currency\r\n${rows.slice(0, 2_500).join('\r\n')}\r\n\r\n   \t\r\n${rows.slice(2_500).join('\n')}`);
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
    writeFileSync(journal, `${JSON.stringify({ format: 'crossborder-payout-journal/1', batchId: 'from-the-journal', pad: 'p'.repeat(200_000) })}\n${'{"reference":"r"}\n'.repeat(10_000)}`);
    expect(batchIdFor(csv, journal, undefined)).toBe('from-the-journal');
  });
});
