import {
  approvePayment,
  rejectPayment,
  requestCounterpartyInfo,
  unwrapWebhook,
  WebhookVerificationError,
} from '../../../src/webhooks/index';

/** Your decision, taken from your own records so a repeated delivery gets the same answer. */
export type Decision =
  | { approve: true; receiverCustomerInfo?: Record<string, string> }
  | { approve: false; reason: string }
  | { approve: false; missingFields: string[] };

export function createApprovalHandler(
  publicKey: string,
  decide: (transaction: Record<string, unknown>) => Promise<Decision>,
) {
  return async (request: Request): Promise<Response> => {
    let event;
    try {
      event = await unwrapWebhook(request, request.headers, { publicKey });
    } catch (err) {
      if (err instanceof WebhookVerificationError) return new Response(null, { status: 400 });
      throw err;
    }
    if (event.type !== 'INCOMING_PAYMENT.PENDING') return new Response(null, { status: 200 });
    // The service waits 5 s for this answer; no dedupe here, every delivery needs one.
    const decision = await decide(event.data);
    if (decision.approve) return approvePayment({ receiverCustomerInfo: decision.receiverCustomerInfo });
    if ('missingFields' in decision) return requestCounterpartyInfo(decision.missingFields);
    return rejectPayment({ message: decision.reason });
  };
}
