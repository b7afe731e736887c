import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { Customer, CustomerCreateParams, CustomerListParams, CustomerUpdateParams, KycLink, KycLinkCreateParams } from '../types';

/** Customers of the platform, individual or business. */
export class Customers extends APIResource {
  /**
   * Registers a customer. Its internal accounts are created with it, per the platform configuration.
   * `platformCustomerId` and `umaAddress` are generated when omitted.
   * @example
   * ```ts
   * const customer = await cb.customers.create({
   *   customerType: 'INDIVIDUAL',
   *   region: 'US',
   *   fullName: 'Ada Lovelace',
   *   birthDate: '1990-12-10',
   *   nationality: 'GB',
   * });
   * console.log(customer.id, customer.umaAddress); // 'Customer:…', generated
   * ```
   */
  create(params: CustomerCreateParams, options?: SignedRequestOptions): APIPromise<Customer> {
    return this._client.call(op.createCustomer, { body: params }, options);
  }

  /**
   * Fetches a customer by its system id (`Customer:…`). A deleted customer is a `NotFoundError`.
   * @example
   * ```ts
   * try {
   *   const customer = await cb.customers.retrieve(customerId);
   *   console.log(customer.kycStatus); // 'UNVERIFIED', 'PENDING', 'APPROVED', …
   * } catch (error) {
   *   if (!(error instanceof NotFoundError)) throw error;
   *   console.log('no such customer (or deleted)', error.requestId);
   * }
   * ```
   */
  retrieve(customerId: string, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(op.getCustomer, { path: { customerId } }, options);
  }

  /**
   * Updates a customer. `currencies` replaces the list; `region` cannot change. Production requires
   * `customerType` on every update (the local sandbox too: 400 naming it).
   * @example
   * ```ts
   * const customer = await cb.customers.update(customerId, {
   *   customerType: 'INDIVIDUAL',
   *   address: {
   *     line1: '221B Baker Street',
   *     city: 'London',
   *     postalCode: 'NW1 6XE',
   *     country: 'GB',
   *   },
   *   currencies: ['USD', 'GBP'], // replaces the whole list
   * });
   * ```
   */
  update(customerId: string, params: CustomerUpdateParams, options?: SignedRequestOptions): APIPromise<Customer> {
    return this._client.call(op.updateCustomer, { path: { customerId }, body: params }, options);
  }

  /**
   * Soft-deletes a customer: answers it with `isDeleted: true`; later reads are 404.
   * @example
   * ```ts
   * const deleted = await cb.customers.delete(customerId);
   * console.log(deleted.isDeleted); // true; now retrieve() throws NotFoundError
   * ```
   */
  delete(customerId: string, options?: SignedRequestOptions): APIPromise<Customer> {
    return this._client.call(op.deleteCustomer, { path: { customerId } }, options);
  }

  /**
   * Lists customers; `for await` walks every page. Date filters take `Date` or ISO strings.
   * @example
   * ```ts
   * // Every matching customer, page after page:
   * const since = new Date('2025-01-01');
   * for await (const customer of cb.customers.list({ createdAfter: since })) {
   *   console.log(customer.id, customer.customerType);
   * }
   *
   * // One page at a time:
   * const page = await cb.customers.list({ customerType: 'BUSINESS', limit: 50 });
   * console.log(page.data.length, 'of', page.totalCount);
   * if (page.hasMore) console.log((await page.nextPage()).data.length);
   * ```
   */
  list(params?: CustomerListParams, options?: ListOptions): PagePromise<Customer> {
    return this._client.list(op.listCustomers, { query: params }, options);
  }

  /**
   * Generates a fresh single-use hosted KYC/KYB link for the customer (`kycUrl`, valid until
   * `expiresAt`), plus a provider `token` where the provider has an embeddable SDK. The customer's
   * status does not change until they complete the flow; earlier links stay valid until they expire.
   * @example
   * ```ts
   * const link = await cb.customers.createKycLink(customerId, {
   *   redirectUri: 'https://app.example.com/onboarding/completed',
   * });
   * console.log(link.kycUrl, 'until', link.expiresAt); // send the customer there
   * ```
   */
  createKycLink(customerId: string, params?: KycLinkCreateParams, options?: SignedRequestOptions): APIPromise<KycLink> {
    return this._client.call(op.createCustomerKycLink, { path: { customerId }, body: params }, options);
  }
}
