/**
 * What the service answers, before any transport carries it: a route handler's {@link Reply} (a
 * status and a JSON-able body), and an {@link Answer} as it goes out (status, headers, JSON text),
 * which an `Idempotency-Key` remembers and a state export keeps. The serving side (`serve/http.ts`)
 * builds its response on {@link Answer}.
 * @module
 */

/** What a route handler returns: the status and a JSON-able body. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A 2xx JSON reply. */
export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** An answer as it goes out: status, headers and the body's text. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or undefined for bodiless answers (204). */
  body: string | undefined;
}

/**
 * True when `body` answered with `status` is a wallet challenge of the signed retry (202 with `payloadToSign`):
 * nothing ran, and the signed repeat is the call. Any other 202 (a quote held for Strong Customer Authentication,
 * an import accepted) is the operation's answer, as a 200 is.
 */
export function isWalletChallenge(status: number, body: unknown): boolean {
  return status === 202 && body !== null && typeof body === 'object' && 'payloadToSign' in body;
}
