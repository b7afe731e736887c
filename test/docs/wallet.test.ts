import { SignatureChallengeError } from 'crossborder-sdk';
import { MAGIC } from 'crossborder-sdk/sandbox';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addCredential, completeAddCredential, finishPasskeyLogin, startPasskeyLogin, verifyEmailCode } from '../../examples/guides/wallet/backend';
import { assertPasskey, createPasskey, finishLogin, signChallenge, startLogin } from '../../examples/guides/wallet/device';
import { makeWalletPrivate, revokeSession } from '../../examples/guides/wallet/signer';
import { delegateCardSigning, refreshSession, stopCardSigning } from '../../examples/guides/wallet/refresh';
import { completeSealedCode, finishOtpLogin, sealCode, sendCode, signVerification, verifySealedCode } from '../../examples/guides/wallet/otp';
import { LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY } from 'crossborder-sdk/wallet';
import { sandboxClient } from './support';

const bytes = (data: ArrayBuffer | ArrayBufferView) =>
  data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
const text = (data: BufferSource) => new TextDecoder().decode(bytes(data));

/** navigator.credentials of a device with one platform authenticator (the sandbox does not check WebAuthn signatures). */
function stubWebAuthn() {
  const rawId = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]).buffer;
  const calls: { create: CredentialCreationOptions[]; get: CredentialRequestOptions[] } = { create: [], get: [] };
  const clientData = (type: string, challenge: BufferSource) =>
    new TextEncoder().encode(JSON.stringify({ type, challenge: Buffer.from(bytes(challenge)).toString('base64url') })).buffer;
  vi.stubGlobal('navigator', {
    credentials: {
      create: async (options: CredentialCreationOptions) => {
        calls.create.push(options);
        return {
          rawId,
          response: {
            clientDataJSON: clientData('webauthn.create', options.publicKey!.challenge),
            attestationObject: new Uint8Array([0xa3, 0x63]).buffer,
            getTransports: () => ['internal'],
          },
        };
      },
      get: async (options: CredentialRequestOptions) => {
        calls.get.push(options);
        return {
          rawId: bytes(options.publicKey!.allowCredentials![0]!.id).slice().buffer,
          response: {
            clientDataJSON: clientData('webauthn.get', options.publicKey!.challenge),
            authenticatorData: new Uint8Array(37).buffer,
            signature: new Uint8Array(70).buffer,
            userHandle: null,
          },
        };
      },
    },
  });
  return { calls, rawId };
}

