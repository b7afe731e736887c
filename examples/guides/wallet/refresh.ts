import type { Crossborder } from 'crossborder-sdk';
import { generateClientKeyPair, WalletSession } from 'crossborder-sdk/wallet';

/** Before a session ends: a new one, signed by it. Sent compressed, the new key pair is the new session key. */
export async function refreshSession(cb: Crossborder, session: WalletSession) {
  const keys = await generateClientKeyPair();
  const refreshed = await cb.auth.sessions.refresh(session.id!, { clientPublicKey: keys.publicKeyCompressed }, { signer: session.signer });
  return WalletSession.fromVerify(refreshed, keys, session.credentialId);
}

/** A key the service keeps, signing for the card's wallet without a session: two signatures, then ACTIVE. */
export function delegateCardSigning(cb: Crossborder, session: WalletSession, cardId: string, walletId: string) {
  return cb.auth.delegatedKeys.create({ cardId, internalAccountId: walletId, nickname: 'Card payments' }, { signer: session.signer });
}

/** Taking it back needs no signature; the key then reads REVOKED, and the card may get a new one. */
export async function stopCardSigning(cb: Crossborder, delegatedKeyId: string) {
  await cb.auth.delegatedKeys.revoke(delegatedKeyId);
  return cb.auth.delegatedKeys.retrieve(delegatedKeyId);
}
