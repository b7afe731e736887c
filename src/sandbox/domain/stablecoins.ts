/**
 * Stablecoin issuance (production's `/stablecoins`, `/stablecoin-operations` and
 * `/stablecoin-provider-accounts`): the platform links its account at the provider (`BRALE`), registers the
 * stablecoins the provider created, and mints and burns them.
 *
 * The sandbox plays the provider. Every stablecoin it registers is `PROVISIONED`, USD-based, 6 decimals.
 * Money moves as production's document describes each source:
 *
 * - a mint funded from an internal account (`GRID_INTERNAL_ACCOUNT`) debits the fiat value from that account
 *   at once, in the same step as the balance check (as a transfer-out does); ACH-funded and provider-balance
 *   mints pull from outside the sandbox. Each is `PROCESSING` and `COMPLETED` {@link SETTLEMENT_MS} later;
 * - a wire-funded mint, and a burn whose tokens come from an outside wallet (`EXTERNAL_ACCOUNT`), answer
 *   funding instructions and stay `PENDING_FUNDING`: the sandbox's provider never receives outside funds,
 *   so they become `EXPIRED` at `expiresAt` ({@link FUNDING_WINDOW_MS});
 * - a burn takes its amount out of the stablecoin's outstanding supply (completed mints less the burns not
 *   failed or expired) in the step that checks it, so two burns cannot redeem the same tokens; its fiat value
 *   goes to the bank external account named.
 *
 * The provider account's `apiClientSecret` is checked for presence and never kept.
 * @module
 */
import type {
  Stablecoin,
  StablecoinBurnParams,
  StablecoinMintParams,
  StablecoinOperation,
  StablecoinProviderAccount,
  StablecoinProviderAccountLinkParams,
  StablecoinRegisterParams,
} from '../../generated/types';
import { sha256 } from '@noble/hashes/sha2.js';
import { assertFunds, moveBalance } from './accounts';
import { accountTypeNamed } from './account-types';
import { iso } from './clock';
import { now, nowIso, type Ctx } from './context';
import { SandboxError, invalidInput, notFound } from './errors';
import { findExternalAccount, findInternalAccount } from './finders';
import { SETTLEMENT_MS } from './payments';
import type { InternalAccountRec, Rec, StablecoinOperationRec, StablecoinProviderAccountRec, World } from './state';

