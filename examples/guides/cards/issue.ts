import type { Card, Crossborder } from 'crossborder-sdk';

/**
 * Issues a virtual card to a KYC-approved customer, funded by their USD account, with at most $50.00 per
 * transaction. The card is answered `PROCESSING`; the service sends `CARD.STATE_CHANGE` when the issuer has
 * provisioned it, and a read shows it `ACTIVE` from then on.
 */
export async function issueCard(cb: Crossborder, cardholderId: string, usdAccountId: string): Promise<Card> {
  return cb.cards.create({
    cardholderId,
    form: 'VIRTUAL',
    fundingSources: [usdAccountId],
    maxSpendPerTransaction: 5_000,
  });
}

/** Freezes a card (new authorizations are declined) while a report of fraud is looked into; unfreezes it when cleared. */
export async function setFrozen(cb: Crossborder, cardId: string, frozen: boolean): Promise<Card['state']> {
  const card = await cb.cards.update(cardId, { state: frozen ? 'FROZEN' : 'ACTIVE' });
  return card.state;
}

/**
 * The address of the card processor's frame that shows the cardholder the card's number, CVC and expiry. It is
 * a bearer secret, valid for minutes: hand it to the cardholder's page at once, never store or log it.
 */
export async function revealFrameUrl(cb: Crossborder, cardId: string): Promise<string> {
  const { panEmbedUrl } = await cb.cards.reveal(cardId);
  return panEmbedUrl;
}
