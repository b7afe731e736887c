/**
 * Strong Customer Authentication's hold on a payment: the error a write throws when its answer is a quote waiting for
 * the customer's authorization. A module of its own, loaded with the rows of the operations whose answer can hold a
 * payment (their `sca` loader, from the document: an answer with a `status` that can be `PENDING_AUTHORIZATION` and
 * an `scaChallenge`), so that a bundle without such an operation (a worker that lists) holds none of it. It imports
 * only the base of the hierarchy (see error-base.ts).
 * @module
 */
import type { Quote, ScaChallenge } from '../generated/named';
import type { WithResponse } from './api-promise';
import { CrossborderError, type RequestContext } from './error-base';

/**
 * A payment waits for Strong Customer Authentication (production's, for customers of a region where SCA is
 * required: the EU). The service answered the quote in `PENDING_AUTHORIZATION` with an `scaChallenge`: nothing has
 * moved yet. Have the customer satisfy `challenge` (the SMS code, their passkey) and continue with
 * `cb.quotes.authorize(error.quoteId, proof)`; an authorization that needs another step throws this again with the
 * next challenge. Thrown by every write answered so (executing a quote, creating one that executes, authorizing), so
 * code written before SCA never takes a held payment for a started one.
 */
export class ScaRequiredError extends CrossborderError {
  override name = 'ScaRequiredError';
  /** The quote waiting for its authorization. */
  declare readonly quoteId: string;
  /** The challenge to satisfy now (`factor`, `availableFactors`, `expiresAt`). */
  declare readonly challenge: ScaChallenge;
  /** The quote as the service answered it (status `PENDING_AUTHORIZATION`). */
  declare readonly quote: Quote;
  /** `X-Request-Id` of the answer. */
  declare readonly requestId: string | undefined;
  /** The `Idempotency-Key` sent: the same call with it answers the same held quote. */
  declare readonly idempotencyKey: string | undefined;
  /** HTTP method and path template of the operation, e.g. `POST /quotes/{quoteId}/execute`. */
  declare readonly operation: string | undefined;
  constructor(quote: Quote & { scaChallenge: ScaChallenge }, init: RequestContext & { requestId?: string | undefined } = {}) {
    super(
      `Quote ${quote.id} needs Strong Customer Authentication: satisfy its ${quote.scaChallenge.factor} challenge before ` +
        `${quote.scaChallenge.expiresAt}, then call quotes.authorize('${quote.id}', proof)`,
    );
    this.quoteId = quote.id;
    this.challenge = quote.scaChallenge;
    this.quote = quote;
    this.requestId = init.requestId;
    this.idempotencyKey = init.idempotencyKey;
    this.operation = init.operation;
  }
}

/**
 * A write's answer that holds a payment for Strong Customer Authentication (a quote in `PENDING_AUTHORIZATION`, with
 * an `scaChallenge` that has an id) becomes a {@link ScaRequiredError} naming the quote and its challenge; any other
 * answer is the call's result, unchanged.
 * @internal
 */
export function scaHold(operation: string, result: WithResponse<unknown>): WithResponse<unknown> {
  const data = result.data as Partial<Quote> | null;
  const challenge = data !== null && typeof data === 'object' ? (data.scaChallenge as Partial<ScaChallenge> | null | undefined) : undefined;
  if (data?.status === 'PENDING_AUTHORIZATION' && typeof data.id === 'string' && typeof challenge?.id === 'string') {
    throw new ScaRequiredError(data as Quote & { scaChallenge: ScaChallenge }, {
      operation,
      requestId: result.requestId,
      idempotencyKey: result.idempotencyKey,
    });
  }
  return result;
}
