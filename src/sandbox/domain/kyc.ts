/**
 * KYC/KYB in the sandbox. A customer is APPROVED once what its verification needs is there, UNVERIFIED
 * (verification RESOLVE_ERRORS, one error per gap) until then; the magic name suffixes of {@link MAGIC}
 * force PENDING or REJECTED. What a verification needs, as production's `POST /verifications` describes
 * it: an individual's identity fields; a business's identifying fields, one control person and its
 * beneficial owners (`MISSING_CONTROL_PERSON`, `MISSING_BENEFICIAL_OWNER`), each of whom goes through KYC
 * of its own (a rejected one is `APPLICANT_REJECTED`, a pending one holds the business in review).
 *
 * Verifications: the customer's first is made with the customer; each `POST /verifications` makes a new
 * one. The latest follows the customer's data as it changes; the earlier ones keep what they said.
 * @module
 */
import type { BeneficialOwner, BeneficialOwnerPersonalInfo, Customer, KycStatus, Verification, VerificationError } from '../../generated/types';
import { nowIso, type Ctx } from './context';
import { MAGIC } from './magic';
import type { Rec, VerificationRec } from './state';

type VerificationStatus = Verification['verificationStatus'];

interface Assessment {
  kycStatus: KycStatus;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
}

interface Requirement {
  field: string;
  reason: string;
  documents?: string[];
}

/**
 * Fields each customer type needs for approval, with the documents that would prove them. A Map, so
 * that a type named like an Object.prototype key (`constructor`, `toString`) finds nothing.
 */
const REQUIRED: ReadonlyMap<string, readonly Requirement[]> = new Map([
  [
    'INDIVIDUAL',
    [
      { field: 'fullName', reason: 'Full legal name is required.', documents: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] },
      { field: 'birthDate', reason: 'Date of birth is required.', documents: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] },
      { field: 'nationality', reason: 'Nationality is required.', documents: ['PASSPORT', 'NATIONAL_ID'] },
      { field: 'address', reason: 'Residential address is required.', documents: ['UTILITY_BILL', 'BANK_STATEMENT'] },
    ],
  ],
  [
    'BUSINESS',
    [
      { field: 'businessInfo.taxId', reason: 'Tax identification number is required.' },
      { field: 'businessInfo.incorporatedOn', reason: 'Date of incorporation is required.', documents: ['CERTIFICATE_OF_INCORPORATION'] },
      { field: 'address', reason: 'Registered business address is required.', documents: ['CERTIFICATE_OF_INCORPORATION', 'BANK_STATEMENT'] },
    ],
  ],
]);

/** The requirements of a customer type; none for a type the sandbox does not know. */
export function requirementsOf(customerType: string): readonly Requirement[] {
  return REQUIRED.get(customerType) ?? [];
}

/** The webhook each verification status sends when a verification reaches it. */
const VERIFICATION_EVENTS: ReadonlyMap<string, string> = new Map([
  ['APPROVED', 'VERIFICATION.APPROVED'],
  ['RESOLVE_ERRORS', 'VERIFICATION.RESOLVE_ERRORS'],
  ['REJECTED', 'VERIFICATION.REJECTED'],
  ['PENDING_MANUAL_REVIEW', 'VERIFICATION.PENDING_MANUAL_REVIEW'],
  ['IN_PROGRESS', 'VERIFICATION.IN_PROGRESS'],
]);

/**
 * The webhook each customer `kycStatus` sends when the customer reaches it. Business customers too:
 * the sandbox reports their reviews as `CUSTOMER.KYC_*` (docs/production.md).
 */
const CUSTOMER_EVENTS: ReadonlyMap<string, string> = new Map([
  ['APPROVED', 'CUSTOMER.KYC_APPROVED'],
  ['REJECTED', 'CUSTOMER.KYC_REJECTED'],
  ['PENDING', 'CUSTOMER.KYC_PENDING'],
]);

function valueAt(customer: Customer, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (obj, key) => (obj !== null && typeof obj === 'object' && Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined),
      customer,
    );
}

/** The KYC status of a beneficial owner: its identity is complete by the schema, so APPROVED unless its last name is magic. */
export function ownerKycStatus(personalInfo: Pick<BeneficialOwnerPersonalInfo, 'lastName'>): KycStatus {
  if (personalInfo.lastName.endsWith(MAGIC.kycRejectedNameSuffix)) return 'REJECTED';
  if (personalInfo.lastName.endsWith(MAGIC.kycPendingNameSuffix)) return 'PENDING';
  return 'APPROVED';
}

/** What a business's people lack: a beneficial owner at all, a control person, an owner that passed KYC. */
function ownerErrors(customer: Customer, owners: readonly BeneficialOwner[]): VerificationError[] {
  const errors: VerificationError[] = [];
  if (owners.length === 0) {
    errors.push({
      resourceId: customer.id,
      type: 'MISSING_BENEFICIAL_OWNER',
      reason: 'Add every individual owning 25% or more of the business as a beneficial owner (POST /beneficial-owners).',
    });
  }
  if (!owners.some((o) => o.roles.includes('CONTROL_PERSON'))) {
    errors.push({
      resourceId: customer.id,
      type: 'MISSING_CONTROL_PERSON',
      reason: 'One control person is required: a beneficial owner with the CONTROL_PERSON role.',
    });
  }
  for (const owner of owners) {
    if (owner.kycStatus === 'REJECTED') {
      errors.push({ resourceId: owner.id, type: 'APPLICANT_REJECTED', reason: 'This beneficial owner did not pass KYC.' });
    }
  }
  return errors;
}

