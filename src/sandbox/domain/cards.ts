/**
 * Cards (production's `/cards`) and their card transactions (production's `type: CARD` transactions), made
 * by the sandbox's card simulations (`/sandbox/cards/{id}/simulate/…`).
 *
 * A card is issued `PROCESSING` and provisioned before the next request (`CARD.STATE_CHANGE` to `ACTIVE`).
 * Its funding sources are internal accounts of its holder, in one currency, tried in order. An authorization
 * is decided and paid in one synchronous step, with no `await` between the checks (state, the card's
 * `maxSpendPerTransaction`, the funds) and the debit: two authorizations racing for one balance cannot both
 * pass. A declined authorization makes no card transaction and moves nothing, as in production, where a
 * decline never becomes a transaction.
 *
 * Money follows each transaction's `direction`: a DEBIT transaction pulls from its funding source and a
 * CREDIT one pushes to it; releases and returns move the other way. The reveal URL is minted per call and
 * never kept.
 * @module
 */
import type {
  Card,
  CardCreateParams,
  CardMerchant,
  CardTransaction,
  CardUpdateParams,
  SandboxCardAuthorizationAdviceParams,
  SandboxCardAuthorizationParams,
  SandboxCardClearingParams,
  SandboxCardReturnParams,
} from '../../generated/types';
import { moveBalance } from './accounts';
import { iso } from './clock';
import { now, nowIso, type Ctx } from './context';
import { SandboxError, invalidInput, invalidTransition, notFound } from './errors';
import { canonicalAccountId } from './payments';
import type { CardRec, CardTransactionRec, InternalAccountRec } from './state';

export type { CardRec, CardTransactionRec } from './state';

/** How long after issue a card is provisioned: 0, so it is `ACTIVE` from the next request on. */
export const PROVISION_MS = 0;
/** How long a delayed pull (descriptor suffix `005`) stays pending. */
export const DELAYED_PULL_MS = 30_000;
/** How long a reveal URL loads. */
export const REVEAL_TTL_MS = 5 * 60_000;

/**
 * Outcomes chosen by the last three characters of `merchant.descriptor` (production's table): `002`
 * declined for insufficient funds, `003` declined as a paused card, `005` the pull confirmed 30 s later,
 * `006` the pull made and its confirmation failed (`EXCEPTION`).
 */
export const CARD_MAGIC = { insufficientFunds: '002', paused: '003', delayedPull: '005', confirmationFails: '006' } as const;

/** Why the sandbox declined an authorization (kept nowhere: a decline makes no transaction). */
export type Decline = 'CARD_PAUSED' | 'CARD_NOT_ACTIVE' | 'SPEND_LIMIT_EXCEEDED' | 'INSUFFICIENT_FUNDS';

/** What a simulation did: the token it answers, and the card transaction it made or changed (none when declined). */
export interface SimulationOutcome {
  issuerTransactionToken: string;
  transaction?: CardTransaction;
  declined?: Decline;
}

/** An issuer transaction token, shaped as production's (a UUID). */
function issuerToken(ctx: Ctx): string {
  const r = ctx.random;
  return `${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}`;
}

/** A card by id, or 404 `CARD_NOT_FOUND`. */
export function findCard(ctx: Ctx, id: string): CardRec {
  const rec = ctx.world.cards.get(id);
  if (!rec) throw notFound('CARD_NOT_FOUND', 'Card', id);
  return rec;
}

/** A card transaction of `card`, or 404 `CARD_TRANSACTION_NOT_FOUND` (another card's too: the path names the card). */
function findCardTransaction(ctx: Ctx, card: CardRec, id: string): CardTransactionRec {
  const rec = ctx.world.cardTransactions.get(id);
  if (!rec || rec.data.cardId !== card.data.id) throw notFound('CARD_TRANSACTION_NOT_FOUND', 'Card transaction', id);
  return rec;
}

/**
 * The internal accounts `ids` name, each the cardholder's and all in one currency (the card's, when given);
 * else 400 `FUNDING_SOURCE_INELIGIBLE` naming the entry.
 */
