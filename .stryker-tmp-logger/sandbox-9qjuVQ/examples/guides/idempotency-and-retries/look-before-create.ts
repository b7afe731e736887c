// @ts-nocheck
import { APIConnectionError, type Crossborder, type ExternalAccountCreateParams } from 'crossborder-sdk';

/**
 * Registers a payee once. Creating an external account takes no Idempotency-Key, so after an
 * unknown outcome look for it (by your own `platformAccountId`) before creating it again.
 */
export async function registerPayee(cb: Crossborder, params: ExternalAccountCreateParams & { customerId: string; platformAccountId: string }) {
  try {
    return await cb.externalAccounts.create(params);
  } catch (err) {
    if (!(err instanceof APIConnectionError && err.outcomeUnknown)) throw err;
    for await (const account of cb.externalAccounts.list({ customerId: params.customerId })) {
      if (account.platformAccountId === params.platformAccountId) return account; // it did arrive
    }
    return cb.externalAccounts.create(params); // it did not: safe to create now
  }
}
