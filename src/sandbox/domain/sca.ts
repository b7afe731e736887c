/**
 * Strong Customer Authentication and contact verification (production's `/sca/…`, the beneficiary trust calls,
 * `/quotes/{quoteId}/authorize` and `/customers/{customerId}/verify-*`), as the sandbox plays them.
 *
 * - A customer is in an SCA region when its `region` is a country of the European Economic Area
 *   (`SCA_REGIONS`, domain/sca-regions.ts): it is created with `contactVerification: { email: PENDING, phone: PENDING }`, and every
 *   SCA operation answers 409 `CONFLICT` for any other customer (production's "SCA is not required").
 * - Every code (contact verification, TOTP, SMS_OTP) is {@link MAGIC}`.scaCode` (`123456`, production's sandbox
 *   code); any other is 400 `INVALID_INPUT` naming `code`. A passkey proof is any `passkeyAssertion` object given
 *   with the origin {@link MAGIC}`.scaPasskeyOrigin`, from a customer with a passkey enrolled.
 * - Executing a quote of an SCA customer (or creating one with `immediatelyExecute`) moves no money: the quote turns
 *   `PENDING_AUTHORIZATION` with an `scaChallenge` (its transaction too, with `OUTGOING_PAYMENT.PENDING_AUTHORIZATION`),
 *   unless its destination is a trusted beneficiary. `POST /quotes/{quoteId}/authorize` with the proof, within a live
 *   SCA login session, releases it (the execution runs then); a challenge not authorized by the quote's `expiresAt`
 *   fails the transaction with `SCA_NOT_COMPLETED`. A REALTIME_FUNDING quote of an SCA customer is held so from its
 *   creation (production's 202, its `paymentInstructions` withheld); its authorization issues them, and its funds
 *   then execute it (routes/quotes.ts, releaseQuote). `scaFactor` (on the quote's creation, or the body of an
 *   execute) picks the challenge's factor.
 * - An SCA login session lasts {@link SCA_SESSION_MS} of sandbox time.
 * @module
 */
import type {
  Quote,
  ScaAuthorization,
  ScaChallenge,
  ScaFactorConfirmParams,
  ScaFactorConfirmation,
  ScaFactorEnrollParams,
  ScaFactorEnrollment,
  ScaFactorList,
  ScaLoginComplete,
  ScaLoginCompleteParams,
  ScaLoginStart,
  SecurityEventResult,
  TwoFactorResetCompleteParams,
  TwoFactorResetStart,
  TwoFactorResetStatus,
} from '../../generated/types';
import { iso } from './clock';
import { now, nowIso, type Ctx } from './context';
import { SandboxError, invalidInput, notFound } from './errors';
import { findCustomer, findExternalAccount } from './finders';
import { MAGIC } from './magic';
import { recordStatus } from './payments';
import type { QuoteRec, ScaRec } from './state';
import { isScaRegion } from './sca-regions';
import { secretDigest } from './tokens';

export { SCA_REGIONS, initialContactVerification, isScaRegion } from './sca-regions';

export type { ScaRec } from './state';

/** How long an SCA login session lasts (sandbox time). */
export const SCA_SESSION_MS = 30 * 60_000;
/** How long a login, trust or per-transaction challenge may be answered. */
const CHALLENGE_MS = 5 * 60_000;
/** How long a 2FA reset window stays open. */
const RESET_WINDOW_MS = 15 * 60_000;
/** Production's limit of reset starts per customer in 24 hours. */
const RESETS_PER_DAY = 5;
const DAY_MS = 24 * 60 * 60_000;
/** Production's lockout milestones: failed attempts → lock length (9 and more: suspended). */
const LOCKS: Readonly<Record<number, number>> = { 5: 15 * 60_000, 6: 30 * 60_000, 7: 60 * 60_000, 8: DAY_MS };

/** The relying party of the sandbox's passkeys. */
const RELYING_PARTY = 'sandbox.crossborder.example';

/** 409 CONFLICT: production's answer for a customer outside an SCA region. */
function notRequired(customerId: string): SandboxError {
  return new SandboxError(409, 'CONFLICT', `SCA is not required for customer ${customerId}: its region is not one where SCA applies.`, {
    customerId,
  });
}