/** What KYC says about a customer right now; `owners` are a business's beneficial owners. */
export function assess(customer: Customer, owners: readonly BeneficialOwner[] = []): Assessment {
  const name = customer.customerType === 'INDIVIDUAL' ? customer.fullName : customer.businessInfo?.legalName;
  if (name?.endsWith(MAGIC.kycRejectedNameSuffix)) return { kycStatus: 'REJECTED', verificationStatus: 'REJECTED', errors: [] };
  if (name?.endsWith(MAGIC.kycPendingNameSuffix)) return { kycStatus: 'PENDING', verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] };
  const errors: VerificationError[] = requirementsOf(customer.customerType)
    .filter((r) => valueAt(customer, r.field) === undefined)
    .map((r) => ({
      resourceId: customer.id,
      type: 'MISSING_FIELD',
      reason: r.reason,
      field: r.field,
      ...(r.documents ? { acceptedDocumentTypes: r.documents } : {}),
    }));
  if (customer.customerType === 'BUSINESS') errors.push(...ownerErrors(customer, owners));
  if (errors.length > 0) return { kycStatus: 'UNVERIFIED', verificationStatus: 'RESOLVE_ERRORS', errors };
  if (owners.some((o) => o.kycStatus === 'PENDING')) return { kycStatus: 'PENDING', verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] };
  return { kycStatus: 'APPROVED', verificationStatus: 'APPROVED', errors: [] };
}

/** The beneficial owners of a customer, oldest first. */
export function ownersOf(ctx: Ctx, customerId: string): BeneficialOwner[] {
  return [...ctx.world.beneficialOwners.values()].filter((o) => o.data.customerId === customerId).map((o) => o.data);
}

/** The customer's latest verification (the one that follows its data), if it has one. */
function latestVerification(ctx: Ctx, customerId: string): VerificationRec | undefined {
  let latest: VerificationRec | undefined;
  for (const v of ctx.world.verifications.values()) if (v.data.customerId === customerId && (!latest || v.seq > latest.seq)) latest = v;
  return latest;
}

/** A new verification record of the customer saying `result`. */
function newVerification(ctx: Ctx, customerId: string, result: Assessment): VerificationRec {
  const { id, seq } = ctx.ids.next('Verification');
  const timestamp = nowIso(ctx);
  const data: Verification = {
    id,
    customerId,
    verificationStatus: result.verificationStatus,
    errors: result.errors,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  const rec: VerificationRec = { seq, createdMs: ctx.clock.now(), data };
  ctx.world.verifications.set(id, rec);
  return rec;
}

/** Sets the customer's `kycStatus`, sending its CUSTOMER.* webhook when it changes. */
function setKycStatus(ctx: Ctx, customer: Rec<Customer>, status: KycStatus): void {
  if (customer.data.kycStatus === status) return;
  customer.data.kycStatus = status;
  const event = CUSTOMER_EVENTS.get(status);
  if (event) ctx.webhooks.emit(event, customer.data);
}

/**
 * Brings the customer's `kycStatus` and its latest verification up to date, creating the first one
 * with the customer (no webhook then); sends the CUSTOMER.* and VERIFICATION.* webhooks when a status
 * changes later on.
 */
export function syncKyc(ctx: Ctx, customer: Rec<Customer>): void {
  const result = assess(customer.data, ownersOf(ctx, customer.data.id));
  const existing = latestVerification(ctx, customer.data.id);
  if (!existing) {
    newVerification(ctx, customer.data.id, result);
    customer.data.kycStatus = result.kycStatus;
    return;
  }
  const statusChanged = existing.data.verificationStatus !== result.verificationStatus;
  if (statusChanged || JSON.stringify(existing.data.errors) !== JSON.stringify(result.errors)) {
    existing.data.verificationStatus = result.verificationStatus;
    existing.data.errors = result.errors;
    existing.data.updatedAt = nowIso(ctx);
    // A new error list in the same status is news too: the platform has something else to fix.
    const event = VERIFICATION_EVENTS.get(result.verificationStatus);
    if (event && (statusChanged || result.verificationStatus === 'RESOLVE_ERRORS')) ctx.webhooks.emit(event, existing.data);
  }
  setKycStatus(ctx, customer, result.kycStatus);
}

/**
 * `POST /verifications`: a new verification of the customer with what it holds now, announced by the
 * VERIFICATION.* webhook of its status; the customer's `kycStatus` follows it.
 */
export function submitVerification(ctx: Ctx, customer: Rec<Customer>): Verification {
  const result = assess(customer.data, ownersOf(ctx, customer.data.id));
  const rec = newVerification(ctx, customer.data.id, result);
  const event = VERIFICATION_EVENTS.get(result.verificationStatus);
  if (event) ctx.webhooks.emit(event, rec.data);
  setKycStatus(ctx, customer, result.kycStatus);
  return rec.data;
}
