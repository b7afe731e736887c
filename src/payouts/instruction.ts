/**
 * What a payout is before it is driven: the checks an instruction must pass to be sent, the body of its
 * quote (the same bytes on every replay), the journal keys of rejected inputs, and the small helpers the
 * per-payout driver (./driver) and the batch runner share (the error the journal keeps, a reason in one
 * line, the time in ISO form, the empty counts). Pure: no request, no journal, no clock beyond `Date.now`.
 * @module
 */
import { APIConnectionError, APIError, ValidationError } from '../core/errors';
import type { QuoteCreateParams } from '../types';
import { loneSurrogateAt } from './keys';
import { markedDescription } from './lookup';
import { PAYOUT_STATES, type PayoutCounts, type PayoutError, type PayoutRecord } from './types';

/** Transaction statuses that end a payout, and how. */
export const FINAL_TRANSACTION: Record<string, 'completed' | 'failed'> = {
  COMPLETED: 'completed',
  FAILED: 'failed',
  REJECTED: 'failed',
  REFUNDED: 'failed',
  EXPIRED: 'failed',
};

const REQUIRED_FIELDS = ['reference', 'source', 'destination', 'amount'] as const;

/** The largest amount accepted (production's document bounds amounts below 2^53; minor units). */
export const MAX_AMOUNT = 9_000_000_000_000_000;

/** Where the journal keys of rejected inputs start: a space no payable reference can take (see instructionProblem). */
export const REJECTED_KEY_PREFIX = '\u0000rejected:';

/**
 * The journal key of a rejected input: by its line when it came from a file, else by its reference,
 * else by its place in the input. Never a payable reference's (those cannot start with the prefix).
 */
export function rejectedKey(input: { line?: number | undefined; reference?: string | undefined }, ordinal: number): string {
  if (typeof input.line === 'number' && Number.isSafeInteger(input.line)) return `${REJECTED_KEY_PREFIX}line:${input.line}`;
  if (typeof input.reference === 'string') return `${REJECTED_KEY_PREFIX}reference:${input.reference}`;
  return `${REJECTED_KEY_PREFIX}item:${ordinal}`;
}

/** Why an instruction cannot be sent at all (the fields the runner must have to build a request). */
export function instructionProblem(instruction: unknown): string | undefined {
  if (typeof instruction !== 'object' || instruction === null) return 'instruction: expected an object';
  const i = instruction as Record<string, unknown>;
  for (const field of REQUIRED_FIELDS) if (i[field] === undefined || i[field] === '') return `${field}: required`;
  if (typeof i.reference !== 'string') return 'reference: expected a string';
  const lone = loneSurrogateAt(i.reference);
  // Its keys and fingerprint hash UTF-8, where every lone surrogate is the same U+FFFD: two such references would be one payout.
  if (lone >= 0) return `reference: not well-formed Unicode (a lone UTF-16 surrogate at index ${lone})`;
  if (i.reference.startsWith(REJECTED_KEY_PREFIX)) return 'reference: may not start with U+0000 "rejected:" (the journal keeps rejected rows there)';
  if (typeof i.amount !== 'number' || !Number.isSafeInteger(i.amount)) return 'amount: expected a whole number of minor units';
  if (i.amount <= 0) return `amount: expected more than 0, got ${i.amount}`;
  if (i.amount > MAX_AMOUNT) return `amount: expected at most ${MAX_AMOUNT}, got ${i.amount}`;
  const source = i.source as Record<string, unknown>;
  if (typeof source !== 'object' || source === null || (typeof source.accountId !== 'string' && source.sourceType !== 'REALTIME_FUNDING')) {
    return 'source: expected { accountId } or { sourceType: "REALTIME_FUNDING", currency }';
  }
  // An empty id is no id (as an empty top-level field above): never sent, for the service's 404 naming nothing.
  if (source.accountId === '') return 'source.accountId: required';
  const destination = i.destination as Record<string, unknown>;
  if (typeof destination !== 'object' || destination === null || (typeof destination.accountId !== 'string' && typeof destination.umaAddress !== 'string')) {
    return 'destination: expected { accountId } or { umaAddress }';
  }
  if (destination.accountId === '') return 'destination.accountId: required';
  if (destination.umaAddress === '') return 'destination.umaAddress: required';
  if (i.lockedCurrencySide !== undefined && i.lockedCurrencySide !== 'SENDING' && i.lockedCurrencySide !== 'RECEIVING') {
    return 'lockedCurrencySide: expected SENDING or RECEIVING';
  }
  return undefined;
}

