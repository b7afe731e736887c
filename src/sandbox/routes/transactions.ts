/**
 * Transactions (list, read, approve, reject, confirm receipt, cancel), transfer-in and transfer-out, and
 * the sandbox's simulations (an incoming UMA payment; the funds of a quote sent).
 * @module
 */
import type {
  IncomingTransaction,
  OutgoingTransaction,
  ReceiptDeliveryConfirmParams,
  SandboxSendParams,
  SandboxUmaReceiveParams,
  TransferInCreateParams,
  TransferOutCreateParams,
} from '../../generated/types';
import { assertFunds, moveBalance } from '../domain/accounts';
import { iso } from '../domain/clock';
import { now, nowIso, type Ctx, type Handler } from '../domain/context';
import { currencyObject } from '../domain/currencies';
import { SandboxError, invalidInput, invalidTransition, notFound } from '../domain/errors';
import { findCustomer, findExternalAccount, findInternalAccount } from '../domain/finders';
import { ok } from '../serve/http';
import { failureFor, holdsForApproval, staysProcessing } from '../domain/magic';
import { MAX_QUOTE_AMOUNT } from '../domain/pricing';
import { paginate } from '../domain/pagination';
import {
  SETTLEMENT_MS,
  cancelTransfer,
  canonicalAccountId,
  completeIncoming,
  depositTarget,
  failIncoming,
  holdForApproval,
  newReference,
  recordStatus,
  scheduleTransferIn,
  sendQuoteFunds,
  startTransferOut,
} from '../domain/payments';
import { authorizeSpend } from '../domain/signed';
import type { TransactionRec } from '../domain/state';
import { isUmaAddress, umaUser } from '../domain/uma';
import { findQuote, requireWithinLimits } from './quotes';

function findTransaction(ctx: Ctx, id: string): TransactionRec {
  const tx = ctx.world.transactions.get(id);
  if (!tx) throw notFound('TRANSACTION_NOT_FOUND', 'Transaction', id);
  return tx;
}

/** The account id or UMA address of one end of a transaction. */
function identifierOf(end: object | undefined): string | undefined {
  // An end may have neither (a REALTIME_FUNDING source names a currency), or be absent (an incoming source).
  const e = end as { accountId?: string; umaAddress?: string } | undefined;
  return e?.accountId !== undefined ? canonicalAccountId(e.accountId) : e?.umaAddress?.toLowerCase();
}

function sameIdentifier(a: string | undefined, filter: string): boolean {
  return a !== undefined && a === (filter.startsWith('$') ? filter.toLowerCase() : canonicalAccountId(filter));
}

const list: Handler = (ctx, call) => {
  const q = call.query as {
    customerId?: string;
    platformCustomerId?: string;
    accountIdentifier?: string;
    senderAccountIdentifier?: string;
    receiverAccountIdentifier?: string;
    status?: string;
    type?: string;
    reference?: string;
    startDate?: string;
    endDate?: string;
    limit?: number;
    cursor?: string;
    sortOrder?: 'asc' | 'desc';
  };
  const start = q.startDate === undefined ? -Infinity : Date.parse(q.startDate);
  const end = q.endDate === undefined ? Infinity : Date.parse(q.endDate);
  const matches = [...ctx.world.transactions.values()].filter(({ data: t }) => {
    if (q.customerId !== undefined && t.customerId !== q.customerId) return false;
    if (q.platformCustomerId !== undefined && t.platformCustomerId !== q.platformCustomerId) return false;
    if (q.status !== undefined && t.status !== q.status) return false;
    if (q.type !== undefined && t.type !== q.type) return false;
    if (q.reference !== undefined && t.reconciliationInstructions?.reference !== q.reference) return false;
    if (
      q.accountIdentifier !== undefined &&
      !sameIdentifier(identifierOf(t.source), q.accountIdentifier) &&
      !sameIdentifier(identifierOf(t.destination), q.accountIdentifier)
    )
      return false;
    if (q.senderAccountIdentifier !== undefined && !sameIdentifier(identifierOf(t.source), q.senderAccountIdentifier)) return false;
    if (q.receiverAccountIdentifier !== undefined && !sameIdentifier(identifierOf(t.destination), q.receiverAccountIdentifier)) return false;
    const created = Date.parse(t.createdAt ?? '');
    return created >= start && created <= end;
  });
  return ok(paginate(matches, q, (t) => t.data));
};

const get: Handler = (ctx, call) => ok(findTransaction(ctx, call.params.transactionId!).data);

