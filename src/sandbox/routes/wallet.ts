/**
 * Embedded-wallet authentication: credentials, sessions (and their refresh), production's delegated
 * signing keys, and the signed wallet actions (export, privacy). Session keys are real: `/verify` seals
 * a fresh P-256 key to `clientPublicKey` with HPKE and keeps only its public half, which later verifies
 * the stamps of signed retries.
 * @module
 */
import { p256 } from '@noble/curves/nist.js';
import { zChallengeCredentialBody } from '../../generated/zod.gen';
import type {
  Credential,
  CredentialChallengeParams,
  CredentialCreateParams,
  CredentialVerifyParams,
  DelegatedKeyCreateParams,
  InternalAccountExportParams,
  InternalAccountUpdateParams,
  RefreshedSession,
  SessionRefreshParams,
  WalletSession,
} from '../../generated/types';
import { bytesToBase64url, utf8 } from '../../wallet/encoding';
import {
  generateSessionKeyPair,
  isCompressedClientPublicKey,
  isValidClientPublicKey,
  issueOtpTarget,
  issueVerificationToken,
  openOtpAttempt,
  sealSessionKey,
} from '../domain/wallet-crypto';
import { iso } from '../domain/clock';
import { now, nowIso, type Call, type Ctx, type Handler } from '../domain/context';
import { SandboxError, invalidInput, notFound } from '../domain/errors';
import { findInternalAccount, walletId } from '../domain/finders';
import { ok, type Reply } from '../serve/http';
import { MAGIC } from '../domain/magic';
import { checkIdentityToken } from '../domain/oauth';
import { authorize, authorizeBound, isSignedRetry, issueBoundChallenge, issueNextChallenge } from '../domain/signed';
import { idSuffix, type CredentialRec, type DelegatedKeyRec, type InternalAccountRec, type SessionRec } from '../domain/state';
import { sessionData } from '../domain/snapshot';
import { validate } from '../domain/validation';

/** Session lifetime. */
export const SESSION_TTL_MS = 15 * 60_000;
/** Shortest time between two EMAIL_OTP codes for one credential. */
export const OTP_RESEND_MS = 30_000;
/** Lifetime of a PASSKEY authentication challenge. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** Lifetime of an OTP code (and of the `otpEncryptionTargetBundle` it is sealed to). */
export const OTP_TTL_MS = 10 * 60_000;

/** The credential types whose code is sealed in the secure OTP login. */
const OTP_TYPES: readonly string[] = ['EMAIL_OTP', 'SMS_OTP'];

/**
 * A fresh code for an OTP credential: a new target key replaces the previous one (one code, one
 * bundle), and the signed `otpEncryptionTargetBundle` to answer with.
 */
function newOtpTarget(ctx: Ctx, credential: CredentialRec): string {
  const { privateKey, bundle } = issueOtpTarget();
  credential.otpTarget?.privateKey.fill(0);
  credential.otpTarget = { privateKey, issuedMs: now(ctx) };
  return bundle;
}

function credentialsOf(ctx: Ctx, walletSuffix: string): CredentialRec[] {
  return [...ctx.world.credentials.values()].filter((c) => c.walletSuffix === walletSuffix).sort((a, b) => a.seq - b.seq);
}

function findCredential(ctx: Ctx, id: string): { credential: CredentialRec; wallet: InternalAccountRec } {
  const credential = ctx.world.credentials.get(id);
  if (!credential) throw notFound('CREDENTIAL_NOT_FOUND', 'Credential', id);
  return { credential, wallet: findInternalAccount(ctx, credential.data.accountId) };
}

function requireClientKey(key: string, field: string): void {
  if (!isValidClientPublicKey(key)) throw invalidInput(field, `${field} is not a P-256 public key on the curve (hex, 65 bytes uncompressed or 33 compressed).`);
}

