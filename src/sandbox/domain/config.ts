/**
 * The platform configuration the sandbox starts with: every currency of the FX table enabled both
 * ways, realistic per-transaction limits, and FULL_NAME asked of counterparties.
 * @module
 */
import type { PlatformConfig, SupportedCurrency } from '../../generated/types';
import { iso } from './clock';
import { CURRENCIES } from './currencies';
import type { IdFactory } from './random';

/** UMA domain of the sandbox platform: generated customer UMA addresses end with it. */
export const SANDBOX_UMA_DOMAIN = 'sandbox.crossborder.example';

/** Default largest amount per transaction, in smallest units (about 1 billion major units; 100 BTC). */
const DEFAULT_MAX: Record<string, number> = { BTC: 10_000_000_000, USDC: 1_000_000_000_000_000, USDT: 1_000_000_000_000_000 };
const FIAT_MAX = 100_000_000_000;

/** What the payment providers of a currency ask for (read-only in the API). */
export function providerFields(code: string): Pick<SupportedCurrency, 'providerRequiredCustomerFields' | 'providerRequiredCounterpartyCustomerFields'> {
  return {
    providerRequiredCustomerFields: code === 'BRL' ? ['TAX_ID'] : [],
    providerRequiredCounterpartyCustomerFields: code === 'BRL' || code === 'MXN' ? ['COUNTRY_OF_RESIDENCE'] : [],
  };
}

/** A fresh configuration, created at `nowMs`. */
export function defaultConfig(ids: IdFactory, nowMs: number): PlatformConfig {
  const supportedCurrencies: SupportedCurrency[] = [...CURRENCIES.keys()].map((code) => ({
    currencyCode: code,
    minAmount: 1,
    maxAmount: DEFAULT_MAX[code] ?? FIAT_MAX,
    enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
    requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
    ...providerFields(code),
  }));
  return {
    id: ids.next('PlatformConfig').id,
    umaDomain: SANDBOX_UMA_DOMAIN,
    proxyUmaSubdomain: 'uma',
    supportedCurrencies,
    isRegulatedFinancialInstitution: false,
    createdAt: iso(nowMs),
    updatedAt: iso(nowMs),
  };
}