/** The SCA record of a live SCA customer (made on first use), or 404 / 409. */
export function scaOf(ctx: Ctx, customerId: string): ScaRec {
  const customer = findCustomer(ctx, customerId);
  if (!isScaRegion(customer.data.region)) throw notRequired(customerId);
  let rec = ctx.world.sca.get(customerId);
  if (!rec) {
    rec = { customerId, factors: [], pendingTotp: [], pendingPasskey: false, contactCodes: [], failedAttempts: 0, suspended: false, resets: [], trusted: [] };
    ctx.world.sca.set(customerId, rec);
  }
  return rec;
}

/** 423 ACCOUNT_LOCKED while the customer is locked or suspended. */
function assertUnlocked(ctx: Ctx, rec: ScaRec): void {
  const locked = rec.lockedUntilMs !== undefined && now(ctx) < rec.lockedUntilMs;
  if (!rec.suspended && !locked) return;
  throw new SandboxError(
    423,
    'ACCOUNT_LOCKED',
    rec.suspended
      ? `Customer ${rec.customerId} is suspended after ${rec.failedAttempts} failed attempts; a password reset clears it.`
      : `Customer ${rec.customerId} is locked after ${rec.failedAttempts} failed attempts; try again after ${iso(rec.lockedUntilMs!)}.`,
    { suspended: rec.suspended, lockedUntil: rec.suspended ? null : iso(rec.lockedUntilMs!), failedAttempts: rec.failedAttempts },
  );
}

/** The proof fields every SCA confirmation carries. */
type Proof = Pick<ScaAuthorization, 'code' | 'passkeyAssertion' | 'origin'>;

/** 400 unless `proof` is the sandbox's code, or a passkey assertion from the sandbox's origin by a customer with a passkey. */
function checkProof(rec: ScaRec, proof: Proof): void {
  if (proof.passkeyAssertion !== undefined && proof.passkeyAssertion !== null) {
    if (proof.origin !== MAGIC.scaPasskeyOrigin) {
      throw invalidInput('origin', `A passkey assertion must come with the origin it was produced against (the sandbox's: ${MAGIC.scaPasskeyOrigin}).`);
    }
    if (!rec.factors.some((f) => f.factor === 'PASSKEY')) throw invalidInput('passkeyAssertion', `Customer ${rec.customerId} has no passkey enrolled.`);
    return;
  }
  if (proof.code === undefined || proof.code === null) throw invalidInput('code', 'Give the proof: a code, or a passkeyAssertion with its origin.');
  if (proof.code !== MAGIC.scaCode) throw invalidInput('code', `The code is wrong or expired (the sandbox's code is always ${MAGIC.scaCode}).`);
}

/** The factors a challenge of `rec` may be satisfied with (TOTP carries no dynamic linking: never for a payment). */
function challengeFactors(rec: ScaRec, payment: boolean): string[] {
  const enrolled = rec.factors.map((f) => f.factor).filter((f) => !(payment && f === 'TOTP'));
  return ['SMS_OTP', ...enrolled];
}

/** A new challenge of `rec` for `factor`, valid until `expiresMs`. */
function newChallenge(ctx: Ctx, rec: ScaRec, factor: string | undefined, expiresMs: number, payment: boolean, purpose?: string): ScaChallenge {
  const available = challengeFactors(rec, payment);
  const chosen = factor ?? 'SMS_OTP';
  if (!available.includes(chosen)) {
    throw invalidInput('scaFactor', `${chosen} cannot satisfy this challenge; customer ${rec.customerId} may use ${available.join(', ')}.`);
  }
  return {
    id: ctx.ids.next('ScaChallenge').id,
    expiresAt: iso(expiresMs),
    factor: chosen,
    availableFactors: available,
    ...(purpose ? { purpose } : {}),
    ...(chosen === 'PASSKEY' ? { passkeyAssertionOptions: { rpId: RELYING_PARTY, challenge: ctx.random.hex(32), userVerification: 'required' } } : {}),
  };
}

// Contact verification.

