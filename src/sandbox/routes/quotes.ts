/**
 * Quotes (create, read, execute) and the receiver lookups that UMA quotes cite.
 * @module
 */
import type {
  CryptoWithdrawalFeeEstimateParams,
  ExchangeRate,
  OutgoingTransaction,
  PayerDataField,
  PaymentInstruction,
  Quote,
  QuoteCreateParams,
  ReceiverLookup,
  SupportedCurrency,
} from '../../generated/types';
import { assertFunds, internalAccountType, primaryAccount, STABLECOINS } from '../domain/accounts';
import { iso } from '../domain/clock';
import { now, nowIso, type Ctx, type Handler } from '../domain/context';
import { CURRENCIES, currencyObject, exchangeRate, type CurrencyInfo } from '../domain/currencies';
import { SandboxError, invalidInput, notFound } from '../domain/errors';
import { findCustomer, findExternalAccount, findInternalAccount, platformInternalAccounts } from '../domain/finders';
import { PAYABLE_STATUSES } from '../domain/ownership';
import { ok } from '../domain/reply';
import { failureFor, limitRefusal, staysProcessing } from '../domain/magic';
import { assertDailyVolume, noteQuoteKey, outcomeOverride, sandboxCurrency } from '../domain/faults';
import { assertExecutable, execute, newReference, recordStatus, scheduleExpiry } from '../domain/payments';
import { holdForAuthorization } from '../domain/sca';
import { authorizeSpend } from '../domain/signed';
import { corridorPrice, networkFee, payoutRail, price, withdrawalFee, MAX_QUOTE_AMOUNT } from '../domain/pricing';
import { providerFor } from '../domain/providers';
import type { InternalAccountRec, LookupRec, QuoteRec, QuoteTarget, TransactionRec } from '../domain/state';
import { isUmaAddress, umaDomain, umaUser } from '../domain/uma';

/** Quote lifetime (the spec's "typically 1 to 5 minutes"). */
export const QUOTE_TTL_MS = 5 * 60_000;

/** Currencies a remote UMA receiver outside the provider catalogue accepts. */
const REMOTE_DEFAULT_CURRENCIES = ['USD', 'EUR', 'MXN', 'BTC'];
/** Payer data remote receivers ask for. */
const REMOTE_PAYER_FIELDS: PayerDataField[] = [
  { name: 'FULL_NAME', mandatory: true },
  { name: 'BIRTH_DATE', mandatory: false },
];

function supported(ctx: Ctx, code: string): SupportedCurrency | undefined {
  return (ctx.world.config.supportedCurrencies ?? []).find((c) => c.currencyCode === code);
}

/** 400 INVALID_CURRENCY unless the platform supports `code` for `direction`. */
function requireEnabled(ctx: Ctx, code: string, direction: 'OUTGOING' | 'INCOMING', field: string): CurrencyInfo {
  const info = CURRENCIES.get(code);
  const config = supported(ctx, code);
  if (!info || !config || (config.enabledTransactionTypes && !config.enabledTransactionTypes.includes(direction))) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `${code} is not enabled for ${direction} payments on this platform.`, { field, currency: code });
  }
  return info;
}

/** 400 AMOUNT_OUT_OF_RANGE when `amount` is outside the platform's limits for `code`. */
export function requireWithinLimits(ctx: Ctx, code: string, amount: number, field: string): void {
  const config = supported(ctx, code);
  const min = config?.minAmount ?? 1;
  const max = config?.maxAmount ?? MAX_QUOTE_AMOUNT;
  if (amount < min || amount > max) {
    throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `${amount} ${code} is outside this platform's limits (${min} to ${max}).`, {
      field,
      currency: code,
      amount,
      min,
      max,
    });
  }
}

/** Payer data the receiving customer's platform asks for (its counterparty requirements). */
function localPayerFields(ctx: Ctx, currencies: string[]): PayerDataField[] {
  const fields = new Map<string, boolean>();
  for (const code of currencies) {
    for (const f of supported(ctx, code)?.requiredCounterpartyFields ?? []) fields.set(f.name, (fields.get(f.name) ?? false) || f.mandatory);
  }
  return [...fields].map(([name, mandatory]) => ({ name, mandatory }));
}

