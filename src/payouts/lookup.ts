/**
 * Finding a batch's payout on the service from its batch id and reference alone. The runner puts a
 * marker derived from the two into the quote's `description` (after the user's own description, if
 * any), and the service keeps a quote's description on its transaction (production's
 * `Transaction.description`). {@link findPayout} lists the outgoing transactions of the time the payout
 * could have been made and matches the marker.
 *
 * The runner uses it for a payout whose outcome is unknown once its Idempotency-Key may have been
 * forgotten (past the service's 24-hour replay window): re-sending it blind could pay it twice.
 * @module
 */
import { APIUserAbortError, AuthenticationError, PermissionDeniedError } from '../core/errors';
import type { Transaction } from '../types';
import { sha256Hex } from './keys';

/** A page of transactions, as `cb.transactions.list(params)` resolves. */
export interface PayoutTransactionPage {
  data: Transaction[];
  hasMore?: boolean | undefined;
  nextCursor?: string | undefined;
}

/** The list filters the lookup sends (a subset of `cb.transactions.list`'s). */
export interface PayoutTransactionListParams {
  cursor?: string | undefined;
  limit?: number | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  senderAccountIdentifier?: string | undefined;
  status?: string | undefined;
  type?: 'INCOMING' | 'OUTGOING' | undefined;
}

/** What {@link findPayout} calls: a `Crossborder` client, or anything with `transactions.list`. */
export interface PayoutLookupClient {
  transactions: {
    list(
      params: PayoutTransactionListParams,
      options?: { signal?: AbortSignal | undefined; maxRetries?: number | undefined },
    ): PromiseLike<PayoutTransactionPage>;
  };
}

const MARKER = /\s?\[cb-payout:[0-9a-f]{32}\]$/;

/**
 * The marker of payout `reference` of batch `batchId`: `[cb-payout:` and 32 hex digits of SHA-256 over
 * the two (length-prefixed), `]`. The same for any run, machine or version; it names neither.
 */
export function payoutMarker(batchId: string, reference: string): string {
  const text = `25:crossborder-payout-marker|${batchId.length}:${batchId}|${reference.length}:${reference}`;
  return `[cb-payout:${sha256Hex(text).slice(0, 32)}]`;
}

/** The description sent with the quote: the user's own, a space, the marker (the marker alone without one). */
export function markedDescription(description: string | undefined, marker: string): string {
  return description === undefined || description === '' ? marker : `${description} ${marker}`;
}

/** A description with the runner's marker taken off its end: the user's own (undefined when there was none). */
export function userDescription(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const stripped = description.replace(MARKER, '');
  return stripped === '' && stripped !== description ? undefined : stripped;
}

/** Options of {@link findPayout}. */
export interface FindPayoutOptions {
  batchId: string;
  reference: string;
  /** The payout's source account (`InternalAccount:…`): only its outgoing transactions are listed. Recommended. */
  senderAccountIdentifier?: string | undefined;
  /** Only transactions created at or after this instant (default: 30 days ago). Take it before the payout's first send, with slack for clocks. */
  startDate?: Date | string | undefined;
  /** Only transactions created at or before this instant (default: none). */
  endDate?: Date | string | undefined;
  /** Pages read at most before the answer is `unknown` (default 200 pages of `pageSize`). */
  maxPages?: number | undefined;
  /** Transactions per page (default 100). */
  pageSize?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * The answer: `found` (its transaction; `transactions` holds every match: more than one means it was
 * paid more than once), `not_found` (every page of the period was read and none carries the marker: the
 * service says it did not move), or `unknown` (the service could not be read to the end: not a proof).
 */
export type FindPayoutResult =
  | { outcome: 'found'; transaction: Transaction; transactions: Transaction[] }
  | { outcome: 'not_found'; pages: number }
  | { outcome: 'unknown'; reason: string };

const iso = (value: Date | string | undefined): string | undefined => (value === undefined ? undefined : value instanceof Date ? value.toISOString() : value);

/**
 * Looks up payout `reference` of batch `batchId` on the service (reads only). Credentials refused and an
 * abort throw; any other failure is an `unknown` answer with its reason.
 * @example
 * ```ts
 * import { Crossborder } from 'crossborder-sdk';
 * import { findPayout } from 'crossborder-sdk/payouts';
 *
 * const cb = new Crossborder();
 * const found = await findPayout(cb, { batchId: 'payroll-2026-11', reference: 'inv-1042', senderAccountIdentifier: accountId });
 * if (found.outcome === 'found') console.log(found.transaction.id, found.transaction.status);
 * ```
 */
export async function findPayout(client: PayoutLookupClient, options: FindPayoutOptions): Promise<FindPayoutResult> {
  if (typeof options?.batchId !== 'string' || options.batchId === '') throw new TypeError('batchId: expected a non-empty string');
  if (typeof options.reference !== 'string' || options.reference === '') throw new TypeError('reference: expected a non-empty string');
  const marker = payoutMarker(options.batchId, options.reference);
  const maxPages = options.maxPages ?? 200;
  const params: PayoutTransactionListParams = {
    type: 'OUTGOING',
    limit: options.pageSize ?? 100,
    startDate: iso(options.startDate) ?? new Date(Date.now() - 30 * 86_400_000).toISOString(),
  };
  const endDate = iso(options.endDate);
  if (endDate !== undefined) params.endDate = endDate;
  if (options.senderAccountIdentifier !== undefined) params.senderAccountIdentifier = options.senderAccountIdentifier;
  const matches: Transaction[] = [];
  let cursor: string | undefined;
  for (let page = 1; page <= maxPages; page++) {
    let answer: PayoutTransactionPage;
    try {
      answer = await client.transactions.list(cursor === undefined ? params : { ...params, cursor }, { signal: options.signal });
    } catch (error) {
      if (error instanceof APIUserAbortError || error instanceof AuthenticationError || error instanceof PermissionDeniedError) throw error;
      return { outcome: 'unknown', reason: `the transactions could not be listed (page ${page}): ${error instanceof Error ? error.message : String(error)}` };
    }
    for (const t of answer.data ?? []) {
      const description = (t as { description?: unknown }).description;
      if (typeof description === 'string' && (description === marker || description.endsWith(` ${marker}`))) matches.push(t);
    }
    const next = answer.nextCursor;
    if (!answer.hasMore || next === undefined || next === '') {
      if (answer.hasMore && matches.length === 0) return { outcome: 'unknown', reason: `page ${page} says there is more but gives no cursor` };
      return matches.length > 0 ? { outcome: 'found', transaction: matches[0]!, transactions: matches } : { outcome: 'not_found', pages: page };
    }
    cursor = next;
  }
  if (matches.length > 0) return { outcome: 'found', transaction: matches[0]!, transactions: matches };
  return { outcome: 'unknown', reason: `more than ${maxPages} pages of transactions in the period: not all read` };
}

/**
 * The Idempotency-Key of `step` for the `n`th send of a payout under fresh keys (n ≥ 1), after a lookup
 * proved the service never moved it: `po2_` and 48 hex digits, never equal to a first key (`po1_`).
 */
export function resendKey(batchId: string, reference: string, step: 'create' | 'execute', n: number): string {
  const text = `25:crossborder-payout-resend|${batchId.length}:${batchId}|${reference.length}:${reference}|${step}|${n}`;
  return `po2_${sha256Hex(text).slice(0, 48)}`;
}
