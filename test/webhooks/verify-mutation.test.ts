/**
 * What a user reads when a webhook check refuses (issue 22's mutation run of src/webhooks/verify.ts
 * left the texts, the causes and a few shape checks unasserted): every refusal's reason and exact
 * message, the cause kept from the runtime, the length limits at their exact boundary, and the
 * duck-typing of CryptoKey / Request / ArrayBuffer values.
 */
import { generateKeyPairSync } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importWebhookPublicKey, readRawBody, verifyWebhookSignature, type WebhookKeyPair } from '../../src/webhooks/index';
import { rejection, signedDelivery, testKeys } from './helpers';

let keys: WebhookKeyPair;
beforeAll(async () => {
  keys = await testKeys();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const NEITHER =
  'the webhook public key is neither a PEM public key (-----BEGIN PUBLIC KEY-----) nor the hex of a P-256 point (130 hex characters starting 04, or 66 starting 02 or 03); got ';
const NOT_A_KEY_OBJECT = 'the webhook public key must be a string or a CryptoKey, got object';

describe('key refusals: reason, exact message, cause', () => {
  it('names the shape of a key string it cannot read, without echoing more than 5 printable characters', async () => {
    const cases: [string, string][] = [
      ['hello world', '11 characters starting "hello…"'],
      ['', '0 characters'],
      ['\u0001ab\u00e9cdefg', '9 characters starting "?ab?c…"'],
    ];
    for (const [key, shown] of cases) {
      const err = await rejection(() => importWebhookPublicKey(key));
      expect(err.reason).toBe('invalid_key');
      expect(err.message).toBe(NEITHER + shown);
    }
  });

  it('hex keys are told apart by length and leading byte exactly: anything else is named, not tried', async () => {
    const cases: [string, string][] = [
      [`02${'ab'.repeat(64)}`, '130 characters starting "02aba…"'], // a compressed prefix on an uncompressed length
      [`04${'ab'.repeat(32)}`, '66 characters starting "04aba…"'], // an uncompressed prefix on a compressed length
      [`05${'04'.repeat(64)}`, '130 characters starting "05040…"'], // 04 inside, not leading
      [`05${'02'.repeat(32)}`, '66 characters starting "05020…"'], // 02 inside, not leading
    ];
    for (const [key, shown] of cases) expect((await rejection(() => importWebhookPublicKey(key))).message).toBe(NEITHER + shown);
    const offCurve = await rejection(() => importWebhookPublicKey(`02${'0'.repeat(63)}1`));
    expect([offCurve.message, offCurve.cause]).toEqual(['the webhook public key hex is not a point on the P-256 curve', undefined]); // refused before WebCrypto
  });

  it('imports a verify-only, non-extractable key, from a string with surrounding whitespace too', async () => {
    for (const key of [keys.publicKeyPem, ` ${keys.publicKeyHex}\n`]) {
      const imported = await importWebhookPublicKey(key);
      expect([imported.type, imported.extractable, imported.usages]).toEqual(['public', false, ['verify']]);
    }
  });

  it('a CryptoKey-shaped value failing one check only (type, algorithm) is refused', async () => {
    const base = { algorithm: { name: 'ECDSA', namedCurve: 'P-256' }, type: 'public', usages: ['verify'] };
    const cases: [object, string][] = [
      [{ ...base, type: 'private' }, 'private ECDSA P-256 key with usages [verify]'],
      [{ ...base, algorithm: { name: 'ECDH', namedCurve: 'P-256' } }, 'public ECDH P-256 key with usages [verify]'],
    ];
    for (const [key, got] of cases) {
      expect((await rejection(() => importWebhookPublicKey(key as never))).message).toBe(
        `the webhook CryptoKey must be an ECDSA P-256 public key with usage "verify"; got a ${got}`,
      );
    }
  });

  it('a private key, a PEM of another algorithm, a point off the curve', async () => {
    const priv = await rejection(() => importWebhookPublicKey(keys.privateKeyPem));
    expect(priv.message).toBe("the webhook key given is a private key: verification needs the service's public key (-----BEGIN PUBLIC KEY-----)");
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const pem = await rejection(() => importWebhookPublicKey(rsa));
    expect([pem.reason, pem.message]).toEqual(['invalid_key', 'the webhook public key PEM is not an ECDSA P-256 public key']);
    expect(pem.cause).toBeInstanceOf(Error); // WebCrypto's own refusal, kept for the log
    const hex = await rejection(() => importWebhookPublicKey(`04${'11'.repeat(64)}`));
    expect([hex.reason, hex.message]).toEqual(['invalid_key', 'the webhook public key hex is not a point on the P-256 curve']);
    expect(hex.cause).toBeInstanceOf(Error);
  });

  it('a CryptoKey of the wrong kind is described by type, algorithm, curve and usages', async () => {
    const p384 = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const cases: [CryptoKey, string][] = [
      [p384.publicKey, 'public ECDSA P-384 key with usages [verify]'],
      [p384.privateKey, 'private ECDSA P-384 key with usages [sign]'],
      [hmac, 'secret HMAC  key with usages [sign, verify]'],
    ];
    for (const [key, got] of cases) {
      expect((await rejection(() => importWebhookPublicKey(key))).message).toBe(
        `the webhook CryptoKey must be an ECDSA P-256 public key with usage "verify"; got a ${got}`,
      );
    }
    const bare = { algorithm: {}, type: 'public', usages: [] as string[] };
    expect((await rejection(() => importWebhookPublicKey(bare as never))).message).toBe(
      'the webhook CryptoKey must be an ECDSA P-256 public key with usage "verify"; got a public ?  key with usages []',
    );
  });

  it('an object is a CryptoKey only with algorithm, type and usages; null is no key', async () => {
    const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
    for (const partial of [{ type: 'public', usages: ['verify'] }, { algorithm, usages: ['verify'] }, { algorithm, type: 'public' }, null]) {
      const err = await rejection(() => importWebhookPublicKey(partial as never));
      expect([err.reason, err.message]).toEqual(['invalid_key', NOT_A_KEY_OBJECT]);
    }
  });

  it('a look-alike that passes the shape check but WebCrypto cannot use is invalid_key at verification, with the cause', async () => {
    const fake = { algorithm: { name: 'ECDSA', namedCurve: 'P-256' }, type: 'public', usages: ['verify'] };
    const { body, headers } = await signedDelivery();
    const err = await rejection(() => verifyWebhookSignature(body, headers, fake as never));
    expect([err.reason, err.message]).toEqual(['invalid_key', 'the webhook public key could not be used to verify']);
    expect(err.cause).toBeInstanceOf(TypeError);
  });

  it('without WebCrypto, a key string is refused with the runtime named (not as a bad key)', async () => {
    const fresh = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const hex = Buffer.from(await crypto.subtle.exportKey('raw', fresh.publicKey)).toString('hex');
    vi.stubGlobal('crypto', undefined);
    const err = await rejection(() => importWebhookPublicKey(hex));
    vi.unstubAllGlobals();
    expect([err.reason, err.message]).toEqual([
      'invalid_key',
      'WebCrypto (globalThis.crypto.subtle) is not available in this runtime; on Node use version 20 or later',
    ]);
    // Not cached: the same key imports once WebCrypto is there.
    await expect(importWebhookPublicKey(hex)).resolves.toMatchObject({ type: 'public' });
  });
});

describe('header refusals at their exact limits', () => {
  const check = async (header: string | undefined, body = '{}') =>
    rejection(() => verifyWebhookSignature(body, header === undefined ? {} : { 'x-service-signature': header }, keys.publicKeyPem));

  it('a missing key is asked for by option and environment name', async () => {
    expect((await rejection(() => verifyWebhookSignature('{}', {}, ' '))).message).toBe(
      "no webhook public key configured: set the webhookPublicKey option or the CROSSBORDER_WEBHOOK_PUBLIC_KEY environment variable to the service's public key (PEM or hex)",
    );
  });

  it('each malformed header has its own message', async () => {
    const cases: [string | undefined, string, string][] = [
      [undefined, 'missing_header', 'the X-Service-Signature header is missing: this request was not signed by the service (or a proxy dropped the header)'],
      ['A'.repeat(1025), 'malformed_signature', 'the X-Service-Signature header is 1025 characters; too long for a signature'],
      // 1,024 is still read: refused for the signature's length, not the header's
      ['A'.repeat(1024), 'malformed_signature', 'the X-Service-Signature signature is 1024 characters; a P-256 signature is at most 100'],
      ['A'.repeat(101), 'malformed_signature', 'the X-Service-Signature signature is 101 characters; a P-256 signature is at most 100'],
      // 100 is still decoded: valid base64 of 75 zero bytes, which is no DER signature
      ['A'.repeat(100), 'malformed_signature', 'the X-Service-Signature header is base64 but not a DER ECDSA P-256 signature'],
      ['{"v":', 'malformed_signature', 'the X-Service-Signature header starts like JSON but is not JSON'],
      ['{"v":"2","s":"x"}', 'malformed_signature', 'the X-Service-Signature header has signature version "2"; this SDK knows version "1"'],
      ['{"s":"x"}', 'malformed_signature', 'the X-Service-Signature header has signature version undefined; this SDK knows version "1"'],
      ['{"v":1,"s":5}', 'malformed_signature', 'the X-Service-Signature header has no "s" signature'],
      ['not base64!', 'malformed_signature', 'the X-Service-Signature header is not standard base64'],
    ];
    for (const [header, reason, text] of cases) {
      const err = await check(header);
      expect([err.reason, err.message], String(header).slice(0, 20)).toEqual([reason, text]);
    }
  });

  it("the service's exact JSON form answers as the general JSON reading does, at each of its edges", async () => {
    const { body, signature } = await signedDelivery();
    const verifies = (header: string) => verifyWebhookSignature(body, { 'x-service-signature': header }, keys.publicKeyPem);
    const canonical = (s: string) => `{"v":"1","s":"${s}"}`;
    // An escape inside the string is JSON's to read: the same signature.
    await expect(verifies(canonical(`\\u00${signature.charCodeAt(0).toString(16)}${signature.slice(1)}`))).resolves.toBeInstanceOf(Uint8Array);
    await expect(verifies(canonical(signature))).resolves.toBeInstanceOf(Uint8Array);
    // Not the exact form (a space, another field, spaces around the value): read as JSON, the same signature.
    for (const header of [`{"v":"1","s":"${signature}" }`, `{"v":"1","s":"${signature}","x":1}`, `{"v":"1","s":" ${signature} "}`]) {
      await expect(verifies(header)).resolves.toBeInstanceOf(Uint8Array);
    }
    const cases: [string, string][] = [
      ['{"v":"1","s":"}', 'the X-Service-Signature header starts like JSON but is not JSON'],
      ['{"v":"1","s":"M"}', 'the X-Service-Signature header is not standard base64'],
      [canonical(''), 'the X-Service-Signature header is base64 but not a DER ECDSA P-256 signature'],
      [canonical('A'.repeat(100)), 'the X-Service-Signature header is base64 but not a DER ECDSA P-256 signature'],
      [canonical('A'.repeat(101)), 'the X-Service-Signature signature is 101 characters; a P-256 signature is at most 100'],
      [canonical(`${signature}=`), 'the X-Service-Signature header is not standard base64'],
      [canonical(`${signature.slice(0, 8)}=${signature.slice(9)}`), 'the X-Service-Signature header is not standard base64'],
      [canonical(`${signature.slice(0, 8)}"${signature.slice(9)}`), 'the X-Service-Signature header starts like JSON but is not JSON'],
      [canonical(`${signature.slice(0, 8)}-${signature.slice(9)}`), 'the X-Service-Signature header is not standard base64'],
    ];
    for (const [header, text] of cases) {
      const err = await rejection(() => verifies(header));
      expect([header, err.reason, err.message]).toEqual([header, 'malformed_signature', text]);
    }
  });

  it('the signature inside the JSON form is trimmed like the bare one', async () => {
    const { body, signature } = await signedDelivery();
    await expect(
      verifyWebhookSignature(body, { 'x-service-signature': JSON.stringify({ v: '1', s: ` ${signature}\t` }) }, keys.publicKeyPem),
    ).resolves.toBeInstanceOf(Uint8Array);
  });
});

describe('body refusals and forms', () => {
  it('says what it got, and what to do after a JSON body parser', async () => {
    const tail =
      ". If a JSON body parser ran first (e.g. express.json()), use the raw bytes instead (express.raw({ type: 'application/json' })): the signature covers the exact bytes sent";
    for (const [body, got] of [
      [null, 'null'],
      [{}, 'an object'],
      [5, 'number'],
      [undefined, 'undefined'],
    ] as const) {
      const err = await rejection(() => readRawBody(body as never));
      expect([err.reason, err.message]).toEqual([
        'invalid_body',
        `the raw body must be a string, Uint8Array/Buffer, ArrayBuffer or Request; got ${got}${tail}`,
      ]);
    }
  });

  it('an object is a Request only with clone, arrayBuffer and headers', async () => {
    const clone = () => new Request('https://x.test.invalid/', { method: 'POST', body: 'x' });
    const arrayBuffer = async () => new ArrayBuffer(1);
    for (const partial of [
      { arrayBuffer, headers: {} },
      { clone, headers: {} },
      { clone, arrayBuffer },
    ]) {
      expect((await rejection(() => readRawBody(partial as never))).message).toMatch(/; got an object\. /);
    }
  });

  it('a Request already read, or whose body fails, is invalid_body with the cause', async () => {
    const read = new Request('https://x.test.invalid/', { method: 'POST', body: 'x' });
    await read.text();
    const used = await rejection(() => readRawBody(read));
    expect([used.reason, used.message]).toEqual([
      'invalid_body',
      'the Request body was already read, so its raw bytes are gone: verify before reading the body (or pass the bytes you read)',
    ]);
    expect(used.cause).toBeInstanceOf(TypeError);
    const broken = new Request('https://x.test.invalid/', {
      method: 'POST',
      body: new ReadableStream({ pull: (c) => c.error(new Error('socket hang up')) }),
      duplex: 'half',
    } as RequestInit);
    const failed = await rejection(() => readRawBody(broken));
    expect([failed.reason, failed.message]).toEqual(['invalid_body', 'the Request body could not be read']);
    expect((failed.cause as Error).message).toBe('socket hang up');
  });

  it('an ArrayBuffer or typed array from another realm (vm, iframe) is read, and copied', async () => {
    const foreign = runInNewContext('new Uint8Array([97, 98, 99]).buffer') as ArrayBuffer;
    expect(foreign instanceof ArrayBuffer).toBe(false);
    const read = await readRawBody(foreign);
    new Uint8Array(foreign)[0] = 0;
    expect(Array.from(read)).toEqual([97, 98, 99]);
    const view = runInNewContext('new Uint8Array([1, 2, 3, 4]).subarray(1, 3)') as Uint8Array;
    const fromView = await readRawBody(view);
    view[0] = 0;
    expect(Array.from(fromView)).toEqual([2, 3]);
  });
});

describe("the decoded signature stays the delivery's own", () => {
  it('while a Request body is read, other deliveries verified meanwhile do not change its signature', async () => {
    const a = await signedDelivery('{"id":"Webhook:a"}');
    const others = await Promise.all(['{"id":"Webhook:b"}', '{"id":"Webhook:c"}'].map((body) => signedDelivery(new TextEncoder().encode(body))));
    const request = new Request('https://x.test.invalid/hook', { method: 'POST', body: a.body, headers: a.headers });
    // The Request's body is read asynchronously: the other deliveries (bytes, verified synchronously) decode theirs meanwhile.
    const pending = verifyWebhookSignature(request, undefined, keys.publicKeyPem);
    const meanwhile = others.map(({ body, headers }) => verifyWebhookSignature(body, headers, keys.publicKeyPem));
    expect(new TextDecoder().decode(await pending)).toBe(a.body);
    expect((await Promise.all(meanwhile)).map((bytes) => new TextDecoder().decode(bytes))).toEqual(['{"id":"Webhook:b"}', '{"id":"Webhook:c"}']);
    // And the other way round: a delivery whose signature does not hold is refused though a good one was decoded after it.
    const forged = new Request('https://x.test.invalid/hook', { method: 'POST', body: '{"id":"Webhook:forged"}', headers: a.headers });
    const refused = rejection(() => verifyWebhookSignature(forged, undefined, keys.publicKeyPem));
    await verifyWebhookSignature(a.body, a.headers, keys.publicKeyPem);
    expect((await refused).reason).toBe('invalid_signature');
  });
});
