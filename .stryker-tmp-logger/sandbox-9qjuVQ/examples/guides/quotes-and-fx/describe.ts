// @ts-nocheck
import { formatAmount, type Quote } from 'crossborder-sdk';

/** The confirmation a customer reads before the quote is executed. */
export function describeQuote(quote: Quote): string {
  const pay = (amount: number) => formatAmount({ amount, currency: quote.sendingCurrency }, { code: true });
  const get = formatAmount({ amount: quote.totalReceivingAmount, currency: quote.receivingCurrency }, { code: true });
  return (
    `You pay ${pay(quote.totalSendingAmount)} (fees ${pay(quote.feesIncluded)} included), they get ${get}. ` +
    // exchangeRate: units of the sending currency per unit of the receiving currency.
    `1 ${quote.receivingCurrency.code} = ${quote.exchangeRate} ${quote.sendingCurrency.code}, valid until ${quote.expiresAt}.`
  );
}
