// @ts-nocheck
import { ConfigurationError, PermissionDeniedError, type Crossborder } from 'crossborder-sdk';

/** Tops up a test account, and says plainly why that cannot happen in production. */
export async function topUp(cb: Crossborder, accountId: string, amount: number): Promise<string> {
  try {
    const account = await cb.sandbox.fundInternalAccount(accountId, { amount });
    return `balance ${account.balance.amount}`;
  } catch (err) {
    // Refused by the SDK: this client's environment is 'production'. Nothing was sent.
    if (err instanceof ConfigurationError) return 'refused locally: production client';
    // Refused by the service: production credentials on a sandbox-only endpoint.
    if (err instanceof PermissionDeniedError && err.code === 'SANDBOX_ONLY') return 'refused by the service: SANDBOX_ONLY';
    throw err;
  }
}
