/**
 * The secure OTP login's crypto against the vendor's own implementation, `@turnkey/crypto` 2.13.2
 * (test-only): a code sealed by `encryptOtp` opens with Turnkey's `hpkeDecrypt`; the local sandbox's
 * target bundles pass Turnkey's `encryptOtpCodeToBundle` (signature check included) and what Turnkey
 * seals opens in the sandbox; its verification tokens pass Turnkey's `verifyOtpVerificationToken`.
 */
import crypto from 'node:crypto';
import { PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY, encryptOtpCodeToBundle, hpkeDecrypt, verifyOtpVerificationToken } from '@turnkey/crypto';
import { describe, expect, it } from 'vitest';
import {
  LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY,
  PRODUCTION_OTP_SIGNER_PUBLIC_KEY,
  createOtpLogin,
  encryptOtp,
  generateClientKeyPair,
  verifyOtpTargetBundle,
} from '../../src/wallet';
import { issueOtpTarget, issueVerificationToken, openOtpAttempt, sandboxOtpEnclaveKey } from '../../src/sandbox/domain/wallet-crypto';
import { WalletCryptoError } from '../../src/core/errors';
import { nodePrivateKey } from './node-reference';

/** A target bundle made with Node's crypto alone (not the SDK's): an independent signer. */
function nodeTargetBundle(opts: { signer?: crypto.ECDH; tamper?: 'data' | 'signature' } = {}) {
  const signer =
    opts.signer ??
    (() => {
      const e = crypto.createECDH('prime256v1');
      e.generateKeys();
      return e;
    })();
  const target = crypto.createECDH('prime256v1');
  target.generateKeys();
  const data = Buffer.from(JSON.stringify({ targetPublic: target.getPublicKey('hex') }));
  const signingKey = crypto.createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: nodePrivateKey(signer).toString('base64url'),
      x: signer.getPublicKey().subarray(1, 33).toString('base64url'),
      y: signer.getPublicKey().subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  let signature = crypto.sign('sha256', data, signingKey).toString('hex'); // DER
  let dataHex = data.toString('hex');
  if (opts.tamper === 'data')
    dataHex = Buffer.from(JSON.stringify({ targetPublic: target.getPublicKey('hex').replace(/.$/, (c) => (c === '0' ? '1' : '0')) })).toString('hex');
  if (opts.tamper === 'signature') signature = signature.slice(0, -2) + (signature.endsWith('00') ? '01' : '00');
  const bundle = JSON.stringify({ version: 'v1.0.0', data: dataHex, dataSignature: signature, enclaveQuorumPublic: signer.getPublicKey('hex') });
  return {
    bundle,
    signerPublicKey: signer.getPublicKey('hex'),
    targetPrivateKey: nodePrivateKey(target).toString('hex'),
    targetPublicKey: target.getPublicKey('hex'),
  };
}

