/**
 * Customers: create (with internal accounts and a verification), read, update, soft delete, list.
 * @module
 */
import type { BusinessCustomer, Customer, CustomerCreateParams, CustomerUpdateParams, IndividualCustomer } from '../../generated/types';
import { openInternalAccount } from '../domain/accounts';
import { now, nowIso, type Call, type Ctx, type Handler } from '../domain/context';
import { CURRENCIES, defaultCurrencyFor } from '../domain/currencies';
import { SandboxError, invalidInput } from '../domain/errors';
import { findCustomer } from '../domain/finders';
import { ok } from '../serve/http';
import { syncKyc } from '../domain/kyc';
import { paginate } from '../domain/pagination';
import type { Rec } from '../domain/state';
import { isUmaAddress, umaSlug } from '../domain/uma';

/** 400 unless every currency is known, supported by the platform and licensable under one KYC regime. */
export function checkCurrencies(ctx: Ctx, currencies: string[], region: string, field: string): void {
  if (currencies.length === 0) throw invalidInput(field, `${field} must name at least one currency.`);
  const supported = new Set((ctx.world.config.supportedCurrencies ?? []).map((c) => c.currencyCode));
  for (const code of currencies) {
    if (!CURRENCIES.has(code) || !supported.has(code)) {
      throw new SandboxError(400, 'INVALID_CURRENCY', `Currency ${code} is not supported by this platform.`, {
        field,
        currency: code,
        supportedCurrencies: [...supported],
      });
    }
  }
  // BRL and AED are licensed under their own country's KYC; everything else combines freely.
  const regimes = new Map<string, string>();
  for (const code of currencies) {
    const regime = CURRENCIES.get(code)!.regime;
    if (regime !== 'GLOBAL') regimes.set(code, regime);
  }
  const distinct = new Set(regimes.values());
  const foreign = [...regimes].find(([, regime]) => regime !== region);
  if (distinct.size > 1 || foreign) {
    throw new SandboxError(
      400,
      'CURRENCY_COMBINATION_REQUIRES_SEPARATE_CUSTOMERS',
      distinct.size > 1
        ? `Currencies ${[...regimes.keys()].join(' and ')} fall under different KYC jurisdictions; register one customer per jurisdiction.`
        : `${foreign![0]} accounts need a customer of region ${foreign![1]}; register a separate customer for them.`,
      { field, region, jurisdictions: Object.fromEntries(regimes) },
    );
  }
}

/**
 * The region of a customer created without `region` or an address: the jurisdiction of a currency
 * licensed under its own country's KYC (BRL: BR, AED: AE), as production infers it; else US.
 */
function inferredRegion(currencies: readonly string[]): string {
  const own = new Set(currencies.map((code) => CURRENCIES.get(code)?.regime).filter((r): r is 'BR' | 'AE' => r !== undefined && r !== 'GLOBAL'));
  return own.size === 1 ? [...own][0]! : 'US';
}

/** 400 INVALID_UMA_ADDRESS unless `address` is well formed and no other live customer holds it. */
function checkUmaAddress(ctx: Ctx, address: string, self?: string): void {
  if (!isUmaAddress(address)) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${address} is not an UMA address ($user@domain.example).`, { field: 'umaAddress' });
  }
  const lower = address.toLowerCase();
  for (const c of ctx.world.customers.values()) {
    if (c.data.id !== self && !c.data.isDeleted && c.data.umaAddress.toLowerCase() === lower) {
      throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${address} already belongs to another customer.`, { field: 'umaAddress' });
    }
  }
}

