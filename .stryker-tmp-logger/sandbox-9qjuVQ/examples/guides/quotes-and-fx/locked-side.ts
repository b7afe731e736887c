// @ts-nocheck
import type { Crossborder } from 'crossborder-sdk';

/** "Send exactly $100.00": the sender pays 10 000 cents, fees included; the payee gets the rest, converted. */
export function quoteSending(cb: Crossborder, accountId: string, payeeId: string, cents: number) {
  return cb.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId },
    destination: { destinationType: 'ACCOUNT', accountId: payeeId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: cents, // in the sending currency
  });
}

/** "Deliver exactly £50.00": the payee gets 5 000 pence; the sender pays that, converted, plus fees. */
export function quoteReceiving(cb: Crossborder, accountId: string, payeeId: string, pence: number) {
  return cb.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId },
    destination: { destinationType: 'ACCOUNT', accountId: payeeId },
    lockedCurrencySide: 'RECEIVING',
    lockedCurrencyAmount: pence, // in the receiving currency
  });
}