/** The providers production's document lists (`StablecoinProvider`); the sandbox links no other. */
export const STABLECOIN_PROVIDERS = ['BRALE'] as const;
/** The networks production's document lists (`StablecoinNetwork`). */
export const STABLECOIN_NETWORKS = ['SPARK'] as const;
/** The fiat payout rails of a burn's destination (production's `StablecoinBurnDestination.rail`). */
export const BURN_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const;
/** Mint funding sources and burn sources production's document lists. */
const MINT_FUNDING = ['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
const BURN_SOURCES = ['EXTERNAL_ACCOUNT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;

/** The fiat currency and decimals of every stablecoin the sandbox registers. */
const BASE_CURRENCY = 'USD';
const FIAT_DECIMALS = 2;
const TOKEN_DECIMALS = 6;

/** How long an operation waits for outside funds before it expires (production's example: 7 days). */
export const FUNDING_WINDOW_MS = 7 * 24 * 3_600_000;

/** Rail timing estimates a burn answers (guidance, as production's `estimatedDelivery`). */
const RAIL_TIMING: Record<string, string> = {
  WIRE: 'same business day',
  ACH_CREDIT: '1-3 business days',
  SAME_DAY_ACH_CREDIT: 'same business day',
  RTP_CREDIT: 'seconds',
};

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function oneOfListed(value: string, listed: readonly string[], field: string, what: string): void {
  if (!listed.includes(value)) throw invalidInput(field, `${value} is not a ${what} the service lists; use ${listed.join(', ')}.`);
}

function environment(ctx: Ctx): 'SANDBOX' | 'PRODUCTION' {
  return ctx.environment === 'production' ? 'PRODUCTION' : 'SANDBOX';
}

// ---- provider account links ----

/** Links a provider account: any non-empty credentials verify; the secret is not kept. */
export function linkProviderAccount(ctx: Ctx, body: StablecoinProviderAccountLinkParams): StablecoinProviderAccount {
  oneOfListed(body.provider, STABLECOIN_PROVIDERS, 'provider', 'stablecoin provider');
  if (body.apiClientId.trim() === '') throw invalidInput('apiClientId', 'apiClientId must not be empty: it is the provider API client id.');
  if (body.apiClientSecret.trim() === '') throw invalidInput('apiClientSecret', 'apiClientSecret must not be empty: the provider verifies it.');
  // The credentials reach one provider account: the one named, else one derived from the client id.
  const providerAccountId = body.providerAccountId ?? hex(sha256(new TextEncoder().encode(body.apiClientId))).slice(0, 27);
  for (const rec of ctx.world.stablecoinProviderAccounts.values()) {
    if (rec.data.provider === body.provider && rec.data.providerAccountId === providerAccountId && rec.data.status === 'ACTIVE') {
      throw new SandboxError(409, 'CONFLICT', `The ${body.provider} account ${providerAccountId} is already linked as ${rec.data.id}.`, {
        field: 'providerAccountId',
        stablecoinProviderAccountId: rec.data.id,
      });
    }
  }
  const { id, seq } = ctx.ids.next('StablecoinProviderAccount');
  const at = nowIso(ctx);
  const data: StablecoinProviderAccount = {
    id,
    provider: body.provider,
    providerAccountId,
    providerEnvironment: environment(ctx),
    status: 'ACTIVE',
    lastVerifiedAt: at,
    createdAt: at,
    updatedAt: at,
  };
  ctx.world.stablecoinProviderAccounts.set(id, { seq, createdMs: now(ctx), data, apiClientId: body.apiClientId });
  return data;
}

/** A provider account link by id, or 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND (naming `field` when given). */
export function findProviderAccount(ctx: Ctx, id: string, field?: string): StablecoinProviderAccountRec {
  const rec = ctx.world.stablecoinProviderAccounts.get(id);
  if (!rec)
    throw new SandboxError(404, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', `Stablecoin provider account link ${id} was not found.`, {
      id,
      ...(field ? { field } : {}),
    });
  return rec;
}

/** The link a registration uses: the one named, else the platform's only active one. */
function selectProviderAccount(ctx: Ctx, id: string | undefined): StablecoinProviderAccountRec {
  if (id !== undefined) {
    const rec = findProviderAccount(ctx, id, 'stablecoinProviderAccountId');
    if (rec.data.status !== 'ACTIVE') {
      const code = rec.data.status === 'REVOKED' ? 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED' : 'STABLECOIN_PROVIDER_ACCOUNT_INVALID';
      throw new SandboxError(400, code, `Stablecoin provider account link ${id} is ${rec.data.status}, not ACTIVE.`, { field: 'stablecoinProviderAccountId' });
    }
    return rec;
  }
  const active = [...ctx.world.stablecoinProviderAccounts.values()].filter((r) => r.data.status === 'ACTIVE');
  if (active.length === 0) {
    throw new SandboxError(
      404,
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
      'The platform has no active stablecoin provider account link; link one first (POST /stablecoin-provider-accounts).',
      {
        field: 'stablecoinProviderAccountId',
      },
    );
  }
  if (active.length > 1) {
    throw new SandboxError(
      400,
      'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
      `The platform has ${active.length} active stablecoin provider account links; name one in stablecoinProviderAccountId.`,
      { field: 'stablecoinProviderAccountId', stablecoinProviderAccountIds: active.map((r) => r.data.id) },
    );
  }
  return active[0]!;
}

// ---- stablecoins ----

/** Registers a provider-created stablecoin against a provider account link. */
export function registerStablecoin(ctx: Ctx, body: StablecoinRegisterParams): Stablecoin {
  oneOfListed(body.network, STABLECOIN_NETWORKS, 'network', 'stablecoin network');
  if (body.providerTokenIdentifier.trim() === '') throw invalidInput('providerTokenIdentifier', 'providerTokenIdentifier must not be empty.');
  if (body.networkTokenIdentifier.trim() === '') throw invalidInput('networkTokenIdentifier', 'networkTokenIdentifier must not be empty.');
  const link = selectProviderAccount(ctx, body.stablecoinProviderAccountId);
  for (const rec of ctx.world.stablecoins.values()) {
    const same = rec.data.stablecoinProviderAccountId === link.data.id && rec.data.providerTokenIdentifier === body.providerTokenIdentifier;
    if (same || (rec.data.network === body.network && rec.data.networkTokenIdentifier === body.networkTokenIdentifier)) {
      throw new SandboxError(409, 'CONFLICT', `This token is already registered as ${rec.data.id}.`, {
        field: same ? 'providerTokenIdentifier' : 'networkTokenIdentifier',
        stablecoinId: rec.data.id,
      });
    }
  }
  const { id, seq } = ctx.ids.next('Stablecoin');
  const at = nowIso(ctx);
  const data: Stablecoin = {
    id,
    name: body.providerTokenIdentifier,
    symbol: body.providerTokenIdentifier,
    baseCurrency: BASE_CURRENCY,
    network: body.network,
    decimals: TOKEN_DECIMALS,
    issuanceStatus: 'PROVISIONED',
    gridOperationsStatus: 'NOT_ENABLED',
    networkTokenIdentifier: body.networkTokenIdentifier,
    provider: link.data.provider,
    stablecoinProviderAccountId: link.data.id,
    providerEnvironment: link.data.providerEnvironment,
    providerTokenIdentifier: body.providerTokenIdentifier,
    createdAt: at,
    updatedAt: at,
  };
  ctx.world.stablecoins.set(id, { seq, createdMs: now(ctx), data });
  return data;
}

/** A registered stablecoin, or 404 STABLECOIN_NOT_FOUND. */
export function findStablecoin(ctx: Ctx, id: string): Rec<Stablecoin> {
  const rec = ctx.world.stablecoins.get(id);
  if (!rec) throw notFound('STABLECOIN_NOT_FOUND', 'Stablecoin', id);
  return rec;
}

/** A mint or burn, or 404 STABLECOIN_OPERATION_NOT_FOUND. */
export function findStablecoinOperation(ctx: Ctx, id: string): StablecoinOperationRec {
  const rec = ctx.world.stablecoinOperations.get(id);
  if (!rec) throw notFound('STABLECOIN_OPERATION_NOT_FOUND', 'Stablecoin operation', id);
  return rec;
}

// ---- amounts ----

/**
 * The fiat value of `amount` (token smallest units), in cents: 400 naming `amount` when it is zero, does
 * not convert exactly to a whole cent, or is beyond what the sandbox counts exactly.
 */
export function fiatCents(amount: string, decimals: number): { units: bigint; cents: number } {
  const units = BigInt(amount);
  if (units <= 0n) throw invalidInput('amount', 'amount must be greater than 0.');
  const per = 10n ** BigInt(Math.max(0, decimals - FIAT_DECIMALS));
  if (units % per !== 0n) {
    throw invalidInput('amount', `amount ${amount} does not convert exactly to a whole cent: with ${decimals} decimals it must be a multiple of ${per}.`);
  }
  const cents = (units / per) * 10n ** BigInt(Math.max(0, FIAT_DECIMALS - decimals));
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `amount ${amount} is too large.`, { field: 'amount' });
  return { units, cents: Number(cents) };
}

