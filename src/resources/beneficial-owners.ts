import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { BeneficialOwner, BeneficialOwnerCreateParams, BeneficialOwnerListParams, BeneficialOwnerUpdateParams } from '../types';

/**
 * Beneficial owners, directors, officers and control persons of business customers. A business's
 * KYB verification needs one control person and every individual owning 25 % or more.
 */
export class BeneficialOwners extends APIResource {
  /**
   * Adds a person to a BUSINESS customer; the person goes through KYC automatically (`kycStatus`).
   * @example
   * ```ts
   * const owner = await cb.beneficialOwners.create({
   *   customerId, // a BUSINESS customer
   *   roles: ['UBO', 'CONTROL_PERSON'],
   *   ownershipPercentage: 51,
   *   personalInfo: {
   *     firstName: 'Jane',
   *     lastName: 'Smith',
   *     birthDate: '1978-06-15',
   *     nationality: 'US',
   *     address: { line1: '123 Main Street', city: 'San Francisco', postalCode: '94105', country: 'US' },
   *     idType: 'SSN',
   *     identifier: '123-45-6789',
   *   },
   * });
   * console.log(owner.id, owner.kycStatus); // 'BeneficialOwner:…', 'APPROVED'
   * ```
   */
  create(params: BeneficialOwnerCreateParams, options?: SignedRequestOptions): APIPromise<BeneficialOwner> {
    return this._client.call(op.createBeneficialOwner, { body: params }, options);
  }

  /**
   * Fetches a beneficial owner by its id (`BeneficialOwner:…`).
   * @example
   * ```ts
   * const owner = await cb.beneficialOwners.retrieve('BeneficialOwner:019542f5-b3e7-1d02-0000-000000000002');
   * console.log(owner.roles, owner.ownershipPercentage);
   * ```
   */
  retrieve(beneficialOwnerId: string, options?: RequestOptions): APIPromise<BeneficialOwner> {
    return this._client.call(op.getBeneficialOwner, { path: { beneficialOwnerId } }, options);
  }

  /**
   * Updates a beneficial owner: only the fields sent change (inside `personalInfo` too).
   * @example
   * ```ts
   * const owner = await cb.beneficialOwners.update('BeneficialOwner:019542f5-b3e7-1d02-0000-000000000002', {
   *   ownershipPercentage: 40,
   *   personalInfo: { email: 'jane@acme.example' },
   * });
   * ```
   */
  update(beneficialOwnerId: string, params: BeneficialOwnerUpdateParams, options?: SignedRequestOptions): APIPromise<BeneficialOwner> {
    return this._client.call(op.updateBeneficialOwner, { path: { beneficialOwnerId }, body: params }, options);
  }

  /**
   * Lists the beneficial owners of a business customer; `for await` walks every page.
   * @example
   * ```ts
   * for await (const owner of cb.beneficialOwners.list({ customerId })) {
   *   console.log(owner.personalInfo.lastName, owner.roles.join(', '));
   * }
   * ```
   */
  list(params: BeneficialOwnerListParams, options?: ListOptions): PagePromise<BeneficialOwner> {
    return this._client.list(op.listBeneficialOwners, { query: params }, options);
  }
}
