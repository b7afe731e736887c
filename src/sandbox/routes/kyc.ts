/**
 * KYC/KYB (production's operations): submitting a customer for verification and reading one
 * verification, the beneficial owners of business customers, and the hosted KYC link. What a
 * verification needs is decided in ../domain/kyc.ts.
 * @module
 */
import type {
  BeneficialOwner,
  BeneficialOwnerCreateParams,
  BeneficialOwnerUpdateParams,
  KycLink,
  KycLinkCreateParams,
  VerificationCreateParams,
} from '../../generated/types';
import { now, nowIso, type Ctx, type Handler } from '../domain/context';
import { notFound } from '../domain/errors';
import { findCustomer } from '../domain/finders';
import { ownerKycStatus, submitVerification, syncKyc } from '../domain/kyc';
import { paginate } from '../domain/pagination';
import type { Rec } from '../domain/state';
import { refuseFields } from '../domain/validation';
import { ok } from '../serve/http';

/** How long a hosted KYC link works. */
export const KYC_LINK_TTL_MS = 24 * 60 * 60_000;

/** True while the customer (by id) exists and is not deleted. */
function liveCustomer(ctx: Ctx, customerId: string): boolean {
  const customer = ctx.world.customers.get(customerId);
  return customer !== undefined && !customer.data.isDeleted;
}

/** A beneficial owner of a live customer, or 404 BENEFICIAL_OWNER_NOT_FOUND. */
function findOwner(ctx: Ctx, id: string): Rec<BeneficialOwner> {
  const rec = ctx.world.beneficialOwners.get(id);
  if (!rec || !liveCustomer(ctx, rec.data.customerId)) throw notFound('BENEFICIAL_OWNER_NOT_FOUND', 'Beneficial owner', id);
  return rec;
}

const createVerification: Handler = (ctx, call) => {
  const body = call.body as VerificationCreateParams;
  return ok(submitVerification(ctx, findCustomer(ctx, body.customerId)));
};

const getVerification: Handler = (ctx, call) => {
  const id = call.params.verificationId!;
  const rec = ctx.world.verifications.get(id);
  if (!rec || !liveCustomer(ctx, rec.data.customerId)) throw notFound('VERIFICATION_NOT_FOUND', 'Verification', id);
  return ok(rec.data);
};

const createBeneficialOwner: Handler = (ctx, call) => {
  const body = call.body as BeneficialOwnerCreateParams;
  const customer = findCustomer(ctx, body.customerId);
  if (customer.data.customerType !== 'BUSINESS') {
    refuseFields('body', [
      {
        location: 'body',
        field: 'customerId',
        rule: 'invalid_value',
        message: `must be a BUSINESS customer (beneficial owners belong to businesses); ${body.customerId} is ${customer.data.customerType}`,
      },
    ]);
  }
  const { id, seq } = ctx.ids.next('BeneficialOwner');
  const timestamp = nowIso(ctx);
  const data: BeneficialOwner = {
    id,
    customerId: body.customerId,
    roles: body.roles,
    ownershipPercentage: body.ownershipPercentage,
    personalInfo: body.personalInfo,
    kycStatus: ownerKycStatus(body.personalInfo),
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  ctx.world.beneficialOwners.set(id, { seq, createdMs: now(ctx), data });
  syncKyc(ctx, customer);
  return ok(data, 201);
};

const listBeneficialOwners: Handler = (ctx, call) => {
  const q = call.query as { customerId: string; limit?: number; cursor?: string };
  const matches = liveCustomer(ctx, q.customerId) ? [...ctx.world.beneficialOwners.values()].filter((o) => o.data.customerId === q.customerId) : [];
  return ok(paginate(matches, q, (o) => o.data));
};

const getBeneficialOwner: Handler = (ctx, call) => ok(findOwner(ctx, call.params.beneficialOwnerId!).data);

const updateBeneficialOwner: Handler = (ctx, call) => {
  const rec = findOwner(ctx, call.params.beneficialOwnerId!);
  const body = call.body as BeneficialOwnerUpdateParams;
  const personalInfo = { ...rec.data.personalInfo };
  for (const [key, value] of Object.entries(body.personalInfo ?? {})) if (value !== undefined) (personalInfo as Record<string, unknown>)[key] = value;
  rec.data = {
    ...rec.data,
    roles: body.roles ?? rec.data.roles,
    ownershipPercentage: body.ownershipPercentage ?? rec.data.ownershipPercentage,
    personalInfo,
    kycStatus: ownerKycStatus(personalInfo),
    updatedAt: nowIso(ctx),
  };
  syncKyc(ctx, findCustomer(ctx, rec.data.customerId));
  return ok(rec.data);
};

const createCustomerKycLink: Handler = (ctx, call) => {
  const customer = findCustomer(ctx, call.params.customerId!);
  const body = (call.body ?? {}) as KycLinkCreateParams;
  if (body.redirectUri !== undefined && !/^https?:\/\//i.test(body.redirectUri)) {
    refuseFields('body', [
      { location: 'body', field: 'redirectUri', rule: 'invalid_format', message: 'must start with https:// (or http:// for local development)' },
    ]);
  }
  const session = ctx.random.hex(16);
  const url = new URL(`https://kyc.sandbox.crossborder.example/onboard/${session}`);
  url.searchParams.set('customer', customer.data.id);
  if (body.redirectUri !== undefined) url.searchParams.set('redirectUri', body.redirectUri);
  const link: KycLink = {
    kycUrl: url.toString(),
    expiresAt: new Date(now(ctx) + KYC_LINK_TTL_MS).toISOString(),
    provider: 'SUMSUB',
    token: `_act-sbx-${ctx.random.hex(24)}`,
  };
  return ok(link, 201);
};

/** The KYC/KYB routes. */
export const kycRoutes = {
  createVerification,
  getVerification,
  createBeneficialOwner,
  listBeneficialOwners,
  getBeneficialOwner,
  updateBeneficialOwner,
  createCustomerKycLink,
} satisfies Record<string, Handler>;