/** The incoming PENDING payment a decision applies to, or 409 INVALID_STATE_TRANSITION. */
function pendingIncoming(ctx: Ctx, id: string, action: string): TransactionRec {
  const tx = findTransaction(ctx, id);
  if (tx.data.type !== 'INCOMING' || tx.data.status !== 'PENDING') {
    throw invalidTransition(`${tx.data.type === 'INCOMING' ? 'Incoming' : 'Outgoing'} transaction`, id, tx.data.status, action);
  }
  return tx;
}

const reject: Handler = (ctx, call) => {
  const tx = pendingIncoming(ctx, call.params.transactionId!, 'rejected');
  failIncoming(ctx, tx, 'REJECTED');
  return ok(tx.data);
};

const approve: Handler = (ctx, call) => {
  // `receiverCustomerInfo` (validated) would travel to the sending VASP; the simulated sender needs none.
  const tx = pendingIncoming(ctx, call.params.transactionId!, 'approved');
  completeIncoming(ctx, tx);
  return ok(tx.data);
};

const transferIn: Handler = (ctx, call) => {
  const body = call.body as TransferInCreateParams;
  const source = findExternalAccount(ctx, body.source.accountId);
  const destination = findInternalAccount(ctx, body.destination.accountId);
  if ((source.data.customerId ?? undefined) !== (destination.data.customerId ?? undefined)) {
    throw invalidInput('source.accountId', 'Transfer-in moves money between accounts of the same customer.');
  }
  if (source.data.currency !== destination.currency) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `The source holds ${source.data.currency}, the destination ${destination.currency}.`, {
      field: 'destination.accountId',
    });
  }
  if (source.data.status !== 'ACTIVE') throw invalidInput('source.accountId', `External account ${source.data.id} is ${source.data.status}, not ACTIVE.`);
  requireWithinLimits(ctx, destination.currency, body.amount, 'amount');
  if (destination.data.balance.amount + body.amount > MAX_QUOTE_AMOUNT) {
    throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `The balance of ${destination.data.id} would exceed ${MAX_QUOTE_AMOUNT}.`, { field: 'amount' });
  }
  const customer = destination.data.customerId ? ctx.world.customers.get(destination.data.customerId)?.data : undefined;
  const { id, seq } = ctx.ids.next('Transaction');
  const timestamp = nowIso(ctx);
  const data: IncomingTransaction = {
    id,
    status: 'PROCESSING',
    type: 'INCOMING',
    direction: 'DEBIT', // production: an inbound pull is INCOMING with a DEBIT direction
    source: { sourceType: 'ACCOUNT', accountId: source.data.id, currency: source.data.currency },
    destination: { destinationType: 'ACCOUNT', accountId: destination.data.id, currency: destination.currency },
    ...(customer ? { customerId: customer.id, platformCustomerId: customer.platformCustomerId } : {}),
    receivedAmount: { amount: body.amount, currency: currencyObject(destination.currency) },
    settledAt: iso(now(ctx) + SETTLEMENT_MS),
    createdAt: timestamp,
    updatedAt: timestamp,
    reconciliationInstructions: { reference: newReference(ctx, 'TI') },
  };
  const tx: TransactionRec = { seq, createdMs: now(ctx), data, credit: { accountId: destination.data.id, amount: body.amount } };
  ctx.world.transactions.set(id, recordStatus(tx));
  scheduleTransferIn(ctx, tx, failureFor(source.identifier) ?? (staysProcessing(source.identifier) ? 'STUCK' : 'COMPLETE'));
  return ok(data);
};

/** Counterparty data a sandbox sender "sends": what the platform asks for, made up from the address. */
function senderInformation(ctx: Ctx, senderUmaAddress: string, currency: string): Record<string, string> {
  const name = umaUser(senderUmaAddress)
    .split(/[._-]+/)
    .filter((part) => /[a-z]/i.test(part))
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join(' ');
  const made: Record<string, string> = { FULL_NAME: name || 'Sandbox Sender', BIRTH_DATE: '1990-01-01', NATIONALITY: 'US', COUNTRY_OF_RESIDENCE: 'US' };
  const wanted = (ctx.world.config.supportedCurrencies ?? []).find((c) => c.currencyCode === currency)?.requiredCounterpartyFields ?? [];
  const info: Record<string, string> = { FULL_NAME: made.FULL_NAME! };
  for (const f of wanted) if (made[f.name] !== undefined) info[f.name] = made[f.name]!;
  return info;
}