function fundingAccounts(ctx: Ctx, cardholderId: string, ids: readonly string[], currency?: string): InternalAccountRec[] {
  if (ids.length === 0) throw invalidInput('fundingSources', 'fundingSources must name at least one internal account of the cardholder.');
  let want = currency;
  return ids.map((raw, i) => {
    const field = `fundingSources[${i}]`;
    const account = ctx.world.internalAccounts.get(canonicalAccountId(raw));
    const refuse = (why: string) => new SandboxError(400, 'FUNDING_SOURCE_INELIGIBLE', `${raw} cannot fund the card: ${why}.`, { field, id: raw });
    if (!account) throw refuse('there is no such internal account');
    if (account.data.customerId !== cardholderId) throw refuse(`it is not an account of the cardholder ${cardholderId}`);
    want ??= account.currency;
    if (account.currency !== want) throw refuse(`it holds ${account.currency}, the card transacts in ${want}`);
    return account;
  });
}

/** Sends CARD.STATE_CHANGE with the whole card. */
function stateChanged(ctx: Ctx, card: CardRec): void {
  ctx.webhooks.emit('CARD.STATE_CHANGE', card.data);
}

/** Moves a card from PROCESSING to ACTIVE (the issuer's provisioning) and tells the platform. */
function provision(ctx: Ctx, card: CardRec): void {
  if (card.data.state !== 'PROCESSING') return;
  card.data = { ...card.data, state: 'ACTIVE', updatedAt: nowIso(ctx) };
  stateChanged(ctx, card);
}

function scheduleProvisioning(ctx: Ctx, card: CardRec): void {
  const world = ctx.world;
  ctx.scheduler.at(now(ctx) + PROVISION_MS, () => {
    if (ctx.world === world) provision(ctx, card);
  });
}

/**
 * Issues a card: the cardholder's KYC must be APPROVED (400 `CARDHOLDER_KYC_NOT_APPROVED`), its funding
 * sources theirs and in one currency. Answers it `PROCESSING`; it is `ACTIVE` from the next request on.
 */
export function issueCard(ctx: Ctx, body: CardCreateParams): Card {
  const customer = ctx.world.customers.get(body.cardholderId);
  if (!customer || customer.data.isDeleted) throw notFound('CUSTOMER_NOT_FOUND', 'Customer', body.cardholderId);
  if (customer.data.kycStatus !== 'APPROVED') {
    throw new SandboxError(
      400,
      'CARDHOLDER_KYC_NOT_APPROVED',
      `Customer ${body.cardholderId} has KYC status ${customer.data.kycStatus}; a card needs APPROVED.`,
      {
        field: 'cardholderId',
        kycStatus: customer.data.kycStatus,
      },
    );
  }
  if (body.platformCardId !== undefined && [...ctx.world.cards.values()].some((c) => c.data.platformCardId === body.platformCardId)) {
    throw invalidInput('platformCardId', `platformCardId ${body.platformCardId} is already the id of another card.`);
  }
  const accounts = fundingAccounts(ctx, body.cardholderId, body.fundingSources);
  const { id, seq } = ctx.ids.next('Card');
  const at = nowIso(ctx);
  const year = new Date(now(ctx)).getUTCFullYear();
  const digits = String(ctx.random.int(10_000)).padStart(4, '0');
  // The 3-D Secure password is the issuer's: production forwards it and keeps no copy, the sandbox drops it.
  const data: Card = {
    id,
    cardholderId: body.cardholderId,
    platformCardId: body.platformCardId ?? `card_${ctx.random.hex(12)}`,
    state: 'PROCESSING',
    stateReason: null,
    brand: 'VISA',
    form: body.form,
    last4: digits,
    expMonth: 1 + ctx.random.int(12),
    expYear: year + 3,
    fundingSources: [...body.fundingSources],
    maxSpendPerTransaction: body.maxSpendPerTransaction ?? null,
    currency: accounts[0]!.currency,
    processorRef: `card_${ctx.random.hex(8)}`,
    issuerRef: `issuer_card_${ctx.random.hex(8)}`,
    createdAt: at,
    updatedAt: at,
  };
  const rec: CardRec = { seq, createdMs: now(ctx), data };
  ctx.world.cards.set(id, rec);
  scheduleProvisioning(ctx, rec);
  return structuredClone(data);
}

