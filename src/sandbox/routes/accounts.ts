/**
 * Internal and external accounts, and sandbox funding.
 * @module
 */
import type {
  ExternalAccount,
  ExternalAccountCreateParams,
  ExternalAccountInfo,
  OwnershipChallengeParams,
  OwnershipVerifyParams,
  SandboxFundParams,
} from '../../generated/types';
import { ACCOUNT_TYPES, accountTypeNamed, checkAccountInfo, identifyingField, internalAccountType, moveBalance } from '../domain/accounts';
import { now, nowIso, type Call, type Ctx, type Handler } from '../domain/context';
import { CURRENCIES } from '../domain/currencies';
import { SandboxError, invalidInput, notFound } from '../domain/errors';
import { findCustomer, findExternalAccount, findInternalAccount, liveExternalAccounts, liveInternalAccounts } from '../domain/finders';
import { ok } from '../serve/http';
import { fundRealtimeQuotes } from '../domain/payments';
import { MAGIC } from '../domain/magic';
import { needsOwnershipProof, startOwnershipChallenge, verifyOwnership } from '../domain/ownership';
import { paginate } from '../domain/pagination';
import type { ExternalAccountRec } from '../domain/state';

/** The number or address that identifies an external account (what the magic values of MAGIC are compared with). */
export function accountIdentifier(info: ExternalAccountInfo): string | undefined {
  return identifyingField(info);
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
  const info = body.accountInfo;
  const rule = accountTypeNamed(info.accountType);
  if (rule === undefined) {
    // Production refuses a type it does not list; the sandbox accepts every one it lists.
    throw new SandboxError(400, 'INVALID_INPUT', `accountType ${info.accountType} is not one the service lists.`, {
      field: 'accountInfo.accountType',
      accepted: Object.keys(ACCOUNT_TYPES),
    });
  }
  // A bank account's currency is its type's; a wallet holds an asset the sandbox knows.
  if (rule.currency === undefined ? !CURRENCIES.has(body.currency) : rule.currency !== body.currency) {
    throw new SandboxError(
      400,
      'INVALID_CURRENCY',
      rule.currency === undefined ? `Currency ${body.currency} is not supported.` : `A ${info.accountType} holds ${rule.currency}, not ${body.currency}.`,
      { field: 'currency', currency: body.currency, accountType: info.accountType },
    );
  }
  checkAccountInfo(info.accountType, rule, info, body.cryptoNetwork);
  // A type whose production form needs no identifying field is told apart by its whole accountInfo.
  const identifier = accountIdentifier(info) ?? JSON.stringify(info);
  if (body.defaultUmaDepositAccount && !customerId) {
    throw invalidInput('defaultUmaDepositAccount', 'defaultUmaDepositAccount needs a customerId: platform accounts receive no UMA payments.');
  }

  const existing = [...ctx.world.externalAccounts.values()].find(
    (a) =>
      a.data.customerId === customerId &&
      a.data.currency === body.currency &&
      a.data.accountInfo.accountType === info.accountType &&
      a.identifier === identifier,
  );
  const rec = existing ?? newAccount(ctx, body, customerId, identifier);
  if (body.defaultUmaDepositAccount && customerId) makeDefaultDeposit(ctx, rec, customerId);
  return { rec, created: !existing };
}

