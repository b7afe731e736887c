/**
 * Internal accounts: opened with their customer, one per enabled currency, each with funding
 * instructions in the shape of its currency's rails; and the balance moves every payment makes.
 * @module
 */
// @ts-nocheck

import type { FundingPaymentInstruction, InternalAccount } from '../generated/types';
import { now, nowIso, type Ctx } from './context';
import { currencyObject } from './currencies';
import { SandboxError } from './errors';
import { MAX_QUOTE_AMOUNT } from './pricing';
import { idSuffix, type InternalAccountRec } from './state';

function digits(ctx: Ctx, n: number): string {
  return ctx.random.pick('0123456789', n);
}

/** Where to send money so that it lands in an account of `currency` (all numbers are sandbox fakes). */
function fundingInstructions(ctx: Ctx, currency: string): FundingPaymentInstruction[] {
  const reference = `FUND-${ctx.random.pick('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 6)}`;
  const bank = (accountType: string, accountNumber: string, routingNumber: string | undefined, paymentRails: string[]) => ({
    accountType,
    accountNumber,
    ...(routingNumber ? { routingNumber } : {}),
    paymentRails,
    reference,
  });
  const info = (() => {
    switch (currency) {
      case 'USD':
        return bank('USD_ACCOUNT', digits(ctx, 12), '110000000', ['ACH', 'WIRE']);
      case 'GBP':
        return bank('GBP_ACCOUNT', digits(ctx, 8), '040004', ['FASTER_PAYMENTS']);
      case 'EUR':
        return bank('EUR_ACCOUNT', `DE89${digits(ctx, 18)}`, undefined, ['SEPA', 'SEPA_INSTANT']);
      case 'BRL':
        return bank('BRL_ACCOUNT', `${digits(ctx, 11)}`, undefined, ['PIX']);
      case 'AED':
        return bank('AED_ACCOUNT', `AE07${digits(ctx, 19)}`, undefined, ['UAEFTS']);
      case 'MXN':
        return bank('MXN_ACCOUNT', digits(ctx, 18), undefined, ['SPEI']);
      case 'BTC':
        return bank('SPARK_WALLET', `sprt1${ctx.random.pick('023456789acdefghjklmnpqrstuvwxyz', 38)}`, undefined, ['SPARK', 'LIGHTNING']);
      default:
        return bank('SOLANA_WALLET', ctx.random.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44), undefined, ['SOLANA']);
    }
  })();
  return [{ accountOrWalletInfo: info, instructionsNotes: `Include the reference ${reference} so the funds are matched to this account.`, isPlatformAccount: false }];
}

/** Opens an empty internal account of `currency` for `customerId`. */
export function openInternalAccount(ctx: Ctx, customerId: string, currency: string): InternalAccountRec {
  const { id, seq } = ctx.ids.next('InternalAccount');
  const timestamp = nowIso(ctx);
  const data: InternalAccount = {
    id,
    customerId,
    balance: { amount: 0, currency: currencyObject(currency) },
    fundingPaymentInstructions: fundingInstructions(ctx, currency),
    createdAt: timestamp,
    updatedAt: timestamp,
    privateEnabled: false,
  };
  const rec: InternalAccountRec = { seq, createdMs: now(ctx), data, suffix: idSuffix(id), currency };
  ctx.world.internalAccounts.set(id, rec);
  return rec;
}

/** The customer's first (primary) internal account in `currency`, if any. */
export function primaryAccount(ctx: Ctx, customerId: string, currency: string): InternalAccountRec | undefined {
  let best: InternalAccountRec | undefined;
  for (const a of ctx.world.internalAccounts.values()) {
    if (a.data.customerId === customerId && a.currency === currency && (!best || a.seq < best.seq)) best = a;
  }
  return best;
}

/** Adds `amount` (may be negative) to a balance; refuses to pass the largest representable amount. */
export function moveBalance(ctx: Ctx, account: InternalAccountRec, amount: number): void {
  if (amount > 0 && !fitsUnderCap(ctx, account, amount)) {
    throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `The balance of ${account.data.id} would exceed ${MAX_QUOTE_AMOUNT}.`, {
      field: 'amount',
      max: MAX_QUOTE_AMOUNT - account.data.balance.amount - inFlight(ctx, account),
    });
  }
  account.data.balance.amount += amount;
  account.data.updatedAt = nowIso(ctx);
}

/**
 * Money on its way out of `account`: the debits of its payments still in flight. A failure refunds
 * them, so every credit keeps their room under the cap (balance + in flight ≤ the cap always holds).
 */
function inFlight(ctx: Ctx, account: InternalAccountRec): number {
  let sum = 0;
  for (const tx of ctx.world.transactions.values()) {
    if (tx.data.status === 'PROCESSING' && tx.debited?.accountId === account.data.id) sum += tx.debited.amount;
  }
  return sum;
}

/** True when `amount` more fits under the balance cap beside the refunds `account` may still get. */
export function fitsUnderCap(ctx: Ctx, account: InternalAccountRec, amount: number): boolean {
  return account.data.balance.amount + inFlight(ctx, account) + amount <= MAX_QUOTE_AMOUNT;
}

/** 400 INVALID_AMOUNT unless `account` holds at least `amount`. */
export function assertFunds(account: InternalAccountRec, amount: number): void {
  if (account.data.balance.amount < amount) {
    throw new SandboxError(
      400,
      'INVALID_AMOUNT',
      `Insufficient balance: ${account.data.id} holds ${account.data.balance.amount} ${account.currency}, the payment needs ${amount}.`,
      { field: 'totalSendingAmount', accountId: account.data.id, available: account.data.balance.amount, required: amount },
    );
  }
}
