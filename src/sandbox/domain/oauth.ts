/**
 * OpenID Connect identity tokens as the sandbox checks them: JWT-shaped, with an `iat` no more than
 * 60 seconds old on the sandbox clock and not in the future. The sandbox has no issuer key sets, so
 * the token's signature is not checked (the hosted service does check it).
 * @module
 */
import { base64urlToBytes, fromUtf8 } from '../../wallet/encoding';
import { SandboxError, invalidInput } from './errors';

/** Largest accepted token age. */
export const MAX_TOKEN_AGE_MS = 60_000;

/** The claims the sandbox uses. */
export interface IdentityClaims {
  /** `iss|sub`, the identity a later token must match. */
  subject: string;
  /** The email claim, else the subject: the credential's nickname. */
  nickname: string;
}

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(fromUtf8(base64urlToBytes(part, 'token')));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads and checks an identity token at sandbox time `nowMs`: 400 when malformed, 401 when stale. */
export function checkIdentityToken(token: string, nowMs: number): IdentityClaims {
  const parts = token.split('.');
  const header = parts.length === 3 ? decodePart(parts[0]!) : undefined;
  const payload = parts.length === 3 ? decodePart(parts[1]!) : undefined;
  if (!header || !payload || !/^[A-Za-z0-9_-]+$/.test(parts[2]!)) {
    throw invalidInput('oidcToken', 'oidcToken must be a JWT: three base64url parts, header and payload JSON objects.');
  }
  const iat = payload.iat;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw invalidInput('oidcToken', 'oidcToken has no numeric iat claim.');
  const issuedMs = iat * 1000;
  if (issuedMs > nowMs) {
    throw new SandboxError(401, 'UNAUTHORIZED', 'The identity token was issued in the future (iat); check the clock that minted it.', { field: 'oidcToken' });
  }
  if (nowMs - issuedMs > MAX_TOKEN_AGE_MS) {
    throw new SandboxError(401, 'UNAUTHORIZED', `The identity token is ${Math.floor((nowMs - issuedMs) / 1000)} s old; get a fresh one (at most 60 s).`, {
      field: 'oidcToken',
    });
  }
  const iss = typeof payload.iss === 'string' ? payload.iss : '';
  const sub = typeof payload.sub === 'string' ? payload.sub : typeof payload.email === 'string' ? payload.email : '';
  if (!sub) throw invalidInput('oidcToken', 'oidcToken has neither a sub nor an email claim.');
  return { subject: `${iss}|${sub}`, nickname: typeof payload.email === 'string' ? payload.email : sub };
}
