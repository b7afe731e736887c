import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importSessionKey, stamp, STAMP_SCHEME } from '../../src/wallet';
import { nodeHpkeOpen, nodePrivateKey } from './node-reference';
import { generateSessionKeyPair, isValidClientPublicKey, sealSessionKey, verifyStamp } from '../../src/sandbox/domain/wallet-crypto';

const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const encode = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const decode = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, string>;

async function signed(payload: string) {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const sessionKey = await importSessionKey(nodePrivateKey(ecdh).toString('hex'));
  return { sessionKey, value: await stamp(payload, sessionKey), ecdh };
}

describe('verifyStamp', () => {
  it('accepts a stamp over the exact payload and names its key', async () => {
    const { sessionKey, value } = await signed('café — 💸\r\n');
    expect(await verifyStamp(value, 'café — 💸\r\n')).toEqual({ ok: true, publicKey: sessionKey.publicKey });
  });

  it('accepts a stamp made by node:crypto (high-S included: any valid signature)', async () => {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const key = crypto.createPrivateKey({
      key: { kty: 'EC', crv: 'P-256', d: nodePrivateKey(ecdh).toString('base64url'), ...xy(ecdh.getPublicKey()) },
      format: 'jwk',
    });
    const publicKey = ecdh.getPublicKey('hex', 'compressed');
    const p1363 = crypto.sign('sha256', Buffer.from('payload'), { key, dsaEncoding: 'ieee-p1363' });
    const r = BigInt('0x' + p1363.subarray(0, 32).toString('hex'));
    const s = BigInt('0x' + p1363.subarray(32).toString('hex'));
    for (const sValue of [s, N - s]) {
      const der = derFromBigInts(r, sValue);
      const value = encode({ publicKey, scheme: STAMP_SCHEME, signature: der });
      expect(await verifyStamp(value, 'payload')).toEqual({ ok: true, publicKey });
    }
  });

  it('rejects a tampered payload or a stamp from another key', async () => {
    const { value } = await signed('{"amount":100}');
    expect(await verifyStamp(value, '{"amount":1000}')).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await verifyStamp(value, '{"amount": 100}')).toEqual({ ok: false, reason: 'bad_signature' });
    const other = await signed('{"amount":100}');
    const swapped = encode({ ...decode(value), publicKey: other.sessionKey.publicKey });
    expect(await verifyStamp(swapped, '{"amount":100}')).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects the wrong scheme', async () => {
    const { value } = await signed('p');
    const wrong = encode({ ...decode(value), scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' });
    expect(await verifyStamp(wrong, 'p')).toEqual({ ok: false, reason: 'bad_scheme' });
  });

  it('rejects garbage as malformed', async () => {
    const { value } = await signed('p');
    const parts = decode(value);
    const garbage = [
      '',
      'not base64!!',
      value + '=',
      encode('a string'),
      encode([parts]),
      Buffer.from('{"publicKey":').toString('base64url'),
      Buffer.from([0xff, 0xfe]).toString('base64url'),
      encode({ ...parts, extra: 1 }),
      encode({ publicKey: parts.publicKey, scheme: parts.scheme }),
      encode({ ...parts, signature: 'zz' }),
      encode({ ...parts, signature: parts.signature!.slice(0, -2) }),
      encode({ ...parts, publicKey: '02' + 'ff'.repeat(32) }), // x beyond the field
      encode({ ...parts, publicKey: '05' + parts.publicKey!.slice(2) }),
      encode({ ...parts, publicKey: parts.publicKey!.slice(2) }),
    ];
    for (const g of garbage) expect(await verifyStamp(g, 'p'), g).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('sealSessionKey and isValidClientPublicKey', () => {
  it('checks the client public key is a point on the curve, compressed or uncompressed', () => {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    expect(isValidClientPublicKey(ecdh.getPublicKey('hex'))).toBe(true);
    expect(isValidClientPublicKey(ecdh.getPublicKey('hex').toUpperCase())).toBe(true);
    expect(isValidClientPublicKey(ecdh.getPublicKey('hex', 'compressed'))).toBe(true);
    expect(isValidClientPublicKey('04' + '00'.repeat(64))).toBe(false);
    expect(isValidClientPublicKey('05' + ecdh.getPublicKey('hex', 'compressed').slice(2))).toBe(false);
    const bad = ecdh.getPublicKey();
    bad[64] = bad[64]! ^ 1;
    expect(isValidClientPublicKey(bad.toString('hex'))).toBe(false);
    expect(isValidClientPublicKey('hello')).toBe(false);
  });

  it('refuses an invalid client key or a private key of the wrong size', async () => {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    await expect(sealSessionKey('04' + '11'.repeat(64), generateSessionKeyPair().privateKey)).rejects.toThrow(/clientPublicKey/);
    await expect(sealSessionKey(ecdh.getPublicKey('hex'), new Uint8Array(31))).rejects.toThrow(/32 bytes/);
  });

  it('produces base58check of compressed enc (33) ‖ ct (32 + 16), fresh each time', async () => {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const { privateKey } = generateSessionKeyPair();
    const a = await sealSessionKey(ecdh.getPublicKey('hex'), privateKey);
    const b = await sealSessionKey(ecdh.getPublicKey('hex'), privateKey);
    expect(a).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
    expect(a).not.toBe(b);
    expect(nodeHpkeOpen(ecdh, a).equals(Buffer.from(privateKey))).toBe(true);
  });
});

function xy(uncompressed: Buffer) {
  return { x: uncompressed.subarray(1, 33).toString('base64url'), y: uncompressed.subarray(33).toString('base64url') };
}

/** Independent DER writer (hex) for the test, from bigints. */
function derFromBigInts(r: bigint, s: bigint): string {
  const int = (v: bigint) => {
    let h = v.toString(16);
    if (h.length % 2) h = '0' + h;
    if (parseInt(h.slice(0, 2), 16) & 0x80) h = '00' + h;
    return '02' + (h.length / 2).toString(16).padStart(2, '0') + h;
  };
  const body = int(r) + int(s);
  return '30' + (body.length / 2).toString(16).padStart(2, '0') + body;
}
