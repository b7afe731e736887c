/**
 * `crossborder-sdk payouts`: run a payout batch from a CSV file with a journal (`run`), summarise it
 * (`status`), write its report (`report`). The runner is `crossborder-sdk/payouts`; this file reads
 * the CSV (csv-parse), draws the progress bar on a terminal (cli-progress) or prints JSON lines, and
 * stops cleanly on Ctrl-C (a second Ctrl-C ends at once; the journal is safe either way).
 *
 * Exit codes beyond the CLI's own: 0 every reference completed; 9 some failed, need attention or
 * rows were rejected (the summary names them); 130 stopped by Ctrl-C/SIGTERM (run the same command again to resume).
 * @module
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { APIUserAbortError } from '../core/errors';
import type { PayoutInstruction, PayoutProgress, PayoutSummary } from '../payouts/types';
import { Quotes } from '../resources/quotes';
import { Receiver } from '../resources/receiver';
import { Transactions } from '../resources/transactions';
import { connect, type ConnectionOptions } from './client';
import { refuseUnsafeTarget, writePrivateFile } from './files';
import { out } from './output';
import { UsageError } from './table';

type Action = (json: boolean, body: () => Promise<void>) => Promise<void>;

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
    amount: /^-?\d+$/.test(amountText) ? Number(amountText) : Number.NaN,
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

/** A row the CLI refuses before the runner sees it (its reference, and why). */
export interface RejectedRow {
  reference: string;
  reason: string;
}

/**
 * The CSV's instructions, streamed (the file is never held whole). A row with more fields than the
 * header (an unquoted comma: `12,50` would pay 12) is never sent: it goes to `reject`, naming its line.
 */
