/**
 * Quote pricing: fees and the locked side, on integers only.
 *
 * - Fees are charged in the sending currency: a fixed fee per sending currency plus, across
 *   currencies, {@link VARIABLE_FEE_BPS} of the total sending amount rounded up.
 * - Locked SENDING: `totalSendingAmount` = the amount; receiving = floor((sending − fees) × rate).
 * - Locked RECEIVING: `totalReceivingAmount` = the amount; sending = the smallest total whose
 *   conversion after fees reaches it (so rounding never shorts the receiver).
 * @module
 */
import { SandboxError } from './errors';
import { exchangeRate, rateBetween, type CurrencyInfo } from './currencies';

/** Variable fee on cross-currency quotes, in basis points of the total sending amount. */
export const VARIABLE_FEE_BPS = 30;
/** Largest amount on either side of a quote (the spec's locked-amount limit). */
export const MAX_QUOTE_AMOUNT = 9_000_000_000_000_000;

/** The priced sides of a quote and how the price was made. */
export interface Pricing {
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
  exchangeRate: number;
  rateDetails: {
    serviceApiMultiplier: number;
    serviceApiFixedFee: number;
    serviceApiVariableFeeRate: number;
    serviceApiVariableFeeAmount: number;
  };
}

const BPS = 10_000n;

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** Prices a quote; throws 400 AMOUNT_OUT_OF_RANGE when the amount cannot cover the fees or a side overflows. */
export function price(from: CurrencyInfo, to: CurrencyInfo, side: 'SENDING' | 'RECEIVING', amount: number): Pricing {
  const rate = rateBetween(from, to);
  const fixed = BigInt(from.fixedFee);
  const bps = from.code === to.code ? 0n : BigInt(VARIABLE_FEE_BPS);
  const variableFee = (sending: bigint) => ceilDiv(sending * bps, BPS);
  const converted = (sending: bigint) => ((sending - fixed - variableFee(sending)) * rate.num) / rate.den;

  let sending: bigint;
  let receiving: bigint;
  if (side === 'SENDING') {
    sending = BigInt(amount);
    receiving = converted(sending);
  } else {
    receiving = BigInt(amount);
    // converted() never decreases as sending grows, so binary search finds the smallest sending total.
    let lo = fixed + 1n;
    let hi = 2n * (fixed + ceilDiv(receiving * rate.den, rate.num)) + 2n;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if (converted(mid) >= receiving) hi = mid;
      else lo = mid + 1n;
    }
    sending = lo;
  }
  const fees = fixed + variableFee(sending);
  if (receiving < 1n) {
    throw new SandboxError(
      400,
      'AMOUNT_OUT_OF_RANGE',
      `${amount} ${from.code} does not cover the fees of ${fees} ${from.code} and leave anything to receive.`,
      { field: 'lockedCurrencyAmount', feesIncluded: Number(fees) },
    );
  }
  const max = BigInt(MAX_QUOTE_AMOUNT);
  if (sending > max || receiving > max) {
    throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `The quote would move more than ${MAX_QUOTE_AMOUNT} smallest units on one side.`, {
      field: 'lockedCurrencyAmount',
      max: MAX_QUOTE_AMOUNT,
    });
  }
  return {
    totalSendingAmount: Number(sending),
    totalReceivingAmount: Number(receiving),
    feesIncluded: Number(fees),
    exchangeRate: exchangeRate(from, to),
    rateDetails: {
      serviceApiMultiplier: Number(rate.num) / Number(rate.den),
      serviceApiFixedFee: Number(fixed),
      serviceApiVariableFeeRate: Number(bps) / Number(BPS),
      serviceApiVariableFeeAmount: Number(variableFee(sending)),
    },
  };
}
