/**
 * The 202 signed retry: the loop that answers a write's wallet challenges, and its bookkeeping (challenges seen,
 * requestIds already sent, single use, expiry, what a signer returns). The pipeline sends; this decides whether a
 * signed leg may go. Loaded with the rows that can be challenged (every write's `signing`, ./signing), so that a
 * bundle whose operations only read holds none of it.
 * @module
 */
import type { WithResponse } from './api-promise';
import { ResponseValidationError, SignatureChallengeError, SignatureRequiredError, type SignatureChallenge, type ValidationIssue } from './errors';
import type { Signer } from './options';
import { requestIdOf, type Scrub } from './scrub';
import type { CallTrace } from './telemetry';
import { isHeaderValue } from './wire';

const MAX_REMEMBERED_CHALLENGES = 1_000;

/**
 * The most signed legs one call sends. Production's longest flow (a delegated key) signs twice (one to spare); a
 * service asking again after this many is refused rather than signed without end.
 */
const MAX_SIGNED_LEGS = 3;

/** What the pipeline gives the signed retry of one write's answer. */
export interface ChallengedLeg {
  /** The operation's label, e.g. `POST /quotes/{quoteId}/execute`. */
  readonly operation: string;
  /** The document lists the operation's 202 as a challenge (a body without a resource `id` is then one too). */
  readonly signed: boolean | undefined;
  readonly idempotencyKey: string | undefined;
  readonly trace: CallTrace | undefined;
  readonly scrub: Scrub;
  /** The call's signer (none: a challenge is thrown as a `SignatureRequiredError`, relay mode). */
  readonly signer: Signer | undefined;
  /** Sends the leg again with a signature, not after `notAfter` (epoch ms). */
  send(signature: string, requestId: string, notAfter: number): Promise<WithResponse<unknown>>;
}

/**
 * A write's answer, past its challenges: while it is a 202 wallet challenge, the challenge is signed with the
 * leg's signer and the leg sent again (production's delegated keys sign twice), up to MAX_SIGNED_LEGS in all
 * (`signedLegs`: those sent already), or handed to the caller in a `SignatureRequiredError` (relay mode).
 */
export async function answerChallenges(
  retry: SignedRetry,
  leg: ChallengedLeg,
  result: WithResponse<unknown>,
  signedLegs: number,
): Promise<WithResponse<unknown>> {
  const { operation, trace } = leg;
  while (result.response.status === 202 && isChallenge(result.data, leg.signed)) {
    const challenge = readChallenge(result.data, result.response, operation, leg.scrub);
    retry.remember(challenge); // so a leg relayed later is checked for expiry too
    trace?.challenge(challenge);
    if (signedLegs >= MAX_SIGNED_LEGS) {
      throw new SignatureChallengeError(
        `${operation}: the service asked for another signature after ${signedLegs} signed requests (requestId ${challenge.requestId}); ` +
          `start again from the unsigned call`,
      );
    }
    if (!leg.signer) throw new SignatureRequiredError(challenge, { operation, idempotencyKey: leg.idempotencyKey });
    const signature = await retry.sign(leg.signer, challenge, operation);
    trace?.signed(challenge.requestId);
    result = await leg.send(signature, challenge.requestId, Date.parse(challenge.expiresAt));
    signedLegs++;
  }
  return result;
}

export class SignedRetry {
  /** Challenges seen (requestId → expiresAt) and requestIds already sent, so none is reused. */
  readonly #challenges = new Map<string, string>();
  readonly #usedRequestIds = new Set<string>();

  /** Keeps a challenge handed to the caller (relay mode), so its second leg can be checked for expiry. */
  remember(challenge: SignatureChallenge): void {
    this.#challenges.set(challenge.requestId, challenge.expiresAt);
    if (this.#challenges.size > MAX_REMEMBERED_CHALLENGES) {
      this.#challenges.delete(this.#challenges.keys().next().value as string);
    }
  }

  /** When a challenge handed out earlier expires (epoch ms), if this client has seen it. */
  expiry(requestId: string): number | undefined {
    const expiresAt = this.#challenges.get(requestId);
    return expiresAt === undefined ? undefined : Date.parse(expiresAt);
  }

