/**
 * What `cb.auth` does beyond one call of an operation (src/generated/resources.ts gives {@link Credentials} a
 * method for each): `credentials.verify` sends a PASSKEY's `requestId` as its header, and refuses a PASSKEY
 * verify without one.
 * @module
 */
import type { APIPromise } from '../core/api-promise';
import type { CrossborderCore } from '../core/client';
import { ValidationError } from '../core/errors';
import type { SignedRequestOptions } from '../core/options';
import * as op from '../generated/operations';
import type { CredentialVerifyParams, WalletSessionInfo } from '../types';

/** Options of {@link Credentials.verify}. */
export interface VerifyOptions extends SignedRequestOptions {
  /**
   * PASSKEY: the `requestId` answered by {@link Credentials.challenge}, sent as `Request-Id`. With
   * `signature` (secure OTP login, relay mode): the `requestId` of the 202 challenge.
   */
  requestId?: string | undefined;
}

/** `cb.auth.credentials.verify`: a PASSKEY's `requestId` goes as the `Request-Id` header. */
export function verify(
  client: CrossborderCore,
  credentialId: string,
  params: CredentialVerifyParams,
  options?: VerifyOptions | null,
): APIPromise<WalletSessionInfo> {
  // A signature with its requestId is the second leg of the signed retry: the core sends both.
  if (options?.signature !== undefined) return client.call(op.verifyCredential, { path: { id: credentialId }, body: params }, options);
  const { requestId, ...rest } = options ?? {};
  if (params?.type === 'PASSKEY' && !requestId) {
    return client.reject(
      new ValidationError([{ path: 'options.requestId', rule: 'required', message: 'PASSKEY verify needs the requestId answered by challenge()' }]),
    );
  }
  const header = requestId ? { 'Request-Id': requestId } : undefined;
  return client.call(op.verifyCredential, { path: { id: credentialId }, body: params, header }, rest);
}
