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
/** HPKE info of the production session bundle (decisions.md). */
const BUNDLE_INFO = Buffer.from('turnkey_hpke');

const extract = (salt: Buffer, ikm: Buffer) => crypto.createHmac('sha256', salt).update(ikm).digest();
function expand(prk: Buffer, info: Buffer, length: number): Buffer {
  let t = Buffer.alloc(0);
  let out = Buffer.alloc(0);
  for (let i = 1; out.length < length; i++) {
    t = crypto
      .createHmac('sha256', prk)
      .update(Buffer.concat([t, info, Buffer.from([i])]))
      .digest();
    out = Buffer.concat([out, t]);
  }
  return out.subarray(0, length);
}
const labeledExtract = (suite: Buffer, salt: Buffer, label: string, ikm: Buffer) =>
  extract(salt, Buffer.concat([Buffer.from('HPKE-v1'), suite, Buffer.from(label), ikm]));
const labeledExpand = (suite: Buffer, prk: Buffer, label: string, info: Buffer, length: number) =>
  expand(prk, Buffer.concat([I2OSP2(length), Buffer.from('HPKE-v1'), suite, Buffer.from(label), info]), length);

/** AES key and nonce of an HPKE base-mode context, from the RFC. */
function schedule(dh: Buffer, enc: Buffer, pkR: Buffer, info: Buffer): { key: Buffer; nonce: Buffer } {
  const empty = Buffer.alloc(0);
  const eaePrk = labeledExtract(KEM_SUITE, empty, 'eae_prk', dh);
  const sharedSecret = labeledExpand(KEM_SUITE, eaePrk, 'shared_secret', Buffer.concat([enc, pkR]), 32);
  const context = Buffer.concat([
    Buffer.from([0x00]),
    labeledExtract(HPKE_SUITE, empty, 'psk_id_hash', empty),
    labeledExtract(HPKE_SUITE, empty, 'info_hash', info),
  ]);
  const secret = labeledExtract(HPKE_SUITE, sharedSecret, 'secret', empty);
  return { key: labeledExpand(HPKE_SUITE, secret, 'key', context, 32), nonce: labeledExpand(HPKE_SUITE, secret, 'base_nonce', context, 12) };
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Base58check (Bitcoin alphabet, 4-byte double-SHA-256 checksum), written here with BigInt and node:crypto. */
export function nodeBase58check(payload: Buffer): string {
  const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest();
  const data = Buffer.concat([payload, sha(sha(payload)).subarray(0, 4)]);
  let n = BigInt(`0x${data.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of data) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}
function nodeBase58checkDecode(text: string): Buffer {
  let n = 0n;
  for (const c of text) n = n * 58n + BigInt(B58.indexOf(c));
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const zeros = text.length - text.replace(/^1+/, '').length;
  const data = Buffer.concat([Buffer.alloc(zeros), Buffer.from(n === 0n ? '' : hex, 'hex')]);
  const payload = data.subarray(0, -4);
  const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest();
  if (!sha(sha(payload)).subarray(0, 4).equals(data.subarray(-4))) throw new Error('bad base58check checksum');
  return payload;
}

const uncompressedPoint = (key: Buffer) => crypto.ECDH.convertKey(key, 'prime256v1', undefined, undefined, 'uncompressed') as Buffer;

/**
 * The production session bundle (decisions.md), sealed from the RFC with node:crypto: base58check of
 * the compressed `enc` ‖ AES-256-GCM ciphertext ‖ tag; info `turnkey_hpke`; AAD enc ‖ pkR (uncompressed).
 * @param recipientPublicKeyHex compressed or uncompressed.
 */
export function nodeHpkeSeal(recipientPublicKeyHex: string, plaintext: Uint8Array): string {
  const pkR = uncompressedPoint(Buffer.from(recipientPublicKeyHex, 'hex'));
  const ephemeral = crypto.createECDH('prime256v1');
  const enc = ephemeral.generateKeys();
  const { key, nonce } = schedule(ephemeral.computeSecret(pkR), enc, pkR, BUNDLE_INFO);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.concat([enc, pkR]));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return nodeBase58check(Buffer.concat([ephemeral.getPublicKey(undefined, 'compressed'), ct]));
}

/** Opens a production session bundle with a node ECDH key (the recipient): the plaintext bytes. */
export function nodeHpkeOpen(recipient: crypto.ECDH, bundle: string): Buffer {
  const bytes = nodeBase58checkDecode(bundle);
  const enc = uncompressedPoint(bytes.subarray(0, 33));
  const pkR = recipient.getPublicKey();
  const { key, nonce } = schedule(recipient.computeSecret(enc), enc, pkR, BUNDLE_INFO);
  const ct = bytes.subarray(33);
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(Buffer.concat([enc, pkR]));
  decipher.setAuthTag(ct.subarray(ct.length - 16));
  return Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]);
}