  /** Marks a requestId as sent; refuses one already sent or whose challenge has expired. */
  claim(requestId: string, operation: string): void {
    if (this.#usedRequestIds.has(requestId)) {
      throw new SignatureChallengeError(`requestId ${requestId} was already used (it is single use); start again from the unsigned call to ${operation}`);
    }
    const expiresAt = this.#challenges.get(requestId);
    if (expiresAt !== undefined) assertNotExpired({ requestId, expiresAt, payloadToSign: '' }, operation);
    this.#usedRequestIds.add(requestId);
    if (this.#usedRequestIds.size > MAX_REMEMBERED_CHALLENGES) {
      this.#usedRequestIds.delete(this.#usedRequestIds.values().next().value as string);
    }
  }

  /** Asks the signer, refusing a stale challenge before and after (the signer may take long), and an unsendable signature. */
  async sign(signer: Signer, challenge: SignatureChallenge, operation: string): Promise<string> {
    assertNotExpired(challenge, operation);
    const signature = await signer(challenge);
    if (typeof signature !== 'string' || signature === '') {
      throw new SignatureChallengeError(`The signer returned no signature for ${operation}`);
    }
    if (!isHeaderValue(signature)) {
      throw new SignatureChallengeError(`The signer returned a signature that cannot be sent as a header for ${operation}`);
    }
    assertNotExpired(challenge, operation); // the signer may have taken long: never send a stale challenge
    this.claim(challenge.requestId, operation);
    return signature;
  }
}

function assertNotExpired(challenge: SignatureChallenge, operation: string): void {
  const expires = Date.parse(challenge.expiresAt);
  // An unreadable expiry counts as expired: a challenge is never signed without knowing it is valid.
  if (Number.isNaN(expires) || expires <= Date.now()) {
    throw new SignatureChallengeError(
      `The challenge ${challenge.requestId} for ${operation} expired at ${challenge.expiresAt}; start again from the unsigned call`,
    );
  }
}

/**
 * True when a 202 answer to a write is a wallet challenge, so the signed retry applies (on any write):
 * the operation is one the spec signs, or the body carries a challenge's fields. A malformed challenge
 * is then refused by {@link readChallenge}, never returned as if it were the resource.
 */
export function isChallenge(data: unknown, signed: boolean | undefined): boolean {
  const c = data as Record<string, unknown> | null | undefined;
  const body = c !== null && typeof c === 'object';
  if (body && ('payloadToSign' in c || ('requestId' in c && 'expiresAt' in c))) return true;
  // A 202 carrying the resource (an `id`, no challenge field) is the answer, as 200 is, even where the
  // document lists a 202 challenge (production answers 202 with either on the same operation).
  if (body && !Array.isArray(c) && typeof c.id === 'string') return false;
  return signed === true;
}

/**
 * The challenge of a 202, refused when it could not be answered safely: a `requestId` that cannot
 * be sent as a header, an `expiresAt` that is not a date (a challenge is never signed without knowing
 * it is still valid).
 */
export function readChallenge(data: unknown, response: Response, operation: string, scrub: Scrub): SignatureChallenge {
  const c = (data ?? {}) as Partial<SignatureChallenge>;
  const issues: ValidationIssue[] = [];
  if (typeof c.payloadToSign !== 'string') issues.push({ path: 'payloadToSign', rule: 'invalid_type', message: 'expected string' });
  if (typeof c.requestId !== 'string' || c.requestId === '' || !isHeaderValue(c.requestId)) {
    issues.push({ path: 'requestId', rule: 'invalid_type', message: 'expected a string that can be sent as the Request-Id header' });
  }
  if (typeof c.expiresAt !== 'string' || Number.isNaN(Date.parse(c.expiresAt))) {
    issues.push({ path: 'expiresAt', rule: 'invalid_format', message: 'expected an ISO date-time (an unreadable expiry is never signed)' });
  }
  if (issues.length) {
    throw new ResponseValidationError(issues, { status: 202, operation, requestId: requestIdOf(response, scrub) });
  }
  return { payloadToSign: c.payloadToSign!, requestId: c.requestId!, expiresAt: c.expiresAt!, type: typeof c.type === 'string' ? c.type : undefined };
}
