/**
 * The service's own header form, `{"v":"1","s":"<base64>"}`, is read without JSON.parse or a regular
 * expression (src/webhooks/verify.ts `parseSignatureHeader`), its signature decoded where it stands in the
 * header and its DER checked into bytes the module keeps. Every verdict must be the one the general JSON
 * reading gives: the same header with a space after the comma never takes the fast path, so it is the oracle.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature, type WebhookKeyPair } from '../../src/webhooks/index';
import { base64ToBytes, derToP1363 } from '../../src/webhooks/encoding';
import { rejection, signedDelivery, testKeys } from './helpers';

let keys: WebhookKeyPair;
beforeAll(async () => {
  keys = await testKeys();
});

/** What verifying gives: the verified text, or the refusal's reason and message. */
async function verdict(body: string, header: string): Promise<string> {
  try {
    return `ok ${new TextDecoder().decode(await verifyWebhookSignature(body, { 'x-service-signature': header }, keys.publicKeyPem))}`;
  } catch (error) {
    const err = error as { reason?: string; message: string };
    return `${err.reason} ${err.message}`;
  }
}

const canonical = (s: string) => `{"v":"1","s":"${s}"}`;
const spaced = (s: string) => `{"v":"1", "s":"${s}"}`;

describe('the canonical signature header, read without JSON.parse', () => {
  it('gives the JSON reading’s verdict for the valid signature and for each kind of damage to it', async () => {
    const { body, signature } = await signedDelivery();
    const bare = signature.replace(/=+$/, '');
    const inners = [
      signature,
      bare, // padding omitted
      `${signature}=`, // too much padding
      signature.slice(0, 10) + '=' + signature.slice(11), // '=' inside
      signature.slice(0, -4), // DER cut short: base64, not DER
      signature.replace(/^./, (c) => (c === 'M' ? 'N' : 'M')), // DER tag changed
      `${signature.slice(0, 5)}-${signature.slice(6)}`, // base64url character
      `${signature.slice(0, 5)}\\u0041${signature.slice(6)}`, // a JSON escape: decoded by JSON.parse only
      `${signature.slice(0, 5)} ${signature.slice(6)}`, // inner space
      ` ${signature} `, // spaces around, which the JSON reading trims
      'A'.repeat(101), // longer than any P-256 signature
      'A'.repeat(100),
      '',
      `${signature}","x":"y`, // another field after s
    ];
    for (const inner of inners) {
      expect(await verdict(body, canonical(inner)), inner).toBe(await verdict(body, spaced(inner)));
    }
    expect(await verdict(body, canonical(signature))).toBe(`ok ${body}`);
  });

  it('refuses a header cut to its quotes after a valid delivery left its bytes behind', async () => {
    const { body, headers } = await signedDelivery();
    await verifyWebhookSignature(body, headers, keys.publicKeyPem);
    for (const header of ['{"v":"1","s":"}', '{"v":"1","s":""}', '{"v":"1","s":"', '"}']) {
      const err = await rejection(() => verifyWebhookSignature(body, { 'x-service-signature': header }, keys.publicKeyPem));
      expect(err.reason, header).toBe('malformed_signature');
    }
  });

  it('gives the JSON reading’s verdict for any text between the quotes', async () => {
    const { body, signature } = await signedDelivery();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ "\\{}';
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 110 }),
          // the valid signature with one character changed, dropped or added
          fc
            .tuple(fc.nat(signature.length - 1), fc.constantFrom(...alphabet), fc.constantFrom('set', 'drop', 'add'))
            .map(([at, c, how]) => signature.slice(0, at) + (how === 'drop' ? '' : c) + signature.slice(how === 'add' ? at : at + 1)),
        ),
        async (inner) => {
          expect(await verdict(body, canonical(inner))).toBe(await verdict(body, spaced(inner)));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('base64ToBytes over part of a text, derToP1363 into kept bytes', () => {
  it('decodes text.slice(from, to) without the slice, with the same answer', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'QUJDRA==+/x-'), maxLength: 24 }), fc.nat(24), fc.nat(24), (text, a, b) => {
        const from = Math.min(a, b, text.length);
        const to = Math.min(Math.max(a, b), text.length);
        const into = new Uint8Array(32).fill(0xee);
        expect(base64ToBytes(text, into, from, to)).toEqual(base64ToBytes(text.slice(from, to)));
      }),
      { numRuns: 500 },
    );
    // A range that ends before it starts is no text, not a view of whatever the bytes held.
    expect(base64ToBytes('QUJDRA==', new Uint8Array(32).fill(0x30), 5, 3)).toBeUndefined();
  });

  it('writes r‖s into dirty bytes exactly as into fresh ones (short integers left-padded with zeros)', () => {
    // r and s of 1 and 31 bytes: most of the output is padding.
    const der = Uint8Array.of(0x30, 0x24, 0x02, 0x01, 0x05, 0x02, 0x1f, ...new Array(31).fill(0x11));
    const into = new Uint8Array(64).fill(0xff);
    const fresh = derToP1363(der)!;
    expect(fresh[31]).toBe(5);
    expect(fresh[0]).toBe(0);
    expect(derToP1363(der, into)).toBe(into);
    expect(into).toEqual(fresh);
  });
});

/** The bit-by-bit decoder base64ToBytes had before it read four characters at a time: the reference. */
function referenceBase64(text: string): Uint8Array | undefined {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let bare = text.length;
  if (bare > 0 && text.charCodeAt(bare - 1) === 0x3d) bare--;
  if (bare > 0 && text.charCodeAt(bare - 1) === 0x3d) bare--;
  if ((bare !== text.length && text.length % 4 !== 0) || bare % 4 === 1) return undefined;
  const out = new Uint8Array((bare * 3) >> 2);
  let at = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < bare; i++) {
    const value = alphabet.indexOf(text[i]!);
    if (value < 0 || text.charCodeAt(i) > 127) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (buffer >> bits) & 0xff;
    }
  }
  return (buffer & ((1 << bits) - 1)) === 0 ? out : undefined;
}

describe('base64ToBytes, four characters at a time', () => {
  it('answers as the bit-by-bit reference for any text, and round-trips any bytes', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=', '-', ' ', 'é', '\u0100', '\u01c1', '\uffff'),
          maxLength: 40,
        }),
        (text) => {
          expect(base64ToBytes(text)).toEqual(referenceBase64(text));
        },
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64');
        expect(base64ToBytes(text)).toEqual(bytes);
        // Into bytes kept for it (large enough), padding left out: the same bytes, as a view of them.
        const into = new Uint8Array(80).fill(0xee);
        expect(base64ToBytes(text.replace(/=+$/, ''), into)).toEqual(bytes);
      }),
      { numRuns: 500 },
    );
  });
});
