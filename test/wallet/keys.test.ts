import crypto from 'node:crypto';
import util from 'node:util';
import { decryptCredentialBundle } from '@turnkey/crypto';
import { describe, expect, it, vi } from 'vitest';
import { CrossborderError } from '../../src/core/errors';
import { generateClientKeyPair, importSessionKey, SessionKey, stamp, WalletCryptoError } from '../../src/wallet';
import { generateSessionKeyPair, sealSessionKey } from '../../src/sandbox/domain/wallet-crypto';
import { nodeBase58check, nodeCheckStamp, nodeCompressedPublicKey, nodeHpkeOpen, nodeHpkeSeal, nodePrivateKey } from './node-reference';

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

  it('keeps the client private key non-extractable, as ECDH (to open the bundle) and as ECDSA (a client-held session)', async () => {
    const spy = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    try {
      await generateClientKeyPair();
      const imports = spy.mock.calls.filter((c) => (c[0] as string) === 'jwk');
      expect(imports.map((c) => [(c[2] as { name: string }).name, c[3], c[4]])).toEqual([
        ['ECDH', false, ['deriveBits']],
        ['ECDSA', false, ['sign']],
      ]);
      for (const r of spy.mock.results.slice(-2)) expect(((await r.value) as CryptoKey).extractable).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it('gives the compressed public key too, and the key pair itself as a session key', async () => {
    const keyPair = await generateClientKeyPair();
    expect(keyPair.publicKeyCompressed).toBe(crypto.ECDH.convertKey(keyPair.publicKey, 'prime256v1', 'hex', 'hex', 'compressed'));
    const own = keyPair.sessionKey();
    expect(own.publicKey).toBe(keyPair.publicKeyCompressed);
    const checked = nodeCheckStamp(await stamp('client-held', own), 'client-held');
    expect(checked.verified).toBe(true);
    expect(checked.parsed.publicKey).toBe(keyPair.publicKeyCompressed);
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
    expect(JSON.parse(JSON.stringify(keyPair))).toEqual({ publicKey: keyPair.publicKey, publicKeyCompressed: keyPair.publicKeyCompressed });
    expect(Object.isFrozen(keyPair)).toBe(true);
  });
});

describe('decryptSessionKey: the production bundle (base58check, compressed enc, info turnkey_hpke, AAD enc ‖ pkR)', () => {
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

  it('opens a key sealed by an RFC 9180 implementation written on node:crypto (to either public key form)', async () => {
    const keyPair = await generateClientKeyPair();
    for (const recipient of [keyPair.publicKey, keyPair.publicKeyCompressed]) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const sessionKey = await keyPair.decryptSessionKey(nodeHpkeSeal(recipient, nodePrivateKey(ecdh)));
      expect(sessionKey.publicKey).toBe(ecdh.getPublicKey('hex', 'compressed'));
      expect(nodeCheckStamp(await stamp('x', sessionKey), 'x').verified).toBe(true);
    }
  });

  it("the sandbox's bundle opens with node:crypto and with Turnkey's own decryptCredentialBundle (independent implementations)", async () => {
    const device = crypto.createECDH('prime256v1');
    device.generateKeys();
    const { privateKey } = generateSessionKeyPair();
    for (const recipient of [device.getPublicKey('hex'), device.getPublicKey('hex', 'compressed')]) {
      const bundle = await sealSessionKey(recipient, privateKey);
      expect(nodeHpkeOpen(device, bundle).toString('hex')).toBe(hex(privateKey));
      expect(decryptCredentialBundle(bundle, nodePrivateKey(device).toString('hex'))).toBe(hex(privateKey));
    }
  });

  it('a bundle sealed by node:crypto opens with Turnkey too: both sides follow the same format', () => {
    const device = crypto.createECDH('prime256v1');
    device.generateKeys();
    const secret = crypto.randomBytes(32);
    expect(decryptCredentialBundle(nodeHpkeSeal(device.getPublicKey('hex'), secret), nodePrivateKey(device).toString('hex'))).toBe(secret.toString('hex'));
  });

  it('refuses malformed base58check, wrong checksum, short bundles, tampering and the wrong recipient; keeps the cause', async () => {
    const keyPair = await generateClientKeyPair();
    const other = await generateClientKeyPair();
    const privateKey = generateSessionKeyPair().privateKey;
    const sealed = await sealSessionKey(keyPair.publicKey, privateKey);

    await expectWalletError(keyPair.decryptSessionKey('0OIl' + sealed), 'invalid_input'); // not base58
    await expectWalletError(keyPair.decryptSessionKey(sealed.slice(0, -1)), 'invalid_input'); // checksum
    await expectWalletError(keyPair.decryptSessionKey(nodeBase58check(Buffer.alloc(40, 2))), 'invalid_input'); // too short
    await expectWalletError(keyPair.decryptSessionKey(''), 'invalid_input');
    await expectWalletError(keyPair.decryptSessionKey(undefined as unknown as string), 'invalid_input');
    await expectWalletError(keyPair.decryptSessionKey('04' + 'ab'.repeat(112)), 'invalid_input'); // the old hex format
    // One ciphertext bit flipped, with a valid checksum: the AEAD refuses it.
    const bytes = Buffer.from(nodeHpkeOpenPayload(sealed));
    bytes[bytes.length - 1]! ^= 1;
    const tampered = await expectWalletError(keyPair.decryptSessionKey(nodeBase58check(bytes)), 'decrypt_failed');
    expect(tampered.cause).toBeInstanceOf(Error);
    // enc that is not a curve point
    const badEnc = Buffer.from(nodeHpkeOpenPayload(sealed));
    badEnc.fill(0xff, 1, 33);
    await expectWalletError(keyPair.decryptSessionKey(nodeBase58check(badEnc)), 'invalid_input');
    const wrong = await expectWalletError(other.decryptSessionKey(sealed), 'decrypt_failed');
    expect(wrong.message).toMatch(/different clientPublicKey/);
    expect(wrong.message).not.toContain(sealed);
    expect(wrong.message).not.toContain(hex(privateKey));
  });

  it("says so when the runtime's WebCrypto refuses an operation (edge runtime: an ArrayBuffer of another realm), not 'corrupted'", async () => {
    const keyPair = await generateClientKeyPair();
    const sealed = await sealSessionKey(keyPair.publicKey, generateSessionKeyPair().privateKey);
    // What @edge-runtime/vm's WebCrypto throws for an ArrayBuffer made in the edge realm.
    const refusal = () =>
      new TypeError("Failed to execute 'importKey' on 'SubtleCrypto': 2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.");
    for (const method of ['importKey', 'deriveBits', 'sign', 'decrypt'] as const) {
      const spy = vi.spyOn(globalThis.crypto.subtle, method).mockRejectedValueOnce(refusal());
      try {
        const error = await expectWalletError(keyPair.decryptSessionKey(sealed), 'unsupported');
        expect(error.message, method).toContain("this runtime's WebCrypto refused");
        expect(error.message, method).toContain('TypeError: Failed to execute');
        expect(error.message, method).not.toMatch(/corrupted|different clientPublicKey/);
        expect(error.cause, method).toBeInstanceOf(TypeError);
      } finally {
        spy.mockRestore();
      }
    }
    // The same bundle opens once the runtime cooperates; a failed authentication is still decrypt_failed.
    expect((await keyPair.decryptSessionKey(sealed)).publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    const spy = vi
      .spyOn(globalThis.crypto.subtle, 'decrypt')
      .mockRejectedValueOnce(new DOMException('The operation failed for an operation-specific reason', 'OperationError'));
    try {
      const error = await expectWalletError(keyPair.decryptSessionKey(sealed), 'decrypt_failed');
      expect((error.cause as DOMException).name).toBe('OperationError');
    } finally {
      spy.mockRestore();
    }
  });

  it('fails if the info string or the AAD were different (the format is exact)', async () => {
    // A bundle sealed by plain RFC 9180 (empty info, no AAD) is refused: proof the check is not loose.
    const keyPair = await generateClientKeyPair();
    const { privateKey } = generateSessionKeyPair();
    const plain = nodeHpkeSealWith(keyPair.publicKey, privateKey, { info: '', aad: false });
    await expectWalletError(keyPair.decryptSessionKey(plain), 'decrypt_failed');
    await expect(keyPair.decryptSessionKey(nodeHpkeSealWith(keyPair.publicKey, privateKey, { info: 'turnkey_hpke', aad: true }))).resolves.toBeInstanceOf(
      SessionKey,
    );
  });
});

/** The base58check payload of a bundle (compressed enc ‖ ciphertext), via bs58 alphabet math in node-reference. */
function nodeHpkeOpenPayload(bundle: string): Buffer {
  const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const c of bundle) n = n * 58n + BigInt(B58.indexOf(c));
  let h = n.toString(16);
  if (h.length % 2) h = `0${h}`;
  return Buffer.from(h, 'hex').subarray(0, -4);
}