/** `POST /customers/{id}/verify-email|phone`: 409 outside the requirement or when already verified. */
export function sendContactCode(ctx: Ctx, customerId: string, channel: 'email' | 'phone'): void {
  const customer = findCustomer(ctx, customerId);
  const state = customer.data.contactVerification?.[channel];
  if (state === undefined) {
    throw new SandboxError(409, 'CONFLICT', `Customer ${customerId}'s provider does not require ${channel} verification.`, { customerId, channel });
  }
  if (state === 'VERIFIED') throw new SandboxError(409, 'CONFLICT', `Customer ${customerId}'s ${channel} is already verified.`, { customerId, channel });
  const rec = scaOf(ctx, customerId);
  rec.contactCodes = [...rec.contactCodes.filter((c) => c !== channel), channel];
}

/** `POST /customers/{id}/verify-email|phone/confirm`: the channel becomes VERIFIED; 400 for a wrong code or none sent. */
export function confirmContactCode(ctx: Ctx, customerId: string, channel: 'email' | 'phone', code: string) {
  const customer = findCustomer(ctx, customerId);
  const state = customer.data.contactVerification?.[channel];
  if (state === undefined) {
    throw new SandboxError(409, 'CONFLICT', `Customer ${customerId}'s provider does not require ${channel} verification.`, { customerId, channel });
  }
  if (state === 'VERIFIED') throw new SandboxError(409, 'CONFLICT', `Customer ${customerId}'s ${channel} is already verified.`, { customerId, channel });
  const rec = scaOf(ctx, customerId);
  if (!rec.contactCodes.includes(channel)) {
    throw invalidInput('code', `No ${channel} code was sent to customer ${customerId}: send one first (POST /customers/{customerId}/verify-${channel}).`);
  }
  if (code !== MAGIC.scaCode) throw invalidInput('code', `The code is wrong or expired (the sandbox's code is always ${MAGIC.scaCode}).`);
  rec.contactCodes = rec.contactCodes.filter((c) => c !== channel);
  customer.data.contactVerification = { ...customer.data.contactVerification, [channel]: 'VERIFIED' };
  customer.data.updatedAt = nowIso(ctx);
  return customer.data;
}

// Factors.

/** `GET /sca/factors`: SMS_OTP (always) and the enrolled TOTP and PASSKEY. */
export function listFactors(ctx: Ctx, customerId: string): ScaFactorList {
  const rec = scaOf(ctx, customerId);
  return { factors: [{ factor: 'SMS_OTP' }, ...rec.factors.map((f) => ({ ...f }))] };
}

/** `POST /sca/factors`: a TOTP secret (kept as its SHA-256 only) or the passkey registration options. */
export function startEnrollment(ctx: Ctx, customerId: string, body: ScaFactorEnrollParams): ScaFactorEnrollment {
  const rec = scaOf(ctx, customerId);
  if (body.type === 'PASSKEY') {
    if (rec.factors.some((f) => f.factor === 'PASSKEY')) {
      throw new SandboxError(409, 'PASSKEY_ALREADY_ENROLLED', `Customer ${customerId} already has a passkey; delete it before enrolling another.`, {
        customerId,
      });
    }
    rec.pendingPasskey = true;
    return {
      type: 'PASSKEY',
      options: {
        challenge: ctx.random.hex(32),
        rp: { id: RELYING_PARTY, name: 'Crossborder sandbox' },
        user: { id: customerId, name: customerId, displayName: customerId },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      },
      allowedOrigins: [MAGIC.scaPasskeyOrigin],
      relyingPartyId: RELYING_PARTY,
    };
  }
  const secret = ctx.random.hex(20).toUpperCase();
  const base32 = toBase32(secret);
  rec.pendingTotp = [...rec.pendingTotp.slice(-4), secretDigest(secret)];
  return {
    type: 'TOTP',
    secret,
    secretBase32Encoded: base32,
    totpUri: `otpauth://totp/Crossborder:${encodeURIComponent(customerId)}?secret=${base32}&issuer=Crossborder`,
  };
}

/** RFC 4648 Base32 (no padding) of an ASCII string. */
function toBase32(text: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of text) bits += ch.charCodeAt(0).toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
}

