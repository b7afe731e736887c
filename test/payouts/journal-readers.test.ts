/**
 * The three readers of a journal file — the journal's own `open`, `journalRecords` / `readJournalFile`
 * (what `payouts status` and `report` read, without the lock) and `journalBatchId` (the CLI's look at the
 * header) — share one line scanner. Fed the same edge files (a last line a kill cut, a header alone, a
 * 2 MiB record across the 1 MiB reads, lines that end or start exactly at a read's edge, CRLF and blank
 * lines), they agree on the batch and on every record, value by value.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileJournal, journalRecords, readJournalFile, type PayoutRecord } from '../../src/payouts/index';
import { journalBatchId } from '../../src/payouts/file-journal';
import { journalRecord } from './records';

const dir = mkdtempSync(join(tmpdir(), 'cb-journal-readers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MiB = 1 << 20;
const HEADER = '{"format":"crossborder-payout-journal/2","batchId":"b","createdAt":"2026-12-01T00:00:00.000Z"}';
const line = (r: PayoutRecord, eol = '\n') => `${JSON.stringify(r)}${eol}`;

/** `reference`'s record padded (its failure reason) so that its line, newline included, is `bytes` long. */
function sized(reference: string, bytes: number): PayoutRecord {
  const bare = Buffer.byteLength(line(journalRecord(reference, 'failed', { failureReason: '' })));
  const record = journalRecord(reference, 'failed', { failureReason: 'x'.repeat(bytes - bare) });
  expect(Buffer.byteLength(line(record))).toBe(bytes);
  return record;
}

interface Edge {
  name: string;
  text: string;
  /** What every reader yields, in file order. */
  records: PayoutRecord[];
  /** The file after `open` (which cuts a torn last line off). */
  afterOpen: string;
}

const r1 = journalRecord('r1');
const r2 = journalRecord('r2', 'completed', { transactionId: 'Transaction:t2' });
const r1done = journalRecord('r1', 'completed', { transactionId: 'Transaction:t1' });
const head = `${HEADER}\n`;
/** The record whose line ends at the last byte of the first 1 MiB read, and the one that starts the second. */
const toEdge = sized('edge', MiB - Buffer.byteLength(head));
/** The record whose newline is the first byte of the second read. */
const pastEdge = sized('past', MiB - Buffer.byteLength(head) + 1);
const big = journalRecord('big', 'failed', { failureReason: 'é'.repeat(MiB) }); // 2 MiB of UTF-8, multi-byte across the reads

const edges: Edge[] = [
  {
    name: 'a whole record line a kill cut just before its newline',
    text: head + line(r1) + line(r2).slice(0, -1),
    records: [r1],
    afterOpen: head + line(r1),
  },
  {
    name: 'a record line cut halfway',
    text: head + line(r1) + line(r1done) + line(r2).slice(0, 40),
    records: [r1done],
    afterOpen: head + line(r1) + line(r1done),
  },
  { name: 'the header alone', text: head, records: [], afterOpen: head },
  {
    name: 'a 2 MiB record across the 1 MiB reads, between two others',
    text: head + line(r1) + line(big) + line(r2),
    records: [r1, big, r2],
    afterOpen: head + line(r1) + line(big) + line(r2),
  },
  {
    name: 'a 2 MiB record cut before its newline, at the end',
    text: head + line(r1) + line(big).slice(0, -1),
    records: [r1],
    afterOpen: head + line(r1),
  },
  {
    name: "a line whose newline is the first read's last byte, and the line that starts the second read",
    text: head + line(toEdge) + line(r1) + line(r1done),
    records: [toEdge, r1done],
    afterOpen: head + line(toEdge) + line(r1) + line(r1done),
  },
  {
    name: "a line whose newline is the second read's first byte",
    text: head + line(pastEdge) + line(r2),
    records: [pastEdge, r2],
    afterOpen: head + line(pastEdge) + line(r2),
  },
  {
    name: "a file of exactly 1 MiB, its last line cut before its newline: the first read's last byte",
    text: head + line(pastEdge).slice(0, -1),
    records: [],
    afterOpen: head,
  },
  {
    name: 'CRLF line ends and blank lines, before the header too',
    text: `\r\n  \n${HEADER}\r\n\r\n${line(r1, '\r\n')}   \n${line(r2, '\r\n')}\n`,
    records: [r1, r2],
    afterOpen: `\r\n  \n${HEADER}\r\n\r\n${line(r1, '\r\n')}   \n${line(r2, '\r\n')}\n`,
  },
];

