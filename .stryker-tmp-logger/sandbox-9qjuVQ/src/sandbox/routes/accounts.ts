/**
 * Internal and external accounts, and sandbox funding.
 * @module
 */
// @ts-nocheck

import type {
  ExternalAccount,
  ExternalAccountCreateParams,
  ExternalAccountInfo,
  SandboxFundParams,
} from '../../generated/types';
import { moveBalance } from '../accounts';
import { now, nowIso, type Ctx, type Handler } from '../context';
import { CURRENCIES } from '../currencies';
import { SandboxError, invalidInput } from '../errors';
import { findCustomer, findInternalAccount, liveExternalAccounts, liveInternalAccounts } from '../finders';
import { ok } from '../http';
import { MAGIC } from '../magic';
import { paginate } from '../pagination';
import type { ExternalAccountRec } from '../state';

/** The currency each account type holds. */
const CURRENCY_OF_TYPE: Record<ExternalAccountInfo['accountType'], string> = {
  USD_ACCOUNT: 'USD',
  GBP_ACCOUNT: 'GBP',
  AED_ACCOUNT: 'AED',
  BRL_ACCOUNT: 'BRL',
  SPARK_WALLET: 'BTC',
};

/** The number or address that identifies an external account (what the magic values of MAGIC are compared with). */
export function accountIdentifier(info: ExternalAccountInfo): string | undefined {
  switch (info.accountType) {
    case 'SPARK_WALLET':
      return info.address ?? info.invoice;
    case 'BRL_ACCOUNT':
      return info.accountNumber ?? info.pixKey;
    default:
      return info.accountNumber;
  }
}

function beneficiaryCheck(info: ExternalAccountInfo, identifier: string): Pick<ExternalAccount, 'beneficiaryVerificationStatus' | 'beneficiaryVerifiedData'> {
  if (info.accountType === 'SPARK_WALLET') return { beneficiaryVerificationStatus: 'UNSUPPORTED' };
  const name = info.beneficiary?.fullName;
  if (identifier === MAGIC.beneficiaryNotMatched) return { beneficiaryVerificationStatus: 'NOT_MATCHED' };
  if (!name) return { beneficiaryVerificationStatus: 'CHECKED_BY_RECEIVING_FI' };
  if (identifier === MAGIC.beneficiaryPartialMatch) {
    // What a rail would report for a partial match: the registered name with its first name initialled.
    const [first = '', ...rest] = name.split(' ');
    return { beneficiaryVerificationStatus: 'PARTIAL_MATCH', beneficiaryVerifiedData: { fullName: [`${first.charAt(0)}.`, ...rest].join(' ') } };
  }
  return { beneficiaryVerificationStatus: 'MATCHED', beneficiaryVerifiedData: { fullName: name } };
}

/** Registers (or finds, answering 200) an external account; shared by the customer and platform routes. */
function register(ctx: Ctx, body: ExternalAccountCreateParams): { rec: ExternalAccountRec; created: boolean } {
  const customerId = body.customerId ?? null;
  if (customerId) findCustomer(ctx, customerId);
  if (!CURRENCIES.has(body.currency)) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `Currency ${body.currency} is not supported.`, { field: 'currency', currency: body.currency });
  }
  const info = body.accountInfo;
  const held = CURRENCY_OF_TYPE[info.accountType];
  if (held === undefined) {
    // The service's account types are an open set; the sandbox emulates the ones the document lists.
    throw new SandboxError(400, 'INVALID_INPUT', `The sandbox does not emulate accountType ${info.accountType}.`, {
      field: 'accountInfo.accountType',
      emulated: Object.keys(CURRENCY_OF_TYPE),
    });
  }
  if (held !== body.currency) {
    throw new SandboxError(400, 'INVALID_CURRENCY', `A ${info.accountType} holds ${held}, not ${body.currency}.`, {
      field: 'currency',
      currency: body.currency,
      accountType: info.accountType,
    });
  }
  const identifier = accountIdentifier(info);
  if (!identifier) {
    const field = info.accountType === 'SPARK_WALLET' ? 'accountInfo.address' : info.accountType === 'BRL_ACCOUNT' ? 'accountInfo.pixKey' : 'accountInfo.accountNumber';
    throw invalidInput(field, `${field} is required for a ${info.accountType}.`);
  }
  const isWallet = info.accountType === 'SPARK_WALLET';
  if (isWallet && !body.cryptoNetwork) throw invalidInput('cryptoNetwork', 'cryptoNetwork is required for cryptocurrency wallets (e.g. SPARK_MAINNET).');
  if (!isWallet && body.cryptoNetwork) throw invalidInput('cryptoNetwork', 'cryptoNetwork applies to cryptocurrency wallets only.');
  if (body.defaultUmaDepositAccount && !customerId) {
    throw invalidInput('defaultUmaDepositAccount', 'defaultUmaDepositAccount needs a customerId: platform accounts receive no UMA payments.');
  }

  const existing = [...ctx.world.externalAccounts.values()].find(
    (a) => a.data.customerId === customerId && a.data.currency === body.currency && a.data.accountInfo.accountType === info.accountType && a.identifier === identifier,
  );
  const rec = existing ?? newAccount(ctx, body, customerId, identifier);
  if (body.defaultUmaDepositAccount && customerId) makeDefaultDeposit(ctx, rec, customerId);
  return { rec, created: !existing };
}

