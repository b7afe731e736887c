/**
 * `crossborder-sdk payouts`: run a payout batch from a CSV file with a journal (`run`), summarise it
 * (`status`), write its report (`report`). The runner is `crossborder-sdk/payouts`; this file reads
 * the CSV (its own bounded reader: a bad row is rejected with its line, the rows after it go on), draws the progress bar on a terminal (cli-progress) or prints JSON lines, and
 * stops cleanly on Ctrl-C (a second Ctrl-C ends at once; the journal is safe either way).
 *
 * Exit codes beyond the CLI's own: 0 every reference completed; 9 some failed, need attention or
 * rows were rejected (the summary names them); 130 stopped by Ctrl-C/SIGTERM (run the same command again to resume).
 * @module
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { APIUserAbortError } from './sdk';
import { journalBatchId } from '../payouts/file-journal';
import type { PayoutBatchOptions } from '../payouts/runner';
import type { PayoutInstruction, PayoutProgress, PayoutRecord, PayoutRejectedInput, PayoutReportRow, PayoutSummary } from '../payouts/types';
import { Quotes } from '../resources/quotes';
import { Receiver } from '../resources/receiver';
import { Transactions } from '../resources/transactions';
import { connect, type ConnectionOptions } from './client';
import { LOCAL_SANDBOX_URL, shownUrl } from './shared';
import { refuseUnsafeTarget, writePrivateFile } from './files';
import { jsonLine, out, visible } from './output';
import { UsageError } from './table';

type Action = (json: boolean, body: () => Promise<void>) => Promise<void>;

/** `--max-concurrency` when not given. */
const DEFAULT_MAX_CONCURRENCY = 16;

/** Exit codes of `payouts run`. */
export const PAYOUT_EXIT = { incomplete: 9, stopped: 130 } as const;

/** The CSV columns, in their documented order (a header line names them; order may differ, extra columns are ignored). */
export const CSV_COLUMNS = ['reference', 'sourceAccountId', 'destinationAccountId', 'amount', 'currency', 'lockedCurrencySide', 'description'] as const;

/** Optional columns beyond {@link CSV_COLUMNS}: sent as given when present and not empty. */
export const CSV_OPTIONAL_COLUMNS = ['purposeOfPayment', 'senderCustomerInfo.<FIELD>'] as const;

/**
 * One CSV row as an instruction. A destination starting with `$` is an UMA address. Bad values are left
 * for the runner to refuse (by field): an empty or missing `sourceAccountId` / `destinationAccountId`
 * is no source / destination (rejected, `source: required`), never an account id `''` sent to the service.
 */
export function rowToInstruction(row: Record<string, string | undefined>): PayoutInstruction {
  const side = (row.lockedCurrencySide || 'RECEIVING').toUpperCase() as 'SENDING' | 'RECEIVING';
  const currency = row.currency || undefined;
  const sourceId = row.sourceAccountId ?? '';
  const destinationId = row.destinationAccountId ?? '';
  const amountText = (row.amount ?? '').trim();
  return {
    reference: row.reference ?? '',
    // The runner refuses an instruction without a source or destination, naming the field, and sends nothing for it.
    source: (sourceId === '' ? undefined : { accountId: sourceId, ...(side === 'SENDING' && currency ? { currency } : {}) }) as PayoutInstruction['source'],
    destination: (destinationId === ''
      ? undefined
      : destinationId.startsWith('$')
        ? { umaAddress: destinationId, ...(side === 'RECEIVING' && currency ? { currency } : {}) }
        : { accountId: destinationId, ...(side === 'RECEIVING' && currency ? { currency } : {}) }) as PayoutInstruction['destination'],
    amount: /^[+-]?\d+$/.test(amountText) ? Number(amountText) : Number.NaN,
    lockedCurrencySide: side,
    ...(row.description ? { description: row.description } : {}),
    ...(row.purposeOfPayment ? { purposeOfPayment: row.purposeOfPayment } : {}),
    ...senderInfo(row),
  };
}

const SENDER_INFO = 'senderCustomerInfo.';

/**
 * The payer data an UMA receiver may ask for, from optional columns `senderCustomerInfo.<FIELD>`
 * (`senderCustomerInfo.FULL_NAME`), sent as given; none when the columns are absent or empty.
 */
