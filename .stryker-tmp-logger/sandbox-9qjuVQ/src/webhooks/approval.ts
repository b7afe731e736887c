/**
 * Replies to the payment approval webhook (`INCOMING_PAYMENT.PENDING`), as Fetch `Response`s.
 *
 * The 5-second rule: the service waits 5 s for the answer. No answer in time fails the payment
 * with `PAYMENT_APPROVAL_TIMED_OUT`; an error answer (e.g. a 500 from a crashed handler) fails it
 * with `PAYMENT_APPROVAL_WEBHOOK_ERROR`. If the decision takes longer, answer
 * {@link deferApproval} (202) and then call `/approve` or `/reject` on the transaction within 5 s.
 * @module
 */
// @ts-nocheck


function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Options of {@link approvePayment}. */
export interface ApprovePaymentOptions {
  /** Receiver data the sender asked for (field name → value, e.g. `{ FULL_NAME: 'Ada Lovelace' }`). */
  receiverCustomerInfo?: Record<string, string>;
}

/**
 * Approves the incoming payment: 200 with `{ receiverCustomerInfo }` when given, else `{}`.
 * Must be the answer to the delivery within 5 s (see the module notes).
 */
export function approvePayment(options: ApprovePaymentOptions = {}): Response {
  return json(200, options.receiverCustomerInfo ? { receiverCustomerInfo: options.receiverCustomerInfo } : {});
}

/** Options of {@link rejectPayment}. */
export interface RejectPaymentOptions {
  /** Machine-readable reason. Default `PAYMENT_REJECTED`. */
  code?: string;
  /** Human-readable reason (kept by the service for support; do not put secrets here). */
  message: string;
  /** Extra structured information. */
  details?: Record<string, unknown>;
}

/**
 * Rejects the incoming payment: 403 with the error body `{ status: 403, code, message, details }`.
 * Must be the answer to the delivery within 5 s; the payment is then refunded to the sender.
 */
export function rejectPayment(options: RejectPaymentOptions): Response {
  const { code = 'PAYMENT_REJECTED', message, details } = options;
  return json(403, { status: 403, code, message, ...(details === undefined ? {} : { details }) });
}

/**
 * Asks for more counterparty data before deciding: 422 with code `COUNTERPARTY_INFO_REQUIRED` and
 * `details.requiredCounterpartyFields`. Must be the answer to the delivery within 5 s.
 * @param fields upper-case counterparty field names, e.g. `['FULL_NAME', 'BIRTH_DATE']`.
 */
export function requestCounterpartyInfo(fields: string[]): Response {
  return json(422, {
    status: 422,
    code: 'COUNTERPARTY_INFO_REQUIRED',
    message: `counterparty information required: ${fields.join(', ')}`,
    details: { requiredCounterpartyFields: fields },
  });
}

/**
 * Defers the decision: 202 with `{}`. The platform must then call `/approve` or `/reject` on the
 * transaction within 5 s, or the payment fails with `PAYMENT_APPROVAL_TIMED_OUT`.
 */
export function deferApproval(): Response {
  return json(202, {});
}
