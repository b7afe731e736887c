/**
 * The secure OTP login (issue 27, production's form) and the spec's OTP flow, through the SDK and
 * `crossborder-sdk/wallet`, against the sandbox in process and over HTTP: real HPKE to the sandbox's
 * signed target bundle, the 202 verification token signed by the login's key pair (signer and relay
 * modes), the session whose key is that key pair; `/challenge` without `clientPublicKey`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, Crossborder, SignatureRequiredError } from '../../src/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import { LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY, createOtpLogin, generateClientKeyPair, sessionKeySigner, WalletSession } from '../../src/wallet/index';

const signerPublicKey = LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY;
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, string>;

for (const transport of ['in process', 'HTTP'] as const) {
  describe(`secure OTP login against the sandbox (${transport})`, () => {
    let sandbox: Sandbox;
    let server: SandboxServer | undefined;
    let cb: Crossborder;
    beforeAll(async () => {
      sandbox = createSandbox();
      if (transport === 'HTTP') {
        server = await sandbox.listen();
        cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', baseUrl: server.url });
      } else {
        cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', fetch: sandbox.fetch });
      }
    });
    afterAll(() => sandbox.close());

    async function wallet() {
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
      const {
        data: [account],
      } = await cb.internalAccounts.list({ customerId: customer.id });
      return account!.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');
    }

    it('EMAIL_OTP: sealed code, 202 signed by the login key (signer mode), session held by that key; then SMS_OTP in relay mode', async () => {
      const walletId = await wallet();
      const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
      expect(credential.otpEncryptionTargetBundle).toEqual(expect.any(String));

      const login = await createOtpLogin({ otpEncryptionTargetBundle: credential.otpEncryptionTargetBundle!, otpCode: '000000', signerPublicKey });
      const challenges: string[] = [];
      const answer = await cb.auth.credentials.verify(credential.id, login.body('EMAIL_OTP'), {
        signer: async (challenge) => {
          challenges.push(challenge.payloadToSign);
          return login.signer(challenge);
        },
      });
      // One 202, whose payloadToSign is the verification token bound to the login's public key.
      expect(challenges).toHaveLength(1);
      expect(claimsOf(challenges[0]!)).toMatchObject({ public_key: login.publicKey, verification_type: 'OTP_TYPE_EMAIL' });
      expect(answer).toMatchObject({ accountId: walletId, type: 'EMAIL_OTP' });
      expect(answer.id).toMatch(/^Session:/);
      expect(answer.encryptedSessionSigningKey).toBeUndefined();
      const session = await login.session(answer, credential.id);
      expect(session.publicKey).toBe(login.publicKey);
      expect((await cb.auth.sessions.list({ accountId: walletId })).data.map((s) => s.id)).toEqual([answer.id]);

      // The session signs wallet actions: add an SMS_OTP credential (signed create).
      const sms = await cb.auth.credentials.create({ type: 'SMS_OTP', accountId: walletId, phoneNumber: '+14155550123' }, { signer: session.signer });
      expect(sms).toMatchObject({ type: 'SMS_OTP', nickname: '+14155550123' });
      const smsLogin = await createOtpLogin({ otpEncryptionTargetBundle: sms.otpEncryptionTargetBundle!, otpCode: '000000', signerPublicKey });

      // Relay mode: the challenge goes to the device, the signature comes back.
      const required = await cb.auth.credentials.verify(sms.id, smsLogin.body('SMS_OTP')).catch((e: unknown) => e);
      expect(required).toBeInstanceOf(SignatureRequiredError);
      const challenge = (required as SignatureRequiredError).challenge;
      expect(claimsOf(challenge.payloadToSign)).toMatchObject({ public_key: smsLogin.publicKey, verification_type: 'OTP_TYPE_SMS' });
      const signature = await smsLogin.signer(challenge);
      const smsAnswer = await cb.auth.credentials.verify(sms.id, smsLogin.body('SMS_OTP'), { signature, requestId: challenge.requestId });
      expect(smsAnswer).toMatchObject({ type: 'SMS_OTP', accountId: walletId });
      expect((await smsLogin.session(smsAnswer, sms.id)).publicKey).toBe(smsLogin.publicKey);
    });

    it('refuses a wrong code, a code sealed to a replaced bundle, a used bundle, and a repeat signed by another key', async () => {
      const walletId = await wallet();
      const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
      const bundle = credential.otpEncryptionTargetBundle!;

      const wrong = await createOtpLogin({ otpEncryptionTargetBundle: bundle, otpCode: '123456', signerPublicKey });
      await expect(cb.auth.credentials.verify(credential.id, wrong.body(), { signer: wrong.signer })).rejects.toBeInstanceOf(AuthenticationError);

      // Signed by another key than the one sealed with the code: refused, and no session.
      const good = await createOtpLogin({ otpEncryptionTargetBundle: bundle, otpCode: '000000', signerPublicKey });
      const intruder = await generateClientKeyPair();
      // (a bare session-key signer: the login's own signer would refuse a token naming another key first)
      const error = await cb.auth.credentials.verify(credential.id, good.body(), { signer: sessionKeySigner(intruder.sessionKey()) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', details: { reason: 'key_mismatch' } });
      expect((await cb.auth.sessions.list({ accountId: walletId })).data).toEqual([]);

      // That first leg spent the bundle (one code, one bundle): a fresh code needs /challenge.
      const again = await createOtpLogin({ otpEncryptionTargetBundle: bundle, otpCode: '000000', signerPublicKey });
      await expect(cb.auth.credentials.verify(credential.id, again.body(), { signer: again.signer })).rejects.toBeInstanceOf(AuthenticationError);
      const first = await cb.auth.credentials.challenge(credential.id);
      sandbox.clock.advance(31_000);
      const second = await cb.auth.credentials.challenge(credential.id, {});
      expect('otpEncryptionTargetBundle' in first && 'otpEncryptionTargetBundle' in second).toBe(true);
      const stale = await createOtpLogin({
        otpEncryptionTargetBundle: (first as { otpEncryptionTargetBundle: string }).otpEncryptionTargetBundle,
        otpCode: '000000',
        signerPublicKey,
      });
      await expect(cb.auth.credentials.verify(credential.id, stale.body(), { signer: stale.signer })).rejects.toBeInstanceOf(AuthenticationError);
      const fresh = await createOtpLogin({
        otpEncryptionTargetBundle: (second as { otpEncryptionTargetBundle: string }).otpEncryptionTargetBundle,
        otpCode: '000000',
        signerPublicKey,
      });
      const answer = await cb.auth.credentials.verify(credential.id, fresh.body(), { signer: fresh.signer });
      expect((await fresh.session(answer, credential.id)).publicKey).toBe(fresh.publicKey);
    });

    it("the spec's EMAIL_OTP flow is unchanged: code and clientPublicKey, the session key sealed to it", async () => {
      const walletId = await wallet();
      const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
      const keyPair = await generateClientKeyPair();
      const answer = await cb.auth.credentials.verify(
        credential.id,
        { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: keyPair.publicKey },
        {
          signer: async () => {
            throw new Error('no 202 in the spec flow');
          },
        },
      );
      expect(answer.encryptedSessionSigningKey).toEqual(expect.any(String));
      const session = await WalletSession.fromVerify(answer, keyPair, credential.id);
      expect(session.publicKey).not.toBe(keyPair.publicKeyCompressed);
    });

    it('/challenge without clientPublicKey is sent: OTP answers a fresh bundle, PASSKEY is refused by the service, not the SDK', async () => {
      const walletId = await wallet();
      const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
      const answer = await cb.auth.credentials.challenge(credential.id, {});
      expect(answer).toMatchObject({ id: credential.id, type: 'EMAIL_OTP', otpEncryptionTargetBundle: expect.any(String) });

      const keyPair = await generateClientKeyPair();
      const login = await createOtpLogin({
        otpEncryptionTargetBundle: (answer as { otpEncryptionTargetBundle: string }).otpEncryptionTargetBundle,
        otpCode: '000000',
        signerPublicKey,
        keyPair,
      });
      const session = await login.session(await cb.auth.credentials.verify(credential.id, login.body(), { signer: login.signer }), credential.id);
      const passkey = await cb.auth.credentials.create(
        { type: 'PASSKEY', accountId: walletId, challenge: 'cmVn', attestation: { credentialId: 'Y3JlZA', clientDataJson: 'e30', attestationObject: 'o2M' } },
        { signer: session.signer },
      );
      const refused = await cb.auth.credentials.challenge(passkey.id, {}).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(BadRequestError);
      expect((refused as BadRequestError).status).toBe(400);
      expect(refused).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'clientPublicKey' } });
    });
  });
}
