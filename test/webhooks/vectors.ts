/**
 * One set of webhook signature vectors, made with node:crypto, that every verifier must answer alike:
 * `verifyWebhookSignature` on Node (node:crypto), WebCrypto on Node, and each runtime of the matrix
 * (test/runtimes/). Each vector says what it must give: `ok`, or the `WebhookVerificationError` reason.
 * It covers the key forms (PEM, uncompressed hex, compressed 02/03 hex), the signatures ECDSA allows but
 * some libraries refuse (high S, a short and a sign-padded integer), DER that is not strict, and
 * integers out of range.
 */
import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/** A delivery to verify, as plain strings (it travels to other runtimes as JSON). */
export interface SignatureVector {
  name: string;
  /** The key as configured: PEM or hex. */
  key: string;
  body: string;
  /** The X-Service-Signature header (bare base64 DER). */
  header: string;
  /** `ok`, or the reason of the WebhookVerificationError. */
  expect: 'ok' | 'malformed_signature' | 'invalid_signature';
}

// The order n of the P-256 group.
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

const hex = (n: bigint, bytes = 32) => n.toString(16).padStart(bytes * 2, '0');
const uncompressedHex = (key: KeyObject) => Buffer.from(key.export({ format: 'der', type: 'spki' }).subarray(-65)).toString('hex');
const compressedHex = (key: KeyObject) => {
  const point = uncompressedHex(key);
  const y = BigInt(`0x${point.slice(66)}`);
  return `${y & 1n ? '03' : '02'}${point.slice(2, 66)}`;
};

/** Reads a strict DER signature into r and s. */
function readDer(der: Buffer): { r: bigint; s: bigint } {
  const rLen = der[3]!;
  const r = BigInt(`0x${der.subarray(4, 4 + rLen).toString('hex')}`);
  const s = BigInt(`0x${der.subarray(6 + rLen).toString('hex')}`);
  return { r, s };
}

/** A DER INTEGER of a non-negative value, minimal, sign-padded. */
function integer(value: bigint): Buffer {
  let body = Buffer.from(value === 0n ? '00' : hex(value, Math.max(1, Math.ceil(value.toString(16).length / 2))), 'hex');
  while (body.length > 1 && body[0] === 0 && (body[1]! & 0x80) === 0) body = body.subarray(1);
  if (body[0]! & 0x80) body = Buffer.concat([Buffer.of(0), body]);
  return Buffer.concat([Buffer.of(0x02, body.length), body]);
}

/** `SEQUENCE { INTEGER r, INTEGER s }`, strict. */
export function derOf(r: bigint, s: bigint): Buffer {
  const content = Buffer.concat([integer(r), integer(s)]);
  return Buffer.concat([Buffer.of(0x30, content.length), content]);
}

const b64 = (der: Buffer) => der.toString('base64');

/** Builds the vectors (fresh keys each call; every loop bounded). */
export function signatureVectors(): SignatureVector[] {
  const body = JSON.stringify({ id: 'Webhook:vector', type: 'INCOMING_PAYMENT.COMPLETED', timestamp: '2025-10-13T12:00:00Z', data: { id: 'Transaction:1' } });
  const bytes = Buffer.from(body);
  // Keys whose compressed form starts 02 and 03.
  const byParity = new Map<string, { privateKey: KeyObject; publicKey: KeyObject }>();
  for (let i = 0; i < 64 && byParity.size < 2; i++) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    byParity.set(compressedHex(pair.publicKey).slice(0, 2), pair);
  }
  const even = byParity.get('02');
  const odd = byParity.get('03');
  if (!even || !odd) throw new Error('no key of each parity in 64 tries');
  const { privateKey, publicKey } = even;
  const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const signWith = (key: KeyObject, data: Buffer = bytes) => sign('sha256', data, { key, dsaEncoding: 'der' });
  const good = signWith(privateKey);
  const { r, s } = readDer(good);

  // A signature whose r is below 2^248 (its DER INTEGER has 31 bytes or fewer), and one whose r needs the sign pad.
  let shortR: Buffer | undefined;
  let paddedR: Buffer | undefined;
  for (let i = 0; i < 20_000 && !(shortR && paddedR); i++) {
    const der = signWith(privateKey);
    const rLen = der[3]!;
    if (rLen < 32) shortR ??= der;
    if (rLen === 33) paddedR ??= der;
  }
  if (!shortR || !paddedR) throw new Error('no short and padded r in 20,000 signatures');

  const trailing = Buffer.concat([good, Buffer.of(0)]);
  trailing[1] = trailing[1]! + 1; // the SEQUENCE length covers the extra byte: still not one signature
  const rInt = integer(r);
  const nonMinimalR = Buffer.concat([Buffer.of(0x02, rInt[1]! + 1, 0), rInt.subarray(2)]);
  const nonMinimal = Buffer.concat([Buffer.of(0x30, good[1]! + 1), nonMinimalR, integer(s)]);
  const longForm = Buffer.concat([Buffer.of(0x30, 0x81, good[1]!), good.subarray(2)]);
  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
  const flipped = compressedHex(publicKey).replace(/^02/, '03');
  // Sanity of what the vectors claim: the odd key's signature, and the PEM given, are node:crypto's.
  if (compressedHex(createPublicKey(pem)) !== compressedHex(publicKey)) throw new Error('PEM export');

  return [
    { name: 'PEM key', key: pem, body, header: b64(good), expect: 'ok' },
    { name: 'uncompressed hex key', key: uncompressedHex(publicKey), body, header: b64(good), expect: 'ok' },
    { name: 'compressed hex key, 02', key: compressedHex(publicKey), body, header: b64(good), expect: 'ok' },
    { name: 'compressed hex key, 03', key: `0x${compressedHex(odd.publicKey).toUpperCase()}`, body, header: b64(signWith(odd.privateKey)), expect: 'ok' },
    { name: 'compressed key of the other parity', key: flipped, body, header: b64(good), expect: 'invalid_signature' },
    { name: 'high S (n − s)', key: pem, body, header: b64(derOf(r, N - s)), expect: 'ok' },
    { name: 'r below 2^248 (short DER integer)', key: pem, body, header: b64(shortR), expect: 'ok' },
    { name: 'r with the sign pad (33-byte DER integer)', key: pem, body, header: b64(paddedR), expect: 'ok' },
    { name: 'DER with a trailing byte', key: pem, body, header: b64(trailing), expect: 'malformed_signature' },
    { name: 'DER integer with a needless leading zero', key: pem, body, header: b64(nonMinimal), expect: 'malformed_signature' },
    { name: 'DER long-form length', key: pem, body, header: b64(longForm), expect: 'malformed_signature' },
    { name: 'r = 0', key: pem, body, header: b64(derOf(0n, s)), expect: 'invalid_signature' },
    { name: 's = n', key: pem, body, header: b64(derOf(r, N)), expect: 'invalid_signature' },
    { name: 's + n (33 bytes that are not a sign pad)', key: pem, body, header: b64(derOf(r, s + N)), expect: 'malformed_signature' },
    { name: 'body changed', key: pem, body: `${body} `, header: b64(good), expect: 'invalid_signature' },
    { name: 'another key', key: uncompressedHex(otherKey), body, header: b64(good), expect: 'invalid_signature' },
  ];
}
