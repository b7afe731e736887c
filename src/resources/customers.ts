import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import { operations as op } from '../generated/operations';
import type { Customer, CustomerCreateParams, CustomerListParams, CustomerUpdateParams } from '../types';

/** Customers of the platform, individual or business. */
export class Customers extends APIResource {
  /**
   * Registers a customer. Its internal accounts are created with it, per the platform configuration.
   * `platformCustomerId` and `umaAddress` are generated when omitted.
   */
  create(params: CustomerCreateParams, options?: SignedRequestOptions): APIPromise<Customer> {
    return this._client.call(op.createCustomer, { body: params }, options);
  }

  /** Fetches a customer by its system id (`Customer:…`). A deleted customer is a `NotFoundError`. */
  retrieve(customerId: string, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(op.getCustomer, { path: { customerId } }, options);
  }

  /** Updates a customer. `currencies` replaces the list; `region` cannot change. */
  update(customerId: string, params: CustomerUpdateParams, options?: SignedRequestOptions): APIPromise<Customer> {
    return this._client.call(op.updateCustomer, { path: { customerId }, body: params }, options);
  }

  /** Soft-deletes a customer: answers it with `isDeleted: true`; later reads are 404. */
  delete(customerId: string, options?: SignedRequestOptions): APIPromise<Customer> {
    return this._client.call(op.deleteCustomer, { path: { customerId } }, options);
  }

  /** Lists customers; `for await` walks every page. Date filters take `Date` or ISO strings. */
  list(params?: CustomerListParams, options?: ListOptions): PagePromise<Customer> {
    return this._client.list(op.listCustomers, { query: params }, options);
  }
}