function senderInfo(row: Record<string, string | undefined>): { senderCustomerInfo?: Record<string, string> } {
  let info: Record<string, string> | undefined;
  for (const column of Object.keys(row)) {
    const value = row[column];
    if (!column.startsWith(SENDER_INFO) || column.length === SENDER_INFO.length || !value) continue;
    (info ??= {})[column.slice(SENDER_INFO.length)] = value;
  }
  return info ? { senderCustomerInfo: info } : {};
}

/** The largest CSV record read: a longer one is rejected, and never held whole (a 640 MiB line was read into one string). */
export const CSV_RECORD_LIMIT = 64 * 1024;

/** The largest amount the service takes (production's `maximum`). */
const MOST_AMOUNT = 9_000_000_000_000_000;

/** A physical line of the CSV: its text (without the newline), or `undefined` when it is over {@link CSV_RECORD_LIMIT} (not read). */
interface Line {
  line: number;
  text: string | undefined;
  bytes: number;
}

/** The lines of `file`, read 1 MiB at a time; a line over the limit is skipped to its end, never held. */
async function* physicalLines(file: string): AsyncGenerator<Line> {
  const { open } = await import('node:fs/promises');
  const handle = await open(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let pieces: Buffer[] = [];
    let held = 0;
    let over = false;
    let bytes = 0;
    let line = 0;
    let first = true;
    const end = (): Line => {
      let data = Buffer.concat(pieces, held);
      if (first && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) data = data.subarray(3); // a BOM
      first = false;
      const done: Line = { line: ++line, text: over ? undefined : data.toString('utf8'), bytes };
      pieces = [];
      held = 0;
      over = false;
      bytes = 0;
      return done;
    };
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      let start = 0;
      while (start < bytesRead) {
        const nl = chunk.indexOf(10, start);
        const stop = nl === -1 || nl >= bytesRead ? bytesRead : nl;
        bytes += stop - start;
        if (!over) {
          if (held + (stop - start) > CSV_RECORD_LIMIT) {
            over = true; // the rest of this line is skipped
            pieces = [];
            held = 0;
          } else {
            pieces.push(Buffer.from(chunk.subarray(start, stop)));
            held += stop - start;
          }
        }
        if (stop === bytesRead) break;
        yield end();
        start = stop + 1;
      }
    }
    if (held > 0 || over) yield end();
  } finally {
    await handle.close();
  }
}

/** One record's fields (RFC 4180, fields trimmed), or why it is not one; `open`: a quote not closed by its end. */
function parseRecord(text: string): { fields: string[] } | { problem: string; open?: boolean } {
  const fields: string[] = [];
  let i = 0;
  const n = text.length;
  const space = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
  for (;;) {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) return { problem: 'a quote that is never closed', open: true };
        value += text.slice(i, q);
        if (text[q + 1] === '"') {
          value += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      while (i < n && space(text[i])) i++;
      if (i < n && text[i] !== ',') return { problem: 'text after a closing quote' };
      fields.push(value);
    } else {
      const comma = text.indexOf(',', i);
      const raw = text.slice(i, comma === -1 ? n : comma);
      if (raw.includes('"')) return { problem: 'a quote inside a field that is not quoted' };
      fields.push(raw.trim());
      i = comma === -1 ? n : comma;
    }
    if (i >= n) return { fields };
    i++; // the comma
  }
}

/** What the CSV reader yields: an instruction, or a row it rejected. */
export type CsvItem = PayoutInstruction | PayoutRejectedInput;

/**
 * The CSV's records, streamed (never a whole file, never a record over {@link CSV_RECORD_LIMIT}), each a
 * row of fields with its first line; or a rejected line. A quoted field may hold line breaks; a quote
 * never closed (within the limit, or before the end) rejects its own line only, and reading goes on at
 * the next line: one stray quote never swallows, or stops, the rows after it.
 */