/** Tokens of a stablecoin outstanding: completed mints less the burns not failed or expired (those hold their tokens). */
export function outstandingSupply(world: World, stablecoinId: string): bigint {
  let supply = 0n;
  for (const op of world.stablecoinOperations.values()) {
    if (op.data.stablecoinId !== stablecoinId) continue;
    if (op.data.operationType === 'MINT' && op.data.status === 'COMPLETED') supply += BigInt(op.data.amount);
    if (op.data.operationType === 'BURN' && op.data.status !== 'FAILED' && op.data.status !== 'EXPIRED') supply -= BigInt(op.data.amount);
  }
  return supply;
}

// ---- operations ----

function newOperation(
  ctx: Ctx,
  coin: Stablecoin,
  fields: Pick<StablecoinOperation, 'operationType' | 'status' | 'amount' | 'source' | 'destination'> & Partial<StablecoinOperation>,
): StablecoinOperationRec {
  const { id, seq } = ctx.ids.next('StablecoinOperation');
  const at = nowIso(ctx);
  const data: StablecoinOperation = {
    id,
    stablecoinId: coin.id,
    provider: coin.provider,
    providerEnvironment: coin.providerEnvironment,
    stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
    ...fields,
    createdAt: at,
    updatedAt: at,
  };
  return { seq, createdMs: now(ctx), data };
}

/** Stores an operation and schedules what comes next for it (settlement or expiry). */
function start(ctx: Ctx, rec: StablecoinOperationRec): StablecoinOperation {
  rec.dueMs = now(ctx) + (rec.data.status === 'PENDING_FUNDING' ? FUNDING_WINDOW_MS : SETTLEMENT_MS);
  if (rec.data.status === 'PENDING_FUNDING') rec.data.expiresAt = iso(rec.dueMs);
  ctx.world.stablecoinOperations.set(rec.data.id, rec);
  schedule(ctx, rec);
  return rec.data;
}