describe('docs/wallet.md', () => {
  const { sandbox, cb } = sandboxClient();
  beforeEach(() => void stubWebAuthn());
  afterEach(() => vi.unstubAllGlobals());
  afterAll(() => sandbox.close());

  it('EMAIL_OTP first, a passkey through the relay, a passkey login, then signer mode', async () => {
    const webauthn = stubWebAuthn();
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const {
      data: [account],
    } = await cb.internalAccounts.list({ customerId: customer.id });
    const walletId = account!.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');

    // The first credential needs no signature.
    const first = await addCredential(cb, { type: 'EMAIL_OTP', accountId: walletId });
    const otp = first.credential;
    if (!otp) throw new Error('the first credential should answer at once');
    const otpSession = await finishLogin(await verifyEmailCode(cb, otp.id, MAGIC.otp, await startLogin()), otp.id);
    expect(otpSession.credentialId).toBe(otp.id);
    expect(JSON.stringify(otpSession)).not.toMatch(/signingKey|privateKey/);

    // A passkey: relay mode, two legs.
    const registration = Buffer.from('registration-challenge-1').toString('base64url');
    const attestation = await createPasskey(registration, { id: customer.id, name: 'ada@example.com' });
    expect(text(webauthn.calls.create[0]!.publicKey!.challenge)).toBe('registration-challenge-1');
    expect(attestation).toMatchObject({ credentialId: 'AQIDBAUGBwgJCgsMDQ4PEA', transports: ['internal'] });
    const params = { type: 'PASSKEY' as const, accountId: walletId, nickname: 'Ada’s phone', challenge: registration, attestation };
    const { challenge } = await addCredential(cb, params);
    if (!challenge) throw new Error('a second credential needs a signature');
    expect(challenge).toMatchObject({ requestId: expect.any(String), payloadToSign: expect.any(String), expiresAt: expect.any(String) });
    const signed = { signature: await signChallenge(challenge), requestId: challenge.requestId };
    const passkey = await completeAddCredential(cb, params, signed);
    expect(passkey).toMatchObject({ type: 'PASSKEY', credentialId: attestation.credentialId });
    // The requestId was used: the SDK refuses to send it again.
    await expect(completeAddCredential(cb, params, signed)).rejects.toBeInstanceOf(SignatureChallengeError);

    // A passkey login: challenge, assertion on the device, verify with the requestId.
    const started = await startPasskeyLogin(cb, passkey.id, await startLogin());
    const assertion = await assertPasskey(started.challenge, started.passkeyId);
    expect(bytes(webauthn.calls.get[0]!.publicKey!.allowCredentials![0]!.id)).toEqual(new Uint8Array(webauthn.rawId));
    const passkeySession = await finishLogin(await finishPasskeyLogin(cb, passkey.id, assertion, started.requestId), passkey.id);
    expect(passkeySession.credentialId).toBe(passkey.id);

    // Signer mode: the SDK answers the challenge itself.
    const updated = await makeWalletPrivate(cb, walletId, passkeySession);
    expect(updated.privateEnabled).toBe(true);
    await revokeSession(cb, otpSession.id!, signChallenge);
    const { data: sessions } = await cb.auth.sessions.list({ accountId: walletId });
    expect(sessions.map((s) => s.id)).toEqual([passkeySession.id]);
  });

  it('the secure OTP login in relay mode: sealed code, signed verification token, session held by the login key', async () => {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const {
      data: [account],
    } = await cb.internalAccounts.list({ customerId: customer.id });
    const walletId = account!.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');
    const { credential } = await addCredential(cb, { type: 'EMAIL_OTP', accountId: walletId });
    if (!credential) throw new Error('the first credential should answer at once');

    const bundle = await sendCode(cb, credential.id);
    const body = await sealCode(bundle, MAGIC.otp, 'EMAIL_OTP', LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY);
    expect(Object.keys(body)).toEqual(['type', 'encryptedOtpBundle']);
    expect(JSON.stringify(body)).not.toContain(MAGIC.otp); // the code is sealed, not sent
    const first = await verifySealedCode(cb, credential.id, body);
    if (!first.challenge) throw new Error('the secure OTP login answers 202 first');
    const session = await finishOtpLogin(
      await completeSealedCode(cb, credential.id, body, { signature: await signVerification(first.challenge), requestId: first.challenge.requestId }),
      credential.id,
    );
    expect(session.credentialId).toBe(credential.id);
    expect((await cb.auth.sessions.list({ accountId: walletId })).data.map((s) => s.id)).toEqual([session.id]);
    // The session key signs wallet actions.
    expect((await makeWalletPrivate(cb, walletId, session)).privateEnabled).toBe(true);

    // The production pin (the default) refuses the local sandbox's bundle, before anything is sent.
    await expect(sealCode(bundle, MAGIC.otp, 'EMAIL_OTP')).rejects.toThrow(/LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY/);
  });

  it('a refreshed session signs in place of the old one; a delegated key is created with two signatures and revoked without one', async () => {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const {
      data: [account],
    } = await cb.internalAccounts.list({ customerId: customer.id });
    const walletId = account!.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');
    const { credential } = await addCredential(cb, { type: 'EMAIL_OTP', accountId: walletId });
    if (!credential) throw new Error('the first credential should answer at once');
    const session = await finishLogin(await verifyEmailCode(cb, credential.id, MAGIC.otp, await startLogin()), credential.id);

    const refreshed = await refreshSession(cb, session);
    expect(refreshed.id).not.toBe(session.id);
    expect([refreshed.credentialId, refreshed.accountId]).toEqual([credential.id, walletId]);
    expect(Date.parse(refreshed.expiresAt!)).toBeGreaterThanOrEqual(Date.parse(session.expiresAt!));
    await revokeSession(cb, session.id!, refreshed.signer);
    expect((await cb.auth.sessions.list({ accountId: walletId })).data.map((s) => s.id)).toEqual([refreshed.id]);

    const cardId = 'Card:019542f5-b3e7-1d02-0000-000000000010';
    const key = await delegateCardSigning(cb, refreshed, cardId, walletId);
    expect([key.status, key.cardId, key.nickname]).toEqual(['ACTIVE', cardId, 'Card payments']);
    expect(Object.keys(key).sort()).toEqual(['accountId', 'cardId', 'createdAt', 'fundingSourceId', 'id', 'nickname', 'publicKey', 'status', 'updatedAt']);
    await expect(delegateCardSigning(cb, refreshed, cardId, walletId)).rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
    expect((await stopCardSigning(cb, key.id)).status).toBe('REVOKED');
    expect((await delegateCardSigning(cb, refreshed, cardId, walletId)).status).toBe('ACTIVE');
  });
});