/** node:crypto HPKE seal with a chosen info and with or without the AAD, to show both are checked. */
function nodeHpkeSealWith(recipientHex: string, plaintext: Uint8Array, opts: { info: string; aad: boolean }): string {
  const I2OSP2 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
  const KEM = Buffer.concat([Buffer.from('KEM'), I2OSP2(0x0010)]);
  const SUITE = Buffer.concat([Buffer.from('HPKE'), I2OSP2(0x0010), I2OSP2(0x0001), I2OSP2(0x0002)]);
  const ex = (salt: Buffer, ikm: Buffer) => crypto.createHmac('sha256', salt).update(ikm).digest();
  const exp = (prk: Buffer, info: Buffer, len: number) => {
    let t = Buffer.alloc(0);
    let out = Buffer.alloc(0);
    for (let i = 1; out.length < len; i++)
      out = Buffer.concat([
        out,
        (t = crypto
          .createHmac('sha256', prk)
          .update(Buffer.concat([t, info, Buffer.from([i])]))
          .digest()),
      ]);
    return out.subarray(0, len);
  };
  const lx = (suite: Buffer, salt: Buffer, label: string, ikm: Buffer) => ex(salt, Buffer.concat([Buffer.from('HPKE-v1'), suite, Buffer.from(label), ikm]));
  const le = (suite: Buffer, prk: Buffer, label: string, info: Buffer, n: number) =>
    exp(prk, Buffer.concat([I2OSP2(n), Buffer.from('HPKE-v1'), suite, Buffer.from(label), info]), n);
  const pkR = Buffer.from(recipientHex, 'hex');
  const eph = crypto.createECDH('prime256v1');
  const enc = eph.generateKeys();
  const empty = Buffer.alloc(0);
  const shared = le(KEM, lx(KEM, empty, 'eae_prk', eph.computeSecret(pkR)), 'shared_secret', Buffer.concat([enc, pkR]), 32);
  const ctx = Buffer.concat([Buffer.from([0]), lx(SUITE, empty, 'psk_id_hash', empty), lx(SUITE, empty, 'info_hash', Buffer.from(opts.info))]);
  const secret = lx(SUITE, shared, 'secret', empty);
  const cipher = crypto.createCipheriv('aes-256-gcm', le(SUITE, secret, 'key', ctx, 32), le(SUITE, secret, 'base_nonce', ctx, 12));
  if (opts.aad) cipher.setAAD(Buffer.concat([enc, pkR]));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return nodeBase58check(Buffer.concat([eph.getPublicKey(undefined, 'compressed'), ct]));
}

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
