import type { CardTransaction, Crossborder, UnknownEvent, WebhookEvent } from 'crossborder-sdk';

/** The platform's ledger of card transactions, by id: the last state each webhook told. */
export type CardLedger = Map<string, CardTransaction>;

/**
 * Handles a verified delivery: `event.type` narrows `event.data`, a `Card` for `CARD.*` events and a
 * `CardTransaction` for `CARD_TRANSACTION.*` ones. Returns what it did, for the log.
 */
export function onCardEvent(event: WebhookEvent | UnknownEvent, ledger: CardLedger): string {
  switch (event.type) {
    case 'CARD.STATE_CHANGE':
      return `card ${event.data.id} is ${event.data.state}`;
    case 'CARD_TRANSACTION.AUTHORIZED':
    case 'CARD_TRANSACTION.PARTIALLY_SETTLED':
    case 'CARD_TRANSACTION.SETTLED':
    case 'CARD_TRANSACTION.REFUNDED':
    case 'CARD_TRANSACTION.EXCEPTION':
      ledger.set(event.data.id, event.data);
      return `${event.data.merchant.descriptor}: ${event.data.authorizedAmount.amount} ${event.data.status}`;
    default:
      return 'ignored';
  }
}

/**
 * Sandbox only: a $12.50 coffee on the card, then its clearing with a $2.00 tip. The clearing names the card
 * transaction the authorization made, which the `CARD_TRANSACTION.AUTHORIZED` webhook carried (matched by the
 * issuer transaction token both share).
 */
export async function coffeeWithTip(cb: Crossborder, cardId: string, ledger: CardLedger, delivered: () => Promise<void>): Promise<CardTransaction | undefined> {
  const { issuerTransactionToken } = await cb.sandbox.simulateCardAuthorization(cardId, {
    amount: 1_250,
    currency: { code: 'USD' },
    merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
  });
  await delivered();
  const authorized = [...ledger.values()].find((t) => t.issuerTransactionToken === issuerTransactionToken);
  if (!authorized) return undefined; // declined: a declined authorization makes no transaction
  await cb.sandbox.simulateCardClearing(cardId, { cardTransactionId: authorized.id, amount: 1_450 });
  await delivered();
  return ledger.get(authorized.id);
}
