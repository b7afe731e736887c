import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importSessionKey, sessionKeySigner, stamp, STAMP_SCHEME, WalletCryptoError } from '../../src/wallet';
import { nodeCheckStamp, nodePrivateKey } from './node-reference';

async function freshSessionKey() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return importSessionKey(nodePrivateKey(ecdh).toString('hex'));
}

const PAYLOADS = [
  '{"requestId":"Request:1","type":"REVOKE_SESSION"}',
  'café — 💸',
  'cafe\u0301 (combining acute) and e\u0308\u0323 stacked',
  'line one\r\nline two\n\ttabbed\t',
  'trailing spaces   ',
  '  { "a" :1 ,"b":[ 1,2 ,3 ] ,\n  "c": "x\\u00e9" }  ',
  '',
  '\u0000 nul and \u2028 line separator',
  'x'.repeat(100_000),
];

describe('stamp', () => {
  it('is base64url without padding of {"publicKey","scheme","signature"} in that order', async () => {
    const sessionKey = await freshSessionKey();
    for (let i = 0; i < 20; i++) {
      const value = await stamp(`payload ${i}`, sessionKey);
      expect(value).toMatch(/^[A-Za-z0-9_-]+$/);
      const { json, parsed, verified } = nodeCheckStamp(value, `payload ${i}`);
      expect(verified).toBe(true);
      expect(Object.keys(parsed)).toEqual(['publicKey', 'scheme', 'signature']);
      expect(json).toBe(`{"publicKey":"${sessionKey.publicKey}","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"${parsed.signature}"}`);
      expect(parsed.scheme).toBe(STAMP_SCHEME);
      expect(parsed.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
      expect(parsed.signature).toMatch(/^30[0-9a-f]+$/);
    }
  });

  it.each(PAYLOADS.map((p) => [JSON.stringify(p).slice(0, 40), p]))('signs the exact UTF-8 bytes of %s', async (_, payload) => {
    const sessionKey = await freshSessionKey();
    expect(nodeCheckStamp(await stamp(payload, sessionKey), payload).verified).toBe(true);
  });

  it('does not normalize or re-serialize the payload', async () => {
    const sessionKey = await freshSessionKey();
    const decomposed = 'cafe\u0301';
    const value = await stamp(decomposed, sessionKey);
    expect(nodeCheckStamp(value, decomposed.normalize('NFC')).verified).toBe(false);

    const spaced = '{ "amount" : 100 }';
    const spacedStamp = await stamp(spaced, sessionKey);
    expect(nodeCheckStamp(spacedStamp, spaced).verified).toBe(true);
    expect(nodeCheckStamp(spacedStamp, JSON.stringify(JSON.parse(spaced))).verified).toBe(false);
    expect(nodeCheckStamp(spacedStamp, spaced.trimEnd() + '\n').verified).toBe(false);
  });

  it('refuses a payload that is not a string', async () => {
    const sessionKey = await freshSessionKey();
    await expect(stamp({ a: 1 } as unknown as string, sessionKey)).rejects.toBeInstanceOf(WalletCryptoError);
  });
});

describe('sessionKeySigner', () => {
  const challenge = (expiresAt: string) => ({ payloadToSign: '{"op":"revoke"}', requestId: 'Request:abc', expiresAt });

  it('stamps a live challenge', async () => {
    const sessionKey = await freshSessionKey();
    const signer = sessionKeySigner(sessionKey);
    const value = await signer(challenge(new Date(Date.now() + 300_000).toISOString()));
    expect(nodeCheckStamp(value, '{"op":"revoke"}').verified).toBe(true);
  });

  it('refuses an expired or unreadable challenge without signing', async () => {
    const signer = sessionKeySigner(await freshSessionKey());
    for (const expiresAt of [new Date(Date.now() - 1000).toISOString(), '1970-01-01T00:00:00Z', 'not a date']) {
      const error = await signer(challenge(expiresAt)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WalletCryptoError);
      expect((error as WalletCryptoError).reason).toBe('challenge_expired');
      expect((error as Error).message).toContain('Request:abc');
    }
  });
});