function schedule(ctx: Ctx, rec: StablecoinOperationRec): void {
  const world = ctx.world;
  if (rec.dueMs === undefined) return;
  ctx.scheduler.at(rec.dueMs, () => {
    if (ctx.world !== world) return;
    if (rec.data.status === 'PROCESSING') settle(ctx, rec, 'COMPLETED');
    else if (rec.data.status === 'PENDING_FUNDING') settle(ctx, rec, 'EXPIRED');
  });
}

function settle(ctx: Ctx, rec: StablecoinOperationRec, status: 'COMPLETED' | 'EXPIRED'): void {
  rec.data.status = status;
  rec.data.providerStatus = status === 'COMPLETED' ? 'complete' : 'expired';
  rec.data.updatedAt = nowIso(ctx);
  delete rec.dueMs;
}

/** After a state import: schedules again the operations still processing or waiting for funds. */
export function resumeStablecoins(ctx: Ctx): void {
  for (const rec of ctx.world.stablecoinOperations.values()) schedule(ctx, rec);
}

/** An external account by id, or 404 naming `field`. */
function externalAccount(ctx: Ctx, id: string, field: string) {
  try {
    return findExternalAccount(ctx, id);
  } catch (error) {
    if (error instanceof SandboxError) throw new SandboxError(404, error.code, error.message, { ...error.details, field });
    throw error;
  }
}

/** An internal account by id, or 404 naming `field`. */
function internalAccount(ctx: Ctx, id: string, field: string): InternalAccountRec {
  try {
    return findInternalAccount(ctx, id);
  } catch (error) {
    if (error instanceof SandboxError) throw new SandboxError(404, error.code, error.message, { ...error.details, field });
    throw error;
  }
}

/** A bank (not wallet) external account: the fiat end of a mint's ACH debit or of a burn. */
function bankAccount(ctx: Ctx, id: string, field: string) {
  const account = externalAccount(ctx, id, field);
  if (accountTypeNamed(account.data.accountInfo.accountType)?.wallet) {
    throw invalidInput(field, `${id} is a ${account.data.accountInfo.accountType}; this needs a bank account.`);
  }
  return account;
}

/** Where a mint's tokens go: an existing external or internal account. */
function mintDestination(ctx: Ctx, accountId: string): void {
  if (accountId.startsWith('InternalAccount:') || accountId.startsWith('EmbeddedWallet:')) internalAccount(ctx, accountId, 'destination.accountId');
  else externalAccount(ctx, accountId, 'destination.accountId');
}

