import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { CryptoWithdrawalFeeEstimate, CryptoWithdrawalFeeEstimateParams, ExchangeRateList, ExchangeRateListParams } from '../types';

/** Exchange rates per currency corridor, with the platform's fees: the read before quoting. */
export class ExchangeRates extends APIResource {
  /**
   * Lists the cached rates (at most about 5 minutes old) of the corridors matching the filters, in one `{ data }`.
   * With `sendingAmount` (default 10000 in the smallest unit) each corridor says what it delivers.
   * @example
   * ```ts
   * const { data: rates } = await cb.exchangeRates.list({
   *   sourceCurrency: 'USD',
   *   destinationCurrency: ['EUR', 'MXN'],
   *   sendingAmount: 10_000, // $100.00
   * });
   * for (const rate of rates) {
   *   console.log(rate.destinationCurrency.code, rate.exchangeRate, rate.receivingAmount, rate.fees.total);
   * }
   * ```
   */
  list(params?: ExchangeRateListParams, options?: RequestOptions): APIPromise<ExchangeRateList> {
    return this._client.call(op.getExchangeRates, { query: params }, options);
  }
}

/** Crypto withdrawals: what they cost before they are made. */
export class Crypto extends APIResource {
  /**
   * Estimates the network and application fees of withdrawing crypto from an internal account to a
   * blockchain address (changes nothing).
   * @example
   * ```ts
   * const fee = await cb.crypto.estimateWithdrawalFee({
   *   internalAccountId: accountId,
   *   currency: 'USDC',
   *   cryptoNetwork: 'SOLANA',
   *   amount: 1_000_000, // 1 USDC
   *   destinationAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
   * });
   * console.log(fee.totalFee, fee.netAmount);
   * ```
   */
  estimateWithdrawalFee(params: CryptoWithdrawalFeeEstimateParams, options?: RequestOptions): APIPromise<CryptoWithdrawalFeeEstimate> {
    return this._client.call(op.estimateCryptoWithdrawalFee, { body: params }, options);
  }
}