/** The card states `PATCH /cards/{id}` may move between: ACTIVE ⇄ FROZEN, ACTIVE | FROZEN → CLOSED. */
const MOVES: Record<string, readonly string[]> = { ACTIVE: ['FROZEN', 'CLOSED'], FROZEN: ['ACTIVE', 'CLOSED'] };

/**
 * Updates a card's state, funding sources and limit (production's rules and codes). Sends CARD.STATE_CHANGE
 * when the state changed and CARD.FUNDING_SOURCE_CHANGE when the funding sources were replaced.
 */
export function updateCard(ctx: Ctx, id: string, body: CardUpdateParams): Card {
  const card = findCard(ctx, id);
  const { state, fundingSources } = body;
  const limitGiven = body.maxSpendPerTransaction !== undefined;
  if (state === undefined && fundingSources === undefined && !limitGiven) {
    throw invalidInput('state', 'Name at least one of state, fundingSources and maxSpendPerTransaction.');
  }
  if (state === 'CLOSED' && (fundingSources !== undefined || limitGiven)) {
    throw invalidInput(fundingSources !== undefined ? 'fundingSources' : 'maxSpendPerTransaction', 'A card being closed takes no other change.');
  }
  const from = card.data.state;
  if (from === 'CLOSED') {
    if (state === 'CLOSED') throw new SandboxError(409, 'CARD_ALREADY_CLOSED', `Card ${id} is already CLOSED.`, { id });
    throw new SandboxError(409, 'CARD_NOT_MUTABLE', `Card ${id} is CLOSED and cannot change.`, { id });
  }
  const moves = state !== undefined && state !== from;
  if (moves && !(MOVES[from] ?? []).includes(state)) throw invalidTransition('Card', id, from, `moved to ${state}`);
  const accounts = fundingSources === undefined ? undefined : fundingAccounts(ctx, card.data.cardholderId, fundingSources, card.data.currency);
  const next: Card = { ...card.data, updatedAt: nowIso(ctx) };
  if (moves) {
    next.state = state;
    next.stateReason = state === 'CLOSED' ? 'CLOSED_BY_PLATFORM' : null;
  }
  if (accounts) next.fundingSources = [...fundingSources!];
  if (limitGiven) next.maxSpendPerTransaction = body.maxSpendPerTransaction ?? null;
  card.data = next;
  if (moves) stateChanged(ctx, card);
  if (accounts) ctx.webhooks.emit('CARD.FUNDING_SOURCE_CHANGE', card.data);
  return structuredClone(card.data);
}

/**
 * Mints a reveal URL: a fresh random token each call, kept nowhere in the world (a state export or the
 * request log cannot hold it), valid {@link REVEAL_TTL_MS}.
 */
export function revealCard(ctx: Ctx, id: string): { panEmbedUrl: string; expiresAt: string } {
  const card = findCard(ctx, id);
  const token = ctx.random.hex(48);
  return {
    panEmbedUrl: `https://embed.sandbox.crossborder.invalid/iframe/${encodeURIComponent(card.data.id)}?t=${token}`,
    expiresAt: iso(now(ctx) + REVEAL_TTL_MS),
  };
}

/** Money in the transaction's direction: a DEBIT pulls `amount` from the account, a CREDIT pushes it. */
function push(ctx: Ctx, tx: CardTransaction, account: InternalAccountRec, amount: number): void {
  if (amount !== 0) moveBalance(ctx, account, tx.direction === 'CREDIT' ? amount : -amount);
}

/** True when `amount` more in the transaction's direction can be moved (a pull needs the balance). */
function covers(tx: Pick<CardTransaction, 'direction'>, account: InternalAccountRec, amount: number): boolean {
  return tx.direction === 'CREDIT' || amount <= 0 || account.data.balance.amount >= amount;
}

function accountOf(ctx: Ctx, tx: CardTransaction): InternalAccountRec {
  const account = ctx.world.internalAccounts.get(canonicalAccountId(tx.accountId));
  // The funding source of a transaction is never removed (internal accounts are not deleted).
  if (!account) throw new SandboxError(500, 'INTERNAL_ERROR', `The funding source ${tx.accountId} of ${tx.id} is gone.`);
  return account;
}

