/**
 * The report of a batch: one row per reference (transaction id, state, amounts, fees, exchange rate,
 * the reason of a failure), as JSON rows or CSV.
 * @module
 */
import { PAYOUT_STATES, type PayoutCounts, type PayoutRecord, type PayoutReportRow } from './types';

/** The report rows of `records`, in the order given. */
export function reportRows(records: Iterable<PayoutRecord>): PayoutReportRow[] {
  const rows: PayoutReportRow[] = [];
  for (const r of records) rows.push(reportRow(r));
  return rows;
}

/**
 * The report row of one record (for a report streamed row by row). A rejected input's row shows the
 * reference the input gave (its record's own is a journal key) and, when it came from a file, its line.
 */
export function reportRow(r: PayoutRecord): PayoutReportRow {
  const rejected = r.state === 'rejected';
  const line = rejected && typeof r.line === 'number' ? r.line : undefined;
  const message = r.lastError?.message;
  return {
    reference: rejected ? (r.inputReference ?? '') : r.reference,
    state: r.state,
    transactionId: r.transactionId,
    transactionStatus: r.transactionStatus,
    failureReason: r.failureReason,
    sendingAmount: r.quote?.sendingAmount,
    sendingCurrency: r.quote?.sendingCurrency,
    receivingAmount: r.quote?.receivingAmount,
    receivingCurrency: r.quote?.receivingCurrency,
    fees: r.quote?.fees,
    exchangeRate: r.quote?.exchangeRate,
    attempts: r.attempts,
    errorCode: r.lastError?.code,
    // The line in the message too, so the CSV (whose columns stay as they were) names it.
    errorMessage: line !== undefined && message !== undefined && !message.startsWith(`line ${line}`) ? `line ${line}: ${message}` : message,
    ...(line !== undefined ? { line } : {}),
  };
}

const COLUMNS: (keyof PayoutReportRow)[] = [
  'reference',
  'state',
  'transactionId',
  'transactionStatus',
  'failureReason',
  'sendingAmount',
  'sendingCurrency',
  'receivingAmount',
  'receivingCurrency',
  'fees',
  'exchangeRate',
  'attempts',
  'errorCode',
  'errorMessage',
];

/** A CSV field: quoted when it holds a comma, quote or line break; a leading `=+-@` is prefixed with `'` (no formula in a spreadsheet). */
function field(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The report as CSV (RFC 4180, header line first, CRLF line ends). */
export function reportCsv(rows: Iterable<PayoutReportRow>): string {
  return [...reportCsvLines(rows)].join('');
}

/** The report as CSV, one line (with its CRLF) at a time: the header, then a line per row. */
export function* reportCsvLines(rows: Iterable<PayoutReportRow>): Generator<string> {
  yield `${COLUMNS.join(',')}\r\n`;
  for (const row of rows) yield `${COLUMNS.map((c) => field(row[c])).join(',')}\r\n`;
}

/** Counts by state of `records`. */
export function summarize(records: Iterable<PayoutRecord>): PayoutCounts {
  const counts = Object.fromEntries(PAYOUT_STATES.map((s) => [s, 0])) as PayoutCounts;
  for (const r of records) counts[r.state] = (counts[r.state] ?? 0) + 1;
  return counts;
}
