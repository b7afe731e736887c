/**
 * Independent references built on node:crypto only (no SDK code), so the tests check the wallet
 * against the spec rather than against itself.
 */
import crypto from 'node:crypto';

/** A node KeyObject for a compressed (33-byte hex) P-256 public key. */
export function nodePublicKey(compressedHex: string): crypto.KeyObject {
  const uncompressed = crypto.ECDH.convertKey(compressedHex, 'prime256v1', 'hex', undefined, 'uncompressed') as Buffer;
  return crypto.createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: uncompressed.subarray(1, 33).toString('base64url'),
      y: uncompressed.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
}

/** Node's view of a stamp: its JSON text, parsed object, and whether the DER signature verifies. */
export function nodeCheckStamp(stampValue: string, payload: string) {
  const json = Buffer.from(stampValue, 'base64url').toString('utf8');
  const parsed = JSON.parse(json) as { publicKey: string; scheme: string; signature: string };
  const verified = crypto.verify(
    'sha256',
    Buffer.from(payload, 'utf8'),
    { key: nodePublicKey(parsed.publicKey), dsaEncoding: 'der' },
    Buffer.from(parsed.signature, 'hex'),
  );
  return { json, parsed, verified };
}

/**
 * The 32-byte private scalar of a node ECDH key. `getPrivateKey()` drops leading zero bytes, so
 * about one key in 256 would otherwise come out 31 bytes long.
 */
export function nodePrivateKey(ecdh: crypto.ECDH): Buffer {
  const raw = ecdh.getPrivateKey();
  return Buffer.concat([Buffer.alloc(32 - raw.length), raw]);
}

/** Compressed public key (hex) of a raw P-256 private scalar, per node. */
export function nodeCompressedPublicKey(privateKey: Uint8Array): string {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey));
  return ecdh.getPublicKey('hex', 'compressed');
}

const I2OSP2 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const KEM_SUITE = Buffer.concat([Buffer.from('KEM'), I2OSP2(0x0010)]);
// DHKEM(P-256, HKDF-SHA256)=0x0010, HKDF-SHA256=0x0001, AES-256-GCM=0x0002 (RFC 9180 §7).
const HPKE_SUITE = Buffer.concat([Buffer.from('HPKE'), I2OSP2(0x0010), I2OSP2(0x0001), I2OSP2(0x0002)]);

const extract = (salt: Buffer, ikm: Buffer) => crypto.createHmac('sha256', salt).update(ikm).digest();
function expand(prk: Buffer, info: Buffer, length: number): Buffer {
  let t = Buffer.alloc(0);
  let out = Buffer.alloc(0);
  for (let i = 1; out.length < length; i++) {
    t = crypto.createHmac('sha256', prk).update(Buffer.concat([t, info, Buffer.from([i])])).digest();
    out = Buffer.concat([out, t]);
  }
  return out.subarray(0, length);
}
const labeledExtract = (suite: Buffer, salt: Buffer, label: string, ikm: Buffer) =>
  extract(salt, Buffer.concat([Buffer.from('HPKE-v1'), suite, Buffer.from(label), ikm]));
const labeledExpand = (suite: Buffer, prk: Buffer, label: string, info: Buffer, length: number) =>
  expand(prk, Buffer.concat([I2OSP2(length), Buffer.from('HPKE-v1'), suite, Buffer.from(label), info]), length);

/** RFC 9180 base-mode single-shot seal, written from the RFC with node:crypto: hex of enc ‖ ct. */
export function nodeHpkeSeal(recipientPublicKeyHex: string, plaintext: Uint8Array): string {
  const empty = Buffer.alloc(0);
  const pkR = Buffer.from(recipientPublicKeyHex, 'hex');
  const ephemeral = crypto.createECDH('prime256v1');
  const enc = ephemeral.generateKeys();
  const dh = ephemeral.computeSecret(pkR);
  const eaePrk = labeledExtract(KEM_SUITE, empty, 'eae_prk', dh);
  const sharedSecret = labeledExpand(KEM_SUITE, eaePrk, 'shared_secret', Buffer.concat([enc, pkR]), 32);
  const context = Buffer.concat([
    Buffer.from([0x00]),
    labeledExtract(HPKE_SUITE, empty, 'psk_id_hash', empty),
    labeledExtract(HPKE_SUITE, empty, 'info_hash', empty),
  ]);
  const secret = labeledExtract(HPKE_SUITE, sharedSecret, 'secret', empty);
  const key = labeledExpand(HPKE_SUITE, secret, 'key', context, 32);
  const nonce = labeledExpand(HPKE_SUITE, secret, 'base_nonce', context, 12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return Buffer.concat([enc, ct]).toString('hex');
}
