/**
 * Invitations by code: find one, claim it for an invitee (INVITATION.CLAIMED follows), cancel it. A
 * claimed, cancelled or expired invitation can be neither claimed nor cancelled, with production's codes.
 * `createInvitation` (routes/platform.ts) makes them; expiry is scheduled there.
 * @module
 */
import type { Invitation } from '../../generated/types';
import { nowIso, type Ctx } from './context';
import { SandboxError } from './errors';
import type { Rec } from './state';
import { isUmaAddress } from './uma';

/** The invitation of `code`, or 404 INVITATION_NOT_FOUND. */
export function findInvitation(ctx: Ctx, code: string): Rec<Invitation> {
  const rec = ctx.world.invitations.get(code);
  if (!rec) throw new SandboxError(404, 'INVITATION_NOT_FOUND', `no invitation with code ${code}`, { code });
  return rec;
}

/** 400 unless the invitation is still PENDING: production's code for a claimed or cancelled one, INVALID_INPUT for an expired one. */
function checkPending(rec: Rec<Invitation>, action: 'claimed' | 'cancelled'): void {
  const { code, status } = rec.data;
  if (status === 'PENDING') return;
  const message = `invitation ${code} is ${status}, not PENDING: it cannot be ${action}`;
  if (status === 'CLAIMED') throw new SandboxError(400, 'INVITATION_ALREADY_CLAIMED', message, { code, status });
  if (status === 'CANCELLED') throw new SandboxError(400, 'INVITATION_CANCELLED', message, { code, status });
  throw new SandboxError(400, 'INVALID_INPUT', message, { field: 'invitationCode', code, status });
}

/**
 * Claims a PENDING invitation for `inviteeUma` (or a made-up invitee, for the sandbox's own control) and
 * sends INVITATION.CLAIMED. Throws a {@link SandboxError}: 404 for an unknown code, 400 when the invitation
 * is no longer PENDING or `inviteeUma` is not an UMA address.
 */
export function claimInvitation(ctx: Ctx, code: string, inviteeUma?: string): Invitation {
  ctx.scheduler.runDue();
  const rec = findInvitation(ctx, code);
  checkPending(rec, 'claimed');
  if (inviteeUma !== undefined && !isUmaAddress(inviteeUma)) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${inviteeUma} is not an UMA address ($user@domain.example)`, { field: 'inviteeUma' });
  }
  rec.data.status = 'CLAIMED';
  rec.data.claimedAt = nowIso(ctx);
  rec.data.inviteeUma = inviteeUma ?? `$${(rec.data.firstName ?? 'invitee').toLowerCase().replace(/[^a-z0-9]+/g, '.')}@wallet.example`;
  ctx.webhooks.emit('INVITATION.CLAIMED', rec.data);
  return structuredClone(rec.data);
}

/** Cancels a PENDING invitation: it can no longer be claimed. Production sends no webhook for it. */
export function cancelInvitation(ctx: Ctx, code: string): Invitation {
  const rec = findInvitation(ctx, code);
  checkPending(rec, 'cancelled');
  rec.data.status = 'CANCELLED';
  return structuredClone(rec.data);
}
