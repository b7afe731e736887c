/**
 * Failure scenarios on demand, the way card test numbers work elsewhere.
 * @module
 */

/** A transaction failure reason of the API. */
export type FailureReason =
  | 'LNURLP_FAILED'
  | 'PAY_REQUEST_FAILED'
  | 'PAYMENT_APPROVAL_WEBHOOK_ERROR'
  | 'PAYMENT_APPROVAL_TIMED_OUT'
  | 'OFFRAMP_FAILED'
  | 'MISSING_MANDATORY_PAYEE_DATA'
  | 'QUOTE_EXPIRED'
  | 'QUOTE_EXECUTION_FAILED';

/**
 * Magic values that make the sandbox misbehave on purpose.
 *
 * The "account identifier" of a payment is the external account's `accountNumber` (or, for accounts
 * without one, its `address`, `pixKey` or `iban`), or the user part of a receiving UMA address
 * (`$bob0005@remote.example` → `bob0005`).
 *
 * | Value | Effect |
 * |---|---|
 * | identifier ending `0001` … `0008` | a payment to it (quote execution, or transfer-in from it) ends `FAILED` with, in order, `LNURLP_FAILED`, `PAY_REQUEST_FAILED`, `PAYMENT_APPROVAL_WEBHOOK_ERROR`, `PAYMENT_APPROVAL_TIMED_OUT`, `OFFRAMP_FAILED`, `MISSING_MANDATORY_PAYEE_DATA`, `QUOTE_EXPIRED`, `QUOTE_EXECUTION_FAILED`; debited funds are returned |
 * | identifier ending `0098` | the payment stays `PROCESSING` forever |
 * | external account number ending `0099` | `beneficiaryVerificationStatus: NOT_MATCHED` |
 * | external account number ending `0097` | `beneficiaryVerificationStatus: PARTIAL_MATCH` |
 * | external account number ending `0096` | the account is created `UNDER_REVIEW` instead of `ACTIVE` |
 * | sandbox UMA receive amount ending in `13` (e.g. 1013) | the incoming payment is held `PENDING` for approval: by the approval webhook when `webhookEndpoint` is set, else until `/approve` or `/reject` |
 * | OTP `000000` | the only EMAIL_OTP code that verifies |
 * | customer `fullName` / `businessInfo.legalName` ending ` Pending` | `kycStatus: PENDING` (verification `PENDING_MANUAL_REVIEW`) |
 * | customer `fullName` / `businessInfo.legalName` ending ` Rejected` | `kycStatus: REJECTED` (verification `REJECTED`) |
 *
 * Without a magic name, a customer is `APPROVED` when its identity fields are complete and
 * `UNVERIFIED` (verification `RESOLVE_ERRORS`, one `MISSING_FIELD` error per gap) otherwise.
 */
export const MAGIC = {
  /** Identifier suffix → the failure reason the payment ends with. */
  failureSuffixes: {
    '0001': 'LNURLP_FAILED',
    '0002': 'PAY_REQUEST_FAILED',
    '0003': 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
    '0004': 'PAYMENT_APPROVAL_TIMED_OUT',
    '0005': 'OFFRAMP_FAILED',
    '0006': 'MISSING_MANDATORY_PAYEE_DATA',
    '0007': 'QUOTE_EXPIRED',
    '0008': 'QUOTE_EXECUTION_FAILED',
  } as const satisfies Record<string, FailureReason>,
  /** Identifier suffix that keeps a payment `PROCESSING` forever. */
  stuckProcessingSuffix: '0098',
  /** External account number suffix → `beneficiaryVerificationStatus: NOT_MATCHED`. */
  beneficiaryNotMatchedSuffix: '0099',
  /** External account number suffix → `beneficiaryVerificationStatus: PARTIAL_MATCH`. */
  beneficiaryPartialMatchSuffix: '0097',
  /** External account number suffix → account status `UNDER_REVIEW`. */
  underReviewSuffix: '0096',
  /** Sandbox UMA receive amounts whose last two digits are this are held `PENDING` for approval. */
  holdForApprovalCents: 13,
  /** The EMAIL_OTP code. */
  otp: '000000',
  /** Name suffix → `kycStatus: PENDING`. */
  kycPendingNameSuffix: ' Pending',
  /** Name suffix → `kycStatus: REJECTED`. */
  kycRejectedNameSuffix: ' Rejected',
} as const;

/** The failure reason a payment touching `identifier` must end with, if any. */
export function failureFor(identifier: string | undefined): FailureReason | undefined {
  if (!identifier) return undefined;
  const suffix = identifier.slice(-4) as keyof typeof MAGIC.failureSuffixes;
  return MAGIC.failureSuffixes[suffix];
}

/** True when a payment touching `identifier` never settles. */
export function staysProcessing(identifier: string | undefined): boolean {
  return identifier?.endsWith(MAGIC.stuckProcessingSuffix) ?? false;
}

/** True when a sandbox incoming payment of `amount` is held for approval. */
export function holdsForApproval(amount: number): boolean {
  return amount % 100 === MAGIC.holdForApprovalCents;
}