/** The body of the quote of `record` (the same bytes on every replay: built from the journaled instruction and lookup). */
export function quoteBody(record: PayoutRecord, execution: 'immediate' | 'separate'): QuoteCreateParams {
  const i = record.instruction;
  // Built field by field in a fixed order, undefined fields left out (as JSON would drop them): the same
  // bytes as every version before, with no intermediate objects.
  let source: Record<string, unknown>;
  const realtime = 'sourceType' in i.source;
  if ('sourceType' in i.source) {
    source = { sourceType: 'REALTIME_FUNDING' };
    if (i.source.currency !== undefined) source.currency = i.source.currency;
    if (i.source.customerId !== undefined) source.customerId = i.source.customerId;
    if (i.source.cryptoNetwork !== undefined) source.cryptoNetwork = i.source.cryptoNetwork;
  } else {
    source = { sourceType: 'ACCOUNT' };
    if (i.source.accountId !== undefined) source.accountId = i.source.accountId;
    if (i.source.currency !== undefined) source.currency = i.source.currency;
  }
  let destination: Record<string, unknown>;
  if ('umaAddress' in i.destination) {
    destination = { destinationType: 'UMA_ADDRESS' };
    if (i.destination.umaAddress !== undefined) destination.umaAddress = i.destination.umaAddress;
    if (i.destination.currency !== undefined) destination.currency = i.destination.currency;
  } else {
    destination = { destinationType: 'ACCOUNT' };
    if (i.destination.accountId !== undefined) destination.accountId = i.destination.accountId;
    if (i.destination.currency !== undefined) destination.currency = i.destination.currency;
    if (i.destination.paymentRail !== undefined) destination.paymentRail = i.destination.paymentRail;
  }
  const body = {
    source: source as QuoteCreateParams['source'],
    destination: destination as QuoteCreateParams['destination'],
    lockedCurrencySide: i.lockedCurrencySide ?? 'RECEIVING',
    lockedCurrencyAmount: i.amount,
  } as QuoteCreateParams & Record<string, unknown>;
  if (!realtime && execution === 'immediate') body.immediatelyExecute = true;
  if (record.lookupId !== undefined) body.lookupId = record.lookupId;
  // The marker (records journaled since it exists) lets findPayout find the payout from its batch and reference.
  if (record.marker !== undefined) body.description = markedDescription(i.description, record.marker);
  else if (i.description !== undefined) body.description = i.description;
  if (i.purposeOfPayment !== undefined) body.purposeOfPayment = i.purposeOfPayment;
  // The caller's own object: made plain JSON, as the journal would give it back on a rerun.
  if (i.senderCustomerInfo !== undefined) body.senderCustomerInfo = JSON.parse(JSON.stringify(i.senderCustomerInfo)) as QuoteCreateParams['senderCustomerInfo'];
  return body;
}

/** The error the journal keeps. */
export function errorOf(error: unknown): PayoutError {
  if (error instanceof ValidationError) {
    return { code: 'VALIDATION_ERROR', message: error.message };
  }
  if (error instanceof APIError) {
    return { code: error.code, message: error.message, status: error.status, ...(error.requestId ? { requestId: error.requestId } : {}) };
  }
  if (error instanceof APIConnectionError) {
    return { code: 'NO_ANSWER', message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) };
  }
  return { code: 'ERROR', message: error instanceof Error ? error.message : String(error) };
}

/** Why a reference ended failed or needs attention, in one line. */
export const reasonOf = (r: PayoutRecord): string =>
  r.lastError ? `${r.lastError.code}: ${r.lastError.message}` : (r.failureReason ?? r.transactionStatus ?? 'unknown');

/**
 * The time now in ISO form, as `new Date().toISOString()` writes it (every journal write stamps its
 * record, ~3 a payout): the text up to the second is made once a second, the milliseconds from a table.
 */
let isoSecond = Number.NaN;
let isoPrefix = '';
const MILLIS = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(3, '0')}Z`);
export function isoNow(ms = Date.now()): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    const text = new Date(ms).toISOString();
    // Years 0-9999 only ("YYYY-MM-DDTHH:MM:SS.mmmZ"): others (±YYYYYY) are written whole.
    if (text.length !== 24) return text;
    isoSecond = second;
    isoPrefix = text.slice(0, 20);
  }
  return isoPrefix + MILLIS[ms - second * 1000]!;
}

/** A random id per run() (journaled with the records it admits). */
export const randomRunId = (): string => Math.random().toString(36).slice(2, 10) + Date.now().toString(36);

export const emptyCounts = (): PayoutCounts => Object.fromEntries(PAYOUT_STATES.map((s) => [s, 0])) as PayoutCounts;
