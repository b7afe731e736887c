/**
 * Internal accounts: opened with their customer, one per enabled currency, each with funding
 * instructions in the shape of its currency's rails; and the balance moves every payment makes.
 * @module
 */
import type { FundingPaymentInstruction, InternalAccount } from '../../generated/types';
import { now, nowIso, type Ctx } from './context';
import { currencyObject } from './currencies';
import { checkedFields, type AccountType } from './account-types';
import { SandboxError } from './errors';
import { MAX_QUOTE_AMOUNT } from './pricing';
import { idSuffix, type InternalAccountRec } from './state';
import { refuseFields } from './validation';

export { ACCOUNT_TYPES, accountTypeNamed, type AccountType } from './account-types';

function digits(ctx: Pick<Ctx, 'random'>, n: number): string {
  return ctx.random.pick('0123456789', n);
}

/** Where to send money so that it lands in an account of `currency` (all numbers are sandbox fakes). */
function fundingInstructions(ctx: Pick<Ctx, 'random'>, currency: string): FundingPaymentInstruction[] {
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
  return [
    { accountOrWalletInfo: info, instructionsNotes: `Include the reference ${reference} so the funds are matched to this account.`, isPlatformAccount: false },
  ];
}

/** Crypto assets the sandbox holds: their accounts are INTERNAL_CRYPTO, the others INTERNAL_FIAT. */
const CRYPTO = new Set(['BTC', 'USDC', 'USDT']);

/** Stablecoins: a just-in-time funding in one of them names its `cryptoNetwork`. */
export const STABLECOINS: ReadonlySet<string> = new Set(['USDC', 'USDT']);

/** Production's `type` of an internal account of `currency` (every sandbox account can also act as an embedded wallet). */
export function internalAccountType(currency: string): 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' {
  return CRYPTO.has(currency) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

