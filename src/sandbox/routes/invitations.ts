/**
 * Invitations: create one on behalf of a customer, and by code read, claim and cancel it (production's
 * operations; the lifecycle is in domain/invitations.ts).
 * @module
 */
import type { Invitation, InvitationClaimParams, InvitationCreateParams } from '../../generated/types';
import { now, nowIso, type Handler } from '../domain/context';
import { CURRENCIES, currencyObject } from '../domain/currencies';
import { SandboxError, invalidInput } from '../domain/errors';
import { cancelInvitation, claimInvitation, findInvitation } from '../domain/invitations';
import { isUmaAddress } from '../domain/uma';
import { ok } from '../serve/http';

const createInvitation: Handler = (ctx, call) => {
  const body = call.body as InvitationCreateParams;
  if (!isUmaAddress(body.inviterUma)) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${body.inviterUma} is not an UMA address.`, { field: 'inviterUma' });
  }
  const inviter = [...ctx.world.customers.values()].find((c) => !c.data.isDeleted && c.data.umaAddress.toLowerCase() === body.inviterUma.toLowerCase());
  if (!inviter) {
    throw new SandboxError(400, 'INVALID_UMA_ADDRESS', `${body.inviterUma} is not the UMA address of a customer of this platform.`, { field: 'inviterUma' });
  }
  const expiresMs = body.expiresAt === undefined ? undefined : Date.parse(body.expiresAt);
  if (expiresMs !== undefined && expiresMs <= now(ctx)) throw invalidInput('expiresAt', 'expiresAt must be in the future.');
  const code = `INV-${ctx.random.pick('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 6)}`;
  const currency = inviter.data.currencies?.find((c) => CURRENCIES.has(c)) ?? 'USD';
  const data: Invitation = {
    code,
    createdAt: nowIso(ctx),
    url: `https://${ctx.world.config.umaDomain}/invite/${code}`,
    inviterUma: inviter.data.umaAddress,
    status: 'PENDING',
    ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt } : {}),
    ...(body.firstName !== undefined ? { firstName: body.firstName } : {}),
    ...(body.amountToSend !== undefined ? { amountToSend: { amount: body.amountToSend, currency: currencyObject(currency) } } : {}),
  };
  const { seq } = ctx.ids.next('Invitation');
  ctx.world.invitations.set(code, { seq, createdMs: now(ctx), data });
  if (expiresMs !== undefined) {
    const world = ctx.world;
    ctx.scheduler.at(expiresMs, () => {
      if (ctx.world === world && data.status === 'PENDING') data.status = 'EXPIRED';
    });
  }
  return ok(data);
};

const getInvitation: Handler = (ctx, call) => ok(findInvitation(ctx, call.params.invitationCode!).data);

const claim: Handler = (ctx, call) => ok(claimInvitation(ctx, call.params.invitationCode!, (call.body as InvitationClaimParams).inviteeUma));

const cancel: Handler = (ctx, call) => ok(cancelInvitation(ctx, call.params.invitationCode!));

/** The invitation routes. */
export const invitationRoutes = {
  createInvitation,
  getInvitation,
  claimInvitation: claim,
  cancelInvitation: cancel,
} satisfies Record<string, Handler>;