/** Creates a mint. A mint funded from an internal account is debited here, in the step that checks the balance. */
export function mintStablecoin(ctx: Ctx, stablecoinId: string, body: StablecoinMintParams): StablecoinOperation {
  const coin = findStablecoin(ctx, stablecoinId).data;
  const { cents } = fiatCents(body.amount, coin.decimals);
  const funding = body.fundingSource as {
    type: string;
    externalAccountId?: string;
    accountId?: string;
    sourceTokenIdentifier?: string;
    cryptoNetwork?: string;
  };
  oneOfListed(funding.type, MINT_FUNDING, 'fundingSource.type', 'mint funding source');
  mintDestination(ctx, body.destination.accountId);
  const base = {
    operationType: 'MINT',
    amount: body.amount,
    destination: { accountId: body.destination.accountId },
    ...(body.description !== undefined ? { description: body.description } : {}),
  } as const;
  let rec: StablecoinOperationRec;
  switch (funding.type) {
    case 'WIRE':
      rec = newOperation(ctx, coin, {
        ...base,
        status: 'PENDING_FUNDING',
        source: { type: 'WIRE' },
        fundingInstructions: {
          rail: 'WIRE',
          bankName: 'Sandbox Provider Bank',
          accountNumber: ctx.random.pick('0123456789', 12),
          routingNumber: '110000000',
          beneficiaryName: `${coin.provider} FBO ${coin.symbol}`,
          reference: `MINT-${ctx.random.pick('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 8)}`,
          amount: String(cents),
          currency: coin.baseCurrency,
        },
      });
      break;
    case 'ACH_DEBIT':
    case 'SAME_DAY_ACH_DEBIT': {
      const field = 'fundingSource.externalAccountId';
      if (typeof funding.externalAccountId !== 'string') throw invalidInput(field, `${funding.type} funding needs externalAccountId.`);
      bankAccount(ctx, funding.externalAccountId, field);
      rec = newOperation(ctx, coin, { ...base, status: 'PROCESSING', source: { type: funding.type, externalAccountId: funding.externalAccountId } });
      break;
    }
    case 'GRID_INTERNAL_ACCOUNT': {
      const field = 'fundingSource.accountId';
      if (typeof funding.accountId !== 'string') throw invalidInput(field, 'GRID_INTERNAL_ACCOUNT funding needs accountId.');
      const account = internalAccount(ctx, funding.accountId, field);
      if (account.currency !== coin.baseCurrency) {
        throw new SandboxError(
          400,
          'INVALID_CURRENCY',
          `${funding.accountId} holds ${account.currency}; a mint of ${coin.symbol} is paid in ${coin.baseCurrency}.`,
          { field },
        );
      }
      // The check and the debit are one step: nothing else runs between them.
      assertFunds(account, cents, 'amount');
      rec = newOperation(ctx, coin, { ...base, status: 'PROCESSING', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: funding.accountId } });
      moveBalance(ctx, account, -cents);
      rec.debited = { accountId: account.data.id, amount: cents };
      break;
    }
    default: {
      for (const f of ['sourceTokenIdentifier', 'cryptoNetwork'] as const) {
        if (typeof funding[f] !== 'string') throw invalidInput(`fundingSource.${f}`, `PROVIDER_INTERNAL_BALANCE funding needs ${f}.`);
      }
      rec = newOperation(ctx, coin, {
        ...base,
        status: 'PROCESSING',
        source: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: funding.sourceTokenIdentifier!, cryptoNetwork: funding.cryptoNetwork! },
      });
    }
  }
  return start(ctx, rec);
}

/** Creates a burn: its amount is taken out of the outstanding supply in the step that checks it. */
export function burnStablecoin(ctx: Ctx, stablecoinId: string, body: StablecoinBurnParams): StablecoinOperation {
  const coin = findStablecoin(ctx, stablecoinId).data;
  const { units, cents } = fiatCents(body.amount, coin.decimals);
  const source = body.source as { type: string; accountId?: string };
  oneOfListed(source.type, BURN_SOURCES, 'source.type', 'burn source');
  oneOfListed(body.destination.type, ['EXTERNAL_ACCOUNT'], 'destination.type', 'burn destination');
  oneOfListed(body.destination.rail, BURN_RAILS, 'destination.rail', 'payout rail');
  bankAccount(ctx, body.destination.externalAccountId, 'destination.externalAccountId');
  if (source.type === 'GRID_INTERNAL_ACCOUNT') {
    if (typeof source.accountId !== 'string') throw invalidInput('source.accountId', 'GRID_INTERNAL_ACCOUNT burns need accountId.');
    internalAccount(ctx, source.accountId, 'source.accountId');
  }
  const supply = outstandingSupply(ctx.world, coin.id);
  if (units > supply) {
    throw new SandboxError(400, 'INVALID_AMOUNT', `amount ${body.amount} is more than the ${supply} ${coin.symbol} (smallest units) outstanding.`, {
      field: 'amount',
      available: supply.toString(),
    });
  }
  const pending = source.type === 'EXTERNAL_ACCOUNT';
  const rec = newOperation(ctx, coin, {
    operationType: 'BURN',
    status: pending ? 'PENDING_FUNDING' : 'PROCESSING',
    amount: body.amount,
    source: source.type === 'GRID_INTERNAL_ACCOUNT' ? { type: source.type, accountId: source.accountId! } : { type: source.type },
    destination: { accountId: body.destination.externalAccountId, rail: body.destination.rail },
    estimatedDelivery: {
      rail: body.destination.rail,
      amount: String(cents),
      currency: coin.baseCurrency,
      timing: RAIL_TIMING[body.destination.rail] ?? 'unknown',
    },
    ...(pending
      ? {
          fundingInstructions: {
            rail: 'SPARK',
            network: coin.network,
            address: `spark1${ctx.random.pick('023456789acdefghjklmnpqrstuvwxyz', 58)}`,
            valueType: coin.providerTokenIdentifier,
          },
        }
      : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
  });
  return start(ctx, rec);
}