export async function* readCsv(file: string, reject: (row: RejectedRow) => void = () => {}): AsyncGenerator<PayoutInstruction> {
  const { parse } = await import('csv-parse');
  // relax_column_count: a row with fewer (or more) fields than the header is that row's problem, not the
  // batch's: its missing fields are absent, and the runner rejects it naming the field (it stopped the
  // whole run with csv-parse's "Invalid Record Length", after the rows before it were paid).
  let header: string[] = [];
  const parser = createReadStream(file).pipe(
    parse({ columns: (names: string[]) => (header = names.map((h) => h.trim())), trim: true, skip_empty_lines: true, bom: true, relax_column_count: true, info: true }),
  );
  let first = true;
  for await (const { record: row, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number; index: number; error?: { code?: string } } }>) {
    if (first) {
      first = false;
      const missing = ['reference', 'sourceAccountId', 'destinationAccountId', 'amount'].filter((c) => !header.includes(c));
      if (missing.length) throw new UsageError(`${file}: the header line has no column ${missing.join(', ')} (columns: ${CSV_COLUMNS.join(',')})`);
    }
    if (info.error?.code === 'CSV_RECORD_INCONSISTENT_COLUMNS' && info.index > header.length) {
      reject({ reference: row.reference ?? '', reason: `line ${info.lines}: ${info.index} fields, the header has ${header.length} (an unquoted comma?); not sent` });
      continue;
    }
    yield rowToInstruction(row);
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

/** The first line of `file` (at most 1 MiB of it), without reading the rest. */
function firstLine(file: string): string {
  const pieces: Buffer[] = [];
  let size = 0;
  eachChunk(file, (chunk) => {
    const end = chunk.indexOf(0x0a);
    pieces.push(Buffer.from(end === -1 ? chunk : chunk.subarray(0, end)));
    size += chunk.length;
    return end === -1 && size < 1_048_576;
  });
  return Buffer.concat(pieces).toString('utf8');
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
  if (existsSync(journal)) {
    const first = firstLine(journal);
    try {
      const header = JSON.parse(first) as { batchId?: string };
      if (typeof header.batchId === 'string') {
        if (given !== undefined && given !== header.batchId) throw new UsageError(`--batch-id ${given}: ${journal} holds batch ${header.batchId}`);
        return header.batchId;
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
    }
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
  const maxConcurrency = whole('--max-concurrency', opts.maxConcurrency, 1) ?? 16;
  const batchId = batchIdFor(csv, opts.journal, opts.batchId);
  const changed = csvChangedSince(csv, opts.journal, batchId);
  if (changed) process.stderr.write(`${changed}\n`);
  const [{ createPayoutBatch }, { FileJournal }] = await Promise.all([import('../payouts/runner'), import('../payouts/file-journal')]);
  // The runner calls quotes, transactions and receiver lookups: those resources over the CLI's core.
  const { core } = connect(opts);
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

  let bar: { start(total: number, value: number, payload: object): void; update(value: number, payload: object): void; setTotal(n: number): void; stop(): void } | undefined;
  if (tty) {
    const { default: progress } = await import('cli-progress');
    bar = new progress.SingleBar(
      {
        // The runner's ETA (`-` until a payout is final): cli-progress's own showed "ETA NFs" before the first.
        format: 'payouts |{bar}| {percentage}% {value}/{total} | completed {completed} failed {failed} attention {attention} | {rate}/s | ETA {etaText} | in flight {inFlight}/{concurrency}',
        stream: process.stderr,
        hideCursor: true,
        etaBuffer: 200,
        fps: 5,
      },
      progress.Presets.shades_classic,
    );
    bar.start(total, 0, { completed: 0, failed: 0, attention: 0, rate: 0, etaText: '-', inFlight: 0, concurrency: 0 });
  }
  const onProgress = (p: PayoutProgress) => {
    if (bar) {
      if (p.total > total) bar.setTotal(p.total);
      bar.update(p.done, { completed: p.counts.completed, failed: p.counts.failed, attention: p.counts.needs_attention, rate: p.throughput.toFixed(1), etaText: etaText(p.etaSeconds), inFlight: p.inFlight, concurrency: p.concurrency });
    } else {
      out(`${JSON.stringify({ event: 'progress', ...p })}\n`);
    }
  };
  const csvRejected: RejectedRow[] = [];
  const journal = new FileJournal(opts.journal);
  try {
    const batch = createPayoutBatch({
      client,
      batchId,
      journal,
      maxConcurrency,
      execution,
      signal: controller.signal,
      onProgress,
      progressIntervalMs: tty ? 200 : 1000,
      expectedTotal: total,
    });
    let summary: PayoutSummary;
    try {
      summary = await batch.run(readCsv(csv, (row) => csvRejected.push(row)));
    } catch (error) {
      bar?.stop();
      if (error instanceof APIUserAbortError && controller.signal.aborted) {
        const p = batch.progress();
        // p.total counts the references read so far (the CSV is read a little ahead of what is in flight): the rows not read yet are not finished either.
        const notFinished = Math.max(total, p.total) - p.done;
        const line = `stopped: ${p.counts.completed} completed, ${p.counts.failed} failed, ${p.counts.needs_attention} need attention, ${notFinished} not finished; run the same command again to resume`;
        if (jsonLines) out(`${JSON.stringify({ event: 'stopped', ...p, notFinished })}\n`);
        else process.stderr.write(`${line}\n`);
        process.exitCode = PAYOUT_EXIT.stopped;
        return;
      }
      throw error;
    }
    if (csvRejected.length) summary = { ...summary, rejected: [...summary.rejected, ...csvRejected] };
    if (bar) {
      // The rejected rows are done too (never sent): without them the last frame stayed short of 100 %.
      const c = summary.counts;
      const done = c.completed + c.failed + c.needs_attention + summary.rejected.length;
      if (done > total) bar.setTotal(done);
      bar.update(done, { completed: c.completed, failed: c.failed, attention: c.needs_attention, etaText: '0s', inFlight: 0 });
      bar.stop();
    }
    if (jsonLines) {
      out(`${JSON.stringify({ event: 'summary', ...summary })}\n`);
    } else {
      out(`${summaryLine(summary)}\n`);
      for (const f of summary.failed) out(`failed ${f.reference}: ${f.reason}\n`);
      for (const f of summary.needsAttention) out(`needs attention ${f.reference}: ${f.reason}\n`);
      for (const f of summary.rejected) out(`rejected row ${f.reference}: ${f.reason}\n`);
    }
    const complete = summary.failed.length === 0 && summary.needsAttention.length === 0 && summary.rejected.length === 0;
    process.exitCode = complete ? 0 : PAYOUT_EXIT.incomplete;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await journal.close();
  }
}

async function status(opts: { journal: string; json?: boolean }): Promise<void> {
  if (!existsSync(opts.journal)) throw new UsageError(`--journal ${opts.journal}: no such file`);
  refuseUnsafeTarget(opts.journal, '--journal');
  const [{ journalRecords }, { summarize }] = await Promise.all([import('../payouts/file-journal'), import('../payouts/report')]);
  // Streamed: only the counts and the unsettled references are kept.
  const { batchId, records } = journalRecords(opts.journal);
  const open: { reference: string; state: string; reason: string }[] = [];
  let total = 0;
  const counts = summarize(
    (function* () {
      for (const r of records) {
        total++;
        if (r.state === 'failed' || r.state === 'needs_attention') open.push({ reference: r.reference, state: r.state, reason: r.lastError ? `${r.lastError.code}: ${r.lastError.message}` : (r.failureReason ?? '') });
        yield r;
      }
    })(),
  );
  if (opts.json) {
    out(`${JSON.stringify({ batchId, total, counts, unsettled: open })}\n`);
    return;
  }
  out(`batch ${batchId}: ${total} references\n`);
  for (const [state, n] of Object.entries(counts)) out(`  ${state.padEnd(16)} ${n}\n`);
  for (const o of open) out(`${o.state} ${o.reference}: ${o.reason}\n`);
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
    ? reportCsvLines(rows)
    : (function* () {
        for (const row of rows) yield `${JSON.stringify(row)}\n`;
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
    .addHelpText('after', `\nCSV columns (header line first): ${CSV_COLUMNS.join(',')}; optional: ${CSV_OPTIONAL_COLUMNS.join(', ')} (payer data an UMA receiver asks for: senderCustomerInfo.FULL_NAME)\nExit codes of run: 0 all completed; ${PAYOUT_EXIT.incomplete} some failed, need attention or rows were rejected; ${PAYOUT_EXIT.stopped} stopped (run it again to resume).\n`);
  payouts
    .command('run <csv>')
    .description('run (or resume) the batch in <csv>; its states are journaled in --journal')
    .requiredOption('--journal <file>', 'the journal (append-only, fsynced): run the same command again to resume')
    .option('--batch-id <id>', "the batch's identity, which the Idempotency-Keys derive from (default: the journal's, else the CSV's name and content hash)")
    .option('--max-concurrency <n>', 'most requests in flight (default 16; it adapts below)')
    .option('--execution <mode>', 'immediate (one request, immediatelyExecute) or separate (create, then execute)')
    .option('--profile <name>', 'credentials from this profile of the config file')
    .option('--base-url <url>', 'service address (default: the profile, else CROSSBORDER_BASE_URL, else production)')
    .option('--timeout <ms>', 'per-attempt timeout')
    .option('--json', 'JSON lines (progress, then the summary) instead of the progress bar')
    .action(async (csv: string, opts: RunOptions) => action(opts.json === true, () => run(csv, opts)));
  payouts
    .command('status')
    .description('summarise a batch from its journal (safe while it runs)')
    .requiredOption('--journal <file>', 'the journal')
    .option('--json', 'one JSON line')
    .action(async (opts: { journal: string; json?: boolean }) => action(opts.json === true, () => status(opts)));
  payouts
    .command('report')
    .description('each reference with its transaction id, state, amounts, fees and exchange rate (JSON lines, or --csv)')
    .requiredOption('--journal <file>', 'the journal')
    .option('--csv', 'CSV with a header line')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (opts: { journal: string; csv?: boolean; out?: string }) => action(false, () => report(opts)));
}
