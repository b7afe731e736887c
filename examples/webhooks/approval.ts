import { approvePayment, rejectPayment, requestCounterpartyInfo, WebhookVerificationError, type Crossborder, type IncomingTransaction } from 'crossborder-sdk';

/** Your decision, taken from your own records so a repeated delivery gets the same answer. */
export type Decision =
  { approve: true; receiverCustomerInfo?: Record<string, string> } | { approve: false; reason: string } | { approve: false; missingFields: string[] };

export function createApprovalHandler(cb: Crossborder, decide: (transaction: IncomingTransaction) => Promise<Decision>) {
  return async (request: Request): Promise<Response> => {
    let event;
    try {
      event = await cb.webhooks.unwrap(request);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      console.warn(`webhook refused (${err.reason}): ${err.message}`); // which check failed, e.g. invalid_signature
      return new Response(null, { status: 400 });
    }
    if (event.type !== 'INCOMING_PAYMENT.PENDING') return new Response(null, { status: 200 }); // other types: acknowledged
    // A verified delivery is answered whatever its data holds (event.issues lists what differs from the
    // document): refusing it would fail the customer's payment. The service waits 5 s for this answer;
    // no dedupe here, every delivery needs one.
    const decision = await decide(event.data); // narrowed by the type check: an IncomingTransaction
    if (decision.approve) return approvePayment({ receiverCustomerInfo: decision.receiverCustomerInfo });
    if ('missingFields' in decision) return requestCounterpartyInfo(decision.missingFields);
    return rejectPayment({ message: decision.reason });
  };
}