function saveLookup(ctx: Ctx, lookup: Omit<LookupRec, 'id' | 'createdMs'>, sendingCode: string): ReceiverLookup {
  const id = ctx.ids.next('Lookup').id;
  ctx.world.lookups.set(id, { id, createdMs: now(ctx), ...lookup });
  const sending = CURRENCIES.get(sendingCode)!;
  return {
    lookupId: id,
    ...(lookup.receiverUmaAddress !== undefined ? { receiverUmaAddress: lookup.receiverUmaAddress } : {}),
    ...(lookup.accountId !== undefined ? { accountId: lookup.accountId } : {}),
    supportedCurrencies: lookup.currencies.map((code) => ({
      currency: currencyObject(code),
      estimatedExchangeRate: exchangeRate(sending, CURRENCIES.get(code)!),
      min: supported(ctx, code)?.minAmount ?? 1,
      max: supported(ctx, code)?.maxAmount ?? MAX_QUOTE_AMOUNT,
    })),
    requiredPayerDataFields: lookup.requiredPayerDataFields,
  };
}

/** The sending currency a lookup estimates rates from: the sending customer's first currency, else USD. */
function sendingCurrencyOf(ctx: Ctx, query: { customerId?: string; senderUmaAddress?: string }): string {
  if (query.senderUmaAddress !== undefined && !isUmaAddress(query.senderUmaAddress)) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${query.senderUmaAddress} is not an UMA address.`, { field: 'senderUmaAddress' });
  }
  const customer = query.customerId ? findCustomer(ctx, query.customerId) : undefined;
  return customer?.data.currencies?.find((c) => CURRENCIES.has(c)) ?? 'USD';
}

const lookupUma: Handler = (ctx, call) => {
  const address = call.params.receiverUmaAddress!;
  if (!isUmaAddress(address)) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${address} is not an UMA address ($user@domain.example).`, { field: 'receiverUmaAddress' });
  }
  const sending = sendingCurrencyOf(ctx, call.query);
  const domain = umaDomain(address);
  if (domain === ctx.world.config.umaDomain?.toLowerCase()) {
    const receiver = [...ctx.world.customers.values()].find((c) => !c.data.isDeleted && c.data.umaAddress.toLowerCase() === address.toLowerCase());
    if (!receiver) throw new SandboxError(404, 'NOT_FOUND', `No customer of this platform has the UMA address ${address}.`, { receiverUmaAddress: address });
    const currencies = (receiver.data.currencies ?? []).filter((c) => CURRENCIES.has(c));
    return ok(saveLookup(ctx, { receiverUmaAddress: address, currencies, requiredPayerDataFields: localPayerFields(ctx, currencies) }, sending));
  }
  const provider = providerFor(domain);
  const currencies = provider ? (provider.supportedCurrencies ?? []).flatMap((c) => (c.code === undefined ? [] : [c.code])) : REMOTE_DEFAULT_CURRENCIES;
  return ok(saveLookup(ctx, { receiverUmaAddress: address, currencies, requiredPayerDataFields: REMOTE_PAYER_FIELDS }, sending));
};

const lookupExternal: Handler = (ctx, call) => {
  const account = findExternalAccount(ctx, call.params.accountId!);
  const sending = sendingCurrencyOf(ctx, call.query);
  return ok(saveLookup(ctx, { accountId: account.data.id, currencies: [account.data.currency], requiredPayerDataFields: [] }, sending));
};

interface Resolved {
  target: QuoteTarget;
  receiving: string;
  destination: Quote['destination'];
  identifier: string | undefined;
  counterparty?: Record<string, string>;
}

function lookupOf(ctx: Ctx, lookupId: string | undefined): LookupRec | undefined {
  if (lookupId === undefined) return undefined;
  const lookup = ctx.world.lookups.get(lookupId);
  if (!lookup) throw notFound('LOOKUP_NOT_FOUND', 'Lookup', lookupId);
  return lookup;
}

