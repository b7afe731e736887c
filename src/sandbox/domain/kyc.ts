/**
 * KYC/KYB in the sandbox: a customer is APPROVED once its identity fields are complete, UNVERIFIED
 * (verification RESOLVE_ERRORS, one MISSING_FIELD error per gap) until then; the magic name
 * suffixes of {@link MAGIC} force PENDING or REJECTED. Each customer has one verification record.
 * @module
 */
import type { Customer, KycStatus, Verification, VerificationError } from '../../generated/types';
import { nowIso, type Ctx } from './context';
import { MAGIC } from './magic';
import type { Rec } from './state';

type VerificationStatus = Verification['verificationStatus'];

interface Assessment {
  kycStatus: KycStatus;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
}

/** Fields each customer type needs for approval, with the documents that would prove them. */
const REQUIRED: Record<Customer['customerType'], { field: string; reason: string; documents?: string[] }[]> = {
  INDIVIDUAL: [
    { field: 'fullName', reason: 'Full legal name is required.', documents: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] },
    { field: 'birthDate', reason: 'Date of birth is required.', documents: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] },
    { field: 'nationality', reason: 'Nationality is required.', documents: ['PASSPORT', 'NATIONAL_ID'] },
    { field: 'address', reason: 'Residential address is required.', documents: ['UTILITY_BILL', 'BANK_STATEMENT'] },
  ],
  BUSINESS: [
    { field: 'businessInfo.taxId', reason: 'Tax identification number is required.' },
    { field: 'businessInfo.incorporatedOn', reason: 'Date of incorporation is required.', documents: ['CERTIFICATE_OF_INCORPORATION'] },
    { field: 'address', reason: 'Registered business address is required.', documents: ['CERTIFICATE_OF_INCORPORATION', 'BANK_STATEMENT'] },
  ],
};

function valueAt(customer: Customer, path: string): unknown {
  return path.split('.').reduce<unknown>((obj, key) => (obj as Record<string, unknown> | undefined)?.[key], customer);
}

/** What KYC says about a customer right now. */
export function assess(customer: Customer): Assessment {
  const name = customer.customerType === 'INDIVIDUAL' ? customer.fullName : customer.businessInfo.legalName;
  if (name?.endsWith(MAGIC.kycRejectedNameSuffix)) return { kycStatus: 'REJECTED', verificationStatus: 'REJECTED', errors: [] };
  if (name?.endsWith(MAGIC.kycPendingNameSuffix)) return { kycStatus: 'PENDING', verificationStatus: 'PENDING_MANUAL_REVIEW', errors: [] };
  const errors: VerificationError[] = REQUIRED[customer.customerType]
    .filter((r) => valueAt(customer, r.field) === undefined)
    .map((r) => ({
      resourceId: customer.id,
      type: 'MISSING_FIELD',
      reason: r.reason,
      field: r.field,
      ...(r.documents ? { acceptedDocumentTypes: r.documents } : {}),
    }));
  return errors.length > 0
    ? { kycStatus: 'UNVERIFIED', verificationStatus: 'RESOLVE_ERRORS', errors }
    : { kycStatus: 'APPROVED', verificationStatus: 'APPROVED', errors: [] };
}

/**
 * Brings the customer's `kycStatus` and its verification record up to date, creating the record on
 * the first call; sends the CUSTOMER.* and VERIFICATION.* webhooks when a status changes later on.
 */
export function syncKyc(ctx: Ctx, customer: Rec<Customer>): void {
  const result = assess(customer.data);
  const timestamp = nowIso(ctx);
  const existing = [...ctx.world.verifications.values()].find((v) => v.data.customerId === customer.data.id);
  if (!existing) {
    const { id, seq } = ctx.ids.next('Verification');
    const data: Verification = {
      id,
      customerId: customer.data.id,
      verificationStatus: result.verificationStatus,
      errors: result.errors,
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    ctx.world.verifications.set(id, { seq, createdMs: ctx.clock.now(), data });
    customer.data.kycStatus = result.kycStatus;
    return;
  }
  const verificationChanged =
    existing.data.verificationStatus !== result.verificationStatus || JSON.stringify(existing.data.errors) !== JSON.stringify(result.errors);
  if (verificationChanged) {
    existing.data.verificationStatus = result.verificationStatus;
    existing.data.errors = result.errors;
    existing.data.updatedAt = timestamp;
    if (result.verificationStatus === 'APPROVED') ctx.webhooks.emit('VERIFICATION.APPROVED', existing.data);
    if (result.verificationStatus === 'RESOLVE_ERRORS') ctx.webhooks.emit('VERIFICATION.RESOLVE_ERRORS', existing.data);
  }
  if (customer.data.kycStatus !== result.kycStatus) {
    customer.data.kycStatus = result.kycStatus;
    if (result.kycStatus === 'APPROVED') ctx.webhooks.emit('CUSTOMER.KYC_APPROVED', customer.data);
    if (result.kycStatus === 'REJECTED') ctx.webhooks.emit('CUSTOMER.KYC_REJECTED', customer.data);
  }
}
