/** A service for runner tests that needs no sandbox: every quote completes at once; what was sent is counted by Idempotency-Key. */
import type { PayoutClient, PayoutInstruction } from '../../src/payouts/index';

/** A payable instruction of `amount` (minor units) under `reference`. */
export const ok = (reference: string, amount = 100): PayoutInstruction => ({
  reference,
  source: { accountId: 'InternalAccount:a' },
  destination: { accountId: 'ExternalAccount:b' },
  amount,
});

/** A client whose quotes complete at once, and the Idempotency-Keys of the creates it was sent, in order. */
export function service(): { client: PayoutClient; keys: string[] } {
  const keys: string[] = [];
  const client: PayoutClient = {
    quotes: {
      create: async (_body, options) => {
        keys.push(options!.idempotencyKey!);
        return {
          id: `Quote:${keys.length}`,
          status: 'COMPLETED',
          transactionId: `Transaction:${keys.length}`,
          totalSendingAmount: 1,
          totalReceivingAmount: 1,
        } as never;
      },
      execute: async () => ({}) as never,
    },
    transactions: { retrieve: async (id) => ({ id, status: 'COMPLETED' }) as never },
    receiver: { lookupUma: async () => ({}) as never },
  };
  return { client, keys };
}
