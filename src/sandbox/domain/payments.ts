/**
 * The payment state machine: quote execution and settlement, transfer-in, incoming payments and
 * their approval. Work that happens "later" is scheduled on the sandbox clock.
 *
 * - Outgoing: quote PENDING → execute → PROCESSING (debit) → COMPLETED (credit the receiver) or
 *   FAILED (debit returned); an unexecuted quote turns EXPIRED at `expiresAt` (its transaction
 *   EXPIRED with QUOTE_EXPIRED).
 * - Transfer-in: PROCESSING → COMPLETED (credit) or FAILED.
 * - Incoming UMA payment: COMPLETED at once, or PENDING for approval → COMPLETED | REJECTED | FAILED.
 * - Transfer-out (same currency, no quote): PROCESSING (debit) → COMPLETED, or FAILED (debit returned).
 * - Cancel (a bank transfer in flight: transfer-out, a quote paid to a bank account, transfer-in):
 *   PROCESSING → FAILED with reason CANCELLED, the debit returned; anything settled is past cancelling.
 * - Sandbox send: the funds of a just-in-time quote arrive in its funding account and execute it.
 * @module
 */
import type { Customer, IncomingTransaction } from '../../generated/types';
import { accountTypeNamed, assertFunds, fitsUnderCap, moveBalance, primaryAccount } from './accounts';
import { iso } from './clock';
import { now, nowIso, type Ctx } from './context';
import { SandboxError, invalidInput, invalidTransition } from './errors';
import { recordExecution } from './faults';
import { internalAccountId } from './finders';
import type { FailureReason } from './magic';
import type { InternalAccountRec, QuoteRec, TransactionRec } from './state';
import type { ApprovalReply } from './webhooks';

/** Clock time between execution (or transfer-in) and settlement. */
export const SETTLEMENT_MS = 2_000;
/** How long a deferred (202) approval may wait for `/approve` or `/reject`. */
export const APPROVAL_WINDOW_MS = 5_000;

/** A reconciliation reference such as `UMA-8F3A1C`. */
export function newReference(ctx: Ctx, prefix: string): string {
  return `${prefix}-${ctx.random.pick('0123456789ABCDEF', 6)}`;
}

function touch(ctx: Ctx, tx: TransactionRec, status: TransactionRec['data']['status'], failureReason?: FailureReason): void {
  tx.data.status = status;
  tx.data.updatedAt = nowIso(ctx);
  if (failureReason) tx.data.failureReason = failureReason;
  recordStatus(tx, tx.data.updatedAt);
}

/** Appends the transaction's status to its timeline when it changed (for the inspector). */
export function recordStatus(tx: TransactionRec, at: string = tx.data.updatedAt ?? ''): TransactionRec {
  const timeline = (tx.timeline ??= []);
  if (timeline[timeline.length - 1]?.status !== tx.data.status) timeline.push({ status: tx.data.status, at });
  return tx;
}

/**
 * Why a sandbox payment failed when its credit would take a balance past the largest exact amount
 * (9,000,000,000,000,000, within 2^53): failure reasons are an open set (decisions.md).
 */
export const BALANCE_LIMIT_EXCEEDED = 'BALANCE_LIMIT_EXCEEDED' as FailureReason;

/**
 * Credits an internal account, checking the balance cap at every credit (other payments may have
 * settled since this one started), beside the refunds the account may still get. False when the
 * credit would pass it: nothing is changed. A refund always fits: its payment has left the in-flight
 * debits (its status is changed first), which kept its room.
 */
function credit(ctx: Ctx, target: { accountId: string; amount: number } | undefined): boolean {
  const account = target && ctx.world.internalAccounts.get(target.accountId);
  if (!account) return true;
  if (!fitsUnderCap(ctx, account, target.amount)) return false;
  moveBalance(ctx, account, target.amount);
  return true;
}

/** Schedules the expiry of a PENDING quote (and its transaction) at `expiresAt`. */
export function scheduleExpiry(ctx: Ctx, quote: QuoteRec): void {
  const world = ctx.world;
  ctx.scheduler.at(quote.expiresMs, () => {
    if (ctx.world !== world || quote.data.status !== 'PENDING') return;
    quote.data.status = 'EXPIRED';
    const tx = world.transactions.get(quote.data.transactionId);
    if (tx) touch(ctx, tx, 'EXPIRED', 'QUOTE_EXPIRED');
  });
}

/**
 * Executes a PENDING quote: debits the source, turns quote and transaction PROCESSING and schedules
 * settlement. 409 QUOTE_EXPIRED / INVALID_STATE_TRANSITION otherwise; 400 INVALID_AMOUNT when the
 * source balance is short.
 */