describe('one scanner: open, journalRecords / readJournalFile and journalBatchId agree on the same files', () => {
  let n = 0;
  for (const edge of edges) {
    it(edge.name, async () => {
      const path = join(dir, `f${n++}`);
      writeFileSync(path, edge.text);
      expect(edge.text.length).toBeGreaterThan(0);

      // The readers without the lock first: they never change the file.
      const batchId = journalBatchId(path);
      const streamed = journalRecords(path);
      const streamedRecords = [...streamed.records];
      const read = readJournalFile(path);
      expect(readFileSync(path, 'utf8')).toBe(edge.text);

      const journal = new FileJournal(path, { lock: false });
      let openedRecords: PayoutRecord[];
      try {
        openedRecords = [...(await journal.open('b'))];
        // And each one as `get` reads it back from the open journal.
        for (const r of edge.records) expect(await journal.get(r.reference)).toEqual(r);
      } finally {
        await journal.close();
      }

      expect([batchId, streamed.batchId, read.batchId]).toEqual(['b', 'b', 'b']);
      const readers = { open: openedRecords, journalRecords: streamedRecords, readJournalFile: read.records };
      for (const [reader, records] of Object.entries(readers)) {
        expect({ reader, references: records.map((r) => r.reference) }).toEqual({ reader, references: edge.records.map((r) => r.reference) });
        records.forEach((record, i) => expect({ reader, record }).toEqual({ reader, record: edge.records[i] }));
      }
      expect(readFileSync(path, 'utf8')).toBe(edge.afterOpen);
    });
  }

  it('the edge files are where the names say: the boundary lines end at byte 1 MiB - 1 and 1 MiB, the big one spans both reads', () => {
    const boundary = Buffer.from(head + line(toEdge) + line(r1));
    expect(boundary[MiB - 1]).toBe(10);
    expect(boundary.subarray(MiB, MiB + 16).toString()).toBe('{"reference":"r1');
    expect(Buffer.from(head + line(pastEdge))[MiB]).toBe(10);
    expect(Buffer.byteLength(head + line(pastEdge).slice(0, -1))).toBe(MiB);
    const start = Buffer.byteLength(head + line(r1));
    expect(start).toBeLessThan(MiB);
    expect(start + Buffer.byteLength(line(big))).toBeGreaterThan(2 * MiB);
  });

  it("journalBatchId's bound, read across the scanner's reads: a header whose newline is byte 1 MiB is read (by open too), one byte later it is refused", async () => {
    const at = (newlineAt: number) => {
      const path = join(dir, `bound-${newlineAt}`);
      writeFileSync(path, `${' '.repeat(newlineAt - HEADER.length)}${HEADER}\n${line(r1)}`);
      return path;
    };
    expect(journalBatchId(at(MiB))).toBe('b');
    // The open reads it as well. (Its own bound is looser, as it was before the shared scanner: it refuses once
    // more than 1 MiB of a line is pending after a read with no header yet, so a header line of up to 2 MiB - 1
    // bytes is read there, which journalBatchId refuses past 1 MiB.)
    const journal = new FileJournal(at(MiB), { lock: false });
    try {
      expect([...(await journal.open('b'))]).toEqual([r1]);
    } finally {
      await journal.close();
    }
    const past = at(MiB + 1);
    expect(() => journalBatchId(past)).toThrow(`${past} is not a payout journal (no header line within its first ${MiB} bytes)`);
    // Blank lines alone past the bound, then a header: refused as well (never read on).
    const blank = join(dir, 'blank-lines');
    writeFileSync(blank, `${'\n'.repeat(MiB + 1)}${HEADER}\n`);
    expect(() => journalBatchId(blank)).toThrow(`${blank} is not a payout journal (no header line within its first ${MiB} bytes)`);
    // Blank lines and a header a kill tore, 1 MiB in all: no journal yet; one byte more is past the bound.
    writeFileSync(blank, `${'\n'.repeat(MiB - 10)}${HEADER.slice(0, 10)}`);
    expect(journalBatchId(blank)).toBeUndefined();
    writeFileSync(blank, `${'\n'.repeat(MiB - 9)}${HEADER.slice(0, 10)}`);
    expect(() => journalBatchId(blank)).toThrow(`${blank} is not a payout journal (no header line within its first ${MiB} bytes)`);
  });

  it('a header alone without its newline (a kill as the journal was made): where the readers differ, as before the shared scanner', async () => {
    const whole = join(dir, 'header-unended');
    writeFileSync(whole, HEADER);
    const torn = join(dir, 'header-torn');
    writeFileSync(torn, HEADER.slice(0, 30));
    // The CLI's look: no journal yet.
    expect(journalBatchId(whole)).toBeUndefined();
    expect(journalBatchId(torn)).toBeUndefined();
    // Status and report: the whole header read as one (its batch, no records); a torn one is no journal.
    expect(readJournalFile(whole)).toEqual({ batchId: 'b', records: [] });
    expect(() => journalRecords(torn)).toThrow(`${torn} is not a payout journal (its first line is not JSON)`);
    // The open: cut off, and the journal made anew.
    for (const path of [whole, torn]) {
      const journal = new FileJournal(path, { lock: false });
      try {
        expect([...(await journal.open('b'))]).toEqual([]);
      } finally {
        await journal.close();
      }
      expect(readFileSync(path, 'utf8')).toMatch(/^\{"format":"crossborder-payout-journal\/2","batchId":"b","createdAt":"[^"]+"\}\n$/);
    }
  });
});
