/**
 * A fixed catalogue of 30 fictional UMA providers, so that pagination, filters and `sortOrder` of
 * `GET /uma-providers` have something to work on. The same for every sandbox (it does not depend
 * on the seed). Remote UMA receivers on these domains accept the provider's currencies.
 * @module
 */
import type { UmaProvider } from '../../generated/types';
import { currencyObject, defaultCurrencyFor } from './currencies';
import type { Ordered } from './pagination';

const NAMES = [
  'Aurora Pay',
  'Baobab Wallet',
  'Cobalt Remit',
  'Dunas Money',
  'Ember Cash',
  'Fjord Finance',
  'Garnet Wallet',
  'Harbor Pay',
  'Indigo Transfer',
  'Jacaranda Pay',
  'Kestrel Money',
  'Lumen Wallet',
  'Mesa Remit',
  'Nimbus Pay',
  'Oasis Money',
  'Pampas Wallet',
  'Quartz Pay',
  'Rio Cash',
  'Sable Remit',
  'Tundra Pay',
  'Umber Wallet',
  'Verde Money',
  'Willow Pay',
  'Xenon Remit',
  'Yucca Wallet',
  'Zephyr Pay',
  'Atlas Cash',
  'Bramble Money',
  'Cedar Wallet',
  'Delta Remit',
];

const REGION_SETS = [['US'], ['MX', 'US'], ['BR'], ['GB', 'IE'], ['DE', 'FR', 'ES'], ['AE'], ['US', 'GB'], ['MX'], ['BR', 'MX'], ['FR', 'NL']];

/** A provider and the (internal) date it joined the directory, which `sortOrder` sorts by. */
export interface ProviderRec extends Ordered {
  data: UmaProvider;
}

function lei(index: number): string {
  // 18 characters of a linear-congruential walk, then a fixed "check" pair: LEI-shaped, clearly fake.
  let x = (index + 1) * 2654435761;
  let out = '';
  for (let i = 0; i < 18; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'[x % 34];
  }
  return `${out}${String(index + 10).padStart(2, '0')}`;
}

const JOINED_BASE = Date.parse('2024-01-01T00:00:00Z');

/** The catalogue, oldest entry first. */
export const PROVIDERS: readonly ProviderRec[] = NAMES.map((name, index) => {
  const regions = REGION_SETS[index % REGION_SETS.length]!;
  const codes = [...new Set(regions.map(defaultCurrencyFor))];
  if (index % 3 === 0) codes.push('BTC');
  if (index % 4 === 1) codes.push('USDC');
  const domain = `${name.toLowerCase().replace(/\s+/g, '')}.example`;
  return {
    seq: index + 1,
    createdMs: JOINED_BASE + index * 86_400_000 * 7,
    data: {
      name,
      supportedRegions: regions,
      domain,
      logoUrl: `https://${domain}/logo.png`,
      supportedCurrencies: codes.map(currencyObject),
      lei: lei(index),
      // Every fifth provider is off the allowlist, so `hasBlockedProviders=false` has an effect.
      allowListStatus: index % 5 !== 4,
    },
  };
});

/** The provider serving `domain`, if it is in the catalogue. */
export function providerFor(domain: string): UmaProvider | undefined {
  return PROVIDERS.find((p) => p.data.domain === domain)?.data;
}