/** `POST /sca/factors/confirm`: enrolls the factor whose start the proof binds to. */
export function confirmEnrollment(ctx: Ctx, customerId: string, body: ScaFactorConfirmParams): ScaFactorConfirmation {
  const rec = scaOf(ctx, customerId);
  if (body.type === 'PASSKEY') {
    if (!rec.pendingPasskey) throw invalidInput('type', `No passkey enrollment of customer ${customerId} was started (POST /sca/factors).`);
    if (body.origin !== MAGIC.scaPasskeyOrigin)
      throw invalidInput('origin', `The origin must be one of the start's allowedOrigins (${MAGIC.scaPasskeyOrigin}).`);
    if (Object.keys(body.credential).length === 0) throw invalidInput('credential', 'The credential is the WebAuthn credential the device produced.');
    rec.pendingPasskey = false;
    const factor = { factor: 'PASSKEY', credentialId: ctx.ids.next('ScaCredential').id, name: 'Passkey' };
    rec.factors = [...rec.factors.filter((f) => f.factor !== 'PASSKEY'), factor];
    return { type: 'PASSKEY', factor: { ...factor } };
  }
  const digest = secretDigest(body.secret);
  if (!rec.pendingTotp.includes(digest)) throw invalidInput('secret', `The secret is not one a TOTP enrollment of customer ${customerId} answered.`);
  if (body.code !== MAGIC.scaCode) throw invalidInput('code', `The code is wrong (the sandbox's TOTP code is always ${MAGIC.scaCode}).`);
  rec.pendingTotp = rec.pendingTotp.filter((d) => d !== digest);
  rec.factors = [...rec.factors.filter((f) => f.factor !== 'TOTP'), { factor: 'TOTP' }];
  const group = () => ctx.random.hex(4).toUpperCase();
  return { type: 'TOTP', recoveryCodes: Array.from({ length: 8 }, () => `${group()}-${group()}-${group()}`) };
}

/** `DELETE /sca/factors/{credentialId}`: 404 for a factor the customer does not have. */
export function deleteFactor(ctx: Ctx, customerId: string, credentialId: string): void {
  const rec = scaOf(ctx, customerId);
  if (!rec.factors.some((f) => f.credentialId === credentialId)) throw notFound('CREDENTIAL_NOT_FOUND', 'SCA factor', credentialId);
  rec.factors = rec.factors.filter((f) => f.credentialId !== credentialId);
}

// Logins and security events.

/** `POST /sca/login/start`: 400 for a factor not enrolled (SMS_OTP: a phone not verified). */
export function startLogin(ctx: Ctx, customerId: string, factor: string): ScaLoginStart {
  const rec = scaOf(ctx, customerId);
  assertUnlocked(ctx, rec);
  if (factor === 'SMS_OTP') {
    const phone = findCustomer(ctx, customerId).data.contactVerification?.phone;
    if (phone !== 'VERIFIED') throw invalidInput('factor', `Customer ${customerId}'s phone is not verified: SMS_OTP needs a verified phone.`);
  } else if (!rec.factors.some((f) => f.factor === factor)) {
    throw invalidInput('factor', `Customer ${customerId} has no ${factor} factor enrolled.`);
  }
  const expiresMs = now(ctx) + CHALLENGE_MS;
  const challengeId = factor === 'SMS_OTP' ? ctx.ids.next('ScaChallenge').id : undefined;
  rec.login = { factor, expiresMs, ...(challengeId ? { challengeId } : {}) };
  if (factor === 'SMS_OTP') return { factor, challengeId: challengeId!, expiresAt: iso(expiresMs) };
  if (factor === 'PASSKEY') {
    return {
      factor,
      passkeyOptions: { rpId: RELYING_PARTY, challenge: ctx.random.hex(32), userVerification: 'required' },
      allowedOrigins: [MAGIC.scaPasskeyOrigin],
      relyingPartyId: RELYING_PARTY,
    };
  }
  return { factor };
}

/** `POST /sca/login/complete`: a session of {@link SCA_SESSION_MS}; 400 for a wrong proof or no login started. */
export function completeLogin(ctx: Ctx, customerId: string, body: ScaLoginCompleteParams): ScaLoginComplete {
  const rec = scaOf(ctx, customerId);
  assertUnlocked(ctx, rec);
  const login = rec.login;
  if (!login || login.factor !== body.factor || now(ctx) >= login.expiresMs) {
    throw invalidInput('factor', `No ${body.factor} login of customer ${customerId} is waiting (start one with POST /sca/login/start).`);
  }
  if (login.challengeId !== undefined && body.challengeId !== login.challengeId) {
    throw invalidInput('challengeId', 'The challengeId is not the one the login start answered.');
  }
  checkProof(rec, body);
  delete rec.login;
  rec.sessionExpiresMs = now(ctx) + SCA_SESSION_MS;
  return { status: 'SUCCESS', sessionExpiresAt: iso(rec.sessionExpiresMs) };
}

