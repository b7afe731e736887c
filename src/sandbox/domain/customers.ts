/**
 * Customers: how one is made (its currencies, region and UMA address checked, its internal accounts
 * opened, its verification started), shared by `POST /customers` and the CSV import.
 * @module
 */
import type { BusinessCustomer, Customer, CustomerCreateParams, IndividualCustomer } from '../../generated/types';
import { openInternalAccount } from './accounts';
import { now, nowIso, type Ctx } from './context';
import { CURRENCIES, defaultCurrencyFor } from './currencies';
import { SandboxError, invalidInput } from './errors';
import { syncKyc } from './kyc';
import { initialContactVerification } from './sca-regions';
import type { Rec } from './state';
import { isUmaAddress, umaSlug } from './uma';

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
export function checkUmaAddress(ctx: Ctx, address: string, self?: string): void {
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

/**
 * Creates a customer from a validated `POST /customers` body, with its internal accounts and its
 * verification: the one way the sandbox makes customers (the API and the CSV import).
 */
export function createCustomer(ctx: Ctx, body: CustomerCreateParams): Customer {
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
    ...initialContactVerification(region),
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
  return data;
}

/** Drops `undefined` fields so that answers only carry what is set. */
export function stripUndefined<T>(value: Record<string, unknown>): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value as T;
}