const receiveUma: Handler = (ctx, call) => {
  const body = call.body as SandboxUmaReceiveParams;
  if (!isUmaAddress(body.senderUmaAddress)) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${body.senderUmaAddress} is not an UMA address.`, { field: 'senderUmaAddress' });
  }
  if (body.receiverUmaAddress === undefined && body.customerId === undefined) {
    throw invalidInput('receiverUmaAddress', 'Give receiverUmaAddress or customerId.');
  }
  if (body.receiverUmaAddress !== undefined && !isUmaAddress(body.receiverUmaAddress)) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${body.receiverUmaAddress} is not an UMA address.`, { field: 'receiverUmaAddress' });
  }
  const byAddress = body.receiverUmaAddress?.toLowerCase();
  const customer = body.customerId
    ? findCustomer(ctx, body.customerId)
    : [...ctx.world.customers.values()].find((c) => !c.data.isDeleted && c.data.umaAddress.toLowerCase() === byAddress);
  if (!customer) throw notFound('CUSTOMER_NOT_FOUND', 'Customer with UMA address', body.receiverUmaAddress!);
  if (byAddress !== undefined && customer.data.umaAddress.toLowerCase() !== byAddress) {
    throw invalidInput('receiverUmaAddress', `${body.receiverUmaAddress} is not the UMA address of ${customer.data.id}.`);
  }
  const currency = body.receivingCurrencyCode;
  const enabled = (ctx.world.config.supportedCurrencies ?? []).find((c) => c.currencyCode === currency);
  if (!enabled || (enabled.enabledTransactionTypes && !enabled.enabledTransactionTypes.includes('INCOMING'))) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `${currency} is not enabled for incoming payments on this platform.`, { field: 'receivingCurrencyCode' });
  }
  requireWithinLimits(ctx, currency, body.receivingCurrencyAmount, 'receivingCurrencyAmount');
  const target = depositTarget(ctx, customer.data, currency);
  if (target.kind === 'internal' && target.account.data.balance.amount + body.receivingCurrencyAmount > MAX_QUOTE_AMOUNT) {
    throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `The balance of ${target.account.data.id} would exceed ${MAX_QUOTE_AMOUNT}.`, {
      field: 'receivingCurrencyAmount',
    });
  }
  const { id, seq } = ctx.ids.next('Transaction');
  const timestamp = nowIso(ctx);
  const held = holdsForApproval(body.receivingCurrencyAmount);
  const accountId = target.kind === 'internal' ? target.account.data.id : target.accountId;
  const data: IncomingTransaction = {
    id,
    status: held ? 'PENDING' : 'COMPLETED',
    type: 'INCOMING',
    direction: 'CREDIT',
    source: { sourceType: 'UMA_ADDRESS', umaAddress: body.senderUmaAddress },
    destination: { destinationType: 'ACCOUNT', accountId, currency },
    customerId: customer.data.id,
    platformCustomerId: customer.data.platformCustomerId,
    receivedAmount: { amount: body.receivingCurrencyAmount, currency: currencyObject(currency) },
    ...(held ? {} : { settledAt: timestamp }),
    createdAt: timestamp,
    updatedAt: timestamp,
    counterpartyInformation: senderInformation(ctx, body.senderUmaAddress, currency),
    reconciliationInstructions: { reference: newReference(ctx, 'UMA') },
  };
  // A deposit to an external account leaves the sandbox: no internal balance to credit.
  const credit = target.kind === 'internal' ? { accountId, amount: body.receivingCurrencyAmount } : undefined;
  const tx: TransactionRec = { seq, createdMs: now(ctx), data, credit };
  ctx.world.transactions.set(id, recordStatus(tx));
  if (held) {
    holdForApproval(ctx, tx);
  } else {
    if (target.kind === 'internal') moveBalance(ctx, target.account, body.receivingCurrencyAmount);
    ctx.webhooks.emit('INCOMING_PAYMENT.COMPLETED', data);
  }
  return ok(data);
};

/**
 * A same-currency transfer from an internal account to an external account of the same owner (a customer,
 * or the platform): the source is debited at once (INTERNAL_ACCOUNT.BALANCE_UPDATED), the transaction
 * answered PROCESSING (OUTGOING_PAYMENT.PROCESSING) and settled later (OUTGOING_PAYMENT.COMPLETED, or
 * FAILED with the debit returned, by the destination's magic values). A deleted destination is 404, one
 * not ACTIVE or in another currency 400, a short balance 400 INVALID_AMOUNT. An embedded wallet's
 * transfer is signed, as its quotes are.
 */