/** `POST /sca/record-event`: counts failed logins (production's lockout milestones) or clears them and the sessions. */
export function recordEvent(ctx: Ctx, customerId: string, eventType: string): SecurityEventResult {
  const rec = scaOf(ctx, customerId);
  if (eventType === 'RESET_PASSWORD_COMPLETED') {
    rec.failedAttempts = 0;
    rec.suspended = false;
    delete rec.lockedUntilMs;
    delete rec.sessionExpiresMs;
  } else {
    rec.failedAttempts += 1;
    if (rec.failedAttempts >= 9) rec.suspended = true;
    const lock = LOCKS[rec.failedAttempts];
    if (lock !== undefined) rec.lockedUntilMs = now(ctx) + lock;
  }
  const locked = !rec.suspended && rec.lockedUntilMs !== undefined && now(ctx) < rec.lockedUntilMs;
  return { eventType, suspended: rec.suspended, lockedUntil: locked ? iso(rec.lockedUntilMs!) : null, failedAttempts: rec.failedAttempts };
}

// 2FA resets.

/** `POST /sca/factors/reset`: liveness passes {@link MAGIC}`.livenessPassesAfterMs` later; 5 starts a day. */
export function startReset(ctx: Ctx, customerId: string, factor: string): TwoFactorResetStart {
  const rec = scaOf(ctx, customerId);
  if (factor !== 'SMS_OTP' && !rec.factors.some((f) => f.factor === factor)) {
    throw invalidInput('factor', `Customer ${customerId} has no ${factor} factor enrolled to reset.`);
  }
  const at = now(ctx);
  const recent = rec.resets.filter((r) => at - r.startedMs < DAY_MS);
  if (recent.length >= RESETS_PER_DAY) {
    const seconds = Math.max(1, Math.ceil((recent[0]!.startedMs + DAY_MS - at) / 1000));
    throw new SandboxError(429, 'RATE_LIMITED', `Customer ${customerId} started ${RESETS_PER_DAY} resets in 24 hours; retry after ${seconds} s.`, undefined, {
      'Retry-After': String(seconds),
    });
  }
  const resetId = ctx.ids.next('TwoFactorReset').id;
  rec.resets.push({ resetId, factor, startedMs: at, expiresMs: at + RESET_WINDOW_MS });
  return {
    resetId,
    livenessAccessToken: `sandbox-liveness-${ctx.random.hex(16)}`,
    verificationLink: `https://sandbox.crossborder.example/liveness/${encodeURIComponent(resetId)}`,
    expiresAt: iso(at + RESET_WINDOW_MS),
  };
}

function findReset(ctx: Ctx, customerId: string, resetId: string) {
  const rec = scaOf(ctx, customerId);
  const reset = rec.resets.find((r) => r.resetId === resetId);
  if (!reset) throw notFound('NOT_FOUND', '2FA reset', resetId);
  return { rec, reset };
}

/** A reset's status now: INITIATED, LIVENESS_PASSED once liveness passed, COMPLETED, or EXPIRED past its window. */
export function resetStatus(ctx: Ctx, customerId: string, resetId: string): TwoFactorResetStatus {
  const { reset } = findReset(ctx, customerId, resetId);
  const at = now(ctx);
  const status =
    reset.completedMs !== undefined
      ? 'COMPLETED'
      : at >= reset.expiresMs
        ? 'EXPIRED'
        : at >= reset.startedMs + MAGIC.livenessPassesAfterMs
          ? 'LIVENESS_PASSED'
          : 'INITIATED';
  return {
    status,
    factor: reset.factor,
    enrollmentStatus: reset.factor === 'SMS_OTP' ? null : reset.completedMs !== undefined ? 'PENDING' : null,
    expiresAt: iso(reset.expiresMs),
    completedAt: reset.completedMs !== undefined ? iso(reset.completedMs) : null,
  };
}

