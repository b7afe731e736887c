import type { APIPromise } from '../core/api-promise';
import type { SignedRequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import * as op from '../generated/operations';
import type { Invitation, InvitationCreateParams } from '../types';

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
}