const transferOut: Handler = async (ctx, call) => {
  const body = call.body as TransferOutCreateParams;
  // Production's schema leaves `amount` optional without saying what its absence means: the sandbox asks for it.
  if (body.amount === undefined) throw invalidInput('amount', 'Give the amount to transfer, in the smallest unit of the currency.');
  const source = findInternalAccount(ctx, body.source.accountId);
  const destination = findExternalAccount(ctx, body.destination.accountId);
  if ((source.data.customerId ?? undefined) !== (destination.data.customerId ?? undefined)) {
    throw invalidInput('destination.accountId', 'Transfer-out moves money between accounts of the same owner (a customer, or the platform).');
  }
  if (destination.data.currency !== source.currency) {
    throw new SandboxError(
      400,
      'INVALID_CURRENCY',
      `The source holds ${source.currency}, the destination ${destination.data.currency}: transfer-out keeps the currency.`,
      {
        field: 'destination.accountId',
      },
    );
  }
  if (destination.data.status !== 'ACTIVE')
    throw invalidInput('destination.accountId', `External account ${destination.data.id} is ${destination.data.status}, not ACTIVE.`);
  requireWithinLimits(ctx, source.currency, body.amount, 'amount');
  assertFunds(source, body.amount, 'amount');
  const challenge = await authorizeSpend(ctx, call, source, { action: 'TRANSFER_OUT', amount: body.amount, currency: source.currency });
  if (challenge) return challenge;
  // Other requests ran during the await: the funds are checked again, with no await from here to the
  // debit (startTransferOut), so concurrent transfers never spend one balance twice.
  assertFunds(source, body.amount, 'amount');
  const customer = source.data.customerId ? ctx.world.customers.get(source.data.customerId)?.data : undefined;
  const { id, seq } = ctx.ids.next('Transaction');
  const timestamp = nowIso(ctx);
  const data: OutgoingTransaction = {
    id,
    status: 'PROCESSING',
    type: 'OUTGOING',
    direction: 'DEBIT',
    source: { sourceType: 'ACCOUNT', accountId: source.data.id, currency: source.currency },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: destination.data.id,
      currency: destination.data.currency,
      ...(body.destination.paymentRail !== undefined ? { paymentRail: body.destination.paymentRail } : {}),
    },
    ...(customer ? { customerId: customer.id, platformCustomerId: customer.platformCustomerId } : {}),
    receivedAmount: { amount: body.amount, currency: currencyObject(source.currency) },
    settledAt: iso(now(ctx) + SETTLEMENT_MS),
    createdAt: timestamp,
    updatedAt: timestamp,
    reconciliationInstructions: { reference: newReference(ctx, 'TO') },
  };
  const outcome = failureFor(destination.identifier) ?? (staysProcessing(destination.identifier) ? 'STUCK' : 'COMPLETE');
  startTransferOut(ctx, { seq, createdMs: now(ctx), data, outcome }, source, body.amount);
  return ok(data, 201);
};

/** Records when the platform delivered the receipt (any transaction, any status: production names no restriction). */
const confirmReceipt: Handler = (ctx, call) => {
  const tx = findTransaction(ctx, call.params.transactionId!);
  const at = (call.body as ReceiptDeliveryConfirmParams | undefined)?.receiptDeliveryConfirmedAt;
  tx.data.receiptDeliveryConfirmedAt = at ?? nowIso(ctx);
  tx.data.updatedAt = nowIso(ctx);
  return ok(tx.data);
};

const cancel: Handler = (ctx, call) => {
  // `reason` (validated) is for the platform's own records; the sandbox keeps nothing of it.
  const tx = findTransaction(ctx, call.params.transactionId!);
  cancelTransfer(ctx, tx);
  return ok(tx.data);
};

const sandboxSend: Handler = (ctx, call) => {
  const body = call.body as SandboxSendParams;
  const tx = sendQuoteFunds(ctx, findQuote(ctx, body.quoteId), body.currencyCode, body.currencyAmount);
  return ok(tx.data);
};

/** The transaction, transfer and sandbox-simulation routes. */
export const transactionRoutes = {
  listTransactions: list,
  getTransaction: get,
  rejectTransaction: reject,
  approveTransaction: approve,
  createTransferIn: transferIn,
  sandboxReceiveUmaPayment: receiveUma,
  createTransferOut: transferOut,
  confirmReceiptDelivery: confirmReceipt,
  cancelTransaction: cancel,
  sandboxSend,
} satisfies Record<string, Handler>;
