import type { APIPromise } from '../core/api-promise';
import type { RequestOptions, SignedRequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { PlatformConfig, PlatformConfigUpdateParams } from '../types';

/** The platform configuration: UMA domain, webhook endpoint, supported currencies. */
export class Config extends APIResource {
  /**
   * Reads the platform configuration.
   * @example
   * ```ts
   * const config = await cb.config.retrieve();
   * console.log(config.umaDomain, config.webhookEndpoint);
   * for (const currency of config.supportedCurrencies ?? []) { // optional in production's answers
   *   console.log(currency.currencyCode, currency.minAmount, currency.maxAmount);
   * }
   * ```
   */
  retrieve(options?: RequestOptions): APIPromise<PlatformConfig> {
    return this._client.call(op.getConfig, {}, options);
  }

  /**
   * Updates the platform configuration.
   * @example
   * ```ts
   * const config = await cb.config.update({
   *   webhookEndpoint: 'https://platform.example/webhooks',
   * });
   * ```
   */
  update(params: PlatformConfigUpdateParams, options?: SignedRequestOptions): APIPromise<PlatformConfig> {
    return this._client.call(op.updateConfig, { body: params }, options);
  }
}
