import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { signWebhook, unwrapWebhook, verifyWebhookSignature, WebhookVerificationError, type WebhookKeyPair } from '../../src/webhooks/index';
import { base64ToBytes, bytesToBase64, derToP1363, p1363ToDer } from '../../src/webhooks/encoding';
import { testKeys } from './helpers';

const SEED = 20251013;
const RUNS = 1000;

let keys: WebhookKeyPair;
let validSignature: string;
const validBody = '{"id":"Webhook:fuzz","type":"TEST","timestamp":"2025-10-13T00:00:00Z","data":{}}';
beforeAll(async () => {
  keys = await testKeys();
  validSignature = await signWebhook(validBody, keys.privateKeyPem, { format: 'bare' });
});

/** Resolves, or throws only WebhookVerificationError: anything else fails the property. */
async function onlyVerificationErrors(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
}

const body = fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 2048 }), fc.constant(validBody));

/** Signature headers from "any text" to "almost a valid signature". */
const signatureText = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= -_\t'), maxLength: 110 }),
  fc.uint8Array({ maxLength: 80 }).map(bytesToBase64),
  // Random DER-looking structures.
  fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 34 }), fc.uint8Array({ minLength: 1, maxLength: 34 }), fc.integer({ min: -2, max: 2 }))
    .map(([r, s, skew]) => bytesToBase64(Uint8Array.of(0x30, r.length + s.length + 4 + skew, 0x02, r.length, ...r, 0x02, s.length, ...s))),
  // The valid signature with one byte changed, truncated or extended.
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 }), fc.constantFrom('flip', 'cut', 'grow')).map(([at, x, how]) => {
    const der = base64ToBytes(validSignature)!;
    const i = at % der.length;
    if (how === 'cut') return bytesToBase64(der.subarray(0, i));
    if (how === 'grow') return bytesToBase64(Uint8Array.of(...der, x));
    der[i]! ^= x;
    return bytesToBase64(der);
  }),
);

const headers = fc.oneof(
  signatureText.map((s) => ({ 'x-service-signature': s })),
  // The versioned JSON form around any of those, with a right or a wrong version.
  fc.tuple(signatureText, fc.constantFrom('1', 1, '2', null)).map(([s, v]) => ({ 'x-service-signature': JSON.stringify({ v, s }) })),
  fc.array(signatureText, { maxLength: 3 }).map((list) => ({ 'X-Service-Signature': list })),
  fc.dictionary(fc.string({ maxLength: 30 }), fc.oneof(fc.string(), fc.array(fc.string()), fc.constant(undefined))),
);

describe('fuzz: verification never throws anything but WebhookVerificationError', () => {
  it(`random bodies and signature headers (${RUNS} runs, seed ${SEED})`, async () => {
    const reasons = new Set<string>();
    await fc.assert(
      fc.asyncProperty(body, headers, async (b, h) => {
        const reason = await onlyVerificationErrors(() => verifyWebhookSignature(b, h, keys.publicKeyPem));
        reasons.add(reason);
        expect(['missing_header', 'malformed_signature', 'invalid_signature']).toContain(reason);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(reasons).toEqual(new Set(['missing_header', 'malformed_signature', 'invalid_signature']));
  });

  it(`signed arbitrary bodies through unwrapWebhook (${RUNS} runs)`, async () => {
    const json = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            id: fc.oneof(
              fc.string(),
              fc.string().map((s) => `Webhook:${s}`),
            ),
            type: fc.string(),
            timestamp: fc.oneof(
              fc.string(),
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            ),
            data: fc.oneof(fc.object(), fc.jsonValue()),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      // Valid envelopes, so the parse and age paths are reached too.
      fc
        .record({
          id: fc.string({ minLength: 1 }).map((s) => `Webhook:${s}`),
          type: fc.string({ minLength: 1 }),
          timestamp: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
          data: fc.object(),
        })
        .map((v) => JSON.stringify(v)),
      fc.uint8Array({ maxLength: 256 }),
    );
    const reasons = new Set<string>();
    await fc.assert(
      fc.asyncProperty(json, fc.option(fc.nat({ max: 10 ** 12 })), async (b, maxAge) => {
        const signature = await signWebhook(b, keys.privateKeyPem);
        const reason = await onlyVerificationErrors(() =>
          unwrapWebhook(b, { 'x-service-signature': signature }, { publicKey: keys.publicKeyHex, maxAge: maxAge ?? undefined }),
        );
        reasons.add(reason);
        expect(['ok', 'invalid_body', 'invalid_event', 'stale_event', 'future_event']).toContain(reason);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    for (const expected of ['ok', 'invalid_body', 'invalid_event', 'stale_event']) expect(reasons).toContain(expected);
  });

  it('every signature made by signWebhook verifies (300 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 4096 })), async (b) => {
        const signature = await signWebhook(b, keys.privateKeyPem);
        await verifyWebhookSignature(b, { 'x-service-signature': signature }, keys.publicKeyPem);
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  it('P1363 → DER → P1363 is the identity for any 64 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (sig) => {
        const der = p1363ToDer(sig);
        expect(derToP1363(der)).toEqual(sig);
        expect(der.length).toBeLessThanOrEqual(72);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
