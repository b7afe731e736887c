/**
 * The sandbox's read-only directories (production's `/discoveries` and `/vasps`): the receiving institutions
 * of each corridor the sandbox pays into, and the VASPs recognized for counterparty declarations. Fixed
 * tables, the same in every world: production's own examples (the Philippine banks, Kraken) and one or two
 * institutions per fiat currency of the sandbox.
 * @module
 */
import type { Discovery, Vasp } from '../../generated/types';
import type { Ordered } from './pagination';

/** Receiving institutions, by corridor (country, currency). */
export const DISCOVERIES: readonly Discovery[] = [
  { bankName: 'BDO Unibank', displayName: 'BDO Unibank', country: 'PH', currency: 'PHP' },
  { bankName: 'BPI', displayName: 'Bank of the Philippine Islands', country: 'PH', currency: 'PHP' },
  { bankName: 'JPMorgan Chase', displayName: 'JPMorgan Chase Bank', country: 'US', currency: 'USD' },
  { bankName: 'Bank of America', displayName: 'Bank of America', country: 'US', currency: 'USD' },
  { bankName: 'Deutsche Bank', displayName: 'Deutsche Bank', country: 'DE', currency: 'EUR' },
  { bankName: 'BNP Paribas', displayName: 'BNP Paribas', country: 'FR', currency: 'EUR' },
  { bankName: 'Barclays', displayName: 'Barclays Bank UK', country: 'GB', currency: 'GBP' },
  { bankName: 'Banco do Brasil', displayName: 'Banco do Brasil', country: 'BR', currency: 'BRL' },
  { bankName: 'Itau Unibanco', displayName: 'Itaú Unibanco', country: 'BR', currency: 'BRL' },
  { bankName: 'Emirates NBD', displayName: 'Emirates NBD', country: 'AE', currency: 'AED' },
  { bankName: 'BBVA Mexico', displayName: 'BBVA México', country: 'MX', currency: 'MXN' },
  { bankName: 'Banorte', displayName: 'Banorte', country: 'MX', currency: 'MXN' },
];

/** The institutions of a corridor; a filter left out matches all. Codes compare case-insensitively. */
export function discoveries(country?: string, currency?: string): Discovery[] {
  const same = (a: string, b: string | undefined) => b === undefined || a.toUpperCase() === b.toUpperCase();
  return DISCOVERIES.filter((d) => same(d.country, country) && same(d.currency, currency)).map((d) => ({ ...d }));
}

/** The VASP directory, in a fixed order (as records the list envelope pages through). */
export const VASPS: readonly (Ordered & { data: Vasp })[] = [
  { vaspName: 'Kraken', url: 'https://www.kraken.com' },
  { vaspName: 'Coinbase', url: 'https://www.coinbase.com' },
  { vaspName: 'Bitstamp', url: 'https://www.bitstamp.net' },
  { vaspName: 'Gemini', url: 'https://www.gemini.com' },
  { vaspName: 'Binance', url: 'https://www.binance.com' },
  { vaspName: 'Bitso', url: 'https://bitso.com' },
  { vaspName: 'OKX', url: 'https://www.okx.com' },
  { vaspName: 'Bitpanda', url: 'https://www.bitpanda.com' },
].map((data, seq) => ({ createdMs: 0, seq, data }));