/** Refuses what cannot execute now (expired, not PENDING, not funded), before anything changes. */
export function assertExecutable(ctx: Ctx, quote: QuoteRec): void {
  assertPending(ctx, quote);
  const source = quote.debitAccountId ? ctx.world.internalAccounts.get(quote.debitAccountId) : undefined;
  if (source) assertFunds(source, quote.data.totalSendingAmount);
}

/** 409 QUOTE_EXPIRED or INVALID_STATE_TRANSITION unless the quote is PENDING and not past `expiresAt`. */
function assertPending(ctx: Ctx, quote: QuoteRec): void {
  if (quote.data.status === 'EXPIRED' || (quote.data.status === 'PENDING' && now(ctx) >= quote.expiresMs)) {
    throw new SandboxError(409, 'QUOTE_EXPIRED', `The quote expired at ${quote.data.expiresAt}; create a new quote.`, {
      id: quote.data.id,
      expiresAt: quote.data.expiresAt,
    });
  }
  if (quote.data.status !== 'PENDING') {
    throw new SandboxError(409, 'INVALID_STATE_TRANSITION', `Quote ${quote.data.id} is ${quote.data.status}; only a PENDING quote can be executed.`, {
      id: quote.data.id,
      status: quote.data.status,
    });
  }
}

/**
 * Just-in-time funding (a REALTIME_FUNDING quote): money arriving in `account` (the sandbox fund or
 * receive endpoints) executes its PENDING realtime quotes, oldest first, while the balance covers them.
 * An expired quote is left to its expiry; a quote the balance does not cover yet waits for more funds.
 */
export function fundRealtimeQuotes(ctx: Ctx, account: InternalAccountRec): void {
  const waiting = [...ctx.world.quotes.values()]
    .filter(
      (q) => q.data.status === 'PENDING' && q.data.source.sourceType === 'REALTIME_FUNDING' && q.debitAccountId === account.data.id && now(ctx) < q.expiresMs,
    )
    .sort((a, b) => a.seq - b.seq);
  for (const quote of waiting) {
    if (account.data.balance.amount >= quote.data.totalSendingAmount) execute(ctx, quote);
  }
}

export function execute(ctx: Ctx, quote: QuoteRec): void {
  assertExecutable(ctx, quote);
  const tx = ctx.world.transactions.get(quote.data.transactionId)!;
  const source = quote.debitAccountId ? ctx.world.internalAccounts.get(quote.debitAccountId) : undefined;
  if (source) {
    const amount = quote.data.totalSendingAmount;
    moveBalance(ctx, source, -amount);
    tx.debited = { accountId: source.data.id, amount };
  }
  quote.data.status = 'PROCESSING';
  touch(ctx, tx, 'PROCESSING');
  recordExecution(ctx, quote);
  tx.data.settledAt = iso(now(ctx) + SETTLEMENT_MS);
  ctx.webhooks.emit('OUTGOING_PAYMENT.PROCESSING', tx.data);
  if (quote.outcome === 'STUCK') return;
  const world = ctx.world;
  ctx.scheduler.at(now(ctx) + SETTLEMENT_MS, () => {
    if (ctx.world === world) settleOutgoing(ctx, quote, tx);
  });
}

/**
 * An outgoing payment (of a quote, or a transfer-out) fails for `reason`: the sender is refunded and
 * OUTGOING_PAYMENT.FAILED sent. What was debited comes back at once, so the transaction carries its
 * `refund` (production's `Refund`) as completed: `USER_CANCELLATION` for a cancelled transfer, else
 * `TRANSACTION_FAILED`.
 */
function failOutgoing(ctx: Ctx, quote: QuoteRec | undefined, tx: TransactionRec, reason: FailureReason): void {
  if (quote) quote.data.status = 'FAILED';
  touch(ctx, tx, 'FAILED', reason);
  delete tx.data.settledAt;
  if (tx.debited && credit(ctx, tx.debited)) {
    // The refund happens at the failure's instant: the same timestamp as the FAILED status.
    const at = tx.data.updatedAt ?? nowIso(ctx);
    const reference = `${tx.data.reconciliationInstructions?.reference ?? tx.data.id}-REFUND`;
    tx.data.refund = {
      reference,
      initiatedAt: at,
      settledAt: at,
      status: 'COMPLETED',
      reason: reason === CANCELLED ? 'USER_CANCELLATION' : 'TRANSACTION_FAILED',
    };
  }
  ctx.webhooks.emit('OUTGOING_PAYMENT.FAILED', tx.data);
}

