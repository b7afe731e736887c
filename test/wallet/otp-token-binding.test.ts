/**
 * The secure OTP login's signer signs a verification token only when its `public_key` claim is the
 * login's own public key: a relayed or altered 202 challenge naming another key is refused on the
 * device (WalletCryptoError `invalid_input`), before anything is signed. Other claims are not checked.
 */
import { describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/index';
import { createSandbox } from '../../src/sandbox/index';
import { issueOtpTarget, issueVerificationToken, verifyStamp } from '../../src/sandbox/domain/wallet-crypto';
import { LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY, WalletCryptoError, createOtpLogin, generateClientKeyPair } from '../../src/wallet/index';
import { b64url } from '../helpers/encoding';

const signerPublicKey = LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY;
/** An unsigned-looking JWT with the given claims (the device does not check the enclave signature). */
const jwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'ES256', typ: 'JWT' })}.${b64url(claims)}.c2lnbmF0dXJl`;
const challengeOf = (payloadToSign: string) => ({
  payloadToSign,
  requestId: 'req-1',
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  type: 'EMAIL_OTP',
});
const tokenFor = (publicKey: string) =>
  issueVerificationToken({ id: 'v-1', verificationType: 'OTP_TYPE_EMAIL', contact: 'a@b.invalid', publicKey, expiresMs: Date.now() + 60_000 });

async function newLogin() {
  return createOtpLogin({ otpEncryptionTargetBundle: issueOtpTarget().bundle, otpCode: '000000', signerPublicKey });
}

describe('OTP login signer: the verification token must name the login key', () => {
  it('refuses a token (signed by the enclave) whose public_key is another key, compressed or uncompressed', async () => {
    const login = await newLogin();
    const other = await generateClientKeyPair();
    for (const key of [other.publicKeyCompressed, other.publicKey, other.publicKey.toUpperCase()]) {
      const error = await login.signer(challengeOf(tokenFor(key))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WalletCryptoError);
      expect(error).toMatchObject({ reason: 'invalid_input' });
      expect((error as Error).message).toContain('verificationToken.public_key');
      expect((error as Error).message).toContain('req-1');
    }
  });

  it('refuses a payload with no public_key claim, a non-string one, or no token at all', async () => {
    const login = await newLogin();
    const { public_key: _, ...claims } = {
      id: 'v',
      verification_type: 'OTP_TYPE_EMAIL',
      contact: 'c',
      organization_id: 'o',
      public_key: login.publicKey,
      exp: String(Date.now() + 60_000),
    };
    for (const payload of [
      jwt(claims),
      jwt({ ...claims, public_key: 42 }),
      jwt({ ...claims, public_key: '' }),
      'not a token',
      '{"verificationToken":1}',
      'a.b',
      'a.!!!.c',
    ]) {
      const error = await login.signer(challengeOf(payload)).catch((e: unknown) => e);
      expect(error, payload).toBeInstanceOf(WalletCryptoError);
      expect(error).toMatchObject({ reason: 'invalid_input' });
      expect((error as Error).message).toContain('verificationToken.public_key');
    }
  });

  it('signs its own token in every form: compressed or uncompressed claim, either case, padded segment, JSON-wrapped; other claims unchecked', async () => {
    const login = await newLogin();
    const sandboxToken = tokenFor(login.publicKey);
    const [h, c, s] = jwt({ public_key: login.keyPair.publicKey }).split('.');
    const payloads = [
      sandboxToken,
      tokenFor(login.keyPair.publicKey),
      tokenFor(login.publicKey.toUpperCase()),
      `${h}.${c}${'='.repeat((4 - (c!.length % 4)) % 4)}.${s}`,
      JSON.stringify({ verificationToken: sandboxToken }),
      jwt({ public_key: login.publicKey }), // no exp, id or anything else: the service judges those
    ];
    for (const payload of payloads) {
      const stampValue = await login.signer(challengeOf(payload));
      expect(await verifyStamp(stampValue, payload), payload).toEqual({ ok: true, publicKey: login.publicKey });
    }
  });

  it('through the SDK (in-process sandbox): a 202 altered to name another key is refused and opens no session; unaltered, the login succeeds', async () => {
    const sandbox = createSandbox();
    try {
      const other = await generateClientKeyPair();
      let tamper = true;
      const tampered: string[] = [];
      const fetchThrough: typeof sandbox.fetch = async (input, init) => {
        const response = await sandbox.fetch(input, init);
        if (!tamper || response.status !== 202) return response;
        const body = (await response.json()) as Record<string, unknown>;
        body.payloadToSign = tokenFor(other.publicKeyCompressed);
        tampered.push(String(body.requestId));
        return new Response(JSON.stringify(body), {
          status: 202,
          headers: { 'content-type': 'application/json', 'x-request-id': response.headers.get('x-request-id') ?? 'x' },
        });
      };
      const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', fetch: fetchThrough });
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
      const {
        data: [account],
      } = await cb.internalAccounts.list({ customerId: customer.id });
      const walletId = account!.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');
      const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });

      const login = await createOtpLogin({ otpEncryptionTargetBundle: credential.otpEncryptionTargetBundle!, otpCode: '000000', signerPublicKey });
      const error = await cb.auth.credentials.verify(credential.id, login.body(), { signer: login.signer }).catch((e: unknown) => e);
      expect(tampered).toHaveLength(1);
      expect(error).toBeInstanceOf(WalletCryptoError);
      expect(error).toMatchObject({ reason: 'invalid_input' });
      expect((await cb.auth.sessions.list({ accountId: walletId })).data).toEqual([]);

      tamper = false;
      sandbox.clock.advance(31_000);
      const fresh = await cb.auth.credentials.challenge(credential.id);
      const again = await createOtpLogin({
        otpEncryptionTargetBundle: (fresh as { otpEncryptionTargetBundle: string }).otpEncryptionTargetBundle,
        otpCode: '000000',
        signerPublicKey,
      });
      const answer = await cb.auth.credentials.verify(credential.id, again.body(), { signer: again.signer });
      expect((await again.session(answer, credential.id)).publicKey).toBe(again.publicKey);
      expect((await cb.auth.sessions.list({ accountId: walletId })).data.map((s) => s.id)).toEqual([answer.id]);
    } finally {
      await sandbox.close();
    }
  });
});
