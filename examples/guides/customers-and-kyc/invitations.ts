import type { Crossborder } from 'crossborder-sdk';

/** Invites someone to UMA: share `invitation.url` (or its `code`) with them. */
export function invite(cb: Crossborder, inviterUma: string, firstName: string) {
  return cb.invitations.create({ inviterUma, firstName });
}

/** The invitee's side: read the invitation, then claim it with their own UMA address while it is PENDING. */
export async function accept(cb: Crossborder, code: string, inviteeUma: string) {
  const invitation = await cb.invitations.retrieve(code);
  if (invitation.status !== 'PENDING') return invitation; // CLAIMED, EXPIRED or CANCELLED: nothing to do
  return cb.invitations.claim(code, { inviteeUma });
}

/** The inviter takes it back; a claimed invitation can no longer be cancelled. */
export function withdraw(cb: Crossborder, code: string) {
  return cb.invitations.cancel(code);
}
