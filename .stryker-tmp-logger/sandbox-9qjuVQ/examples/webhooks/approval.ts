// @ts-nocheck
import { approvePayment, rejectPayment, requestCounterpartyInfo, WebhookVerificationError, type Crossborder } from 'crossborder-sdk';

/** Your decision, taken from your own records so a repeated delivery gets the same answer. */
export type Decision =
  | { approve: true; receiverCustomerInfo?: Record<string, string> }
  | { approve: false; reason: string }
  | { approve: false; missingFields: string[] };

export function createApprovalHandler(cb: Crossborder, decide: (transaction: Record<string, unknown>) => Promise<Decision>) {
  return async (request: Request): Promise<Response> => {
    let event;
    try {
      event = await cb.webhooks.unwrap(request);
    } catch (err) {
      if (err instanceof WebhookVerificationError) return new Response(null, { status: 400 });
      throw err;
    }
    if (event.type !== 'INCOMING_PAYMENT.PENDING') return new Response(null, { status: 200 });
    // A verified delivery is answered whatever its data holds (event.issues lists what differs from the
    // document): refusing it would fail the customer's payment. The service waits 5 s for this answer;
    // no dedupe here, every delivery needs one.
    const decision = await decide(event.data as Record<string, unknown>);
    if (decision.approve) return approvePayment({ receiverCustomerInfo: decision.receiverCustomerInfo });
    if ('missingFields' in decision) return requestCounterpartyInfo(decision.missingFields);
    return rejectPayment({ message: decision.reason });
  };
}