const money = (amount: number, currency: string) => ({ amount, currency: { code: currency } });

/** Sends the CARD_TRANSACTION event of the transaction's status. */
function announce(ctx: Ctx, tx: CardTransactionRec): void {
  ctx.webhooks.emit(`CARD_TRANSACTION.${tx.data.status}`, tx.data);
}

/** The kinds of authorization the simulations make. */
export type AuthorizationKind =
  'authorization' | 'credit_authorization' | 'financial_authorization' | 'financial_credit_authorization' | 'credit_authorization_advice';

/**
 * Simulates an authorization of `kind` on a card, decided and paid in one step: declined (nothing moves, no
 * transaction) when the card is not ACTIVE or the descriptor says so, a debit above `maxSpendPerTransaction`
 * or one no funding source covers; else the first funding source that covers it pays (a credit goes to the
 * first one) and the card transaction is made: AUTHORIZED, or SETTLED for the single-message (financial) kinds.
 */
export function authorize(ctx: Ctx, cardId: string, kind: AuthorizationKind, body: SandboxCardAuthorizationParams): SimulationOutcome {
  const card = findCard(ctx, cardId);
  const issuerTransactionToken = issuerToken(ctx);
  const code = body.currency.code;
  if (code !== undefined && code !== card.data.currency) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `Card ${cardId} transacts in ${card.data.currency}; the simulation is in ${code}.`, {
      field: 'currency.code',
    });
  }
  const credit = kind === 'credit_authorization' || kind === 'financial_credit_authorization' || kind === 'credit_authorization_advice';
  const suffix = body.merchant.descriptor.slice(-3);
  const direction = credit ? 'CREDIT' : 'DEBIT';
  const decline = (declined: Decline): SimulationOutcome => ({ issuerTransactionToken, declined });
  if (card.data.state === 'FROZEN' || suffix === CARD_MAGIC.paused) return decline('CARD_PAUSED');
  if (card.data.state !== 'ACTIVE') return decline('CARD_NOT_ACTIVE');
  const limit = card.data.maxSpendPerTransaction;
  if (!credit && limit !== null && limit !== undefined && body.amount > limit) return decline('SPEND_LIMIT_EXCEEDED');
  if (suffix === CARD_MAGIC.insufficientFunds) return decline('INSUFFICIENT_FUNDS');
  const sources = card.data.fundingSources.map((id) => ctx.world.internalAccounts.get(canonicalAccountId(id))).filter((a) => a !== undefined);
  const account = sources.find((a) => covers({ direction }, a, body.amount));
  if (!account) return decline('INSUFFICIENT_FUNDS');
  const customer = ctx.world.customers.get(card.data.cardholderId)!.data;
  const { id, seq } = ctx.ids.next('CardTransaction');
  const at = nowIso(ctx);
  const financial = kind === 'financial_authorization' || kind === 'financial_credit_authorization';
  const delayed = suffix === CARD_MAGIC.delayedPull;
  const data: CardTransaction = {
    type: 'CARD',
    id,
    cardId: card.data.id,
    customerId: customer.id,
    platformCustomerId: customer.platformCustomerId ?? customer.id,
    issuerTransactionToken,
    status: suffix === CARD_MAGIC.confirmationFails ? 'EXCEPTION' : financial ? 'SETTLED' : 'AUTHORIZED',
    direction,
    merchant: structuredClone<CardMerchant>(body.merchant),
    authorizedAmount: money(body.amount, card.data.currency!),
    accountId: account.data.id,
    pullSummary: { count: 1, totalAmount: body.amount, pendingCount: delayed ? 1 : 0 },
    refundSummary: { count: 0, totalAmount: 0 },
    settlementSummary: financial ? { count: 1, totalAmount: body.amount } : { count: 0, totalAmount: 0 },
    ...(financial ? { settledAmount: money(body.amount, card.data.currency!) } : {}),
    authorizedAt: at,
    lastEventAt: at,
    createdAt: at,
    updatedAt: at,
  };
  const rec: CardTransactionRec = { seq, createdMs: now(ctx), data, ...(delayed ? { pullConfirmMs: now(ctx) + DELAYED_PULL_MS } : {}) };
  push(ctx, data, account, body.amount);
  ctx.world.cardTransactions.set(id, rec);
  if (delayed) schedulePullConfirmation(ctx, rec);
  announce(ctx, rec);
  return { issuerTransactionToken, transaction: structuredClone(data) };
}

