/**
 * The sandbox's currencies and its deterministic FX table. Rates are fixed so that quote amounts are
 * reproducible in tests; all money math is on integers (BigInt where products can pass 2^53).
 * @module
 */
import { formatAmount } from '../../helpers/money';

/** The currency object of the API. */
export interface CurrencyObject {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

/** What the sandbox knows about one currency. */
export interface CurrencyInfo extends CurrencyObject {
  /** USD value of one major unit, scaled by 1e8 (e.g. EUR 1.085 → 108_500_000n). */
  usdValue: bigint;
  /** Fixed fee charged on every quote sent in this currency, in its smallest unit. */
  fixedFee: number;
  /**
   * KYC regime the currency is licensed under. A customer's currencies must share one regime
   * (`GLOBAL` currencies combine with any): otherwise CURRENCY_COMBINATION_REQUIRES_SEPARATE_CUSTOMERS.
   */
  regime: 'GLOBAL' | 'BR' | 'AE';
}

/** USD-value scale of {@link CurrencyInfo.usdValue}. */
export const USD_VALUE_SCALE = 100_000_000n;

const table: CurrencyInfo[] = [
  { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2, usdValue: 100_000_000n, fixedFee: 30, regime: 'GLOBAL' },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2, usdValue: 108_500_000n, fixedFee: 30, regime: 'GLOBAL' },
  { code: 'GBP', name: 'British Pound', symbol: '£', decimals: 2, usdValue: 127_000_000n, fixedFee: 25, regime: 'GLOBAL' },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2, usdValue: 18_000_000n, fixedFee: 150, regime: 'BR' },
  { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2, usdValue: 27_229_000n, fixedFee: 110, regime: 'AE' },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2, usdValue: 5_410_000n, fixedFee: 600, regime: 'GLOBAL' },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8, usdValue: 9_500_000_000_000n, fixedFee: 500, regime: 'GLOBAL' },
  { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6, usdValue: 100_000_000n, fixedFee: 300_000, regime: 'GLOBAL' },
  { code: 'USDT', name: 'Tether USD', symbol: 'USDT', decimals: 6, usdValue: 100_000_000n, fixedFee: 300_000, regime: 'GLOBAL' },
];

/** Every currency the sandbox can hold and convert, by code. */
export const CURRENCIES: ReadonlyMap<string, CurrencyInfo> = new Map(table.map((c) => [c.code, c]));

/** The currency table entry, or undefined for a code the sandbox does not know. */
export function currencyInfo(code: string): CurrencyInfo | undefined {
  return CURRENCIES.get(code);
}

/**
 * An amount in smallest units as people read it: major units with the currency's decimals (the SDK's
 * own `formatAmount`), thousands grouped, then the code: `130389, 'USD'` → `1,303.89 USD`,
 * `150000000, 'BTC'` → `1.50000000 BTC`. A code the sandbox does not hold has no known decimals: the
 * amount is named in its smallest unit (`500 XYZ (smallest unit)`).
 */
export function formatMoney(amount: number, code: string): string {
  const info = CURRENCIES.get(code);
  if (!info || !Number.isSafeInteger(amount)) return `${amount} ${code} (smallest unit)`;
  const [whole, fraction] = formatAmount({ amount, currency: info }).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${grouped}${fraction === undefined ? '' : `.${fraction}`} ${code}`;
}

/** The API currency object of a known code. */
export function currencyObject(code: string): CurrencyObject {
  const info = CURRENCIES.get(code);
  if (!info) throw new Error(`unknown currency ${code}`);
  return { code: info.code, name: info.name, symbol: info.symbol, decimals: info.decimals };
}

const EU_COUNTRIES = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '));

/** Currency enabled for a new customer of `region` that gave no `currencies`. */
export function defaultCurrencyFor(region: string): string {
  switch (region) {
    case 'US':
      return 'USD';
    case 'GB':
      return 'GBP';
    case 'BR':
      return 'BRL';
    case 'AE':
      return 'AED';
    case 'MX':
      return 'MXN';
    default:
      return EU_COUNTRIES.has(region) ? 'EUR' : 'USD';
  }
}

/** Receiving smallest units per sending smallest unit, as the fraction num/den. */
export interface Rate {
  num: bigint;
  den: bigint;
}

/** The exact conversion rate between two known currencies, in smallest units. */
export function rateBetween(from: CurrencyInfo, to: CurrencyInfo): Rate {
  return { num: from.usdValue * 10n ** BigInt(to.decimals), den: to.usdValue * 10n ** BigInt(from.decimals) };
}

/** Sending major units per receiving major unit (the API's `exchangeRate`). */
export function exchangeRate(from: CurrencyInfo, to: CurrencyInfo): number {
  return Number(to.usdValue) / Number(from.usdValue);
}