const create: Handler = async (ctx, call) => {
  const body = call.body as CredentialCreateParams;
  const wallet = findInternalAccount(ctx, body.accountId);
  if (!['EMAIL_OTP', 'SMS_OTP', 'OAUTH', 'PASSKEY'].includes(body.type)) {
    // Credential types are an open set; the sandbox emulates the spec's three and production's SMS_OTP.
    throw invalidInput('type', `The sandbox does not emulate credential type ${String(body.type)}.`);
  }
  /** The credential rules; returns what the new credential is called. */
  const rules = (): { nickname: string; subject?: string } => {
    const existing = credentialsOf(ctx, wallet.suffix);
    if (body.type === 'EMAIL_OTP' && existing.some((c) => c.data.type === 'EMAIL_OTP')) {
      throw new SandboxError(400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', `${body.accountId} already has an EMAIL_OTP credential.`, { field: 'type' });
    }
    if (body.type === 'PASSKEY' && existing.some((c) => c.data.type === 'PASSKEY')) {
      throw new SandboxError(400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS', `${body.accountId} already has a PASSKEY credential.`, { field: 'type' });
    }
    if (body.type === 'OAUTH') {
      const identity = checkIdentityToken(body.oidcToken, now(ctx));
      return { nickname: identity.nickname, subject: identity.subject };
    }
    // EMAIL_OTP: the code goes to the email of the account's customer (decisions.md); the sandbox shows a placeholder.
    if (body.type === 'EMAIL_OTP') return { nickname: 'wallet-user@sandbox.invalid' };
    if (body.type === 'SMS_OTP') return { nickname: body.phoneNumber ?? '+15555550100' };
    return { nickname: body.nickname ?? 'Passkey' };
  };
  if (credentialsOf(ctx, wallet.suffix).length > 0) {
    // A further credential needs a signature from an active session of this wallet.
    const action = { type: 'ADD_CREDENTIAL', walletSuffix: wallet.suffix };
    const details = isSignedRetry(call) ? {} : { credentialType: body.type, nickname: rules().nickname };
    const signed = await authorize(ctx, call, { ...action, details });
    if ('challenge' in signed) return signed.challenge;
  }
  const { nickname, subject } = rules();
  const { id, seq } = ctx.ids.next('AuthMethod');
  const timestamp = nowIso(ctx);
  const data: Credential = {
    id,
    accountId: walletId(wallet.suffix),
    type: body.type,
    ...(body.type === 'PASSKEY' ? { credentialId: body.attestation.credentialId } : {}),
    nickname,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  const record: CredentialRec = { seq, createdMs: now(ctx), data, walletSuffix: wallet.suffix, oauthSubject: subject };
  ctx.world.credentials.set(id, record);
  // OTP credentials: the code is sent now, with where to seal it (production's secure OTP login).
  return ok(OTP_TYPES.includes(data.type) ? { ...data, otpEncryptionTargetBundle: newOtpTarget(ctx, record) } : data, 201);
};

const list: Handler = (ctx, call) => {
  const wallet = findInternalAccount(ctx, String(call.query.accountId));
  return ok({ data: credentialsOf(ctx, wallet.suffix).map((c) => c.data) });
};

const challenge: Handler = (ctx, call) => {
  const { credential } = findCredential(ctx, call.params.id!);
  switch (credential.data.type) {
    case 'EMAIL_OTP':
    case 'SMS_OTP': {
      const last = credential.lastOtpChallengeMs;
      const elapsed = last === undefined ? Infinity : now(ctx) - last;
      if (elapsed < OTP_RESEND_MS) {
        const wait = Math.ceil((OTP_RESEND_MS - elapsed) / 1000);
        throw new SandboxError(
          429,
          'RATE_LIMITED',
          `A code was sent less than 30 seconds ago; retry after ${wait} seconds.`,
          { retryAfterSeconds: wait },
          {
            'Retry-After': String(wait),
          },
        );
      }
      credential.lastOtpChallengeMs = now(ctx);
      return ok({ ...credential.data, otpEncryptionTargetBundle: newOtpTarget(ctx, credential) });
    }
    case 'PASSKEY': {
      // Validated here rather than by the core: an EMAIL_OTP challenge legitimately has no body.
      const body = validate('body', zChallengeCredentialBody, call.json ?? {}) as CredentialChallengeParams;
      // Optional in the document (production's OTP branch sends none); a PASSKEY challenge needs it.
      if (body.clientPublicKey === undefined)
        throw invalidInput('clientPublicKey', 'A PASSKEY challenge needs clientPublicKey (the key the session is bound to).');
      requireClientKey(body.clientPublicKey, 'clientPublicKey');
      const requestId = `${ctx.random.hex(8)}-${ctx.random.hex(4)}-4${ctx.random.hex(3)}-a${ctx.random.hex(3)}-${ctx.random.hex(12)}`;
      const challengeBytes = crypto.getRandomValues(new Uint8Array(32));
      const expiresMs = now(ctx) + PASSKEY_CHALLENGE_TTL_MS;
      const record = {
        requestId,
        credentialId: credential.data.id,
        clientPublicKey: body.clientPublicKey.toLowerCase(),
        challenge: bytesToBase64url(challengeBytes),
        expiresMs,
        used: false,
      };
      ctx.world.passkeyChallenges.set(requestId, record);
      return ok({ ...credential.data, credentialId: credential.data.credentialId!, challenge: record.challenge, requestId, expiresAt: iso(expiresMs) });
    }
    default:
      throw invalidInput('id', 'OAUTH credentials have no challenge: call /verify with a fresh identity token.');
  }
};

/** Checks the proof of a `/verify` body and returns the client key to seal the session key to. */
function proveCredential(ctx: Ctx, credential: CredentialRec, body: CredentialVerifyParams, requestId: string | undefined): string {
  if (body.type !== credential.data.type) throw invalidInput('type', `Credential ${credential.data.id} is ${credential.data.type}, not ${body.type}.`);
  switch (body.type) {
    case 'EMAIL_OTP':
      if (body.clientPublicKey === undefined || body.otp === undefined) {
        throw invalidInput(
          body.otp === undefined ? 'otp' : 'clientPublicKey',
          'EMAIL_OTP /verify needs either otp and clientPublicKey, or encryptedOtpBundle.',
        );
      }
      requireClientKey(body.clientPublicKey, 'clientPublicKey');
      if (body.otp !== MAGIC.otp)
        throw new SandboxError(401, 'UNAUTHORIZED', 'The one-time code is wrong or expired (the sandbox code is 000000).', { field: 'otp' });
      return body.clientPublicKey;
    case 'OAUTH': {
      requireClientKey(body.clientPublicKey, 'clientPublicKey');
      const identity = checkIdentityToken(body.oidcToken, now(ctx));
      if (credential.oauthSubject !== undefined && identity.subject !== credential.oauthSubject) {
        throw new SandboxError(401, 'UNAUTHORIZED', 'The identity token is for a different user than the one registered.', { field: 'oidcToken' });
      }
      return body.clientPublicKey;
    }
    case 'PASSKEY': {
      if (requestId === undefined) throw new SandboxError(401, 'REQUEST_ID_MISSING', 'PASSKEY /verify needs the Request-Id of the /challenge answer.');
      const pending = ctx.world.passkeyChallenges.get(requestId);
      if (!pending || pending.credentialId !== credential.data.id) {
        throw new SandboxError(401, 'UNAUTHORIZED', 'Request-Id does not name a passkey challenge of this credential.');
      }
      if (pending.used) throw new SandboxError(401, 'REQUEST_ID_REUSED', 'This passkey challenge was already used; call /challenge again.');
      if (now(ctx) >= pending.expiresMs)
        throw new SandboxError(401, 'UNAUTHORIZED', `The passkey challenge expired at ${iso(pending.expiresMs)}; call /challenge again.`);
      // The sandbox cannot check a WebAuthn signature; it checks the assertion names this passkey.
      if (body.assertion.credentialId !== credential.data.credentialId) {
        throw new SandboxError(401, 'UNAUTHORIZED', 'The assertion is from another passkey than this credential.', { field: 'assertion.credentialId' });
      }
      pending.used = true;
      return pending.clientPublicKey;
    }
    default:
      // SMS_OTP has only the secure form (handled before), or a type the sandbox does not emulate.
      throw invalidInput('encryptedOtpBundle', `${String(body.type)} /verify needs encryptedOtpBundle (the secure OTP login).`);
  }
}

/**
 * Secure OTP login (production's form). First leg: open `encryptedOtpBundle` with the target key of the
 * credential's current `otpEncryptionTargetBundle`, check the code, and answer 202 with the verification
 * token (an ES256 JWT bound to the public key sealed with the code) as `payloadToSign`. Signed repeat:
 * the stamp must be made with that key, which becomes the session key.
 */
async function secureOtpVerify(
  ctx: Ctx,
  call: Call,
  credential: CredentialRec,
  wallet: InternalAccountRec,
  type: string,
  encryptedOtpBundle: string,
): Promise<Reply> {
  if (type !== credential.data.type) throw invalidInput('type', `Credential ${credential.data.id} is ${credential.data.type}, not ${type}.`);
  if (isSignedRetry(call)) {
    const publicKey = await authorizeBound(ctx, call, wallet.suffix);
    return openSession(ctx, credential, wallet, publicKey, undefined);
  }
  const target = credential.otpTarget;
  if (!target || now(ctx) - target.issuedMs >= OTP_TTL_MS) {
    throw new SandboxError(
      401,
      'UNAUTHORIZED',
      'No code is pending for this credential, or it expired: call /challenge for a fresh otpEncryptionTargetBundle.',
      { field: 'encryptedOtpBundle' },
    );
  }
  const attempt = await openOtpAttempt(encryptedOtpBundle, target.privateKey);
  if (!attempt) {
    throw new SandboxError(
      401,
      'UNAUTHORIZED',
      "encryptedOtpBundle does not open with the credential's current otpEncryptionTargetBundle (sealed to an older one, or corrupted).",
      { field: 'encryptedOtpBundle' },
    );
  }
  if (attempt.otpCode !== MAGIC.otp)
    throw new SandboxError(401, 'UNAUTHORIZED', 'The one-time code is wrong or expired (the sandbox code is 000000).', { field: 'encryptedOtpBundle' });
  if (!isValidClientPublicKey(attempt.publicKey)) throw invalidInput('encryptedOtpBundle', 'The public_key sealed with the code is not a P-256 public key.');
  // One code, one bundle: the target is spent once a verification token is issued.
  target.privateKey.fill(0);
  credential.otpTarget = undefined;
  const publicKey = p256.Point.fromHex(attempt.publicKey).toHex(true);
  const payloadToSign = issueVerificationToken({
    id: `${ctx.random.hex(8)}-${ctx.random.hex(4)}-4${ctx.random.hex(3)}-a${ctx.random.hex(3)}-${ctx.random.hex(12)}`,
    verificationType: credential.data.type === 'SMS_OTP' ? 'OTP_TYPE_SMS' : 'OTP_TYPE_EMAIL',
    contact: credential.data.nickname ?? '',
    publicKey,
    expiresMs: now(ctx) + OTP_TTL_MS,
  });
  return issueBoundChallenge(ctx, call, { type: credential.data.type, walletSuffix: wallet.suffix, payloadToSign, publicKey });
}

const verify: Handler = async (ctx, call) => {
  const { credential, wallet } = findCredential(ctx, call.params.id!);
  const body = call.body as CredentialVerifyParams & { encryptedOtpBundle?: unknown };
  if (OTP_TYPES.includes(body.type) && typeof body.encryptedOtpBundle === 'string') {
    return secureOtpVerify(ctx, call, credential, wallet, body.type, body.encryptedOtpBundle);
  }
  const clientPublicKey = proveCredential(ctx, credential, body, call.header('request-id'));
  const { publicKey, encryptedSessionSigningKey } = await sessionKeyFor(clientPublicKey);
  return openSession(ctx, credential, wallet, publicKey, encryptedSessionSigningKey);
};

/**
 * The key of a new session for `clientPublicKey` (`/verify`, a refresh). A compressed key asks for a
 * client-held session: the client key pair is the session key and nothing is sealed (decisions.md).
 * Otherwise a fresh session key is sealed to it, and only its public half is kept.
 */
async function sessionKeyFor(clientPublicKey: string): Promise<{ publicKey: string; encryptedSessionSigningKey: string | undefined }> {
  if (isCompressedClientPublicKey(clientPublicKey)) return { publicKey: clientPublicKey.toLowerCase(), encryptedSessionSigningKey: undefined };
  const keys = generateSessionKeyPair();
  const encryptedSessionSigningKey = await sealSessionKey(clientPublicKey, keys.privateKey);
  keys.privateKey.fill(0);
  return { publicKey: keys.publicKeyCompressedHex, encryptedSessionSigningKey };
}

/** Issues a session of `credential` whose key is `publicKey` (compressed hex), and answers it. */
function openSession(
  ctx: Ctx,
  credential: CredentialRec,
  wallet: InternalAccountRec,
  publicKey: string,
  encryptedSessionSigningKey: string | undefined,
): Reply {
  return ok(issueSession(ctx, credential, wallet, publicKey, encryptedSessionSigningKey).answer);
}

/** Stores a new session of `credential` whose key is `publicKey` (compressed hex); returns it and its answer. */
function issueSession(
  ctx: Ctx,
  credential: CredentialRec,
  wallet: InternalAccountRec,
  publicKey: string,
  encryptedSessionSigningKey: string | undefined,
): { session: SessionRec; answer: WalletSession } {
  const { id, seq } = ctx.ids.next('Session');
  const createdMs = now(ctx);
  const session: SessionRec = {
    id,
    seq,
    createdMs,
    walletSuffix: wallet.suffix,
    credentialId: credential.data.id,
    type: credential.data.type,
    publicKey,
    expiresMs: createdMs + SESSION_TTL_MS,
    revoked: false,
  };
  ctx.world.sessions.set(id, session);
  const answer: WalletSession = {
    id,
    accountId: walletId(wallet.suffix),
    type: session.type,
    ...(encryptedSessionSigningKey === undefined ? {} : { encryptedSessionSigningKey }),
    expiresAt: iso(session.expiresMs),
  };
  return { session, answer };
}

const revoke: Handler = async (ctx, call) => {
  const { credential, wallet } = findCredential(ctx, call.params.id!);
  const lastOne = () => {
    if (credentialsOf(ctx, wallet.suffix).length <= 1) {
      throw new SandboxError(400, 'CANNOT_REVOKE_LAST_CREDENTIAL', 'A wallet must keep at least one credential; add another before revoking this one.', {
        id: credential.data.id,
      });
    }
  };
  if (!isSignedRetry(call)) lastOne();
  const signed = await authorize(ctx, call, {
    type: 'REVOKE_CREDENTIAL',
    walletSuffix: wallet.suffix,
    details: { credentialId: credential.data.id, credentialType: credential.data.type },
    notCredentialId: credential.data.id,
  });
  if ('challenge' in signed) return signed.challenge;
  if (!ctx.world.credentials.has(credential.data.id)) throw notFound('CREDENTIAL_NOT_FOUND', 'Credential', credential.data.id);
  lastOne();
  ctx.world.credentials.delete(credential.data.id);
  for (const s of ctx.world.sessions.values()) if (s.credentialId === credential.data.id) s.revoked = true;
  return { status: 204 };
};

function activeSessions(ctx: Ctx, walletSuffix: string): SessionRec[] {
  const at = now(ctx);
  return [...ctx.world.sessions.values()].filter((s) => s.walletSuffix === walletSuffix && !s.revoked && s.expiresMs > at);
}

const listSessions: Handler = (ctx, call) => {
  const wallet = findInternalAccount(ctx, String(call.query.accountId));
  return ok({ data: activeSessions(ctx, wallet.suffix).map(sessionData) });
};

const revokeSession: Handler = async (ctx, call) => {
  const id = call.params.id!;
  const session = ctx.world.sessions.get(id);
  if (!session || session.revoked || session.expiresMs <= now(ctx)) throw notFound('SESSION_NOT_FOUND', 'Session', id);
  findInternalAccount(ctx, walletId(session.walletSuffix));
  const signed = await authorize(ctx, call, { type: 'REVOKE_SESSION', walletSuffix: session.walletSuffix, details: { sessionId: id } });
  if ('challenge' in signed) return signed.challenge;
  session.revoked = true;
  return { status: 204 };
};

/**
 * Production's session refresh: a new session of the same credential and wallet, signed by the session
 * refreshed (no other one), which must be active on both legs. The refreshed session is left as it is:
 * production does not end it, so it stays active until its own `expiresAt`.
 */
const refreshSession: Handler = async (ctx, call) => {
  const id = call.params.id!;
  const session = ctx.world.sessions.get(id);
  if (!session) throw notFound('SESSION_NOT_FOUND', 'Session', id);
  const credential = ctx.world.credentials.get(session.credentialId);
  if (session.revoked || session.expiresMs <= now(ctx) || !credential) {
    throw new SandboxError(401, 'UNAUTHORIZED', `Session ${id} is no longer active (revoked or expired); verify a credential again.`, { id });
  }
  const wallet = findInternalAccount(ctx, walletId(session.walletSuffix));
  const body = call.body as SessionRefreshParams;
  requireClientKey(body.clientPublicKey, 'clientPublicKey');
  const signed = await authorize(ctx, call, {
    type: 'REFRESH_SESSION',
    walletSuffix: wallet.suffix,
    details: { sessionId: id, clientPublicKey: body.clientPublicKey },
    sessionId: id,
  });
  if ('challenge' in signed) return signed.challenge;
  const { publicKey, encryptedSessionSigningKey } = await sessionKeyFor(body.clientPublicKey);
  const { session: next, answer } = issueSession(ctx, credential, wallet, publicKey, encryptedSessionSigningKey);
  const refreshed: RefreshedSession = { ...answer, nickname: credential.data.nickname ?? '', createdAt: iso(next.createdMs), updatedAt: iso(next.createdMs) };
  if (credential.data.nickname === undefined) delete refreshed.nickname;
  return ok(refreshed, 201);
};

// --- Delegated signing keys (production's `/auth/delegated-keys`) ---------------------------------

/** The steps of creating a delegated key, kept in the challenge of each signed leg. */
const DELEGATED_KEY_USER = 'CREATE_DELEGATED_KEY_USER';
const DELEGATED_KEY_POLICY = 'CREATE_DELEGATED_KEY_POLICY';

function findDelegatedKey(ctx: Ctx, id: string): DelegatedKeyRec {
  const key = ctx.world.delegatedKeys.get(id);
  if (!key) throw notFound('DELEGATED_KEY_NOT_FOUND', 'Delegated key', id);
  return key;
}

/** 409 when the card funding source already has an `ACTIVE` key. */
function refuseSecondActiveKey(ctx: Ctx, fundingSourceId: string | undefined): void {
  if (fundingSourceId === undefined) return;
  const active = [...ctx.world.delegatedKeys.values()].find((k) => k.data.fundingSourceId === fundingSourceId && k.data.status === 'ACTIVE');
  if (active) {
    throw new SandboxError(
      409,
      'CONFLICT',
      `Card funding source ${fundingSourceId} already has the ACTIVE delegated key ${active.data.id}; revoke it before creating another.`,
      {
        id: active.data.id,
      },
    );
  }
}

/**
 * Creating a delegated key, production's three legs of one identical request. Unsigned: a key pair is
 * generated (its private half dropped: the service custodies it, the sandbox signs nothing with it) and
 * the first challenge answered. Signed once: the key exists, `PENDING`, and the second challenge is
 * answered, to be signed by the same session. Signed twice: the key is `ACTIVE` (201). The sandbox has
 * no cards: the card funding source of a (card, wallet) pair is named on its first key and kept.
 */
const createDelegatedKey: Handler = async (ctx, call) => {
  const body = call.body as DelegatedKeyCreateParams;
  const wallet = findInternalAccount(ctx, body.internalAccountId);
  const known = [...ctx.world.delegatedKeys.values()].find((k) => k.data.cardId === body.cardId && k.walletSuffix === wallet.suffix)?.data.fundingSourceId;
  if (!isSignedRetry(call)) {
    refuseSecondActiveKey(ctx, known);
    const keys = generateSessionKeyPair();
    keys.privateKey.fill(0);
    const fundingSourceId = known ?? ctx.ids.next('CardFundingSource').id;
    const first = await authorize(ctx, call, {
      type: DELEGATED_KEY_USER,
      walletSuffix: wallet.suffix,
      details: { cardId: body.cardId, fundingSourceId, publicKey: keys.publicKeyCompressedHex, step: 'create the delegated key' },
      carry: { step: DELEGATED_KEY_USER, fundingSourceId, publicKey: keys.publicKeyCompressedHex },
    });
    if ('challenge' in first) return first.challenge;
  }
  // A signed leg: which one is told by the carry of the challenge it answers.
  const signed = await authorize(ctx, call, { type: DELEGATED_KEY_USER, walletSuffix: wallet.suffix, details: {} });
  if ('challenge' in signed) return signed.challenge; // not reached: a signed leg is checked, never challenged
  const carry = signed.carry ?? {};
  if (carry.step === DELEGATED_KEY_USER) {
    const timestamp = nowIso(ctx);
    const { id, seq } = ctx.ids.next('DelegatedKey');
    const record: DelegatedKeyRec = {
      seq,
      createdMs: now(ctx),
      walletSuffix: wallet.suffix,
      data: {
        id,
        cardId: body.cardId,
        fundingSourceId: carry.fundingSourceId!,
        accountId: walletId(wallet.suffix),
        publicKey: carry.publicKey!,
        nickname: body.nickname,
        status: 'PENDING',
        createdAt: timestamp,
        updatedAt: timestamp,
      },
    };
    ctx.world.delegatedKeys.set(id, record);
    return issueNextChallenge(ctx, call, {
      type: DELEGATED_KEY_POLICY,
      walletSuffix: wallet.suffix,
      details: {
        delegatedKeyId: id,
        cardId: body.cardId,
        fundingSourceId: record.data.fundingSourceId,
        step: 'grant the delegated key signing for the wallet',
      },
      carry: { step: DELEGATED_KEY_POLICY, delegatedKeyId: id },
      sessionId: signed.session.id,
    });
  }
  if (carry.step === DELEGATED_KEY_POLICY) {
    const key = findDelegatedKey(ctx, carry.delegatedKeyId!);
    refuseSecondActiveKey(ctx, key.data.fundingSourceId);
    if (key.data.status !== 'PENDING')
      throw invalidInput('id', `Delegated key ${key.data.id} is ${key.data.status}, not PENDING.`, { status: key.data.status });
    key.data.status = 'ACTIVE';
    key.data.updatedAt = nowIso(ctx);
    return ok(key.data, 201);
  }
  throw new SandboxError(401, 'WALLET_SIGNATURE_INVALID', 'Request-Id names a challenge of another request.', { reason: 'request_mismatch' });
};

const listDelegatedKeys: Handler = (ctx, call) => {
  const accountId = call.query.accountId === undefined ? undefined : String(call.query.accountId);
  const fundingSourceId = call.query.fundingSourceId === undefined ? undefined : String(call.query.fundingSourceId);
  if (accountId === undefined && fundingSourceId === undefined) {
    throw invalidInput('accountId', 'Listing delegated keys needs accountId, fundingSourceId, or both.');
  }
  const data = [...ctx.world.delegatedKeys.values()]
    .filter(
      (k) =>
        (accountId === undefined || k.walletSuffix === idSuffix(accountId)) && (fundingSourceId === undefined || k.data.fundingSourceId === fundingSourceId),
    )
    .sort((a, b) => a.seq - b.seq)
    .map((k) => k.data);
  return ok({ data });
};

const getDelegatedKey: Handler = (ctx, call) => ok(findDelegatedKey(ctx, call.params.id!).data);

/** Production revokes with the custodied key itself: no wallet signature. Only an `ACTIVE` key. */
const revokeDelegatedKey: Handler = (ctx, call) => {
  const key = findDelegatedKey(ctx, call.params.id!);
  if (key.data.status !== 'ACTIVE') {
    throw invalidInput('id', `Delegated key ${key.data.id} is ${key.data.status}; only an ACTIVE key can be revoked.`, { status: key.data.status });
  }
  key.data.status = 'REVOKED';
  key.data.updatedAt = nowIso(ctx);
  return { status: 204 };
};

// -----------------------------------------------------------------------------------------------

const privacy: Handler = async (ctx, call) => {
  const account = findInternalAccount(ctx, call.params.accountId!);
  const body = call.body as InternalAccountUpdateParams;
  const signed = await authorize(ctx, call, { type: 'UPDATE_WALLET_PRIVACY', walletSuffix: account.suffix, details: { privateEnabled: body.privateEnabled } });
  if ('challenge' in signed) return signed.challenge;
  account.data.privateEnabled = body.privateEnabled;
  account.data.updatedAt = nowIso(ctx);
  return ok(account.data);
};

/**
 * The wallet's exportable secret: derived from the sandbox seed and the account, so exports of one
 * wallet agree with each other (and differ between wallets) without storing a key.
 */
async function walletSecret(ctx: Ctx, suffix: string): Promise<Uint8Array> {
  let bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(`crossborder-sandbox-wallet|${ctx.seed}|${suffix}`)));
  // A SHA-256 output is a valid P-256 scalar except with probability ~2^-32; rehash in that case.
  for (let i = 0; i < 4 && !p256.utils.isValidSecretKey(bytes); i++) bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return bytes;
}

const exportWallet: Handler = async (ctx, call) => {
  const account = findInternalAccount(ctx, call.params.accountId!);
  const body = call.body as InternalAccountExportParams;
  requireClientKey(body.clientPublicKey, 'clientPublicKey');
  const signed = await authorize(ctx, call, { type: 'EXPORT_WALLET', walletSuffix: account.suffix, details: { clientPublicKey: body.clientPublicKey } });
  if ('challenge' in signed) return signed.challenge;
  const secret = await walletSecret(ctx, account.suffix);
  const encryptedWalletCredentials = await sealSessionKey(body.clientPublicKey, secret);
  secret.fill(0);
  return ok({ id: walletId(account.suffix), encryptedWalletCredentials });
};

/** The wallet routes. */
export const walletRoutes = {
  createCredential: create,
  listCredentials: list,
  challengeCredential: { run: challenge, validateBody: false },
  verifyCredential: verify,
  revokeCredential: revoke,
  listSessions,
  revokeSession,
  updateInternalAccount: privacy,
  exportInternalAccount: exportWallet,
  refreshAuthSession: refreshSession,
  createDelegatedKey,
  listDelegatedKeys,
  getDelegatedKeyById: getDelegatedKey,
  revokeDelegatedKey,
} as const;
