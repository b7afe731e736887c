/**
 * Removing the client's credentials from texts built from answers: the scrubber of one client, the forms a
 * credential may be echoed in, and the mask that replaces what is removed (the logger's too). A leaf module:
 * the settings, the answers, the logger and the hooks all use it.
 * @module
 */
/** What replaces a secret or a masked value, in logs, errors and texts built from answers. */
export const MASK = '[redacted]';

/** Removes the client's secrets from a text (or any JSON value) built from an answer. */
export type Scrub = <T>(value: T) => T;

/**
 * Builds the scrubber of one client: the secret, the `tokenId:secret` pair, its base64 (the Basic
 * credential, also URL-safe and unpadded), and any `Authorization` value or `Basic`/`Bearer` credential.
 */
export function createScrub(secrets: string[]): Scrub {
  const literals = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const known = literals.length ? new RegExp(literals.map(escape).join('|'), 'g') : undefined;
  const authorization = /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^"'\r\n,;}<]+/gi;
  const credential = /\b(Basic|Bearer)(\s+|%20|\+)[A-Za-z0-9+/=._~%-]{6,}/gi;
  // One scan that every text with something to remove matches (broader: case-insensitive): a request id
  // or a message without credentials is returned as is, without the three replacing scans.
  const suspect = new RegExp([...literals.map(escape), 'authorization', 'basic', 'bearer'].join('|'), 'i');
  const text = (s: string): string => {
    if (!suspect.test(s)) return s;
    let out = known ? s.replace(known, MASK) : s;
    out = out.replace(authorization, `$1${MASK}`).replace(credential, `$1$2${MASK}`);
    return out;
  };
  const scrub = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth > 32) return MASK; // deeper than any answer of the document: not walked, so not kept
    if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[text(k)] = scrub(v, depth + 1);
    return out;
  };
  return scrub as Scrub;
}

/** The answer's `X-Request-Id`, scrubbed: a gateway may echo the request into any header. */
export function requestIdOf(response: Response | undefined, scrub: Scrub): string | undefined {
  const id = response?.headers.get('x-request-id');
  return id === null || id === undefined ? undefined : scrub(id);
}

/** Base64 of a UTF-8 text, in the forms a gateway may echo (standard, URL-safe, unpadded). */
export function base64Forms(text: string): string[] {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const standard = btoa(binary);
  const unpadded = standard.replace(/=+$/, '');
  return [standard, unpadded, unpadded.replace(/\+/g, '-').replace(/\//g, '_')];
}
