/**
 * The signed-retry gate of wallet actions (add credential, revoke credential, revoke session,
 * refresh session, export, privacy, and the two signed legs of a delegated key). The unsigned call
 * gets a 202 challenge; the identical request repeated with `Service-Wallet-Signature` and
 * `Request-Id` passes once the stamp verifies against an active session of the same wallet.
 *
 * Refusals (all 401): `REQUEST_ID_MISSING` (signature without Request-Id), `WALLET_SIGNATURE_MISSING`
 * (Request-Id without signature), `REQUEST_ID_REUSED`, `WALLET_SIGNATURE_MALFORMED` (the stamp does
 * not decode), and `WALLET_SIGNATURE_INVALID` with `details.reason` one of `unknown_request_id`,
 * `challenge_expired`, `request_mismatch` (not the identical request), `bad_signature`,
 * `no_active_session` (the key is not an active session of this wallet), `wrong_session` (not the
 * one session that may sign: a refresh's own), `self_revoke`, and for the
 * secure OTP login's repeat `key_mismatch` (not signed with the key sealed with the code).
 * @module
 */
import { verifyStamp } from './wallet-crypto';
import { iso } from './clock';
import { now, type Call, type Ctx } from './context';
import { SandboxError } from './errors';
import { walletId } from './finders';
import type { Reply } from '../serve/http';
import type { InternalAccountRec, SessionRec, SignedChallengeRec } from './state';

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
  /**
   * The one session that may sign (a refresh is signed by the session it refreshes; a flow's later
   * legs by the session that signed its first). Kept with the challenge, so the repeat is held to it.
   */
  sessionId?: string;
  /**
   * A flow of several signed legs: what the route keeps from this leg to the next, stored with the
   * challenge and given back when its signed repeat passes ({@link authorize}'s `carry`).
   */
  carry?: Record<string, string>;
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