function settleOutgoing(ctx: Ctx, quote: QuoteRec, tx: TransactionRec): void {
  if (tx.data.status !== 'PROCESSING') return;
  if (quote.outcome !== 'COMPLETE' && quote.outcome !== 'STUCK') return failOutgoing(ctx, quote, tx, quote.outcome);
  // The receiver's balance would pass the cap: the payment fails and the sender is refunded.
  if (!credit(ctx, tx.credit)) return failOutgoing(ctx, quote, tx, BALANCE_LIMIT_EXCEEDED);
  quote.data.status = 'COMPLETED';
  touch(ctx, tx, 'COMPLETED');
  tx.data.settledAt = nowIso(ctx);
  ctx.webhooks.emit('OUTGOING_PAYMENT.COMPLETED', tx.data);
  if (tx.credit) mirrorIncoming(ctx, tx, tx.credit);
}

/** The receiver of an outgoing payment to another customer of the platform sees it as incoming. */
function mirrorIncoming(ctx: Ctx, outgoing: TransactionRec, target: { accountId: string; amount: number }): void {
  const account = ctx.world.internalAccounts.get(target.accountId);
  const receiver = account?.data.customerId ? ctx.world.customers.get(account.data.customerId) : undefined;
  if (!account || !receiver || receiver.data.id === outgoing.data.customerId) return;
  const source = outgoing.data.source;
  const { id, seq } = ctx.ids.next('Transaction');
  const timestamp = nowIso(ctx);
  const sender = outgoing.data.customerId ? ctx.world.customers.get(outgoing.data.customerId)?.data : undefined;
  const data: IncomingTransaction = {
    id,
    status: 'COMPLETED',
    type: 'INCOMING',
    direction: 'CREDIT',
    source: sender ? { sourceType: 'UMA_ADDRESS', umaAddress: sender.umaAddress } : source,
    destination: { destinationType: 'ACCOUNT', accountId: account.data.id, currency: account.currency },
    customerId: receiver.data.id,
    platformCustomerId: receiver.data.platformCustomerId,
    receivedAmount: outgoing.data.receivedAmount!,
    settledAt: timestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
    ...(outgoing.data.description !== undefined ? { description: outgoing.data.description } : {}),
    ...(sender?.customerType === 'INDIVIDUAL' && sender.fullName ? { counterpartyInformation: { FULL_NAME: sender.fullName } } : {}),
    reconciliationInstructions: outgoing.data.reconciliationInstructions!,
  };
  ctx.world.transactions.set(id, recordStatus({ seq, createdMs: now(ctx), data }));
  ctx.webhooks.emit('INCOMING_PAYMENT.COMPLETED', data);
}

/** Where an incoming payment of `currency` to `customer` lands: its default UMA deposit account, else its primary internal account. */
export function depositTarget(
  ctx: Ctx,
  customer: Customer,
  currency: string,
): { kind: 'internal'; account: InternalAccountRec } | { kind: 'external'; accountId: string } {
  for (const ext of ctx.world.externalAccounts.values()) {
    if (ext.data.customerId === customer.id && ext.data.defaultUmaDepositAccount && ext.data.currency === currency) {
      return { kind: 'external', accountId: ext.data.id };
    }
  }
  const account = primaryAccount(ctx, customer.id, currency);
  if (!account) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `Customer ${customer.id} has no ${currency} account to receive into.`, {
      field: 'receivingCurrencyCode',
      currency,
      customerCurrencies: customer.currencies ?? [],
    });
  }
  return { kind: 'internal', account };
}

/** Completes a PENDING or PROCESSING incoming payment: credits the account and tells the platform. */
export function completeIncoming(ctx: Ctx, tx: TransactionRec): void {
  if (!credit(ctx, tx.credit)) return failIncoming(ctx, tx, 'FAILED', BALANCE_LIMIT_EXCEEDED);
  touch(ctx, tx, 'COMPLETED');
  tx.data.settledAt = nowIso(ctx);
  tx.approval = undefined;
  ctx.webhooks.emit('INCOMING_PAYMENT.COMPLETED', tx.data);
  const credited = tx.credit && ctx.world.internalAccounts.get(tx.credit.accountId);
  if (credited) fundRealtimeQuotes(ctx, credited); // an incoming payment funds a just-in-time quote too
}

