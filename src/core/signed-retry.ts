/**
 * The bookkeeping of the 202 signed retry: challenges seen, requestIds already sent (single use),
 * expiry, and what a signer returns. The pipeline sends; this decides whether a signed leg may go.
 * @module
 */
import { SignatureChallengeError, type SignatureChallenge } from './errors';
import type { Signer } from './options';
import { isHeaderValue } from './wire';

const MAX_REMEMBERED_CHALLENGES = 1_000;

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
