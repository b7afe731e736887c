/**
 * The signed-retry gate of wallet actions (add credential, revoke credential, revoke session,
 * export, privacy). The unsigned call gets a 202 challenge; the identical request repeated with
 * `Service-Wallet-Signature` and `Request-Id` passes once the stamp verifies against an active
 * session of the same wallet.
 *
 * Refusals (all 401): `REQUEST_ID_MISSING` (signature without Request-Id), `WALLET_SIGNATURE_MISSING`
 * (Request-Id without signature), `REQUEST_ID_REUSED`, `WALLET_SIGNATURE_MALFORMED` (the stamp does
 * not decode), and `WALLET_SIGNATURE_INVALID` with `details.reason` one of `unknown_request_id`,
 * `challenge_expired`, `request_mismatch` (not the identical request), `bad_signature`,
 * `no_active_session` (the key is not an active session of this wallet), `self_revoke`.
 * @module
 */
// @ts-nocheck

import { verifyStamp } from './wallet-crypto';
import { iso } from './clock';
import { now, type Call, type Ctx } from './context';
import { SandboxError } from './errors';
import { walletId } from './finders';
import type { Reply } from './http';
import type { InternalAccountRec, SessionRec } from './state';

/** Lifetime of a challenge: the spec's "typically 5 minutes". */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** What the signature would authorize. */
export interface WalletAction {
  /** Kind of action, answered as the challenge's `type` (e.g. `ADD_CREDENTIAL`). */
  type: string;
  walletSuffix: string;
  /** What the payload tells the signer about the action. */
  details: Record<string, unknown>;
  /** A credential whose sessions may not sign (a credential cannot revoke itself). */
  notCredentialId?: string;
}

/**
 * A line for humans in every payload. Its non-ASCII text is deliberate: signers must sign the
 * UTF-8 bytes of `payloadToSign` exactly as received, and this makes re-encoding mistakes fail.
 */
const NOTE = 'Sign these exact bytes · Signez ces octets tels quels · この内容に署名 ✍️';

function refuse(code: string, message: string, reason?: string): SandboxError {
  return new SandboxError(401, code, message, reason ? { reason } : undefined);
}

/** A UUID-shaped request id from the sandbox PRNG. */
function newRequestId(ctx: Ctx): string {
  const h = ctx.random.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

function issueChallenge(ctx: Ctx, call: Call, action: WalletAction): Reply {
  const requestId = newRequestId(ctx);
  const issuedMs = now(ctx);
  const expiresMs = issuedMs + CHALLENGE_TTL_MS;
  const payloadToSign = JSON.stringify({
    type: action.type,
    walletId: walletId(action.walletSuffix),
    ...action.details,
    request: { method: call.method, path: call.path },
    requestId,
    nonce: ctx.random.hex(32),
    issuedAt: iso(issuedMs),
    expiresAt: iso(expiresMs),
    note: NOTE,
  });
  ctx.world.signedChallenges.set(requestId, {
    requestId,
    payloadToSign,
    expiresMs,
    walletSuffix: action.walletSuffix,
    method: call.method,
    path: call.path,
    body: call.rawBody,
    used: false,
  });
  return { status: 202, body: { type: action.type, payloadToSign, requestId, expiresAt: iso(expiresMs) } };
}

/**
 * True when the request carries either signed-retry header. Route rules (duplicates, last
 * credential) run before the challenge on the unsigned call, but after the signature check on the
 * signed repeat, so that a replayed repeat is told REQUEST_ID_REUSED rather than a rule it tripped.
 */
export function isSignedRetry(call: Call): boolean {
  return call.header('service-wallet-signature') !== undefined || call.header('request-id') !== undefined;
}

/**
 * Either answers the 202 challenge (`{ challenge }`) for an unsigned call, or checks the signed repeat
 * and returns the session that signed it. The `requestId` is spent only when the check passes.
 */
export async function authorize(ctx: Ctx, call: Call, action: WalletAction): Promise<{ challenge: Reply } | { session: SessionRec }> {
  const signature = call.header('service-wallet-signature');
  const requestId = call.header('request-id');
  if (signature === undefined && requestId === undefined) return { challenge: issueChallenge(ctx, call, action) };
  if (requestId === undefined) throw refuse('REQUEST_ID_MISSING', 'Service-Wallet-Signature was sent without Request-Id.');
  if (signature === undefined) throw refuse('WALLET_SIGNATURE_MISSING', 'Request-Id was sent without Service-Wallet-Signature.');

  const challenge = ctx.world.signedChallenges.get(requestId);
  if (!challenge) throw refuse('WALLET_SIGNATURE_INVALID', 'Request-Id does not name a challenge of this service.', 'unknown_request_id');
  if (challenge.used) throw refuse('REQUEST_ID_REUSED', 'This requestId has already been used; start again with an unsigned request.');
  if (now(ctx) >= challenge.expiresMs) {
    throw refuse('WALLET_SIGNATURE_INVALID', `The challenge expired at ${iso(challenge.expiresMs)}; start again with an unsigned request.`, 'challenge_expired');
  }
  if (challenge.method !== call.method || challenge.path !== call.path || challenge.body !== call.rawBody || challenge.walletSuffix !== action.walletSuffix) {
    throw refuse('WALLET_SIGNATURE_INVALID', 'The signed repeat must be the identical request (method, path and body bytes) that got the challenge.', 'request_mismatch');
  }
  const verified = await verifyStamp(signature, challenge.payloadToSign);
  if (!verified.ok) {
    throw verified.reason === 'bad_signature'
      ? refuse('WALLET_SIGNATURE_INVALID', 'The signature does not verify over payloadToSign.', 'bad_signature')
      : refuse('WALLET_SIGNATURE_MALFORMED', 'Service-Wallet-Signature is not a valid API-key stamp.');
  }
  const at = now(ctx);
  const session = [...ctx.world.sessions.values()].find(
    (s) => s.publicKey === verified.publicKey && s.walletSuffix === action.walletSuffix && !s.revoked && s.expiresMs > at,
  );
  if (!session) throw refuse('WALLET_SIGNATURE_INVALID', 'The signing key is not an active session of this wallet.', 'no_active_session');
  if (action.notCredentialId !== undefined && session.credentialId === action.notCredentialId) {
    throw refuse('WALLET_SIGNATURE_INVALID', 'A credential cannot revoke itself: sign with a session of another credential of this wallet.', 'self_revoke');
  }
  // Checked again: a concurrent repeat may have spent the id while the signature was being verified.
  if (challenge.used) throw refuse('REQUEST_ID_REUSED', 'This requestId has already been used; start again with an unsigned request.');
  challenge.used = true;
  return { session };
}

/**
 * decisions.md: the service extends signing to other writes, "for example, executing a quote whose
 * source is an embedded wallet". An internal account is such a wallet once it has a credential; moving
 * its money then takes a session signature like the wallet actions. Answers the 202 challenge for the
 * unsigned call, nothing once the signed repeat passes (and nothing for an account without credentials).
 */
export async function authorizeSpend(ctx: Ctx, call: Call, account: InternalAccountRec | undefined, details: Record<string, unknown>): Promise<Reply | undefined> {
  if (!account || ![...ctx.world.credentials.values()].some((c) => c.walletSuffix === account.suffix)) return undefined;
  const signed = await authorize(ctx, call, { type: 'EXECUTE_QUOTE', walletSuffix: account.suffix, details });
  return 'challenge' in signed ? signed.challenge : undefined;
}
