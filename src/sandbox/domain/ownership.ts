/**
 * Ownership verification of self-custody crypto wallets, as production runs it: a `FIRST_PARTY` wallet
 * starts `PENDING_OWNERSHIP_VERIFICATION`; a challenge (`WALLET_SIGNATURE`: a message to sign, or
 * `LIVENESS`: a hosted flow) proves it and moves the account to `ACTIVE`; a failed proof leaves it
 * `UNVERIFIED` until a new challenge. Every status change sends `EXTERNAL_ACCOUNT.STATUS_UPDATED` with the
 * whole account. The outcomes are deterministic (./magic.ts): the wallet's signature of a message is
 * `sandbox-signed:<message>`, and LIVENESS passes 30 s after its challenge.
 * @module
 */
import type { ExternalAccount, OwnershipChallenge } from '../../generated/types';
import { iso } from './clock';
import { now, type Ctx } from './context';
import { accountTypeNamed } from './account-types';
import { SandboxError } from './errors';
import { MAGIC, sandboxWalletSignature } from './magic';
import type { ExternalAccountRec, OwnershipChallengeRec, World } from './state';
import { refuseFields } from './validation';

/** How long a challenge stays open (production: "prompt the user promptly"). */
export const OWNERSHIP_CHALLENGE_MS = 10 * 60_000;

/**
 * Statuses of an external account a quote may pay: ACTIVE, and a wallet still awaiting (or having failed)
 * ownership proof, which production pays below regulatory thresholds it does not publish (the sandbox,
 * never stricter than the service, pays it at every amount).
 */
export const PAYABLE_STATUSES: ReadonlySet<string> = new Set(['ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED']);

/** Statuses a challenge may start from. */
const CHALLENGEABLE = new Set(['PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED']);

/** The methods the sandbox runs (production's `OwnershipVerificationMethod`). */
const METHODS = ['WALLET_SIGNATURE', 'LIVENESS'] as const;

/** True when an account of this type and ownership must prove ownership: a `FIRST_PARTY` self-custody crypto wallet. */
export function needsOwnershipProof(accountType: string, ownershipType: string | undefined): boolean {
  return ownershipType === 'FIRST_PARTY' && accountTypeNamed(accountType)?.wallet === true;
}

/** Sets an external account's status and tells the platform, when it changes. */
export function setExternalStatus(ctx: Ctx, rec: ExternalAccountRec, status: ExternalAccount['status']): void {
  if (rec.data.status === status) return;
  rec.data.status = status;
  ctx.webhooks.emit('EXTERNAL_ACCOUNT.STATUS_UPDATED', rec.data);
}

/**
 * Starts (or restarts) a challenge: 409 INVALID_STATE_TRANSITION when ownership verification does not
 * apply (not a self-custody wallet, not `FIRST_PARTY`, already verified), 400 naming `method` for a method
 * the sandbox does not run. An `UNVERIFIED` account returns to `PENDING_OWNERSHIP_VERIFICATION`.
 */
export function startOwnershipChallenge(ctx: Ctx, rec: ExternalAccountRec, method: string): OwnershipChallenge {
  if (!(METHODS as readonly string[]).includes(method)) {
    refuseFields('body', [{ location: 'body', field: 'method', rule: 'invalid_value', message: `must be one of ${METHODS.join(', ')}` }], {
      accepted: [...METHODS],
    });
  }
  const { id, status, ownershipType, accountInfo } = rec.data;
  if (!needsOwnershipProof(accountInfo.accountType, ownershipType) || !CHALLENGEABLE.has(status)) {
    const why = !needsOwnershipProof(accountInfo.accountType, ownershipType)
      ? `it is not a FIRST_PARTY self-custody crypto wallet (accountType ${accountInfo.accountType}, ownershipType ${ownershipType ?? 'not set'})`
      : `it is ${status}`;
    throw new SandboxError(409, 'INVALID_STATE_TRANSITION', `Ownership verification does not apply to external account ${id}: ${why}.`, { id, status });
  }
  const issuedMs = now(ctx);
  const nonce = `${ctx.random.hex(8)}-${ctx.random.hex(4)}-${ctx.random.hex(4)}`;
  const challenge: OwnershipChallengeRec =
    method === 'WALLET_SIGNATURE'
      ? {
          accountId: id,
          method,
          nonce,
          messageToSign: `I verify that I control this wallet. Nonce: ${nonce}`,
          issuedMs,
          expiresMs: issuedMs + OWNERSHIP_CHALLENGE_MS,
        }
      : {
          accountId: id,
          method,
          nonce,
          verificationLink: `https://verify.sandbox.crossborder.invalid/session/${nonce}`,
          issuedMs,
          expiresMs: issuedMs + OWNERSHIP_CHALLENGE_MS,
        };
  // A new challenge abandons the one in flight.
  ctx.world.ownershipChallenges.set(id, challenge);
  setExternalStatus(ctx, rec, 'PENDING_OWNERSHIP_VERIFICATION');
  if (method === 'LIVENESS') scheduleLiveness(ctx, challenge);
  return challengeData(challenge);
}