/** A balance inquiry: an authorization of 0 that moves nothing and makes no transaction; declined unless ACTIVE. */
export function balanceInquiry(ctx: Ctx, cardId: string, merchant: CardMerchant): SimulationOutcome {
  const card = findCard(ctx, cardId);
  const issuerTransactionToken = issuerToken(ctx);
  if (card.data.state === 'FROZEN' || merchant.descriptor.endsWith(CARD_MAGIC.paused)) return { issuerTransactionToken, declined: 'CARD_PAUSED' };
  if (card.data.state !== 'ACTIVE') return { issuerTransactionToken, declined: 'CARD_NOT_ACTIVE' };
  return { issuerTransactionToken };
}

function schedulePullConfirmation(ctx: Ctx, tx: CardTransactionRec): void {
  const world = ctx.world;
  ctx.scheduler.at(tx.pullConfirmMs!, () => {
    if (ctx.world !== world || tx.pullConfirmMs === undefined) return;
    delete tx.pullConfirmMs;
    const pulls = tx.data.pullSummary!;
    tx.data = { ...tx.data, pullSummary: { ...pulls, pendingCount: 0 }, lastEventAt: nowIso(ctx), updatedAt: nowIso(ctx) };
  });
}

/** One event on a transaction: its changes, stamped, and its webhook. */
function record(ctx: Ctx, tx: CardTransactionRec, change: Partial<CardTransaction>): SimulationOutcome {
  const at = nowIso(ctx);
  tx.data = { ...tx.data, ...change, lastEventAt: at, updatedAt: at };
  announce(ctx, tx);
  return { issuerTransactionToken: tx.data.issuerTransactionToken ?? issuerToken(ctx), transaction: structuredClone(tx.data) };
}

function requireStatus(tx: CardTransactionRec, allowed: readonly string[], action: string): void {
  if (!allowed.includes(tx.data.status)) throw invalidTransition('Card transaction', tx.data.id, tx.data.status, action);
}

const settled = (tx: CardTransaction) => tx.settledAmount?.amount ?? 0;
const refunded = (tx: CardTransaction) => tx.refundedAmount?.amount ?? 0;

/** A pull made after the fact (a clearing or advice above the hold): counted, or the transaction's EXCEPTION. */
function pullAfter(ctx: Ctx, tx: CardTransactionRec, amount: number): boolean {
  const account = accountOf(ctx, tx.data);
  if (!covers(tx.data, account, amount)) return false;
  push(ctx, tx.data, account, amount);
  const pulls = tx.data.pullSummary ?? { count: 0, totalAmount: 0 };
  tx.data = { ...tx.data, pullSummary: { ...pulls, count: pulls.count + 1, totalAmount: pulls.totalAmount + amount } };
  return true;
}

/**
 * A clearing: `amount` below what is still held settles part (PARTIALLY_SETTLED, the rest stays held); at
 * or above it settles all (SETTLED), pulling the excess after the fact (EXCEPTION when the funding source
 * no longer covers it). 0 is the authorization's expiry: what is still held goes back (SETTLED).
 */
export function clear(ctx: Ctx, cardId: string, body: SandboxCardClearingParams): SimulationOutcome {
  const tx = findCardTransaction(ctx, findCard(ctx, cardId), body.cardTransactionId);
  requireStatus(tx, ['AUTHORIZED', 'PARTIALLY_SETTLED'], 'cleared');
  const held = tx.data.authorizedAmount.amount - settled(tx.data);
  const currency = tx.data.authorizedAmount.currency.code!;
  const clearings = tx.data.settlementSummary ?? { count: 0, totalAmount: 0 };
  if (body.amount === 0) {
    push(ctx, tx.data, accountOf(ctx, tx.data), -held);
    return record(ctx, tx, { status: 'SETTLED', settledAmount: money(settled(tx.data), currency) });
  }
  const total = settled(tx.data) + body.amount;
  const summary = { count: clearings.count + 1, totalAmount: clearings.totalAmount + body.amount };
  if (body.amount < held) return record(ctx, tx, { status: 'PARTIALLY_SETTLED', settledAmount: money(total, currency), settlementSummary: summary });
  const paid = pullAfter(ctx, tx, body.amount - held);
  return record(ctx, tx, { status: paid ? 'SETTLED' : 'EXCEPTION', settledAmount: money(total, currency), settlementSummary: summary });
}

