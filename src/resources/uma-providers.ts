import type { ListOptions } from '../core/options';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { UmaProvider, UmaProviderListParams } from '../types';

/** UMA providers. */
export class UmaProviders extends APIResource {
  /**
   * Lists UMA providers, filtered by country, currency and allow-list status.
   * @example
   * ```ts
   * const providers = cb.umaProviders.list({
   *   countryCode: 'MX',
   *   currencyCode: 'MXN',
   * });
   * for await (const provider of providers) {
   *   console.log(provider.name, provider.domain);
   * }
   * ```
   */
  list(params?: UmaProviderListParams, options?: ListOptions): PagePromise<UmaProvider> {
    return this._client.list(op.listUmaProviders, { query: params }, options);
  }
}