/** `$<name slug>@<platform UMA domain>`, numbered when taken. */
function generateUmaAddress(ctx: Ctx, name: string | undefined): string {
  const slug = umaSlug(name) || 'customer';
  const taken = new Set([...ctx.world.customers.values()].filter((c) => !c.data.isDeleted).map((c) => c.data.umaAddress.toLowerCase()));
  const domain = ctx.world.config.umaDomain;
  for (let n = 1; ; n++) {
    const candidate = `$${slug}${n === 1 ? '' : n}@${domain}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

const INDIVIDUAL_ONLY = ['fullName', 'birthDate', 'nationality'] as const;

const create: Handler = (ctx, call) => {
  const body = call.body as CustomerCreateParams;
  const region = body.region ?? body.address?.country ?? inferredRegion(body.currencies ?? []);
  const currencies = [...new Set(body.currencies ?? [defaultCurrencyFor(region)])];
  checkCurrencies(ctx, currencies, region, 'currencies');
  if (body.umaAddress !== undefined) checkUmaAddress(ctx, body.umaAddress);
  const name = body.customerType === 'INDIVIDUAL' ? body.fullName : body.businessInfo.legalName;
  const umaAddress = body.umaAddress ?? generateUmaAddress(ctx, name);

  const { id, seq } = ctx.ids.next('Customer');
  const timestamp = nowIso(ctx);
  const common = {
    id,
    platformCustomerId: body.platformCustomerId ?? `cust-${ctx.random.hex(10)}`,
    customerType: body.customerType,
    umaAddress,
    region,
    currencies,
    createdAt: timestamp,
    updatedAt: timestamp,
    isDeleted: false,
    kycStatus: 'UNVERIFIED' as const,
  };
  const data: Customer =
    body.customerType === 'INDIVIDUAL'
      ? stripUndefined<IndividualCustomer>({
          ...common,
          customerType: 'INDIVIDUAL',
          fullName: body.fullName,
          birthDate: body.birthDate,
          nationality: body.nationality,
          address: body.address,
        })
      : stripUndefined<BusinessCustomer>({ ...common, customerType: 'BUSINESS', businessInfo: body.businessInfo, address: body.address });
  const rec: Rec<Customer> = { seq, createdMs: now(ctx), data };
  ctx.world.customers.set(id, rec);
  for (const currency of currencies) openInternalAccount(ctx, id, currency);
  syncKyc(ctx, rec);
  return ok(data);
};

const update: Handler = (ctx, call) => {
  const rec = findCustomer(ctx, call.params.customerId!);
  const json = call.json as Record<string, unknown>;
  // The schema has no `region`, so validation would silently drop it: say why it is refused instead.
  if (Object.hasOwn(json, 'region') && json.region !== rec.data.region) {
    throw invalidInput('region', 'region is immutable after creation; register a separate customer for another region.');
  }
  const body = call.body as CustomerUpdateParams;
  // Production refuses an update that does not name the customer's type (its update body is a union on it).
  if (body.customerType === undefined) throw invalidInput('customerType', 'customerType is required on every update (INDIVIDUAL or BUSINESS).');
  const type = body.customerType;
  const current = rec.data as Partial<Omit<IndividualCustomer, 'customerType'> & Omit<BusinessCustomer, 'customerType'>>;
  if (type === 'BUSINESS') {
    const stray = INDIVIDUAL_ONLY.find((f) => body[f] !== undefined);
    if (stray) throw invalidInput(stray, `${stray} applies to INDIVIDUAL customers only.`);
    if (!body.businessInfo && !current.businessInfo) throw invalidInput('businessInfo', 'businessInfo is required to make the customer a BUSINESS.');
    if (!current.businessInfo && !body.businessInfo?.legalName) throw invalidInput('businessInfo.legalName', 'businessInfo.legalName is required to make the customer a BUSINESS.');
  } else if (body.businessInfo !== undefined) {
    throw invalidInput('businessInfo', 'businessInfo applies to BUSINESS customers only.');
  }
  const currencies = body.currencies ? [...new Set(body.currencies)] : rec.data.currencies ?? [];
  if (body.currencies) checkCurrencies(ctx, currencies, rec.data.region ?? 'US', 'currencies');
  if (body.umaAddress !== undefined) checkUmaAddress(ctx, body.umaAddress, rec.data.id);

  const base = {
    id: rec.data.id,
    platformCustomerId: rec.data.platformCustomerId,
    customerType: type,
    umaAddress: body.umaAddress ?? rec.data.umaAddress,
    region: rec.data.region,
    currencies,
    createdAt: rec.data.createdAt,
    updatedAt: nowIso(ctx),
    isDeleted: false,
    kycStatus: rec.data.kycStatus,
  };
  rec.data =
    type === 'INDIVIDUAL'
      ? stripUndefined<IndividualCustomer>({
          ...base,
          customerType: 'INDIVIDUAL',
          fullName: body.fullName ?? current.fullName,
          birthDate: body.birthDate ?? current.birthDate,
          nationality: body.nationality ?? current.nationality,
          address: body.address ?? current.address,
        })
      : stripUndefined<BusinessCustomer>({
          ...base,
          customerType: 'BUSINESS',
          // Production's BusinessInfoUpdate: the fields sent replace theirs, the others stay.
          businessInfo: { ...current.businessInfo, ...stripUndefined({ ...body.businessInfo }) } as BusinessCustomer['businessInfo'],
          address: body.address ?? current.address,
        });
  // Accounts of dropped currencies stay (their balances cannot vanish); new currencies get an account.
  const held = new Set([...ctx.world.internalAccounts.values()].filter((a) => a.data.customerId === rec.data.id).map((a) => a.currency));
  for (const currency of currencies) if (!held.has(currency)) openInternalAccount(ctx, rec.data.id, currency);
  syncKyc(ctx, rec);
  return ok(rec.data);
};

const remove: Handler = (ctx, call) => {
  const rec = findCustomer(ctx, call.params.customerId!);
  rec.data.isDeleted = true;
  rec.data.updatedAt = nowIso(ctx);
  return ok(rec.data);
};

const get: Handler = (ctx, call) => ok(findCustomer(ctx, call.params.customerId!).data);

const list: Handler = (ctx, call: Call) => {
  const q = call.query as {
    platformCustomerId?: string;
    customerType?: string;
    createdAfter?: string;
    createdBefore?: string;
    updatedAfter?: string;
    updatedBefore?: string;
    region?: string;
    currency?: string;
    umaAddress?: string;
    isIncludingDeleted?: boolean;
    limit?: number;
    cursor?: string;
  };
  const within = (value: string, after?: string, before?: string) =>
    (after === undefined || Date.parse(value) >= Date.parse(after)) && (before === undefined || Date.parse(value) <= Date.parse(before));
  const matches = [...ctx.world.customers.values()].filter(({ data: c }) => {
    if (c.isDeleted && !q.isIncludingDeleted) return false;
    if (q.platformCustomerId !== undefined && c.platformCustomerId !== q.platformCustomerId) return false;
    if (q.customerType !== undefined && c.customerType !== q.customerType) return false;
    if (q.region !== undefined && c.region !== q.region) return false;
    if (q.currency !== undefined && !c.currencies?.includes(q.currency)) return false;
    if (q.umaAddress !== undefined && c.umaAddress.toLowerCase() !== q.umaAddress.toLowerCase()) return false;
    return within(c.createdAt ?? '', q.createdAfter, q.createdBefore) && within(c.updatedAt ?? '', q.updatedAfter, q.updatedBefore);
  });
  return ok(paginate(matches, q, (r) => r.data));
};

/** Drops `undefined` fields so that answers only carry what is set. */
function stripUndefined<T>(value: Record<string, unknown>): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value as T;
}

/** The customer routes. */
export const customerRoutes = {
  createCustomer: create,
  listCustomers: list,
  getCustomer: get,
  updateCustomer: update,
  deleteCustomer: remove,
} satisfies Record<string, Handler>;
