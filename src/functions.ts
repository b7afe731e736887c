/**
 * `crossborder-sdk/functions`: every operation of the API as a standalone function over a
 * {@link CrossborderCore} (`listCustomers(core, params)`, in the manner of AWS SDK v3's commands), so that a
 * bundle holds only the operations it calls. Each runs the same pipeline as the resource method
 * (`getCustomer(core, id)` is `cb.customers.retrieve(id)`): the same types, errors, retries, signed retry and
 * pagination (a list returns the same `PagePromise`, awaitable for a page and iterable with `for await`).
 * Generated from the API document (src/generated/functions.ts); `request(core, method, path, input, options)`
 * calls any other operation, and `signing` gives an operation of your own the signed retry (`core.call`).
 *
 * ```ts
 * import { CrossborderCore } from 'crossborder-sdk';
 * import { listCustomers, getCustomer } from 'crossborder-sdk/functions';
 * const core = new CrossborderCore({ tokenId, clientSecret });
 * for await (const customer of listCustomers(core, { limit: 50 })) console.log(customer.id);
 * const one = await getCustomer(core, 'Customer:123');
 * ```
 * @module crossborder-sdk/functions
 */
export * from './generated/functions';
export { request } from './core/request';
export { signing } from './core/signing';