/** Ends an incoming payment as FAILED (with a reason) or REJECTED, and tells the platform. */
export function failIncoming(ctx: Ctx, tx: TransactionRec, status: 'FAILED' | 'REJECTED', reason?: FailureReason): void {
  touch(ctx, tx, status, reason);
  delete tx.data.settledAt;
  tx.approval = undefined;
  ctx.webhooks.emit('INCOMING_PAYMENT.FAILED', tx.data);
}

/** Schedules the settlement of a transfer-in (PROCESSING → COMPLETED, or FAILED by magic). */
export function scheduleTransferIn(ctx: Ctx, tx: TransactionRec, outcome: QuoteRec['outcome']): void {
  if (outcome === 'STUCK') return;
  const world = ctx.world;
  ctx.scheduler.at(now(ctx) + SETTLEMENT_MS, () => {
    if (ctx.world !== world || tx.data.status !== 'PROCESSING') return;
    if (outcome === 'COMPLETE') completeIncoming(ctx, tx);
    else failIncoming(ctx, tx, 'FAILED', outcome);
  });
}

/** Holds an incoming payment for approval: asks the platform by webhook, or waits for `/approve`/`/reject`. */
export function holdForApproval(ctx: Ctx, tx: TransactionRec): void {
  const world = ctx.world;
  const asked = ctx.webhooks.requestApproval(tx.data, (reply) => {
    if (ctx.world === world) onApprovalReply(ctx, tx, reply);
  });
  tx.approval = asked ? 'AWAITING_WEBHOOK' : 'MANUAL';
}

function onApprovalReply(ctx: Ctx, tx: TransactionRec, reply: ApprovalReply): void {
  // `/approve` or `/reject` may have decided while the webhook was in flight.
  if (tx.data.status !== 'PENDING' || tx.approval !== 'AWAITING_WEBHOOK') return;
  switch (reply.kind) {
    case 'approve':
      return completeIncoming(ctx, tx);
    case 'reject':
      return failIncoming(ctx, tx, 'REJECTED');
    case 'more-info':
      return failIncoming(ctx, tx, 'FAILED', 'MISSING_MANDATORY_PAYEE_DATA');
    case 'timeout':
      return failIncoming(ctx, tx, 'FAILED', 'PAYMENT_APPROVAL_TIMED_OUT');
    case 'error':
      return failIncoming(ctx, tx, 'FAILED', 'PAYMENT_APPROVAL_WEBHOOK_ERROR');
    case 'defer': {
      tx.approval = 'DEFERRED';
      const world = ctx.world;
      ctx.scheduler.at(now(ctx) + APPROVAL_WINDOW_MS, () => {
        if (ctx.world === world && tx.data.status === 'PENDING' && tx.approval === 'DEFERRED') {
          failIncoming(ctx, tx, 'FAILED', 'PAYMENT_APPROVAL_TIMED_OUT');
        }
      });
    }
  }
}

/** The internal account id an `InternalAccount:`/`EmbeddedWallet:` id names, for matching filters. */
export function canonicalAccountId(id: string): string {
  return id.startsWith('EmbeddedWallet:') ? internalAccountId(id.slice('EmbeddedWallet:'.length)) : id;
}

/**
 * After a state import: schedules again what was pending when the state was saved (quote expiry,
 * settlement of payments in flight), as if the sandbox had been running all along.
 */
export function resume(ctx: Ctx): void {
  const world = ctx.world;
  for (const quote of world.quotes.values()) if (quote.data.status === 'PENDING') scheduleExpiry(ctx, quote);
  for (const tx of world.transactions.values()) {
    if (tx.data.status !== 'PROCESSING') continue;
    const quote = tx.quoteId ? world.quotes.get(tx.quoteId) : undefined;
    if (quote) {
      if (quote.outcome === 'STUCK') continue;
      ctx.scheduler.at(now(ctx) + SETTLEMENT_MS, () => {
        if (ctx.world === world) settleOutgoing(ctx, quote, tx);
      });
    } else if (tx.data.type === 'OUTGOING' && tx.outcome !== undefined) {
      scheduleTransferOut(ctx, tx);
    } else if (tx.data.type === 'INCOMING' && tx.credit) {
      ctx.scheduler.at(now(ctx) + SETTLEMENT_MS, () => {
        if (ctx.world === world && tx.data.status === 'PROCESSING') completeIncoming(ctx, tx);
      });
    }
  }
}

/**
 * Starts a transfer-out built by its route (`tx.data` PROCESSING): debits `source`, sends
 * OUTGOING_PAYMENT.PROCESSING and schedules the settlement to the outcome `tx.outcome` says. The route
 * checks the funds with no `await` between that check and this call.
 */
