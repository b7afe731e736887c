import type { Crossborder, StablecoinOperation } from 'crossborder-sdk';

/**
 * Links the platform's Brale account with its API credentials, then registers a token Brale created. The
 * secret goes to the service once and is never answered back.
 */
export async function registerToken(cb: Crossborder, apiClientId: string, apiClientSecret: string): Promise<string> {
  await cb.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId, apiClientSecret });
  const coin = await cb.stablecoins.register({
    providerTokenIdentifier: 'ACME',
    networkTokenIdentifier: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
    network: 'SPARK',
  });
  return coin.id;
}

/** Mints `amount` (the token's smallest unit) paid from an internal USD account, into a wallet. */
export function mintFromAccount(cb: Crossborder, stablecoinId: string, accountId: string, walletId: string, amount: string) {
  // Money moves: the SDK sends one Idempotency-Key per call and the same key on every retry.
  return cb.stablecoins.mint(stablecoinId, {
    amount,
    fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId },
    destination: { accountId: walletId },
  });
}

/** Redeems `amount` from the provider's balance to a bank account over ACH. */
export function redeemToBank(cb: Crossborder, stablecoinId: string, bankAccountId: string, amount: string) {
  return cb.stablecoins.burn(stablecoinId, {
    amount,
    source: { type: 'PROVIDER_INTERNAL_BALANCE' },
    destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bankAccountId, rail: 'ACH_CREDIT' },
  });
}

/** The operations of a stablecoin still under way (neither COMPLETED, FAILED nor EXPIRED), walking every page. */
export async function underWay(cb: Crossborder, stablecoinId: string): Promise<StablecoinOperation[]> {
  const open: StablecoinOperation[] = [];
  for await (const op of cb.stablecoins.listOperations(stablecoinId)) {
    if (!['COMPLETED', 'FAILED', 'EXPIRED'].includes(op.status)) open.push(op);
  }
  return open;
}