async function* csvRecords(file: string): AsyncGenerator<{ line: number; fields: string[] } | { line: number; problem: string; fields?: string[] }> {
  let pending: Line[] = [];
  let pendingBytes = 0;
  const out: ({ line: number; fields: string[] } | { line: number; problem: string; fields?: string[] })[] = [];
  /** Takes `line` into the record under way; `atEnd`: no line follows (the pending record must settle). */
  const feed = (line: Line | undefined): void => {
    if (line !== undefined) {
      if (line.text === undefined) {
        settle();
        out.push({ line: line.line, problem: `a record over ${CSV_RECORD_LIMIT / 1024} KiB (the limit); not read` });
        return;
      }
      if (pending.length === 0 && line.text.trim() === '') return; // a blank line
      pending.push(line);
      pendingBytes += line.bytes + 1;
    }
    if (pending.length === 0) return;
    const result = parseRecord(pending.map((l) => l.text).join('\n'));
    if ('fields' in result) {
      out.push({ line: pending[0]!.line, fields: result.fields });
      pending = [];
      pendingBytes = 0;
      return;
    }
    if (result.open && line !== undefined && pendingBytes <= CSV_RECORD_LIMIT) return; // the quote may close on a later line
    if (line === undefined || !result.open || pendingBytes > CSV_RECORD_LIMIT) {
      // Rejected: the record's first line alone; the lines after it are read again as lines of their own.
      const [first, ...rest] = pending;
      pending = [];
      pendingBytes = 0;
      const problem = rest.length > 0 || result.open ? 'a quote that is never closed (an unbalanced quote)' : result.problem;
      const firstFields = parseRecord(first!.text!.split('"')[0]!);
      out.push({ line: first!.line, problem, ...('fields' in firstFields ? { fields: firstFields.fields } : {}) });
      for (const l of rest) feed(l);
    }
  };
  const settle = () => {
    while (pending.length > 0) feed(undefined);
  };
  for await (const line of physicalLines(file)) {
    feed(line);
    yield* out.splice(0);
  }
  settle();
  yield* out.splice(0);
}

/**
 * The CSV's instructions, streamed. A row that cannot be paid as written is rejected with its line and
 * reason, and the rows after it go on: an unbalanced quote, more fields than the header (an unquoted
 * comma: `12,50` would pay 12), a record over 64 KiB, an amount that is not a whole number of minor units,
 * or not more than 0 (production bounds it: `exclusiveMinimum: 0`), or a field the runner needs missing.
 * Only a file without the header's required columns stops the run, before anything is sent.
 */
export async function* readCsv(file: string): AsyncGenerator<CsvItem> {
  const { instructionProblem } = await import('../payouts/runner');
  let header: string[] | undefined;
  for await (const record of csvRecords(file)) {
    if (header === undefined) {
      if ('problem' in record) throw new UsageError(`${file}: line ${record.line}, the header line: ${record.problem}`);
      header = record.fields.map((h) => h.trim());
      const missing = ['reference', 'sourceAccountId', 'destinationAccountId', 'amount'].filter((c) => !header!.includes(c));
      if (missing.length) throw new UsageError(`${file}: the header line has no column ${missing.join(', ')} (columns: ${CSV_COLUMNS.join(',')})`);
      continue;
    }
    const at = header.indexOf('reference');
    const reference = record.fields?.[at] || undefined;
    const reject = (reason: string): PayoutRejectedInput => ({
      rejected: `line ${record.line}: ${reason}`,
      ...(reference !== undefined ? { reference } : {}),
      line: record.line,
    });
    if ('problem' in record) {
      yield reject(`${record.problem}; not sent`);
      continue;
    }
    if (record.fields.length > header.length) {
      yield reject(`${record.fields.length} fields, the header has ${header.length} (an unquoted comma?); not sent`);
      continue;
    }
    // Fewer fields than the header: the missing ones are absent (a short row's problem is its own, named below).
    const row: Record<string, string> = {};
    header.forEach((name, i) => {
      if (i < record.fields.length) row[name] = record.fields[i]!;
    });
    const amount = (row.amount ?? '').trim();
    const amountProblem =
      amount === ''
        ? 'amount: required'
        : !/^[+-]?\d+$/.test(amount)
          ? 'amount: expected a whole number of minor units (cents for USD)'
          : Number(amount) <= 0
            ? 'amount: must be more than 0'
            : Number(amount) > MOST_AMOUNT
              ? `amount: at most ${MOST_AMOUNT}`
              : undefined;
    if (amountProblem) {
      yield reject(`${amountProblem}; not sent`);
      continue;
    }
    const instruction = rowToInstruction(row);
    const problem = instructionProblem(instruction);
    if (problem) {
      yield reject(`${problem}; not sent`);
      continue;
    }
    yield instruction;
  }
}