/** Opens an empty internal account of `currency` for `customerId`. */
/** Opens an internal account of `customerId` in `currency`: it needs only new ids, the random source, the clock and the world. */
export function openInternalAccount(
  ctx: Pick<Ctx, 'random' | 'clock' | 'world'> & { ids: Pick<Ctx['ids'], 'next'> },
  customerId: string,
  currency: string,
): InternalAccountRec {
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
    // Production's fields: the sandbox holds no funds in transit, so totalBalance follows balance.
    type: internalAccountType(currency),
    status: 'OPEN',
    totalBalance: { amount: 0, currency: currencyObject(currency) },
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

/**
 * Adds `amount` (may be negative) to a balance; refuses to pass the largest representable amount. Every
 * balance move passes here, and sends INTERNAL_ACCOUNT.BALANCE_UPDATED with the whole account, as
 * production does when an internal account's balance changes.
 */
export function moveBalance(ctx: Ctx, account: InternalAccountRec, amount: number): void {
  if (amount > 0 && !fitsUnderCap(ctx, account, amount)) {
    throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `The balance of ${account.data.id} would exceed ${MAX_QUOTE_AMOUNT}.`, {
      field: 'amount',
      max: MAX_QUOTE_AMOUNT - account.data.balance.amount - inFlight(ctx, account),
    });
  }
  account.data.balance.amount += amount;
  if (account.data.totalBalance) account.data.totalBalance.amount = account.data.balance.amount;
  account.data.updatedAt = nowIso(ctx);
  if (amount !== 0) ctx.webhooks.emit('INTERNAL_ACCOUNT.BALANCE_UPDATED', account.data);
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

/** 400 INVALID_AMOUNT unless `account` holds at least `amount`; `field` names the amount of the request. */
export function assertFunds(account: InternalAccountRec, amount: number, field = 'totalSendingAmount'): void {
  if (account.data.balance.amount < amount) {
    throw new SandboxError(
      400,
      'INVALID_AMOUNT',
      `Insufficient balance: ${account.data.id} holds ${account.data.balance.amount} ${account.currency}, the payment needs ${amount}.`,
      { field, accountId: account.data.id, available: account.data.balance.amount, required: amount },
    );
  }
}

/** Fields that identify an account, in the order they are looked for (the dedupe key and the magic values' carrier). */
const IDENTIFYING = ['accountNumber', 'iban', 'clabeNumber', 'address', 'invoice', 'pixKey', 'vpa'] as const;

/** The number or address that identifies an external account, if it carries one. */
export function identifyingField(info: object): string | undefined {
  for (const field of IDENTIFYING) {
    const value: unknown = Reflect.get(info, field);
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/**
 * Refuses an external account create whose `accountInfo` misses a field its type requires (the table in
 * ./account-types.ts), or whose `cryptoNetwork` does not fit the type: 400 INVALID_INPUT in the service's
 * shape, `details.errors[]` naming each missing field (`accountInfo.iban`), in the order production lists
 * them. `details.missing` repeats them, each group as `a or b` where either field does.
 */
export function checkAccountInfo(accountType: string, type: AccountType, info: object, cryptoNetwork: string | undefined): void {
  const given = (field: string) => {
    const value: unknown = Reflect.get(info, field);
    return typeof value === 'string' && value !== '';
  };
  const missing = checkedFields(type).filter((group) => !group.some(given));
  if (missing.length > 0) {
    const paths = missing.map((group) => group.map((field) => `accountInfo.${field}`));
    refuseFields(
      'body',
      paths.map((group) => ({
        location: 'body',
        field: group[0]!,
        rule: 'required',
        message: `is required for a ${accountType}${group.length > 1 ? ` (or ${group.slice(1).join(', ')})` : ''}`,
      })),
      { missing: paths.map((group) => group.join(' or ')) },
    );
  }
  if (type.beneficiary) checkBeneficiary(accountType, Reflect.get(info, 'beneficiary'));
  if (type.cryptoNetworkRequired && !cryptoNetwork) {
    refuseFields('body', [{ location: 'body', field: 'cryptoNetwork', rule: 'required', message: `is required for a ${accountType} (e.g. SPARK_MAINNET)` }]);
  }
  if (!type.wallet && cryptoNetwork) {
    refuseFields('body', [{ location: 'body', field: 'cryptoNetwork', rule: 'not_allowed', message: 'applies to cryptocurrency wallets only' }]);
  }
}

/** The name each beneficiary type requires (production's `UsdBeneficiary`, `BusinessBeneficiary`); another type is not checked further. */
const BENEFICIARY_NAME: Readonly<Record<string, string>> = { INDIVIDUAL: 'fullName', BUSINESS: 'legalName' };

/**
 * Refuses an account of a type whose create production requires a beneficiary of, when `beneficiary` is
 * missing or lacks its `beneficiaryType` or the name that type requires: 400 INVALID_INPUT naming the field
 * (`accountInfo.beneficiary.fullName`).
 */
function checkBeneficiary(accountType: string, beneficiary: unknown): void {
  const refuse = (field: string, message: string): never =>
    refuseFields('body', [{ location: 'body', field: `accountInfo.${field}`, rule: 'required', message }]);
  if (beneficiary === null || typeof beneficiary !== 'object') {
    refuse('beneficiary', `is required for a ${accountType} (beneficiaryType and fullName, or legalName for a BUSINESS)`);
  }
  const b = beneficiary as Record<string, unknown>;
  const filled = (field: string) => typeof b[field] === 'string' && b[field] !== '';
  if (!filled('beneficiaryType')) refuse('beneficiary.beneficiaryType', 'is required (INDIVIDUAL or BUSINESS)');
  const name = Object.hasOwn(BENEFICIARY_NAME, b.beneficiaryType as string) ? BENEFICIARY_NAME[b.beneficiaryType as string]! : undefined;
  if (name && !filled(name)) refuse(`beneficiary.${name}`, `is required for a ${String(b.beneficiaryType)} beneficiary`);
}