/** `POST /sca/factors/reset/{resetId}/complete`: clears the factor; 400 before liveness passed, or an SMS reset without `mobile`. */
export function completeReset(ctx: Ctx, customerId: string, resetId: string, body: TwoFactorResetCompleteParams | undefined): void {
  const { rec, reset } = findReset(ctx, customerId, resetId);
  const status = resetStatus(ctx, customerId, resetId).status;
  if (status !== 'LIVENESS_PASSED') throw invalidInput('resetId', `Reset ${resetId} is ${status}: it completes once liveness has passed.`);
  if (reset.factor === 'SMS_OTP' && !body?.mobile) throw invalidInput('mobile', 'An SMS_OTP reset names the new mobile number.');
  reset.completedMs = now(ctx);
  rec.factors = rec.factors.filter((f) => f.factor !== reset.factor);
  delete rec.sessionExpiresMs;
}

// Trusted beneficiaries.

/** `POST …/trust` or `…/untrust`: a challenge to confirm with; 409 for an account of a customer outside SCA. */
export function startTrust(ctx: Ctx, accountId: string, action: 'trust' | 'untrust'): { scaChallenge: ScaChallenge } {
  const account = findExternalAccount(ctx, accountId);
  const customerId = account.data.customerId;
  if (!customerId) throw notRequired('(the platform)');
  const rec = scaOf(ctx, customerId);
  const scaChallenge = newChallenge(ctx, rec, undefined, now(ctx) + CHALLENGE_MS, false);
  rec.trustChallenge = { accountId, action, challengeId: scaChallenge.id, expiresMs: Date.parse(scaChallenge.expiresAt) };
  return { scaChallenge };
}

/** `POST …/trust/confirm` or `…/untrust/confirm`: 400 without a started challenge, for another challenge or a wrong proof. */
export function confirmTrust(ctx: Ctx, accountId: string, action: 'trust' | 'untrust', body: Proof & { challengeId?: string | null | undefined }) {
  const account = findExternalAccount(ctx, accountId);
  const customerId = account.data.customerId;
  if (!customerId) throw notRequired('(the platform)');
  const rec = scaOf(ctx, customerId);
  const pending = rec.trustChallenge;
  if (!pending || pending.accountId !== accountId || pending.action !== action || now(ctx) >= pending.expiresMs) {
    throw invalidInput('challengeId', `No ${action} of ${accountId} is waiting for its proof (start it with POST …/${action}).`);
  }
  if (body.challengeId !== undefined && body.challengeId !== null && body.challengeId !== pending.challengeId) {
    throw invalidInput('challengeId', 'The challengeId is not the one the start answered.');
  }
  checkProof(rec, body);
  delete rec.trustChallenge;
  rec.trusted = action === 'trust' ? [...new Set([...rec.trusted, accountId])] : rec.trusted.filter((id) => id !== accountId);
  return { trusted: action === 'trust' };
}

/** True when `accountId` is a trusted beneficiary of its customer. */
export function isTrusted(ctx: Ctx, accountId: string): boolean {
  const customerId = ctx.world.externalAccounts.get(accountId)?.data.customerId;
  return !!customerId && (ctx.world.sca.get(customerId)?.trusted.includes(accountId) ?? false);
}

// Quotes.

/** The customer whose money a quote moves: its debited account's owner, else the source's `customerId`. */
function quoteCustomer(ctx: Ctx, quote: QuoteRec): string | undefined {
  const owner = quote.debitAccountId ? ctx.world.internalAccounts.get(quote.debitAccountId)?.data.customerId : undefined;
  const source = quote.data.source as { customerId?: string };
  return owner ?? source.customerId ?? undefined;
}

/**
 * Instead of executing `quote`: when its customer is an SCA customer and its destination no trusted beneficiary,
 * the quote (and its transaction) turns PENDING_AUTHORIZATION with a challenge, and true is returned (nothing
 * moved). False when the execution may go on.
 */