export function startTransferOut(ctx: Ctx, tx: TransactionRec & { outcome: QuoteRec['outcome'] }, source: InternalAccountRec, amount: number): void {
  moveBalance(ctx, source, -amount);
  tx.debited = { accountId: source.data.id, amount };
  ctx.world.transactions.set(tx.data.id, recordStatus(tx));
  ctx.webhooks.emit('OUTGOING_PAYMENT.PROCESSING', tx.data);
  scheduleTransferOut(ctx, tx);
}

function scheduleTransferOut(ctx: Ctx, tx: TransactionRec): void {
  if (tx.outcome === 'STUCK') return;
  const world = ctx.world;
  ctx.scheduler.at(now(ctx) + SETTLEMENT_MS, () => {
    if (ctx.world !== world || tx.data.status !== 'PROCESSING') return;
    const outcome = tx.outcome;
    if (outcome !== undefined && outcome !== 'COMPLETE' && outcome !== 'STUCK') return failOutgoing(ctx, undefined, tx, outcome);
    touch(ctx, tx, 'COMPLETED');
    tx.data.settledAt = nowIso(ctx);
    ctx.webhooks.emit('OUTGOING_PAYMENT.COMPLETED', tx.data);
  });
}

/** Why the sandbox fails a cancelled bank transfer: failure reasons are an open set (decisions.md). */
export const CANCELLED = 'CANCELLED' as FailureReason;

/** The external account at the bank end of a transaction (the destination paid, or the source pulled), if any. */
function bankEnd(ctx: Ctx, tx: TransactionRec): string | undefined {
  const end = (tx.data.type === 'OUTGOING' ? tx.data.destination : tx.data.source) as { accountId?: string } | undefined;
  const account = end?.accountId?.startsWith('ExternalAccount:') ? ctx.world.externalAccounts.get(end.accountId) : undefined;
  if (!account) return undefined;
  // Bank rails only: a crypto wallet (or a Lightning invoice) cannot be called back.
  return accountTypeNamed(account.data.accountInfo.accountType)?.wallet ? undefined : account.data.id;
}

/**
 * Cancels a bank transfer that has not settled (production's `/cancel`): 400 INVALID_INPUT for a
 * transaction that is no bank transfer (an UMA payment, a payment between internal accounts, a crypto
 * withdrawal), 409 INVALID_STATE_TRANSITION once it settled or failed (or before it started: a quote not
 * executed is no transfer yet). The transfer fails with reason CANCELLED and its debit comes back.
 */
export function cancelTransfer(ctx: Ctx, tx: TransactionRec): void {
  if (bankEnd(ctx, tx) === undefined) {
    throw invalidInput('transactionId', `Transaction ${tx.data.id} is not a bank transfer (ACH, wire); only those can be cancelled.`);
  }
  if (tx.data.status !== 'PROCESSING') throw invalidTransition('Transaction', tx.data.id, tx.data.status, 'cancelled');
  if (tx.data.type === 'INCOMING') return failIncoming(ctx, tx, 'FAILED', CANCELLED);
  failOutgoing(ctx, tx.quoteId ? ctx.world.quotes.get(tx.quoteId) : undefined, tx, CANCELLED);
}

/**
 * The funds of a just-in-time (REALTIME_FUNDING) quote arrive in its funding account (production's sandbox
 * send): `amount` (default its `totalSendingAmount`) is credited there, and the quote is executed when the
 * balance covers it; what is left funds the account's other waiting quotes. 400 when the quote is funded
 * from an account (there is nothing to send) or `currency` is not its sending currency; 409 when it is
 * no longer PENDING or expired. Answers the quote's transaction.
 */
export function sendQuoteFunds(ctx: Ctx, quote: QuoteRec, currency: string, amount: number | undefined): TransactionRec {
  const account =
    quote.data.source.sourceType === 'REALTIME_FUNDING' && quote.debitAccountId ? ctx.world.internalAccounts.get(quote.debitAccountId) : undefined;
  if (!account) throw invalidInput('quoteId', `Quote ${quote.data.id} is funded from an account: it has no payment instructions to send funds to.`);
  if (currency !== quote.data.sendingCurrency.code) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `Quote ${quote.data.id} is funded in ${quote.data.sendingCurrency.code}, not ${currency}.`, {
      field: 'currencyCode',
    });
  }
  assertPending(ctx, quote);
  moveBalance(ctx, account, amount ?? quote.data.totalSendingAmount);
  if (account.data.balance.amount >= quote.data.totalSendingAmount) execute(ctx, quote);
  fundRealtimeQuotes(ctx, account);
  return ctx.world.transactions.get(quote.data.transactionId)!;
}