/** Calls `each` with the file's bytes in 64 KiB pieces, in order (never the whole file at once); `each` returns false to stop. */
function eachChunk(file: string, each: (chunk: Buffer) => boolean | void): void {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(65_536);
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0 || each(buffer.subarray(0, n)) === false) return;
    }
  } finally {
    closeSync(fd);
  }
}

const WHITESPACE = new Set([0x20, 0x09, 0x0d, 0x0b, 0x0c]);

/** Rows in the CSV (lines with something on them, but the header), for the ETA: counted in pieces. */
export function countRows(file: string): number {
  let lines = 0;
  let blank = true;
  eachChunk(file, (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === 0x0a) {
        if (!blank) lines++;
        blank = true;
      } else if (blank && !WHITESPACE.has(byte)) {
        blank = false;
      }
    }
  });
  if (!blank) lines++;
  return Math.max(0, lines - 1);
}

/** SHA-256 (hex) of the file's bytes, read in pieces. */
function fileSha256(file: string): string {
  const hash = createHash('sha256');
  eachChunk(file, (chunk) => {
    hash.update(chunk);
  });
  return hash.digest('hex');
}

/** The batch id of a journal that exists, else one from the CSV's name and bytes (the same file, the same keys). */
export function batchIdFor(csv: string, journal: string, given: string | undefined): string {
  // The journal's header, read by the journal's own reader (the one place its format is read).
  const held = existsSync(journal) ? journalBatchId(journal) : undefined;
  if (held !== undefined) {
    if (given !== undefined && given !== held) throw new UsageError(`--batch-id ${given}: ${journal} holds batch ${held}`);
    return held;
  }
  if (given !== undefined) return given;
  return defaultBatchId(csv);
}

/** The batch id of a CSV run without one: its name and the first 16 hex digits of its bytes' SHA-256. */
function defaultBatchId(csv: string): string {
  return `${basename(csv)}#${fileSha256(csv).slice(0, 16)}`;
}

/**
 * A warning when the journal's batch was made from other bytes of this CSV (its default batch id is the
 * CSV's name and hash): next month's file run with last month's journal pays none of the references
 * already final in it, and says "completed" for them. Not refused: fixing a rejected row and running
 * again is the same case, and rightly resumes.
 */
export function csvChangedSince(csv: string, journal: string, batchId: string): string | undefined {
  const prefix = `${basename(csv)}#`;
  if (!existsSync(journal) || !batchId.startsWith(prefix) || !/^[0-9a-f]{16}$/.test(batchId.slice(prefix.length))) return undefined;
  if (defaultBatchId(csv) === batchId) return undefined;
  return `note: ${csv} has changed since ${journal}'s batch ${batchId} began: its references already final there are not paid again (a new batch needs a new --journal)`;
}

function whole(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`${flag} needs a whole number >= ${min}, got '${text}'`);
  return Number(text);
}

interface RunOptions extends ConnectionOptions {
  journal: string;
  batchId?: string;
  maxConcurrency?: string;
  execution?: string;
  json?: boolean;
}