function issueChallenge(ctx: Ctx, call: Call, action: WalletAction, bound?: { payloadToSign: string; publicKey: string }): Reply {
  const requestId = newRequestId(ctx);
  const issuedMs = now(ctx);
  const expiresMs = issuedMs + CHALLENGE_TTL_MS;
  const payloadToSign =
    bound?.payloadToSign ??
    JSON.stringify({
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
    ...(bound ? { boundPublicKey: bound.publicKey } : {}),
    ...(action.carry ? { carry: action.carry } : {}),
    ...(action.sessionId ? { sessionId: action.sessionId } : {}),
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
 * and returns the session that signed it, with the `carry` its challenge was issued with. The
 * `requestId` is spent only when the check passes. Refusals beyond the shared gates (`details.reason`):
 * `no_active_session`, `self_revoke`, and `wrong_session` when `action.sessionId` names the one session
 * that may sign and another key signed.
 */
export async function authorize(
  ctx: Ctx,
  call: Call,
  action: WalletAction,
): Promise<{ challenge: Reply } | { session: SessionRec; carry: Record<string, string> | undefined }> {
  const repeat = await checkRepeat(ctx, call, action.walletSuffix);
  if ('unsigned' in repeat) return { challenge: issueChallenge(ctx, call, action) };
  const { challenge, publicKey } = repeat;
  if (challenge.boundPublicKey !== undefined) {
    throw refuse('WALLET_SIGNATURE_INVALID', 'This challenge is a login challenge, not a wallet action one.', 'request_mismatch');
  }
  const at = now(ctx);
  const only = action.sessionId ?? challenge.sessionId;
  const active = (s: SessionRec) => s.publicKey === publicKey && s.walletSuffix === action.walletSuffix && !s.revoked && s.expiresMs > at;
  const session = [...ctx.world.sessions.values()].find((s) => active(s) && (only === undefined || s.id === only));
  if (!session) {
    const other = only !== undefined && [...ctx.world.sessions.values()].some(active);
    throw other
      ? refuse('WALLET_SIGNATURE_INVALID', `Only session ${only} may sign this request; another session of the wallet signed it.`, 'wrong_session')
      : refuse('WALLET_SIGNATURE_INVALID', 'The signing key is not an active session of this wallet.', 'no_active_session');
  }
  if (action.notCredentialId !== undefined && session.credentialId === action.notCredentialId) {
    throw refuse('WALLET_SIGNATURE_INVALID', 'A credential cannot revoke itself: sign with a session of another credential of this wallet.', 'self_revoke');
  }
  spend(challenge);
  return { session, carry: challenge.carry };
}

/**
 * The next challenge of a flow of several signed legs, answered after a signed repeat passed
 * {@link authorize}: the identical request is to be signed again, with `action.carry` kept for it.
 */
export function issueNextChallenge(ctx: Ctx, call: Call, action: WalletAction): Reply {
  return issueChallenge(ctx, call, action);
}

/**
 * Secure OTP login: the 202 challenge whose `payloadToSign` is the verification token, bound to the
 * public key sealed with the code. The repeat is checked by {@link authorizeBound}.
 */
export function issueBoundChallenge(ctx: Ctx, call: Call, action: { type: string; walletSuffix: string; payloadToSign: string; publicKey: string }): Reply {
  return issueChallenge(ctx, call, { type: action.type, walletSuffix: action.walletSuffix, details: {} }, action);
}

/**
 * Checks the signed repeat of a secure OTP login: the same gates as {@link authorize}, but the stamp
 * must be made with the key bound into the challenge (`details.reason` `key_mismatch` otherwise), not
 * by a session. Returns that key (compressed hex); the `requestId` is spent.
 */
export async function authorizeBound(ctx: Ctx, call: Call, walletSuffix: string): Promise<string> {
  const repeat = await checkRepeat(ctx, call, walletSuffix);
  if ('unsigned' in repeat) throw refuse('WALLET_SIGNATURE_MISSING', 'The signed repeat needs Service-Wallet-Signature and Request-Id.');
  const { challenge, publicKey } = repeat;
  if (challenge.boundPublicKey === undefined) {
    throw refuse('WALLET_SIGNATURE_INVALID', 'Request-Id names a wallet action challenge, not a login challenge.', 'request_mismatch');
  }
  if (publicKey !== challenge.boundPublicKey) {
    throw refuse(
      'WALLET_SIGNATURE_INVALID',
      'The signing key is not the one sealed with the code (the key bound into the verification token).',
      'key_mismatch',
    );
  }
  spend(challenge);
  return publicKey;
}

/** Marks a challenge used; checked again since a concurrent repeat may have spent it while the signature was verified. */
function spend(challenge: SignedChallengeRec): void {
  if (challenge.used) throw refuse('REQUEST_ID_REUSED', 'This requestId has already been used; start again with an unsigned request.');
  challenge.used = true;
}

/**
 * The gates every signed repeat passes: both headers, a known unspent unexpired challenge for the
 * identical request of this wallet, a stamp that verifies over its `payloadToSign`. `{ unsigned: true }`
 * when neither header was sent (an unsigned call).
 */
async function checkRepeat(ctx: Ctx, call: Call, walletSuffix: string): Promise<{ unsigned: true } | { challenge: SignedChallengeRec; publicKey: string }> {
  const signature = call.header('service-wallet-signature');
  const requestId = call.header('request-id');
  if (signature === undefined && requestId === undefined) return { unsigned: true };
  if (requestId === undefined) throw refuse('REQUEST_ID_MISSING', 'Service-Wallet-Signature was sent without Request-Id.');
  if (signature === undefined) throw refuse('WALLET_SIGNATURE_MISSING', 'Request-Id was sent without Service-Wallet-Signature.');

  const challenge = ctx.world.signedChallenges.get(requestId);
  if (!challenge) throw refuse('WALLET_SIGNATURE_INVALID', 'Request-Id does not name a challenge of this service.', 'unknown_request_id');
  if (challenge.used) throw refuse('REQUEST_ID_REUSED', 'This requestId has already been used; start again with an unsigned request.');
  if (now(ctx) >= challenge.expiresMs) {
    throw refuse(
      'WALLET_SIGNATURE_INVALID',
      `The challenge expired at ${iso(challenge.expiresMs)}; start again with an unsigned request.`,
      'challenge_expired',
    );
  }
  if (challenge.method !== call.method || challenge.path !== call.path || challenge.body !== call.rawBody || challenge.walletSuffix !== walletSuffix) {
    throw refuse(
      'WALLET_SIGNATURE_INVALID',
      'The signed repeat must be the identical request (method, path and body bytes) that got the challenge.',
      'request_mismatch',
    );
  }
  const verified = await verifyStamp(signature, challenge.payloadToSign);
  if (!verified.ok) {
    throw verified.reason === 'bad_signature'
      ? refuse('WALLET_SIGNATURE_INVALID', 'The signature does not verify over payloadToSign.', 'bad_signature')
      : refuse('WALLET_SIGNATURE_MALFORMED', 'Service-Wallet-Signature is not a valid API-key stamp.');
  }
  return { challenge, publicKey: verified.publicKey };
}

/**
 * decisions.md: the service extends signing to other writes, "for example, executing a quote whose
 * source is an embedded wallet". An internal account is such a wallet once it has a credential; moving
 * its money then takes a session signature like the wallet actions. Answers the 202 challenge for the
 * unsigned call, nothing once the signed repeat passes (and nothing for an account without credentials).
 */
export async function authorizeSpend(
  ctx: Ctx,
  call: Call,
  account: InternalAccountRec | undefined,
  details: Record<string, unknown>,
): Promise<Reply | undefined> {
  if (!account || ![...ctx.world.credentials.values()].some((c) => c.walletSuffix === account.suffix)) return undefined;
  const signed = await authorize(ctx, call, { type: 'EXECUTE_QUOTE', walletSuffix: account.suffix, details });
  return 'challenge' in signed ? signed.challenge : undefined;
}