describe('secure OTP login against @turnkey/crypto', () => {
  it("a code sealed by encryptOtp opens with Turnkey's hpkeDecrypt to {otp_code, public_key}", async () => {
    const { bundle, signerPublicKey, targetPrivateKey } = nodeTargetBundle();
    const keyPair = await generateClientKeyPair();
    const sealed = await encryptOtp({ otpEncryptionTargetBundle: bundle, otpCode: '482913', keyPair, signerPublicKey });
    const { encappedPublic, ciphertext } = JSON.parse(sealed) as { encappedPublic: string; ciphertext: string };
    expect(Object.keys(JSON.parse(sealed))).toEqual(['encappedPublic', 'ciphertext']);
    expect(encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
    const plaintext = hpkeDecrypt({
      ciphertextBuf: Buffer.from(ciphertext, 'hex'),
      encappedKeyBuf: Buffer.from(encappedPublic, 'hex'),
      receiverPriv: targetPrivateKey,
    });
    expect(new TextDecoder().decode(plaintext)).toBe(JSON.stringify({ otp_code: '482913', public_key: keyPair.publicKeyCompressed }));
  });

  it("the sandbox target bundle passes Turnkey's signature check, and what Turnkey seals to it opens in the sandbox", async () => {
    const { privateKey, bundle } = issueOtpTarget();
    const keyPair = await generateClientKeyPair();
    const sealed = await encryptOtpCodeToBundle('000000', bundle, keyPair.publicKeyCompressed, LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY);
    expect(await openOtpAttempt(sealed, privateKey)).toEqual({ otpCode: '000000', publicKey: keyPair.publicKeyCompressed });
    // And Turnkey refuses it under its production key, as the SDK does by default.
    await expect(encryptOtpCodeToBundle('000000', bundle, keyPair.publicKeyCompressed)).rejects.toThrow();
    await expect(encryptOtp({ otpEncryptionTargetBundle: bundle, otpCode: '000000', keyPair })).rejects.toThrow(/LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY/);
  });

  it("the sandbox enclave key is the published LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY; the production pin is Turnkey's", async () => {
    expect(sandboxOtpEnclaveKey().publicKeyHex).toBe(LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY);
    expect(PRODUCTION_OTP_SIGNER_PUBLIC_KEY).toBe(PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY);
  });

  it("the sandbox verification token passes Turnkey's verifyOtpVerificationToken with the key it binds", async () => {
    const keyPair = await generateClientKeyPair();
    const token = issueVerificationToken({
      id: 'v-1',
      verificationType: 'OTP_TYPE_EMAIL',
      contact: 'a@b.invalid',
      publicKey: keyPair.publicKeyCompressed,
      expiresMs: Date.now() + 60_000,
    });
    const claims = await verifyOtpVerificationToken(token, LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY);
    expect(claims.public_key).toBe(keyPair.publicKeyCompressed);
    expect(claims.id).toBe('v-1');
  });

  it('createOtpLogin seals the key pair it signs with', async () => {
    const { bundle, signerPublicKey, targetPrivateKey } = nodeTargetBundle();
    const login = await createOtpLogin({ otpEncryptionTargetBundle: bundle, otpCode: '000000', signerPublicKey });
    expect(login.body('SMS_OTP')).toEqual({ type: 'SMS_OTP', encryptedOtpBundle: login.encryptedOtpBundle });
    expect(login.body()).toEqual({ type: 'EMAIL_OTP', encryptedOtpBundle: login.encryptedOtpBundle });
    const { encappedPublic, ciphertext } = JSON.parse(login.encryptedOtpBundle) as { encappedPublic: string; ciphertext: string };
    const plaintext = hpkeDecrypt({
      ciphertextBuf: Buffer.from(ciphertext, 'hex'),
      encappedKeyBuf: Buffer.from(encappedPublic, 'hex'),
      receiverPriv: targetPrivateKey,
    });
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({ otp_code: '000000', public_key: login.publicKey });
    expect(login.publicKey).toBe(login.keyPair.publicKeyCompressed);
  });
});

describe('verifyOtpTargetBundle: what it checks', () => {
  it('returns the target key of a genuine bundle', async () => {
    const { bundle, signerPublicKey, targetPublicKey } = nodeTargetBundle();
    expect(await verifyOtpTargetBundle(bundle, { signerPublicKey: signerPublicKey.toUpperCase() })).toEqual({
      targetPublicKey,
      signerPublicKey,
      version: 'v1.0.0',
    });
  });

  it('refuses a bundle signed by another key than the pinned one, even with a valid signature', async () => {
    const { bundle } = nodeTargetBundle();
    const other = nodeTargetBundle();
    const error = await verifyOtpTargetBundle(bundle, { signerPublicKey: other.signerPublicKey }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletCryptoError);
    expect((error as WalletCryptoError).message).toMatch(/not the pinned signerPublicKey/);
  });

  it('refuses a bundle whose data or signature was changed', async () => {
    for (const tamper of ['data', 'signature'] as const) {
      const { bundle, signerPublicKey } = nodeTargetBundle({ tamper });
      await expect(verifyOtpTargetBundle(bundle, { signerPublicKey }), tamper).rejects.toThrow(/dataSignature does not verify|not a valid DER/);
    }
  });

  it('refuses a bundle naming the pinned key but signed by another (enclaveQuorumPublic swapped in)', async () => {
    const forged = nodeTargetBundle();
    const pinned = nodeTargetBundle();
    const bundle = JSON.stringify({ ...JSON.parse(forged.bundle), enclaveQuorumPublic: pinned.signerPublicKey });
    await expect(verifyOtpTargetBundle(bundle, { signerPublicKey: pinned.signerPublicKey })).rejects.toThrow(/dataSignature does not verify/);
  });

  it('refuses what is not a bundle, without echoing it', async () => {
    for (const bad of ['', 'not json', '[]', '{"data":"zz","dataSignature":"00","enclaveQuorumPublic":"04"}', JSON.stringify({ data: 1 })]) {
      const error = await verifyOtpTargetBundle(bad, { signerPublicKey: LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY }).catch((e: unknown) => e);
      expect(error, bad).toBeInstanceOf(WalletCryptoError);
    }
  });
});
