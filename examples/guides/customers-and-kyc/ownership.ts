import type { Crossborder } from 'crossborder-sdk';

/** A self-custody wallet the customer says is their own: it starts PENDING_OWNERSHIP_VERIFICATION. */
export function addOwnWallet(cb: Crossborder, customerId: string, address: string) {
  return cb.externalAccounts.create({ customerId, currency: 'BTC', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'SPARK_WALLET', address } });
}

/** Proof by signature: the wallet signs the challenge's message, and the account becomes ACTIVE. */
export async function proveOwnership(cb: Crossborder, accountId: string, signWithWallet: (message: string) => Promise<string>) {
  const challenge = await cb.externalAccounts.challenge(accountId, { method: 'WALLET_SIGNATURE' });
  if (challenge.method !== 'WALLET_SIGNATURE') throw new Error(`expected a WALLET_SIGNATURE challenge, got ${challenge.method}`);
  const signature = await signWithWallet(challenge.messageToSign); // before challenge.expiresAt
  return cb.externalAccounts.verify(accountId, { signature });
}
