/**
 * Exact conversions between smallest units (what the API speaks) and decimal strings (what people
 * read), using the currency's `decimals`: cents, satoshis, 6-decimal stablecoins. No floats.
 * @module
 */
import { ValidationError } from '../core/errors';

/**
 * Anything with the currency object's `decimals` (the API's currency object fits). Production's
 * document marks every field of a currency optional, so `decimals` may be absent: formatting or parsing
 * without it is refused with a `ValidationError` naming `currency.decimals`.
 */
export interface HasDecimals {
  decimals?: number | undefined;
  code?: string | undefined;
}

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

function refuse(path: string, message: string, rule = 'invalid_value'): never {
  throw new ValidationError([{ path, message, rule }], 'amount');
}

function decimalsOf(currency: HasDecimals): number {
  const d = currency?.decimals;
  if (typeof d !== 'number' || !Number.isInteger(d) || d < 0 || d > 18) refuse('currency.decimals', 'must be a whole number from 0 to 18');
  return d;
}

/**
 * Formats an amount in smallest units as an exact decimal string: `{ amount: 1234, currency: USD }`
 * gives `"12.34"`, 1 satoshi gives `"0.00000001"`. With `{ code: true }` the currency code follows;
 * with `{ grouping: true }` the whole part is grouped by thousands: `"1,234.56"` (what the CLI's tables show).
 */
export function formatAmount(value: { amount: number; currency: HasDecimals }, options: { code?: boolean; grouping?: boolean } = {}): string {
  const { amount, currency } = value;
  if (!Number.isSafeInteger(amount)) refuse('amount', 'must be a whole number of smallest units within ±2^53-1');
  const decimals = decimalsOf(currency);
  const negative = amount < 0;
  const digits = String(Math.abs(amount)).padStart(decimals + 1, '0');
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const grouped = options.grouping ? whole.replace(/\B(?=(\d{3})+$)/g, ',') : whole;
  const text = (negative ? '-' : '') + (decimals === 0 ? grouped : `${grouped}.${digits.slice(-decimals)}`);
  return options.code && currency.code ? `${text} ${currency.code}` : text;
}

/**
 * Parses a decimal amount into smallest units, exactly: `toMinorUnits('12.34', USD)` gives 1234.
 * Refuses more fraction digits than the currency has (no silent rounding), exponents, and values
 * beyond `Number.MAX_SAFE_INTEGER`.
 */
export function toMinorUnits(value: string, currency: HasDecimals): number {
  const decimals = decimalsOf(currency);
  if (typeof value !== 'string') refuse('value', 'must be a decimal string such as "12.34" (numbers lose precision)', 'invalid_type');
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) refuse('value', `must be a decimal number such as "12.34", got "${value}"`, 'invalid_format');
  const [, sign, whole, fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > decimals) {
    refuse('value', `has ${significant.length} decimal places; ${currency.code ?? 'this currency'} has ${decimals}`, 'too_precise');
  }
  const units = BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(significant.padEnd(decimals, '0') || '0');
  if (units > MAX) refuse('value', 'is beyond Number.MAX_SAFE_INTEGER smallest units', 'too_big');
  const result = Number(units);
  return sign && result !== 0 ? -result : result;
}