/** A challenge as the API answers it. */
function challengeData(c: OwnershipChallengeRec): OwnershipChallenge {
  const expiresAt = iso(c.expiresMs);
  return c.method === 'WALLET_SIGNATURE'
    ? { method: 'WALLET_SIGNATURE', messageToSign: c.messageToSign!, expiresAt }
    : { method: 'LIVENESS', verificationLink: c.verificationLink!, expiresAt };
}

/** The hosted flow passes `MAGIC.livenessPassesAfterMs` after its challenge, unless a newer challenge replaced it. */
function scheduleLiveness(ctx: Ctx, challenge: OwnershipChallengeRec): void {
  const world: World = ctx.world;
  ctx.scheduler.at(challenge.issuedMs + MAGIC.livenessPassesAfterMs, () => {
    if (ctx.world !== world || world.ownershipChallenges.get(challenge.accountId)?.nonce !== challenge.nonce) return;
    world.ownershipChallenges.delete(challenge.accountId);
    const rec = world.externalAccounts.get(challenge.accountId);
    if (rec) setExternalStatus(ctx, rec, 'ACTIVE');
  });
}

/**
 * Completes a WALLET_SIGNATURE challenge: the account becomes `ACTIVE` when `signature` is the wallet's
 * signature of the challenge's message before `expiresAt`; otherwise 400 INVALID_INPUT naming `signature`,
 * and the account is `UNVERIFIED`. Either way the challenge is used up. 409 INVALID_STATE_TRANSITION when
 * no WALLET_SIGNATURE challenge is outstanding.
 */
export function verifyOwnership(ctx: Ctx, rec: ExternalAccountRec, signature: string): ExternalAccount {
  const id = rec.data.id;
  const challenge = ctx.world.ownershipChallenges.get(id);
  if (!challenge || challenge.method !== 'WALLET_SIGNATURE') {
    throw new SandboxError(
      409,
      'INVALID_STATE_TRANSITION',
      `No WALLET_SIGNATURE challenge is outstanding for external account ${id}; start one with /challenge.`,
      {
        id,
        status: rec.data.status,
      },
    );
  }
  ctx.world.ownershipChallenges.delete(id);
  const late = now(ctx) > challenge.expiresMs;
  if (late || signature !== sandboxWalletSignature(challenge.messageToSign!)) {
    setExternalStatus(ctx, rec, 'UNVERIFIED');
    const message = late
      ? `is too late: the challenge expired at ${iso(challenge.expiresMs)}; the account is UNVERIFIED, start a new challenge`
      : "is not the wallet's signature of messageToSign; the account is UNVERIFIED, start a new challenge";
    refuseFields('body', [{ location: 'body', field: 'signature', rule: late ? 'expired' : 'invalid', message }], { id });
  }
  setExternalStatus(ctx, rec, 'ACTIVE');
  return rec.data;
}

/** After an import: LIVENESS challenges still in flight pass as they would have. */
export function resumeOwnership(ctx: Ctx): void {
  for (const challenge of ctx.world.ownershipChallenges.values()) if (challenge.method === 'LIVENESS') scheduleLiveness(ctx, challenge);
}