/** A merchant's return: at most what is settled and not returned goes back; all of it makes the transaction REFUNDED. */
export function giveBack(ctx: Ctx, cardId: string, body: SandboxCardReturnParams): SimulationOutcome {
  const tx = findCardTransaction(ctx, findCard(ctx, cardId), body.cardTransactionId);
  const returnable = settled(tx.data) - refunded(tx.data);
  if (body.amount > returnable) {
    throw new SandboxError(400, 'INVALID_AMOUNT', `${tx.data.id} has ${returnable} settled and not returned; the return is ${body.amount}.`, {
      field: 'amount',
      max: returnable,
    });
  }
  push(ctx, tx.data, accountOf(ctx, tx.data), -body.amount);
  const refunds = tx.data.refundSummary ?? { count: 0, totalAmount: 0 };
  const total = refunded(tx.data) + body.amount;
  return record(ctx, tx, {
    status: total === settled(tx.data) ? 'REFUNDED' : tx.data.status,
    refundedAmount: money(total, tx.data.authorizedAmount.currency.code!),
    refundSummary: { count: refunds.count + 1, totalAmount: refunds.totalAmount + body.amount },
  });
}

/** A return reversal on a REFUNDED transaction: what was returned is pulled again (EXCEPTION when it cannot be), SETTLED again. */
export function reverseReturn(ctx: Ctx, cardId: string, cardTransactionId: string): SimulationOutcome {
  const tx = findCardTransaction(ctx, findCard(ctx, cardId), cardTransactionId);
  requireStatus(tx, ['REFUNDED'], 'return-reversed');
  const paid = pullAfter(ctx, tx, refunded(tx.data));
  return record(ctx, tx, { status: paid ? 'SETTLED' : 'EXCEPTION', refundedAmount: money(0, tx.data.authorizedAmount.currency.code!) });
}

/**
 * An authorization advice: the open authorization is re-sized to `amount` in total. The network already
 * authorized it, so it is not declined: the difference is pulled (EXCEPTION when the funding source cannot
 * cover it) or given back. A total below what already settled is 400.
 */
export function advise(ctx: Ctx, cardId: string, body: SandboxCardAuthorizationAdviceParams): SimulationOutcome {
  const tx = findCardTransaction(ctx, findCard(ctx, cardId), body.cardTransactionId);
  requireStatus(tx, ['AUTHORIZED', 'PARTIALLY_SETTLED'], 're-sized');
  if (body.amount < settled(tx.data)) {
    throw invalidInput('amount', `${tx.data.id} has ${settled(tx.data)} settled already; the new total cannot be below it.`, { min: settled(tx.data) });
  }
  const diff = body.amount - tx.data.authorizedAmount.amount;
  const authorizedAmount = money(body.amount, tx.data.authorizedAmount.currency.code!);
  if (diff < 0) push(ctx, tx.data, accountOf(ctx, tx.data), diff);
  else if (diff > 0 && !pullAfter(ctx, tx, diff)) return record(ctx, tx, { status: 'EXCEPTION', authorizedAmount });
  return record(ctx, tx, { authorizedAmount });
}

/** After a state import: provisions the cards still PROCESSING and confirms the delayed pulls, as if the sandbox had kept running. */
export function resumeCards(ctx: Ctx): void {
  for (const card of ctx.world.cards.values()) if (card.data.state === 'PROCESSING') scheduleProvisioning(ctx, card);
  for (const tx of ctx.world.cardTransactions.values()) if (tx.pullConfirmMs !== undefined) schedulePullConfirmation(ctx, tx);
}
