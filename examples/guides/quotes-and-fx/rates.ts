import type { Crossborder } from 'crossborder-sdk';

/** "What would $100.00 buy?": the corridor's current rate, fees and amount received, before any quote. */
export async function rateFor(cb: Crossborder, sourceCurrency: string, destinationCurrency: string, sendingAmount: number) {
  const { data } = await cb.exchangeRates.list({ sourceCurrency, destinationCurrency: [destinationCurrency], sendingAmount });
  const rate = data[0];
  if (!rate) return undefined; // no such corridor, or the amount does not cover its fees
  return { exchangeRate: rate.exchangeRate, fees: rate.fees.total, receivingAmount: rate.receivingAmount, rail: rate.destinationPaymentRail };
}
