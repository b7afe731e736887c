import type { UnknownEvent, WebhookEvent } from 'crossborder-sdk';

/** Your handler, given to a recipe below: comparing `event.type` narrows `event.data`, no cast. */
export async function onEvent(event: WebhookEvent | UnknownEvent): Promise<void> {
  if (event.type === 'OUTGOING_PAYMENT.COMPLETED') {
    console.log(`payout ${event.data.id} ${event.data.status}`); // event.data: OutgoingTransaction
  } else if (event.type === 'INCOMING_PAYMENT.COMPLETED') {
    console.log(`received ${event.data.id}: ${event.data.receivedAmount?.amount}`); // event.data: IncomingTransaction
  } else if ('unknown' in event) {
    // A type newer than this SDK: delivered all the same, its data unchecked.
    console.log(`event type this SDK does not know yet: ${String(event.type)}`);
  }
}

// Called by the recipes, e.g. with Node's http:
//   createWebhookServer(new Crossborder(), onEvent).listen(3000);
