/**
 * Webhook events narrow on `type` (issue 23): comparing `event.type` with a known type narrows
 * `event.data` with no other guard, while events of types this SDK does not know are still in the
 * union, reachable in a typed way.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Crossborder, IncomingTransaction, OutgoingTransaction, UnknownEvent, WebhookEvent } from '../../src/index';

declare const cb: Crossborder;
type Unwrapped = Awaited<ReturnType<Crossborder['webhooks']['unwrap']>>;

describe('cb.webhooks.unwrap() events', () => {
  it('narrow event.data by comparing event.type with a known type, no other guard', async () => {
    const event = await cb.webhooks.unwrap('{}', {});
    if (event.type === 'OUTGOING_PAYMENT.COMPLETED') {
      expectTypeOf(event.data).toEqualTypeOf<OutgoingTransaction>();
      expectTypeOf(event.data.status).toEqualTypeOf<OutgoingTransaction['status']>();
    }
    if (event.type === 'INCOMING_PAYMENT.PENDING') expectTypeOf(event.data).toEqualTypeOf<IncomingTransaction>();
  });

  it('narrow in a switch', () => {
    const event = {} as Unwrapped;
    switch (event.type) {
      case 'OUTGOING_PAYMENT.FAILED':
        expectTypeOf(event.data).toEqualTypeOf<OutgoingTransaction>();
        break;
      case 'INCOMING_PAYMENT.COMPLETED':
        expectTypeOf(event.data).toEqualTypeOf<IncomingTransaction>();
        break;
      default:
        expectTypeOf(event).toMatchTypeOf<WebhookEvent | UnknownEvent>();
    }
  });

  it('still hold events of unknown types, reached through `unknown`, their type readable as a string', () => {
    const event = {} as Unwrapped;
    expectTypeOf<UnknownEvent>().toMatchTypeOf<Unwrapped>();
    if ('unknown' in event) {
      expectTypeOf(event).toEqualTypeOf<UnknownEvent>();
      expectTypeOf(event.data).toBeUnknown();
      expectTypeOf(`${event.type}`).toBeString();
      expectTypeOf(String(event.type)).toBeString();
      expectTypeOf(event.type.valueOf()).toBeString();
    } else {
      expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    }
  });

  it('a comparison with a known type never keeps the unknown member', () => {
    const event = {} as Unwrapped;
    if (event.type === 'CUSTOMER.KYC_APPROVED') expectTypeOf(event).not.toMatchTypeOf<UnknownEvent>();
    if (event.type !== 'TEST' && event.type !== 'INVITATION.CLAIMED') expectTypeOf<UnknownEvent>().toMatchTypeOf<typeof event>();
  });
});