/** `1m05s`, or `-` while the runner knows no ETA yet. */
function etaText(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '-';
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

function summaryLine(s: PayoutSummary): string {
  const c = s.counts;
  return `${s.batchId}: ${c.completed} completed, ${c.failed} failed, ${c.needs_attention} need attention, ${s.rejected.length} rejected rows (${s.total} references, ${s.seconds} s)`;
}

async function run(csv: string, opts: RunOptions): Promise<void> {
  if (!existsSync(csv)) throw new UsageError(`${csv}: no such file`);
  // Read three times (its rows counted, its bytes hashed into the batch id, then parsed): a file, not a
  // pipe or a device (/dev/zero would never end).
  if (!statSync(csv).isFile()) throw new UsageError(`${csv}: not a regular file (the CSV is read more than once: save it to a file first)`);
  // The journal is read, cut at a torn last line and appended to: only the user's own regular file, or a new one.
  refuseUnsafeTarget(opts.journal, '--journal');
  const execution = opts.execution ?? 'immediate';
  if (execution !== 'immediate' && execution !== 'separate') throw new UsageError(`--execution needs immediate or separate, got '${execution}'`);
  const maxConcurrency = whole('--max-concurrency', opts.maxConcurrency, 1) ?? DEFAULT_MAX_CONCURRENCY;
  const batchId = batchIdFor(csv, opts.journal, opts.batchId);
  const changed = csvChangedSince(csv, opts.journal, batchId);
  if (changed) process.stderr.write(`${changed}\n`);
  const [{ createPayoutBatch }, { FileJournal }] = await Promise.all([import('../payouts/runner'), import('../payouts/file-journal')]);
  // The runner calls quotes, transactions and receiver lookups: those resources over the CLI's core.
  const { core, target } = connect(opts);
  // Before anything is sent: where the payouts go (the local sandbox unless an address or production was chosen).
  process.stderr.write(
    `payouts: pointed at ${shownUrl(core.baseUrl)} (${target.from === 'default' ? 'the local default' : `from ${target.from}`}, environment ${core.environment})\n`,
  );
  const client = { quotes: new Quotes(core), transactions: new Transactions(core), receiver: new Receiver(core) };
  const tty = process.stderr.isTTY === true && !opts.json;
  // Without a terminal, stdout is JSON lines from the first to the last (progress, then the summary), as with --json.
  const jsonLines = !tty;
  const total = countRows(csv);
  const controller = new AbortController();
  let signals = 0;
  const onSignal = () => {
    if (++signals > 1) process.exit(PAYOUT_EXIT.stopped); // the journal holds every state already
    process.stderr.write('\nstopping: waiting for the requests in flight (Ctrl-C again to quit at once; the journal is safe)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let bar:
    | { start(total: number, value: number, payload: object): void; update(value: number, payload: object): void; setTotal(n: number): void; stop(): void }
    | undefined;
  const progressBar = tty ? (await import('cli-progress')).default : undefined;
  /** The bar, drawn from the first thing the run has to show (after what a resumed run found). */
  const startBar = () => {
    if (bar || !progressBar) return;
    const made = new progressBar.SingleBar(
      {
        // The runner's ETA (`-` until a payout is final): cli-progress's own showed "ETA NFs" before the first.
        format:
          'payouts |{bar}| {percentage}% {value}/{total} | completed {completed} failed {failed} attention {attention} | {rate}/s | ETA {etaText} | in flight {inFlight}/{concurrency}',
        stream: process.stderr,
        hideCursor: true,
        etaBuffer: 200,
        fps: 5,
      },
      progressBar.Presets.shades_classic,
    );
    bar = made;
    made.start(total, 0, { completed: 0, failed: 0, attention: 0, rate: 0, etaText: '-', inFlight: 0, concurrency: 0 });
  };
  const onProgress = (p: PayoutProgress) => {
    if (tty) {
      startBar();
      if (p.total > total) bar!.setTotal(p.total);
      bar!.update(p.done, {
        completed: p.counts.completed,
        failed: p.counts.failed,
        attention: p.counts.needs_attention,
        rate: p.throughput.toFixed(1),
        etaText: etaText(p.etaSeconds),
        inFlight: p.inFlight,
        concurrency: p.concurrency,
      });
    } else {
      out(jsonLine({ event: 'progress', ...p }));
    }
  };
  /** A resumed run says what it found in the journal before the bar starts (nothing on a new batch). */
  const onResume = (found: ResumeCounts) => {
    if (found.final + found.rejected + found.replay + found.lookup + found.waiting > 0) {
      if (jsonLines) out(jsonLine({ event: 'resume', ...found }));
      else process.stderr.write(`${resumeLine(found)}\n`);
    }
    startBar();
  };
  const journal = new FileJournal(opts.journal);
  try {
    const options: PayoutBatchOptions = {
      client,
      batchId,
      journal,
      maxConcurrency,
      execution,
      signal: controller.signal,
      onProgress,
      onResume,
      progressIntervalMs: tty ? 200 : 1000,
      expectedTotal: total,
    };
    const batch = createPayoutBatch(options);
    let summary: PayoutSummary;
    try {
      // Rows the CSV rejects go to the runner too, which journals them, so that status and report show them.
      summary = await batch.run(readCsv(csv));
    } catch (error) {
      bar?.stop();
      if (error instanceof APIUserAbortError && controller.signal.aborted) {
        const p = batch.progress();
        // p.total counts the references read so far (the CSV is read a little ahead of what is in flight): the rows not read yet are not finished either.
        const notFinished = Math.max(total, p.total) - p.done;
        const line = `stopped: ${p.counts.completed} completed, ${p.counts.failed} failed, ${p.counts.needs_attention} need attention, ${notFinished} not finished; run the same command again to resume`;
        if (jsonLines) out(jsonLine({ event: 'stopped', ...p, notFinished }));
        else process.stderr.write(`${line}\n`);
        process.exitCode = PAYOUT_EXIT.stopped;
        return;
      }
      throw error;
    }
    if (bar) {
      // The rejected rows are done too (never sent): without them the last frame stayed short of 100 %.
      const c = summary.counts;
      const done = c.completed + c.failed + c.needs_attention + summary.rejected.length;
      if (done > total) bar.setTotal(done);
      bar.update(done, { completed: c.completed, failed: c.failed, attention: c.needs_attention, etaText: '0s', inFlight: 0 });
      bar.stop();
    }
    if (jsonLines) {
      out(jsonLine({ event: 'summary', ...summary }));
    } else {
      out(`${visible(summaryLine(summary))}\n`);
      for (const f of summary.failed) out(`failed ${visible(f.reference)}: ${visible(f.reason)}\n`);
      for (const f of summary.needsAttention) out(`needs attention ${visible(f.reference)}: ${visible(f.reason)}\n`);
      for (const f of summary.rejected) out(`rejected row ${visible(f.reference)}: ${visible(f.reason)}\n`);
    }
    const complete = summary.failed.length === 0 && summary.needsAttention.length === 0 && summary.rejected.length === 0;
    process.exitCode = complete ? 0 : PAYOUT_EXIT.incomplete;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await journal.close();
  }
}

/** What a resumed run found in its journal (the runner's `onResume`). */
export type ResumeCounts = Parameters<NonNullable<PayoutBatchOptions['onResume']>>[0];

/** `resumed: 120 final, 3 rejected rows, 4 to replay with their keys, 2 to look up on the service, 1 waiting for its final status`. */
export function resumeLine(found: ResumeCounts): string {
  return `resumed: ${found.final} final, ${found.rejected} rejected rows, ${found.replay} to replay with their keys, ${found.lookup} to look up on the service, ${found.waiting} waiting for their final status`;
}

/** Why a record is not completed: its error, else the service's failure reason. */
const reasonOf = (r: PayoutRecord) => (r.lastError ? `${r.lastError.code}: ${r.lastError.message}` : (r.failureReason ?? ''));

async function status(opts: { journal: string; json?: boolean }): Promise<void> {
  if (!existsSync(opts.journal)) throw new UsageError(`--journal ${opts.journal}: no such file`);
  refuseUnsafeTarget(opts.journal, '--journal');
  const [{ journalRecords }, { summarize, reportRow }] = await Promise.all([import('../payouts/file-journal'), import('../payouts/report')]);
  // Streamed: only the counts and the unsettled references are kept.
  const { batchId, records } = journalRecords(opts.journal);
  const open: { reference: string; state: string; reason: string; line?: number }[] = [];
  let total = 0;
  const counts = summarize(
    (function* () {
      for (const r of records) {
        total++;
        const state: string = r.state;
        if (state === 'failed' || state === 'needs_attention' || state === 'rejected') {
          // As the report names it: a rejected row by the reference its input gave, and its line.
          const { reference, line } = reportRow(r);
          open.push({ reference, state, reason: reasonOf(r), ...(line !== undefined ? { line } : {}) });
        }
        yield r;
      }
    })(),
  );
  if (opts.json) {
    out(jsonLine({ batchId, total, counts, unsettled: open }));
    return;
  }
  out(`batch ${visible(batchId)}: ${total} references\n`);
  for (const [state, n] of Object.entries(counts)) out(`  ${visible(state).padEnd(16)} ${n}\n`);
  for (const o of open) out(`${o.state === 'rejected' ? 'rejected row' : o.state} ${visible(o.reference)}: ${visible(o.reason)}\n`);
}

/** The row with every text value as a terminal shows it (control characters escaped), whatever field of the journal holds it. */
function visibleRow(row: PayoutReportRow): PayoutReportRow {
  const shown = { ...row };
  for (const [key, value] of Object.entries(shown)) if (typeof value === 'string') Object.assign(shown, { [key]: visible(value) });
  return shown;
}

async function report(opts: { journal: string; csv?: boolean; out?: string }): Promise<void> {
  if (!existsSync(opts.journal)) throw new UsageError(`--journal ${opts.journal}: no such file`);
  refuseUnsafeTarget(opts.journal, '--journal');
  const [{ journalRecords }, { reportCsvLines, reportRow }] = await Promise.all([import('../payouts/file-journal'), import('../payouts/report')]);
  // Streamed row by row, written 64 KiB at a time: a report of 100,000 references is never one string.
  const { records } = journalRecords(opts.journal);
  const rows = (function* () {
    for (const r of records) yield reportRow(r);
  })();
  const lines = opts.csv
    ? // Text a terminal or a spreadsheet shows: control characters escaped visibly (then formulas defused, as always).
      reportCsvLines(
        (function* () {
          for (const row of rows) yield visibleRow(row);
        })(),
      )
    : (function* () {
        for (const row of rows) yield jsonLine(row);
      })();
  const chunks = (function* () {
    let chunk = '';
    for (const line of lines) {
      chunk += line;
      if (chunk.length >= 65_536) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  })();
  // --out is written like every file the CLI writes: new, 0600, never through a link or into another's file.
  if (opts.out) writePrivateFile(opts.out, chunks, '--out');
  else for (const chunk of chunks) out(chunk);
}

/** Adds `payouts run | status | report`. */
export function addPayoutsCommand(program: Command, action: Action): void {
  const payouts = program
    .command('payouts')
    .description('Pay many people at once from a CSV, exactly once per reference, resumable after any crash (docs/payouts.md)')
    .addHelpText(
      'after',
      `\nCSV columns (header line first): ${CSV_COLUMNS.join(',')}; optional: ${CSV_OPTIONAL_COLUMNS.join(', ')} (payer data an UMA receiver asks for: senderCustomerInfo.FULL_NAME)\nExit codes of run: 0 all completed; ${PAYOUT_EXIT.incomplete} some failed, need attention or rows were rejected; ${PAYOUT_EXIT.stopped} stopped (run it again to resume).\n`,
    );
  payouts
    .command('run <csv>')
    .description('run (or resume) the batch in <csv>; its states are journaled in --journal')
    .requiredOption('--journal <file>', 'required: the journal (append-only, fsynced): run the same command again to resume')
    .option('--batch-id <id>', "the batch's identity, which the Idempotency-Keys derive from (default: the journal's, else the CSV's name and content hash)")
    .option('--max-concurrency <n>', `most requests in flight (default ${DEFAULT_MAX_CONCURRENCY}; it adapts below)`)
    .option('--execution <mode>', 'immediate (one request, immediatelyExecute) or separate (create, then execute) (default immediate)')
    .option('--profile <name>', 'credentials from this profile of the config file')
    .option(
      '--base-url <url>',
      `service address (default: the profile, else CROSSBORDER_BASE_URL, else ${LOCAL_SANDBOX_URL}, the local sandbox; production only when the profile or CROSSBORDER_ENVIRONMENT says production)`,
    )
    .option('--timeout <ms>', 'per-attempt timeout')
    .option('--json', 'JSON lines (progress, then the summary) instead of the progress bar')
    .action(async (csv: string, opts: RunOptions) => action(opts.json === true, () => run(csv, opts)));
  payouts
    .command('status')
    .description('summarise a batch from its journal (safe while it runs)')
    .requiredOption('--journal <file>', 'required: the journal')
    .option('--json', 'one JSON line')
    .action(async (opts: { journal: string; json?: boolean }) => action(opts.json === true, () => status(opts)));
  payouts
    .command('report')
    .description('each reference with its transaction id, state, amounts, fees and exchange rate (JSON lines, or --csv)')
    .requiredOption('--journal <file>', 'required: the journal')
    .option('--csv', 'CSV with a header line')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (opts: { journal: string; csv?: boolean; out?: string }) => action(false, () => report(opts)));
}