/** Works out where a quote's money goes, checking the destination and its lookup. */
function resolveDestination(ctx: Ctx, body: QuoteCreateParams, sourceAccountId: string): Resolved {
  const dest = body.destination;
  const lookup = lookupOf(ctx, body.lookupId);
  if (dest.destinationType === 'UMA_ADDRESS') {
    if (!isUmaAddress(dest.umaAddress)) {
      throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${dest.umaAddress} is not an UMA address.`, { field: 'destination.umaAddress' });
    }
    if (!lookup) throw invalidInput('lookupId', 'An UMA destination needs the lookupId of a receiver lookup (GET /receiver/uma/{address}).');
    if (lookup.receiverUmaAddress?.toLowerCase() !== dest.umaAddress.toLowerCase()) {
      throw invalidInput('lookupId', `Lookup ${lookup.id} was made for ${lookup.receiverUmaAddress ?? lookup.accountId}, not ${dest.umaAddress}.`);
    }
    // Without a currency the receiver's first accepted one is used (decisions.md: `currency` is optional).
    const currency = dest.currency ?? lookup.currencies[0]!;
    if (!lookup.currencies.includes(currency)) {
      throw new SandboxError(400, 'INVALID_CURRENCY', `${dest.umaAddress} does not accept ${currency}.`, {
        field: 'destination.currency',
        supportedCurrencies: lookup.currencies,
      });
    }
    const missing = lookup.requiredPayerDataFields.filter((f) => f.mandatory && !body.senderCustomerInfo?.[f.name]).map((f) => f.name);
    if (missing.length > 0) {
      throw invalidInput(`senderCustomerInfo.${missing[0]}`, `The receiver requires payer data: ${missing.join(', ')}.`, { missingFields: missing });
    }
    const local = [...ctx.world.customers.values()].find((c) => !c.data.isDeleted && c.data.umaAddress.toLowerCase() === dest.umaAddress.toLowerCase());
    const localAccount = local ? primaryAccount(ctx, local.data.id, currency) : undefined;
    const receiverName = local?.data.customerType === 'INDIVIDUAL' ? local.data.fullName : local?.data.businessInfo.legalName;
    return {
      target: { kind: 'uma', umaAddress: dest.umaAddress, localAccountId: localAccount?.data.id },
      receiving: currency,
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: dest.umaAddress, currency },
      identifier: umaUser(dest.umaAddress),
      ...(receiverName ? { counterparty: { FULL_NAME: receiverName } } : {}),
    };
  }
  if (lookup && lookup.accountId !== dest.accountId) {
    throw invalidInput('lookupId', `Lookup ${lookup.id} was made for ${lookup.accountId ?? lookup.receiverUmaAddress}, not ${dest.accountId}.`);
  }
  if (dest.accountId.startsWith('ExternalAccount:')) {
    const account = findExternalAccount(ctx, dest.accountId);
    if (!PAYABLE_STATUSES.has(account.data.status))
      throw invalidInput('destination.accountId', `External account ${account.data.id} is ${account.data.status}, not ACTIVE.`);
    checkDestinationCurrency(dest.currency, account.data.currency);
    return {
      target: { kind: 'external', accountId: account.data.id },
      receiving: account.data.currency,
      destination: {
        destinationType: 'ACCOUNT',
        accountId: account.data.id,
        currency: account.data.currency,
        ...(dest.paymentRail ? { paymentRail: dest.paymentRail } : {}),
      },
      identifier: account.identifier,
    };
  }
  const account = findInternalAccount(ctx, dest.accountId);
  if (account.data.id === sourceAccountId) throw invalidInput('destination.accountId', 'The destination is the source account.');
  checkDestinationCurrency(dest.currency, account.currency);
  return {
    target: { kind: 'internal', accountId: account.data.id },
    receiving: account.currency,
    destination: { destinationType: 'ACCOUNT', accountId: account.data.id, currency: account.currency },
    identifier: undefined,
  };
}

function checkDestinationCurrency(given: string | undefined, held: string): void {
  if (given !== undefined && given !== held) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `The destination account holds ${held}, not ${given}.`, { field: 'destination.currency' });
  }
}

/**
 * A just-in-time funded quote (production's REALTIME_FUNDING): the funds arrive in the internal account of
 * `currency` of the customer (or, without `customerId`, of the platform: its own accounts, one per
 * currency), whose funding instructions the quote answers as its `paymentInstructions`; money arriving
 * there (sandbox send or fund, incoming payment) executes the quote.
 */
function realtimeSource(ctx: Ctx, source: Extract<QuoteCreateParams['source'], { sourceType: 'REALTIME_FUNDING' }>) {
  if (source.customerId !== undefined) findCustomer(ctx, source.customerId);
  if (STABLECOINS.has(source.currency) && !source.cryptoNetwork) {
    throw invalidInput('source.cryptoNetwork', `cryptoNetwork is required to fund in ${source.currency} (for example SOLANA_MAINNET).`);
  }
  const account =
    source.customerId !== undefined
      ? primaryAccount(ctx, source.customerId, source.currency)
      : platformInternalAccounts(ctx).find((a) => a.currency === source.currency);
  if (!account) {
    const owner = source.customerId !== undefined ? `Customer ${source.customerId}` : 'The platform';
    throw new SandboxError(400, 'INVALID_CURRENCY', `${owner} has no ${source.currency} account to receive the funds.`, { field: 'source.currency' });
  }
  return { debit: account, accountId: account.data.id, currency: account.currency, customerId: source.customerId, realtime: source };
}

/** Where to send the funds of a just-in-time quote: the account's instructions, with the quote's reference. */
function realtimeInstructions(account: InternalAccountRec, reference: string, cryptoNetwork: string | undefined): PaymentInstruction[] {
  return (account.data.fundingPaymentInstructions ?? []).map((instruction) => ({
    accountOrWalletInfo: { ...instruction.accountOrWalletInfo, reference, ...(cryptoNetwork ? { cryptoNetwork } : {}) },
    instructionsNotes: `Send totalSendingAmount before expiresAt with the reference ${reference}: the funds execute the quote.`,
  }));
}

/** The account a quote sends from: an internal account, or an external USD account (ACH pull). */
function resolveSource(ctx: Ctx, body: QuoteCreateParams) {
  const source = body.source;
  if (source.sourceType === 'REALTIME_FUNDING') return realtimeSource(ctx, source);
  if (source.sourceType !== 'ACCOUNT') {
    throw invalidInput('source.sourceType', 'Quotes send from an account; UMA_ADDRESS sources only appear on incoming payments.');
  }
  if (source.accountId.startsWith('ExternalAccount:')) {
    const account = findExternalAccount(ctx, source.accountId);
    if (account.data.accountInfo.accountType !== 'USD_ACCOUNT') {
      throw invalidInput('source.accountId', 'Only an internal account or a USD bank account (ACH pull) can fund a quote.');
    }
    return { debit: undefined, accountId: account.data.id, currency: account.data.currency, customerId: account.data.customerId ?? undefined };
  }
  const account = findInternalAccount(ctx, source.accountId);
  return { debit: account, accountId: account.data.id, currency: account.currency, customerId: account.data.customerId ?? undefined };
}

const create: Handler = async (ctx, call) => {
  const body = call.body as QuoteCreateParams;
  const source = resolveSource(ctx, body);
  if (body.source.sourceType === 'ACCOUNT' && body.source.customerId !== undefined && body.source.customerId !== source.customerId) {
    throw invalidInput('source.customerId', `Account ${source.accountId} does not belong to ${body.source.customerId}.`);
  }
  if (body.source.sourceType === 'ACCOUNT' && body.source.currency !== undefined && body.source.currency !== source.currency) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `The source account holds ${source.currency}, not ${body.source.currency}.`, { field: 'source.currency' });
  }
  const dest = resolveDestination(ctx, body, source.accountId);
  const from = requireEnabled(ctx, source.currency, 'OUTGOING', 'source.accountId');
  const to = requireEnabled(ctx, dest.receiving, 'INCOMING', 'destination');
  const pricing = price(from, to, body.lockedCurrencySide, body.lockedCurrencyAmount);
  requireWithinLimits(ctx, from.code, pricing.totalSendingAmount, 'lockedCurrencyAmount');
  requireWithinLimits(ctx, to.code, pricing.totalReceivingAmount, 'lockedCurrencyAmount');
  const refusal = limitRefusal(body.lockedCurrencyAmount, body.lockedCurrencySide === 'SENDING' ? from.code : to.code);
  if (refusal) throw refusal;
  // Checked before anything is created, so a refused immediate execution leaves no quote behind.
  const realtime = 'realtime' in source ? source.realtime : undefined;
  // A just-in-time quote executes when its funds arrive, not on immediatelyExecute.
  const immediate = body.immediatelyExecute === true && realtime === undefined;
  const spendable = () => {
    assertDailyVolume(ctx, from.code, pricing.totalSendingAmount);
    if (source.debit) assertFunds(source.debit, pricing.totalSendingAmount);
  };
  if (immediate) spendable();
  if (immediate && source.debit) {
    const challenge = await authorizeSpend(ctx, call, source.debit, {
      action: 'CREATE_AND_EXECUTE_QUOTE',
      amount: pricing.totalSendingAmount,
      currency: from.code,
    });
    if (challenge) return challenge;
    // Other requests ran during the await: checked again, with no await from here to the debit (in
    // execute), so concurrent payments never both pass the balance or the daily volume limit.
    spendable();
  }

  const createdMs = now(ctx);
  const quoteId = ctx.ids.next('Quote');
  const txId = ctx.ids.next('Transaction');
  const customer = source.customerId ? ctx.world.customers.get(source.customerId)?.data : undefined;
  const rateDetails = dest.target.kind === 'uma' ? { ...pricing.rateDetails, counterpartyMultiplier: 1, counterpartyFixedFee: 0 } : pricing.rateDetails;
  const timestamp = nowIso(ctx);
  const reference = newReference(ctx, dest.target.kind === 'uma' ? 'UMA' : 'CB');
  const txData: OutgoingTransaction = {
    id: txId.id,
    status: 'PENDING',
    type: 'OUTGOING',
    direction: 'DEBIT',
    source: { sourceType: 'ACCOUNT', accountId: source.accountId, currency: from.code },
    destination: dest.destination,
    ...(customer ? { customerId: customer.id, platformCustomerId: customer.platformCustomerId } : {}),
    receivedAmount: { amount: pricing.totalReceivingAmount, currency: currencyObject(to.code) },
    createdAt: timestamp,
    updatedAt: timestamp,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(dest.counterparty ? { counterpartyInformation: dest.counterparty } : {}),
    reconciliationInstructions: { reference },
    rateDetails,
  };
  const creditAccountId = dest.target.kind === 'internal' ? dest.target.accountId : dest.target.kind === 'uma' ? dest.target.localAccountId : undefined;
  const tx: TransactionRec = {
    seq: txId.seq,
    createdMs,
    data: txData,
    quoteId: quoteId.id,
    credit: creditAccountId ? { accountId: creditAccountId, amount: pricing.totalReceivingAmount } : undefined,
  };
  const expiresMs = createdMs + QUOTE_TTL_MS;
  const data: Quote = {
    id: quoteId.id,
    status: 'PENDING',
    createdAt: timestamp,
    expiresAt: iso(expiresMs),
    source: realtime ?? {
      sourceType: 'ACCOUNT',
      accountId: source.accountId,
      currency: from.code,
      ...(source.customerId ? { customerId: source.customerId } : {}),
    },
    destination: dest.destination,
    sendingCurrency: currencyObject(from.code),
    receivingCurrency: currencyObject(to.code),
    totalSendingAmount: pricing.totalSendingAmount,
    totalReceivingAmount: pricing.totalReceivingAmount,
    exchangeRate: pricing.exchangeRate,
    feesIncluded: pricing.feesIncluded,
    transactionId: txId.id,
    ...(realtime && source.debit ? { paymentInstructions: realtimeInstructions(source.debit, reference, realtime.cryptoNetwork) } : {}),
    ...(dest.counterparty ? { counterpartyInformation: dest.counterparty } : {}),
    rateDetails,
  };
  const failure = failureFor(dest.identifier) ?? outcomeOverride(ctx, data.id);
  const quote: QuoteRec = {
    seq: quoteId.seq,
    createdMs,
    data,
    expiresMs,
    debitAccountId: source.debit?.data.id,
    target: dest.target,
    outcome: failure ?? (staysProcessing(dest.identifier) ? 'STUCK' : 'COMPLETE'),
  };
  ctx.world.quotes.set(data.id, quote);
  ctx.world.transactions.set(txData.id, recordStatus(tx));
  // An SCA customer's payment waits for its authorization (domain/sca.ts): a just-in-time quote from its creation
  // (production's 202, its paymentInstructions withheld until authorized: releaseQuote), any other instead of
  // executing. A factor its challenge cannot use (400 naming scaFactor) leaves no quote behind.
  let held: boolean;
  try {
    held = (realtime !== undefined || immediate) && holdForAuthorization(ctx, quote, body.scaFactor);
  } catch (error) {
    ctx.world.quotes.delete(data.id);
    ctx.world.transactions.delete(txData.id);
    throw error;
  }
  scheduleExpiry(ctx, quote);
  noteQuoteKey(ctx, data.id, 'create', call.header('idempotency-key'));
  if (held && realtime) {
    delete data.paymentInstructions;
    return ok(data, 202);
  }
  if (immediate && !held) execute(ctx, quote);
  return ok(data);
};

/**
 * What the authorization of a quote held for Strong Customer Authentication releases (`POST
 * /quotes/{quoteId}/authorize`, domain/sca.ts's authorizeQuote): a just-in-time quote gets the paymentInstructions
 * withheld at its creation and waits, PENDING, for its funds (nothing moves until they arrive); any other executes.
 */
export function releaseQuote(ctx: Ctx, quote: QuoteRec): void {
  const source = quote.data.source;
  if (source.sourceType !== 'REALTIME_FUNDING') return execute(ctx, quote);
  const tx = ctx.world.transactions.get(quote.data.transactionId);
  const account = quote.debitAccountId ? ctx.world.internalAccounts.get(quote.debitAccountId) : undefined;
  const reference = tx?.data.reconciliationInstructions?.reference;
  if (account && reference !== undefined) quote.data.paymentInstructions = realtimeInstructions(account, reference, source.cryptoNetwork);
  if (tx) {
    tx.data.updatedAt = nowIso(ctx);
    recordStatus(tx, tx.data.updatedAt);
  }
}

/** A quote, or 404 QUOTE_NOT_FOUND. */
export function findQuote(ctx: Ctx, id: string): QuoteRec {
  const quote = ctx.world.quotes.get(id);
  if (!quote) throw notFound('QUOTE_NOT_FOUND', 'Quote', id);
  return quote;
}

const get: Handler = (ctx, call) => ok(findQuote(ctx, call.params.quoteId!).data);

/**
 * The `scaFactor` of an execute's body (production's optional ExecuteQuoteRequest; our document declares no body,
 * so it is read here, unvalidated beyond being a string: a factor the challenge cannot use is 400 from domain/sca.ts).
 */
function executeFactor(json: unknown): string | undefined {
  const factor = json !== null && typeof json === 'object' ? (json as { scaFactor?: unknown }).scaFactor : undefined;
  return typeof factor === 'string' ? factor : undefined;
}

const run: Handler = async (ctx, call) => {
  const quote = findQuote(ctx, call.params.quoteId!);
  assertExecutable(ctx, quote);
  assertDailyVolume(ctx, sandboxCurrency(quote.data.sendingCurrency), quote.data.totalSendingAmount);
  const source = quote.debitAccountId ? ctx.world.internalAccounts.get(quote.debitAccountId) : undefined;
  const challenge = await authorizeSpend(ctx, call, source, {
    quoteId: quote.data.id,
    amount: quote.data.totalSendingAmount,
    currency: quote.data.sendingCurrency.code,
  });
  if (challenge) return challenge;
  // Other requests ran during the await: the daily volume is checked again, with no await from here to
  // the debit (execute checks the quote and the funds itself), so concurrent executions never pass it.
  assertDailyVolume(ctx, sandboxCurrency(quote.data.sendingCurrency), quote.data.totalSendingAmount);
  noteQuoteKey(ctx, quote.data.id, 'execute', call.header('idempotency-key'));
  // An SCA customer's payment waits for its authorization (domain/sca.ts) instead of executing, its challenge of
  // the factor production's optional body asks for (`{ scaFactor }`, SMS_OTP by default).
  if (!holdForAuthorization(ctx, quote, executeFactor(call.json))) execute(ctx, quote);
  return ok(quote.data);
};

/** Default `sendingAmount` of the exchange rates (production's). */
const DEFAULT_RATE_AMOUNT = 10_000;

/**
 * The exchange rates of the platform's corridors (a currency enabled for OUTGOING to one enabled for
 * INCOMING), priced by the quotes' own pricing for `sendingAmount`: a quote locked on the SENDING side
 * made at once shows the same rate, fees and receiving amount. Without `destinationCurrency` every other
 * currency is listed; a corridor that cannot be priced (the amount does not cover its fees) is left out.
 */
const getExchangeRates: Handler = (ctx, call) => {
  const q = call.query as { sourceCurrency?: string; destinationCurrency?: string[]; sendingAmount?: number };
  const amount = q.sendingAmount ?? DEFAULT_RATE_AMOUNT;
  const enabled = (code: string, direction: 'OUTGOING' | 'INCOMING') => {
    const config = supported(ctx, code);
    return CURRENCIES.has(code) && config !== undefined && (!config.enabledTransactionTypes || config.enabledTransactionTypes.includes(direction));
  };
  const codes = [...CURRENCIES.keys()];
  const sources = (q.sourceCurrency !== undefined ? [q.sourceCurrency] : codes).filter((c) => enabled(c, 'OUTGOING'));
  const updatedAt = nowIso(ctx);
  const data: ExchangeRate[] = [];
  for (const source of sources) {
    const destinations = q.destinationCurrency ?? codes.filter((c) => c !== source);
    for (const destination of destinations.filter((c) => enabled(c, 'INCOMING'))) {
      const from = CURRENCIES.get(source)!;
      const to = CURRENCIES.get(destination)!;
      const pricing = corridorPrice(from, to, amount);
      if (!pricing) continue;
      data.push({
        sourceCurrency: currencyObject(source),
        sendingAmount: amount,
        minSendingAmount: supported(ctx, source)?.minAmount ?? 1,
        maxSendingAmount: supported(ctx, source)?.maxAmount ?? MAX_QUOTE_AMOUNT,
        destinationCurrency: currencyObject(destination),
        destinationPaymentRail: payoutRail(destination),
        receivingAmount: pricing.totalReceivingAmount,
        exchangeRate: pricing.exchangeRate,
        fees: { fixed: pricing.rateDetails.serviceApiFixedFee, total: pricing.feesIncluded },
        updatedAt,
      });
    }
  }
  return ok({ data });
};

/**
 * The fees of a crypto withdrawal from an internal account: 404 for an unknown account, 400 when it does
 * not hold `currency` (or holds no crypto), when the network is not one the sandbox prices, or when the
 * fee would take the whole amount. Changes nothing.
 */
const estimateWithdrawalFee: Handler = (ctx, call) => {
  const body = call.body as CryptoWithdrawalFeeEstimateParams;
  const account = findInternalAccount(ctx, body.internalAccountId);
  if (account.currency !== body.currency || internalAccountType(account.currency) !== 'INTERNAL_CRYPTO') {
    throw new SandboxError(400, 'INVALID_CURRENCY', `${account.data.id} holds ${account.currency}: it cannot withdraw ${body.currency} on chain.`, {
      field: 'currency',
    });
  }
  const network = networkFee(body.cryptoNetwork);
  if (!network) {
    throw invalidInput(
      'cryptoNetwork',
      `The sandbox prices withdrawals on SOLANA, ETHEREUM, BASE, POLYGON, SPARK, LIGHTNING and BITCOIN, not ${body.cryptoNetwork}.`,
    );
  }
  const estimate = withdrawalFee(CURRENCIES.get(account.currency)!, network, body.amount);
  if (estimate.netAmount <= 0) {
    throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `${body.amount} ${body.currency} does not cover the withdrawal fee of ${estimate.totalFee}.`, {
      field: 'amount',
      totalFee: estimate.totalFee,
    });
  }
  return ok(estimate);
};

/** The quote, exchange-rate, crypto-fee and receiver-lookup routes. */
export const quoteRoutes = {
  createQuote: create,
  getQuote: get,
  executeQuote: run,
  lookupUmaReceiver: lookupUma,
  lookupExternalAccountReceiver: lookupExternal,
  getExchangeRates,
  estimateCryptoWithdrawalFee: estimateWithdrawalFee,
} satisfies Record<string, Handler>;
