// @ts-nocheck
import type { Crossborder, Signer } from 'crossborder-sdk';
import type { WalletSession } from 'crossborder-sdk/wallet';

/** Signer mode, where the session lives in this process: the SDK answers the challenge and repeats the request. */
export function makeWalletPrivate(cb: Crossborder, walletId: string, session: WalletSession) {
  return cb.internalAccounts.update(walletId, { privateEnabled: true }, { signer: session.signer });
}

/** Any async (challenge) => signature is a signer, e.g. a round trip to the device over your websocket. */
export function revokeSession(cb: Crossborder, sessionId: string, askDevice: Signer) {
  return cb.auth.sessions.revoke(sessionId, { signer: askDevice });
}
