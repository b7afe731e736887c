import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { Verification, VerificationCreateParams, VerificationListParams } from '../types';

/** KYC/KYB verifications. */
export class Verifications extends APIResource {
  /**
   * Submits a customer for KYC (individual) or KYB (business) verification with what it holds now, and
   * answers the new verification: `RESOLVE_ERRORS` with one error per thing to supply (a field, a
   * document, a beneficial owner or control person), or the status the review reached. Submit again
   * after fixing the errors; each submission is a new verification.
   * @example
   * ```ts
   * const verification = await cb.verifications.create({ customerId });
   * if (verification.verificationStatus === 'RESOLVE_ERRORS') {
   *   for (const error of verification.errors ?? []) {
   *     console.log(error.type, error.field ?? error.resourceId, error.reason);
   *   }
   * }
   * ```
   */
  create(params: VerificationCreateParams, options?: SignedRequestOptions): APIPromise<Verification> {
    return this._client.call(op.createVerification, { body: params }, options);
  }

  /**
   * Fetches a verification by its id (`Verification:…`).
   * @example
   * ```ts
   * const { id } = await cb.verifications.create({ customerId });
   * const verification = await cb.verifications.retrieve(id);
   * console.log(verification.verificationStatus); // 'APPROVED', 'RESOLVE_ERRORS', …
   * ```
   */
  retrieve(verificationId: string, options?: RequestOptions): APIPromise<Verification> {
    return this._client.call(op.getVerification, { path: { verificationId } }, options);
  }

  /**
   * Lists verifications, filtered by `customerId` or `verificationStatus`.
   * @example
   * ```ts
   * const verifications = cb.verifications.list({
   *   customerId,
   *   verificationStatus: 'RESOLVE_ERRORS',
   * });
   * for await (const verification of verifications) {
   *   for (const error of verification.errors ?? []) {
   *     console.log(error.field, error.reason); // what the customer must fix
   *   }
   * }
   * ```
   */
  list(params?: VerificationListParams, options?: ListOptions): PagePromise<Verification> {
    return this._client.list(op.listVerifications, { query: params }, options);
  }
}
