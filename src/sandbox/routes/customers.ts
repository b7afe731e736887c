/**
 * Customers: create (with internal accounts and a verification), read, update, soft delete, list.
 * @module
 */
import type { BusinessCustomer, CustomerCreateParams, CustomersCsvUpload, CustomerUpdateParams, IndividualCustomer } from '../../generated/types';
import { findImport, startImport } from '../domain/bulk-imports';
import { openInternalAccount } from '../domain/accounts';
import { nowIso, type Call, type Handler } from '../domain/context';
import { checkCurrencies, checkUmaAddress, createCustomer, stripUndefined } from '../domain/customers';
import { invalidInput } from '../domain/errors';
import { findCustomer } from '../domain/finders';
import { ok } from '../domain/reply';
import { syncKyc } from '../domain/kyc';
import { paginate, within } from '../domain/pagination';

const INDIVIDUAL_ONLY = ['fullName', 'birthDate', 'nationality'] as const;

const create: Handler = (ctx, call) => ok(createCustomer(ctx, call.body as CustomerCreateParams));

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
    if (!current.businessInfo && !body.businessInfo?.legalName)
      throw invalidInput('businessInfo.legalName', 'businessInfo.legalName is required to make the customer a BUSINESS.');
  } else if (body.businessInfo !== undefined) {
    throw invalidInput('businessInfo', 'businessInfo applies to BUSINESS customers only.');
  }
  const currencies = body.currencies ? [...new Set(body.currencies)] : (rec.data.currencies ?? []);
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
          businessInfo: { ...current.businessInfo, ...stripUndefined<Partial<NonNullable<BusinessCustomer['businessInfo']>>>({ ...body.businessInfo }) },
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

// Production's operations on customers: the end-user terms and the CSV import.

/** The version of the End User Terms the sandbox serves as current. */
export const END_USER_TERMS = { version: 'V1', url: 'https://www.lightspark.com/legal/grid/enduserterms' } as const;

const getEndUserTerms: Handler = () => ok({ ...END_USER_TERMS });

const uploadCustomersCsv: Handler = async (ctx, call) => ok(await startImport(ctx, (call.body as CustomersCsvUpload).file), 202);

const getBulkCustomerImportJob: Handler = (ctx, call) => ok(findImport(ctx, call.params.jobId!));

/** The customer routes. */
export const customerRoutes = {
  createCustomer: create,
  listCustomers: list,
  getCustomer: get,
  updateCustomer: update,
  deleteCustomer: remove,
  getEndUserTerms,
  uploadCustomersCsv,
  getBulkCustomerImportJob,
} satisfies Record<string, Handler>;
