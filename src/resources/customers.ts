import type { APIPromise } from '../core/api-promise';
import type { ListOptions, RequestOptions, SignedRequestOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type {
  BulkCustomerImportJob,
  BulkCustomerImportJobAccepted,
  Customer,
  CustomerCreateParams,
  CustomerListParams,
  CustomersCsvUpload,
  CustomerUpdateParams,
  EndUserTerms,
  KycLink,
  KycLinkCreateParams,
} from '../types';

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

  // Production's operations on customers (issue 34, section 2): the end-user terms and the CSV import.

  /**
   * The current version of the End User Terms and the URL where the service hosts it: show it to the
   * customer who accepts it.
   * @example
   * ```ts
   * const terms = await cb.customers.endUserTerms();
   * console.log(terms.version, terms.url); // 'V1', 'https://…'
   * ```
   */
  endUserTerms(options?: RequestOptions): APIPromise<EndUserTerms> {
    return this._client.call(op.getEndUserTerms, {}, options);
  }

  /**
   * Imports customers from a CSV file (its text in `file`; sent as `multipart/form-data`). The import
   * runs as a job: the answer names it, and {@link Customers.retrieveImportJob} (or the
   * `BULK_UPLOAD.COMPLETED` webhook) tells how each row went. A row that cannot become a customer is a
   * failed entry of the job, not a failed upload. Not repeated once it may have arrived (it takes no
   * Idempotency-Key): after a lost answer, look for the customers before uploading again.
   * @example
   * ```ts
   * const csv = [
   *   'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country',
   *   '$ada@platform.example,cust-1,INDIVIDUAL,Ada Lovelace,1990-12-10,12 Analytical Way,Austin,TX,78701,US',
   * ].join('\n');
   * const { jobId } = await cb.customers.importCsv({ file: csv }); // or readFileSync('customers.csv', 'utf8')
   * const job = await cb.customers.retrieveImportJob(jobId);
   * console.log(job.status, job.progress); // 'PENDING', then 'PROCESSING', then 'COMPLETED' or 'FAILED'
   * ```
   */
  importCsv(params: CustomersCsvUpload, options?: SignedRequestOptions): APIPromise<BulkCustomerImportJobAccepted> {
    return this._client.call(op.uploadCustomersCsv, { body: params }, options);
  }

  /**
   * Reads a CSV import job: its status, its progress counts and one error entry per failed row
   * (`correlationId` is the row's `platformCustomerId`, or `row_<n>`). An unknown job is a `NotFoundError`.
   * @example
   * ```ts
   * const job = await cb.customers.retrieveImportJob('Job:019542f5-b3e7-1d02-0000-000000000006');
   * for (const entry of job.errors ?? []) console.log(entry.correlationId, entry.code, entry.message);
   * ```
   */
  retrieveImportJob(jobId: string, options?: RequestOptions): APIPromise<BulkCustomerImportJob> {
    return this._client.call(op.getBulkCustomerImportJob, { path: { jobId } }, options);
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