function newAccount(ctx: Ctx, body: ExternalAccountCreateParams, customerId: string | null, identifier: string): ExternalAccountRec {
  const { id, seq } = ctx.ids.next('ExternalAccount');
  const data: ExternalAccount = {
    id,
    status: identifier === MAGIC.underReview ? 'UNDER_REVIEW' : 'ACTIVE',
    currency: body.currency,
    accountInfo: body.accountInfo,
    customerId,
    ...(body.platformAccountId !== undefined ? { platformAccountId: body.platformAccountId } : {}),
    defaultUmaDepositAccount: false,
    ...beneficiaryCheck(body.accountInfo, identifier),
    ...(body.cryptoNetwork !== undefined ? { cryptoNetwork: body.cryptoNetwork } : {}),
  };
  const rec: ExternalAccountRec = { seq, createdMs: now(ctx), data, identifier };
  ctx.world.externalAccounts.set(id, rec);
  return rec;
}

/** At most one default UMA deposit account per customer: setting it moves the flag here. */
function makeDefaultDeposit(ctx: Ctx, rec: ExternalAccountRec, customerId: string): void {
  for (const other of ctx.world.externalAccounts.values()) {
    if (other.data.customerId === customerId && other !== rec) other.data.defaultUmaDepositAccount = false;
  }
  rec.data.defaultUmaDepositAccount = true;
}

type AccountQuery = { currency?: string; customerId?: string; limit?: number; cursor?: string };

const listInternal: Handler = (ctx, call) => {
  const q = call.query as AccountQuery;
  const matches = liveInternalAccounts(ctx).filter(
    (a) => (q.currency === undefined || a.currency === q.currency) && (q.customerId === undefined || a.data.customerId === q.customerId),
  );
  return ok(paginate(matches, q, (a) => a.data));
};

const createExternal: Handler = (ctx, call) => {
  const { rec, created } = register(ctx, call.body as ExternalAccountCreateParams);
  return ok(rec.data, created ? 201 : 200);
};

const listExternal: Handler = (ctx, call) => {
  const q = call.query as AccountQuery;
  const matches = liveExternalAccounts(ctx).filter(
    (a) => (q.currency === undefined || a.data.currency === q.currency) && (q.customerId === undefined || a.data.customerId === q.customerId),
  );
  return ok(paginate(matches, q, (a) => a.data));
};

const createPlatformExternal: Handler = (ctx, call) => {
  const body = call.body as Omit<ExternalAccountCreateParams, 'customerId'>;
  // The platform route takes no customerId: drop one rather than register a customer account here.
  const { rec } = register(ctx, { currency: body.currency, accountInfo: body.accountInfo, platformAccountId: body.platformAccountId });
  return ok(rec.data);
};

const listPlatformExternal: Handler = (ctx, call) => {
  const q = call.query as { currency?: string };
  const data = liveExternalAccounts(ctx)
    .filter((a) => a.data.customerId === null && (q.currency === undefined || a.data.currency === q.currency))
    .sort((a, b) => b.createdMs - a.createdMs || b.seq - a.seq)
    .map((a) => a.data);
  return ok({ data });
};

const fund: Handler = (ctx, call) => {
  const account = findInternalAccount(ctx, call.params.accountId!);
  moveBalance(ctx, account, (call.body as SandboxFundParams).amount);
  account.data.updatedAt = nowIso(ctx);
  return ok(account.data);
};

/** The account routes (wallet privacy and export are in the wallet routes). */
export const accountRoutes = {
  listInternalAccounts: listInternal,
  createExternalAccount: createExternal,
  listExternalAccounts: listExternal,
  createPlatformExternalAccount: createPlatformExternal,
  listPlatformExternalAccounts: listPlatformExternal,
  sandboxFundInternalAccount: fund,
} satisfies Record<string, Handler>;
