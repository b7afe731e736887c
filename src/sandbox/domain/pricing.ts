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

/** The rail the sandbox pays each currency out over (`destinationPaymentRail` of its exchange rates). */
const PAYOUT_RAILS: Readonly<Record<string, string>> = {
  USD: 'ACH',
  EUR: 'SEPA_INSTANT',
  GBP: 'FASTER_PAYMENTS',
  BRL: 'PIX',
  AED: 'UAEFTS',
  MXN: 'SPEI',
  BTC: 'LIGHTNING',
  USDC: 'SOLANA',
  USDT: 'SOLANA',
};

/** The rail `code` is paid out over. */
export function payoutRail(code: string): string {
  return PAYOUT_RAILS[code] ?? 'BANK_TRANSFER';
}

/**
 * The corridor's price for `sendingAmount`, the very pricing of a quote locked on the SENDING side (so a
 * quote made at once shows the same rate, fees and receiving amount); undefined when the amount cannot
 * be priced (it does not cover the fees, or a side overflows).
 */
export function corridorPrice(from: CurrencyInfo, to: CurrencyInfo, sendingAmount: number): Pricing | undefined {
  try {
    return price(from, to, 'SENDING', sendingAmount);
  } catch (error) {
    if (error instanceof SandboxError) return undefined;
    throw error;
  }
}

/** What a network charges for a withdrawal: in its own asset's smallest unit, and its USD value (scaled by 1e8, as `CurrencyInfo.usdValue`). */
interface NetworkFee {
  asset: string;
  fee: number;
  usd: bigint;
}

/** The sandbox's network fees (fixed, plausible figures: SOL 5000 lamports, ETH 21000 gas at 20 gwei, …). */
const NETWORK_FEES: Readonly<Record<string, NetworkFee>> = {
  SOLANA: { asset: 'SOL', fee: 5_000, usd: 500_000n }, // $0.005
  ETHEREUM: { asset: 'ETH', fee: 420_000_000_000_000, usd: 150_000_000n }, // $1.50
  BASE: { asset: 'ETH', fee: 210_000_000_000, usd: 1_000_000n }, // $0.01
  POLYGON: { asset: 'POL', fee: 630_000_000_000_000, usd: 1_000_000n }, // $0.01
  SPARK: { asset: 'BTC', fee: 0, usd: 0n },
  LIGHTNING: { asset: 'BTC', fee: 10, usd: 950_000n }, // 10 sats
  BITCOIN: { asset: 'BTC', fee: 2_000, usd: 190_000_000n }, // 2000 sats
};

/** The network `cryptoNetwork` names (`SOLANA`, or `SOLANA_MAINNET` / `SOLANA_DEVNET` as external accounts name it). */
export function networkFee(cryptoNetwork: string): NetworkFee | undefined {
  const name = cryptoNetwork.toUpperCase();
  return NETWORK_FEES[name] ?? NETWORK_FEES[name.replace(/_(MAINNET|TESTNET|DEVNET|REGTEST|SEPOLIA)$/, '')];
}

/** The estimated fees of withdrawing `amount` of `asset` over `network`: the network fee converted to the asset, rounded up; no application fee. */
export function withdrawalFee(asset: CurrencyInfo, network: NetworkFee, amount: number) {
  const totalFee = Number((network.usd * 10n ** BigInt(asset.decimals) + asset.usdValue - 1n) / asset.usdValue);
  return { networkFee: network.fee, networkFeeAsset: network.asset, applicationFee: 0, totalFee, netAmount: amount - totalFee };
}
