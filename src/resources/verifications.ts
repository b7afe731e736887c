import type { ListOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { Verification, VerificationListParams } from '../types';

/** KYC/KYB verifications. */
export class Verifications extends APIResource {
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