export function holdForAuthorization(ctx: Ctx, quote: QuoteRec, scaFactor?: string): boolean {
  const customerId = quoteCustomer(ctx, quote);
  const customer = customerId ? ctx.world.customers.get(customerId) : undefined;
  if (!customer || !isScaRegion(customer.data.region)) return false;
  if (quote.target.kind === 'external' && isTrusted(ctx, quote.target.accountId)) return false;
  const rec = scaOf(ctx, customer.data.id);
  const scaChallenge = newChallenge(ctx, rec, scaFactor, quote.expiresMs, true, 'TRANSFER');
  quote.data.status = 'PENDING_AUTHORIZATION';
  quote.data.scaChallenge = scaChallenge;
  const tx = ctx.world.transactions.get(quote.data.transactionId);
  if (tx) {
    tx.data.status = 'PENDING_AUTHORIZATION';
    tx.data.updatedAt = nowIso(ctx);
    recordStatus(tx, tx.data.updatedAt);
    ctx.webhooks.emit('OUTGOING_PAYMENT.PENDING_AUTHORIZATION', tx.data);
  }
  const world = ctx.world;
  ctx.scheduler.at(quote.expiresMs, () => {
    if (ctx.world !== world || quote.data.status !== 'PENDING_AUTHORIZATION') return;
    quote.data.status = 'EXPIRED';
    delete quote.data.scaChallenge;
    const held = world.transactions.get(quote.data.transactionId);
    if (!held) return;
    held.data.status = 'FAILED';
    held.data.failureReason = 'SCA_NOT_COMPLETED';
    held.data.updatedAt = nowIso(ctx);
    recordStatus(held, held.data.updatedAt);
    ctx.webhooks.emit('OUTGOING_PAYMENT.FAILED', held.data);
  });
  return true;
}

/**
 * `POST /quotes/{quoteId}/authorize`: checks the proof against the quote's challenge (409 without one or outside SCA,
 * 409 SCA_SESSION_REQUIRED without a live login session, 423 when locked, 400 for a wrong or expired proof), then
 * clears it; the caller runs the execution (`release`) and answers the quote.
 */
export function authorizeQuote(ctx: Ctx, quote: QuoteRec, proof: ScaAuthorization, release: () => void): Quote {
  const customerId = quoteCustomer(ctx, quote);
  if (!customerId) throw notRequired('(none)');
  const rec = scaOf(ctx, customerId);
  if (quote.data.status !== 'PENDING_AUTHORIZATION' || !quote.data.scaChallenge) {
    throw new SandboxError(409, 'CONFLICT', `Quote ${quote.data.id} is ${quote.data.status}: it has no SCA challenge to authorize.`, {
      id: quote.data.id,
      status: quote.data.status,
    });
  }
  assertUnlocked(ctx, rec);
  if (rec.sessionExpiresMs === undefined || now(ctx) >= rec.sessionExpiresMs) {
    throw new SandboxError(
      409,
      'SCA_SESSION_REQUIRED',
      `Customer ${customerId} has no live SCA login session: log in (POST /sca/login/start, /sca/login/complete), then authorize again.`,
      { customerId },
    );
  }
  if (now(ctx) >= Date.parse(quote.data.scaChallenge.expiresAt)) {
    throw invalidInput('scaChallenge', `The challenge expired at ${quote.data.scaChallenge.expiresAt}; create a new quote.`);
  }
  checkProof(rec, proof);
  const challenge = quote.data.scaChallenge;
  const tx = ctx.world.transactions.get(quote.data.transactionId);
  quote.data.status = 'PENDING';
  delete quote.data.scaChallenge;
  if (tx) tx.data.status = 'PENDING';
  try {
    release();
  } catch (error) {
    // Not executable now (its funds went meanwhile): the quote keeps waiting for its authorization.
    quote.data.status = 'PENDING_AUTHORIZATION';
    quote.data.scaChallenge = challenge;
    if (tx) tx.data.status = 'PENDING_AUTHORIZATION';
    throw error;
  }
  return quote.data;
}

/** `POST /quotes/{quoteId}/authorize/resend`: 409 unless an SMS_OTP challenge is pending. */
export function resendQuoteCode(ctx: Ctx, quote: QuoteRec): void {
  const customerId = quoteCustomer(ctx, quote);
  if (!customerId) throw notRequired('(none)');
  scaOf(ctx, customerId);
  const challenge = quote.data.scaChallenge;
  if (quote.data.status !== 'PENDING_AUTHORIZATION' || !challenge || challenge.factor !== 'SMS_OTP') {
    throw new SandboxError(409, 'CONFLICT', `Quote ${quote.data.id} has no pending SMS_OTP challenge whose code could be sent again.`, {
      id: quote.data.id,
      status: quote.data.status,
    });
  }
}
