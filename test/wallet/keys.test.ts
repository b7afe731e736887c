import crypto from 'node:crypto';
import util from 'node:util';
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { describe, expect, it, vi } from 'vitest';
import { CrossborderError } from '../../src/core/errors';
import { generateClientKeyPair, importSessionKey, SessionKey, stamp, WalletCryptoError } from '../../src/wallet';
import { generateSessionKeyPair, sealSessionKey } from '../../src/sandbox/wallet-crypto';
import { nodeCheckStamp, nodeCompressedPublicKey, nodeHpkeSeal, nodePrivateKey } from './node-reference';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function expectWalletError(promise: Promise<unknown>, reason: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletCryptoError);
  expect(error).toBeInstanceOf(CrossborderError);
  expect((error as WalletCryptoError).reason).toBe(reason);
  return error as WalletCryptoError;
}

describe('generateClientKeyPair', () => {
  it('gives the 65-byte uncompressed public key as lower-case hex, on the curve', async () => {
    const keyPair = await generateClientKeyPair();
    expect(keyPair.publicKey).toMatch(/^04[0-9a-f]{128}$/);
    // node accepts it as a P-256 point (throws otherwise).
    expect(crypto.ECDH.convertKey(keyPair.publicKey, 'prime256v1', 'hex', 'hex', 'compressed')).toMatch(/^0[23]/);
  });

  it('keeps the client private key non-extractable', async () => {
    const spy = vi.spyOn(globalThis.crypto.subtle, 'generateKey');
    try {
      await generateClientKeyPair();
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]![1]).toBe(false);
      const pair = (await spy.mock.results[0]!.value) as CryptoKeyPair;
      expect(pair.privateKey.extractable).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it('explains a missing crypto.subtle (insecure browser context)', async () => {
    vi.stubGlobal('crypto', {});
    try {
      const error = await expectWalletError(generateClientKeyPair(), 'unsupported');
      expect(error.message).toMatch(/https/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows nothing but the public key when serialized', async () => {
    const keyPair = await generateClientKeyPair();
    expect(JSON.parse(JSON.stringify(keyPair))).toEqual({ publicKey: keyPair.publicKey });
    expect(Object.isFrozen(keyPair)).toBe(true);
  });
});

describe('decryptSessionKey (HPKE round trip)', () => {
  it('opens a key sealed by the sandbox; signatures verify against the key node derives from the scalar', async () => {
    const keyPair = await generateClientKeyPair();
    const session = generateSessionKeyPair();
    const sessionKey = await keyPair.decryptSessionKey(await sealSessionKey(keyPair.publicKey, session.privateKey));

    const nodePublic = nodeCompressedPublicKey(session.privateKey);
    expect(sessionKey.publicKey).toBe(nodePublic);
    expect(session.publicKeyCompressedHex).toBe(nodePublic);
    const value = await stamp('round trip', sessionKey);
    const checked = nodeCheckStamp(value, 'round trip');
    expect(checked.verified).toBe(true);
    expect(checked.parsed.publicKey).toBe(nodePublic);
  });

  it('opens a key sealed by @hpke/core directly', async () => {
    const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
    const keyPair = await generateClientKeyPair();
    const scalar = crypto.createECDH('prime256v1');
    scalar.generateKeys();
    const privateKey = nodePrivateKey(scalar);
    const recipientPublicKey = await suite.kem.deserializePublicKey(Buffer.from(keyPair.publicKey, 'hex'));
    const { enc, ct } = await suite.seal({ recipientPublicKey }, privateKey);
    const sealed = hex(new Uint8Array(enc)) + hex(new Uint8Array(ct));

    const sessionKey = await keyPair.decryptSessionKey(sealed);
    expect(sessionKey.publicKey).toBe(scalar.getPublicKey('hex', 'compressed'));
  });

  it('opens a key sealed by an RFC 9180 implementation written on node:crypto', async () => {
    const keyPair = await generateClientKeyPair();
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const sessionKey = await keyPair.decryptSessionKey(nodeHpkeSeal(keyPair.publicKey, nodePrivateKey(ecdh)));
    expect(sessionKey.publicKey).toBe(ecdh.getPublicKey('hex', 'compressed'));
    expect(nodeCheckStamp(await stamp('x', sessionKey), 'x').verified).toBe(true);
  });

  it('accepts upper-case hex', async () => {
    const keyPair = await generateClientKeyPair();
    const sealed = await sealSessionKey(keyPair.publicKey, generateSessionKeyPair().privateKey);
    await expect(keyPair.decryptSessionKey(sealed.toUpperCase())).resolves.toBeInstanceOf(SessionKey);
  });

  it('refuses malformed hex, wrong length, tampering and the wrong recipient', async () => {
    const keyPair = await generateClientKeyPair();
    const other = await generateClientKeyPair();
    const privateKey = generateSessionKeyPair().privateKey;
    const sealed = await sealSessionKey(keyPair.publicKey, privateKey);

    await expectWalletError(keyPair.decryptSessionKey('zz' + sealed.slice(2)), 'invalid_input');
    await expectWalletError(keyPair.decryptSessionKey(sealed.slice(1)), 'invalid_input');
    await expectWalletError(keyPair.decryptSessionKey(sealed.slice(0, -2)), 'invalid_input');
    await expectWalletError(keyPair.decryptSessionKey(sealed + '00'), 'invalid_input');
    await expectWalletError(keyPair.decryptSessionKey(''), 'invalid_input');
    await expectWalletError(keyPair.decryptSessionKey(undefined as unknown as string), 'invalid_input');
    const flipped = sealed.slice(0, -1) + (sealed.endsWith('0') ? '1' : '0');
    await expectWalletError(keyPair.decryptSessionKey(flipped), 'decrypt_failed');
    // enc that is not a curve point
    await expectWalletError(keyPair.decryptSessionKey('04' + 'ff'.repeat(64) + sealed.slice(130)), 'decrypt_failed');
    const wrong = await expectWalletError(other.decryptSessionKey(sealed), 'decrypt_failed');
    expect(wrong.message).toMatch(/different clientPublicKey/);
    expect(wrong.message).not.toContain(sealed);
    expect(wrong.message).not.toContain(hex(privateKey));
  });
});

describe('SessionKey', () => {
  it('imports raw key bytes as a non-extractable ECDSA key', async () => {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const sessionKey = await importSessionKey(nodePrivateKey(ecdh).toString('hex'));
    expect(sessionKey.signingKey.extractable).toBe(false);
    expect(sessionKey.signingKey.usages).toEqual(['sign']);
    expect(sessionKey.signingKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    expect(sessionKey.publicKey).toBe(ecdh.getPublicKey('hex', 'compressed'));
    await expect(crypto.subtle.exportKey('jwk', sessionKey.signingKey)).rejects.toThrow();
  });

  it('refuses keys that are not 32-byte scalars in range', async () => {
    await expectWalletError(importSessionKey('00'.repeat(31)), 'invalid_input');
    await expectWalletError(importSessionKey('00'.repeat(32)), 'invalid_input');
    await expectWalletError(importSessionKey('ff'.repeat(32)), 'invalid_input'); // above the group order
    await expectWalletError(importSessionKey('0x' + '11'.repeat(31)), 'invalid_input');
  });

  it('never reveals the private key', async () => {
    const { privateKey } = generateSessionKeyPair();
    const secrets = [hex(privateKey), Buffer.from(privateKey).toString('base64url'), Buffer.from(privateKey).toString('base64')];
    const sessionKey = await importSessionKey(hex(privateKey));
    const views = [
      JSON.stringify(sessionKey),
      util.inspect(sessionKey, { depth: 10, showHidden: true }),
      util.inspect(sessionKey, { depth: 10, showHidden: true, customInspect: false }),
      String(sessionKey),
      JSON.stringify({ ...sessionKey }),
      Buffer.from(await stamp('p', sessionKey), 'base64url').toString('utf8'),
    ];
    for (const view of views) for (const secret of secrets) expect(view).not.toContain(secret);
    expect(Object.keys(sessionKey)).toEqual(['publicKey']);
    expect(util.inspect(sessionKey)).toContain('[redacted]');
  });
});
