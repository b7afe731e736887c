import type { APIPromise } from '../core/api-promise';
import type { RequestOptions, SignedRequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { Invitation, InvitationClaimParams, InvitationCreateParams } from '../types';

/** UMA invitations. */
export class Invitations extends APIResource {
  /**
   * Creates an invitation. After `INVITATION.CLAIMED`, the platform must send `amountToSend` itself.
   * @example
   * ```ts
   * const invitation = await cb.invitations.create({
   *   inviterUma: '$ada@platform.example',
   *   firstName: 'Grace',
   *   amountToSend: 2_500, // shown to Grace; you send it once she claims
   * });
   * console.log(invitation.url, invitation.status); // 'PENDING' until claimed
   * ```
   */
  create(params: InvitationCreateParams, options?: SignedRequestOptions): APIPromise<Invitation> {
    return this._client.call(op.createInvitation, { body: params }, options);
  }

  /**
   * Reads an invitation by its code. An unknown code is a `NotFoundError` (`INVITATION_NOT_FOUND`).
   * @example
   * ```ts
   * const invitation = await cb.invitations.retrieve('INV-7Q2K9X');
   * console.log(invitation.status); // 'PENDING', 'CLAIMED', 'EXPIRED' or 'CANCELLED'
   * ```
   */
  retrieve(invitationCode: string, options?: RequestOptions): APIPromise<Invitation> {
    return this._client.call(op.getInvitation, { path: { invitationCode } }, options);
  }

  /**
   * Claims a `PENDING` invitation for the invitee's UMA address: it becomes `CLAIMED` and the inviter's
   * platform receives `INVITATION.CLAIMED`. Claiming it again is a `BadRequestError`
   * (`INVITATION_ALREADY_CLAIMED`; `INVITATION_CANCELLED` once cancelled).
   * @example
   * ```ts
   * const claimed = await cb.invitations.claim('INV-7Q2K9X', { inviteeUma: '$grace@wallet.example' });
   * console.log(claimed.status, claimed.claimedAt); // 'CLAIMED', when
   * ```
   */
  claim(invitationCode: string, params: InvitationClaimParams, options?: SignedRequestOptions): APIPromise<Invitation> {
    return this._client.call(op.claimInvitation, { path: { invitationCode }, body: params }, options);
  }

  /**
   * Cancels a `PENDING` invitation: it can no longer be claimed. One already claimed, cancelled or expired
   * is a `BadRequestError`.
   * @example
   * ```ts
   * const cancelled = await cb.invitations.cancel('INV-7Q2K9X');
   * console.log(cancelled.status); // 'CANCELLED'
   * ```
   */
  cancel(invitationCode: string, options?: SignedRequestOptions): APIPromise<Invitation> {
    return this._client.call(op.cancelInvitation, { path: { invitationCode } }, options);
  }
}