function newAccount(ctx: Ctx, body: ExternalAccountCreateParams, customerId: string | null, identifier: string): ExternalAccountRec {
  const { id, seq } = ctx.ids.next('ExternalAccount');
  const data: ExternalAccount = {
    id,
    status:
      identifier === MAGIC.underReview
        ? 'UNDER_REVIEW'
        : needsOwnershipProof(body.accountInfo.accountType, body.ownershipType)
          ? 'PENDING_OWNERSHIP_VERIFICATION'
          : 'ACTIVE',
    currency: body.currency,
    accountInfo: body.accountInfo,
    customerId,
    ...(body.platformAccountId !== undefined ? { platformAccountId: body.platformAccountId } : {}),
    ...(body.ownershipType !== undefined ? { ownershipType: body.ownershipType } : {}),
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

type AccountQuery = { currency?: string; customerId?: string; type?: string; limit?: number; cursor?: string };

const listInternal: Handler = (ctx, call) => {
  const q = call.query as AccountQuery;
  const matches = liveInternalAccounts(ctx).filter(
    (a) =>
      (q.currency === undefined || a.currency === q.currency) &&
      (q.customerId === undefined || a.data.customerId === q.customerId) &&
      // EMBEDDED_WALLET: every sandbox account can act as one (its EmbeddedWallet: id names it).
      (q.type === undefined || q.type === 'EMBEDDED_WALLET' || (a.data.type ?? internalAccountType(a.currency)) === q.type),
  );
  return ok(paginate(matches, q, (a) => a.data));
};

/**
 * The body with the `accountInfo` fields as sent: the body's check keeps only the fields our document
 * names for a type, and production's own fields (`clabeNumber`, `bankCode`, an AED `iban` …) are the
 * account's. The checked values win where both have a field.
 */
function withSentAccountInfo<T extends { accountInfo: ExternalAccountInfo }>(call: Call, body: T): T {
  const sent = (call.json as { accountInfo?: Record<string, unknown> } | undefined)?.accountInfo;
  if (!sent || sent.accountType !== body.accountInfo.accountType) return body;
  return { ...body, accountInfo: { ...sent, ...body.accountInfo } };
}

const createExternal: Handler = (ctx, call) => {
  const { rec, created } = register(ctx, withSentAccountInfo(call, call.body as ExternalAccountCreateParams));
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
  const body = withSentAccountInfo(call, call.body as Omit<ExternalAccountCreateParams, 'customerId'>);
  // The platform route takes no customerId: drop one rather than register a customer account here.
  const { rec } = register(ctx, {
    currency: body.currency,
    accountInfo: body.accountInfo,
    platformAccountId: body.platformAccountId,
    ownershipType: body.ownershipType,
  });
  return ok(rec.data);
};

const listPlatformExternal: Handler = (ctx, call) => {
  const q = call.query as AccountQuery;
  const matches = liveExternalAccounts(ctx).filter((a) => a.data.customerId === null && (q.currency === undefined || a.data.currency === q.currency));
  // Production's form: a page (limit, cursor) with hasMore and totalCount; without limit or cursor the
  // first page holds up to the default page size, as every list of the sandbox.
  return ok(paginate(matches, q, (a) => a.data));
};

/**
 * Production's operations on one external account, by id: a customer's under `/customers/external-accounts`,
 * the platform's under `/platform/external-accounts`. Each path finds only its own kind: the other's id
 * (and a deleted account) is 404 EXTERNAL_ACCOUNT_NOT_FOUND.
 */
function byId(owner: 'customer' | 'platform') {
  const find = (ctx: Ctx, call: Call): ExternalAccountRec => {
    const id = call.params.externalAccountId!;
    const rec = findExternalAccount(ctx, id);
    if ((owner === 'platform') !== !rec.data.customerId) throw notFound('EXTERNAL_ACCOUNT_NOT_FOUND', 'External account', id);
    return rec;
  };
  return {
    get: ((ctx, call) => ok(find(ctx, call).data)) satisfies Handler,
    /** Gone from reads and lists; a quote to it then finds no account. */
    delete: ((ctx, call) => {
      const rec = find(ctx, call);
      ctx.world.externalAccounts.delete(rec.data.id);
      ctx.world.ownershipChallenges.delete(rec.data.id);
      return { status: 204 };
    }) satisfies Handler,
    challenge: ((ctx, call) => ok(startOwnershipChallenge(ctx, find(ctx, call), (call.body as OwnershipChallengeParams).method), 201)) satisfies Handler,
    verify: ((ctx, call) => ok(verifyOwnership(ctx, find(ctx, call), (call.body as OwnershipVerifyParams).signature))) satisfies Handler,
  };
}

const customerById = byId('customer');
const platformById = byId('platform');

const fund: Handler = (ctx, call) => {
  const account = findInternalAccount(ctx, call.params.accountId!);
  moveBalance(ctx, account, (call.body as SandboxFundParams).amount);
  account.data.updatedAt = nowIso(ctx);
  // Funds arriving just in time execute the account's waiting REALTIME_FUNDING quotes.
  fundRealtimeQuotes(ctx, account);
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
  getCustomerExternalAccountById: customerById.get,
  deleteCustomerExternalAccountById: customerById.delete,
  createExternalAccountOwnershipChallenge: customerById.challenge,
  verifyExternalAccountOwnership: customerById.verify,
  getPlatformExternalAccountById: platformById.get,
  deletePlatformExternalAccountById: platformById.delete,
  createPlatformExternalAccountOwnershipChallenge: platformById.challenge,
  verifyPlatformExternalAccountOwnership: platformById.verify,
} satisfies Record<string, Handler>;
