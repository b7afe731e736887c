/** Webhook events as the service sends them, for tests and benchmarks. */

/**
 * A complete INCOMING_PAYMENT.COMPLETED event that matches the document (every field its schema requires),
 * so unwrap's event check finds nothing, as for real deliveries.
 */
export function incomingPaymentCompleted(options: { now: string; id: string; transactionId: string; description: string }) {
  const { now, id, transactionId, description } = options;
  const currency = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 };
  return {
    id,
    type: 'INCOMING_PAYMENT.COMPLETED',
    timestamp: now,
    data: {
      id: transactionId,
      type: 'INCOMING',
      status: 'COMPLETED',
      createdAt: now,
      updatedAt: now,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$ada@sender.example' },
      destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:1' },
      receivedAmount: { amount: 1000, currency },
      description,
    },
  };
}
