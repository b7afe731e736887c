import { createPublicKey, ECDH, generateKeyPairSync, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  generateWebhookKeyPair,
  getHeader,
  importWebhookPublicKey,
  readRawBody,
  signWebhook,
  verifyWebhookSignature,
  WebhookVerificationError,
  type WebhookKeyPair,
} from '../../src/webhooks/index';
import { base64ToBytes, bytesToBase64, decompressP256, derToP1363, p1363ToDer, utf8 } from '../../src/webhooks/encoding';
import { eventBody, rejection, signedDelivery, testKeys } from './helpers';

let keys: WebhookKeyPair;
beforeAll(async () => {
  keys = await testKeys();
});

describe('verifyWebhookSignature', () => {
  it('accepts a valid delivery and returns the verified bytes', async () => {
    const { body, headers } = await signedDelivery();
    const bytes = await verifyWebhookSignature(body, headers, keys.publicKeyPem);
    expect(new TextDecoder().decode(bytes)).toBe(body);
  });

  it('refuses a body with one byte changed', async () => {
    const { body, headers } = await signedDelivery();
    const tampered = utf8(body);
    tampered[10]! ^= 0x01;
    const err = await rejection(() => verifyWebhookSignature(tampered, headers, keys.publicKeyPem));
    expect(err.reason).toBe('invalid_signature');
    expect(err.message).toBe('signature does not match the body for this key: the body was changed or the key is wrong');
    expect(err).toBeInstanceOf(WebhookVerificationError);
    expect(err.name).toBe('WebhookVerificationError');
  });

  it('refuses a signature made with another key', async () => {
    const other = await generateWebhookKeyPair();
    const { body, headers } = await signedDelivery(eventBody(), other.privateKeyPem);
    expect((await rejection(() => verifyWebhookSignature(body, headers, keys.publicKeyPem))).reason).toBe('invalid_signature');
    await expect(verifyWebhookSignature(body, headers, other.publicKeyHex)).resolves.toBeInstanceOf(Uint8Array);
  });

  it('names the header when it is missing or blank', async () => {
    for (const headers of [{}, { 'x-service-signature': '' }, { 'x-service-signature': '  ' }, new Headers()]) {
      const err = await rejection(() => verifyWebhookSignature('{}', headers, keys.publicKeyPem));
      expect(err.reason).toBe('missing_header');
      expect(err.message).toContain('X-Service-Signature');
    }
  });

  it('refuses a header that is not base64', async () => {
    for (const value of ['not base64!', 'MEUCIQ-_', 'MEUC IQ==', 'x'.repeat(101)]) {
      const err = await rejection(() => verifyWebhookSignature('{}', { 'x-service-signature': value }, keys.publicKeyPem));
      expect(err.reason, value).toBe('malformed_signature');
    }
  });

  it('refuses base64 that is not a DER signature', async () => {
    const p1363 = new Uint8Array(64).fill(7); // the right bytes in the wrong (raw r‖s) encoding
    for (const value of [bytesToBase64(p1363), btoa('hello world')]) {
      const err = await rejection(() => verifyWebhookSignature('{}', { 'x-service-signature': value }, keys.publicKeyPem));
      expect(err.reason).toBe('malformed_signature');
      expect(err.message).toContain('not a DER');
    }
  });

  it('accepts both header forms: bare base64 and the versioned JSON (extra fields ignored); refuses another version', async () => {
    const { body, signature, headers } = await signedDelivery();
    expect(headers['x-service-signature']).toBe(JSON.stringify({ v: '1', s: signature }));
    for (const header of [signature, headers['x-service-signature']!, ` {"s":"${signature}", "v": 1, "kid": "k-2025"} `]) {
      await expect(verifyWebhookSignature(body, { 'x-service-signature': header }, keys.publicKeyPem)).resolves.toBeInstanceOf(Uint8Array);
    }
    for (const header of [JSON.stringify({ v: '2', s: signature }), JSON.stringify({ v: '1' }), '{"v":"1",', JSON.stringify({ s: signature })]) {
      expect((await rejection(() => verifyWebhookSignature(body, { 'x-service-signature': header }, keys.publicKeyPem))).reason).toBe('malformed_signature');
    }
    const tampered = JSON.stringify({ v: '1', s: (await signedDelivery(eventBody({ id: 'Webhook:other' }))).signature });
    expect((await rejection(() => verifyWebhookSignature(body, { 'x-service-signature': tampered }, keys.publicKeyPem))).reason).toBe('invalid_signature');
  });

  it('refuses a valid DER signature with trailing bytes', async () => {
    const { body, signature } = await signedDelivery();
    const der = base64ToBytes(signature)!;
    const padded = bytesToBase64(Uint8Array.of(...der, 0));
    const err = await rejection(() => verifyWebhookSignature(body, { 'x-service-signature': padded }, keys.publicKeyPem));
    expect(err.reason).toBe('malformed_signature');
  });

  it('tolerates missing padding and surrounding whitespace in the header', async () => {
    const { body, signature } = await signedDelivery();
    const loose = `  ${signature.replace(/=+$/, '')}\t`;
    await expect(verifyWebhookSignature(body, { 'x-service-signature': loose }, keys.publicKeyPem)).resolves.toBeInstanceOf(Uint8Array);
  });

  it('asks for the key by its option and environment names when none is configured', async () => {
    const { body, headers } = await signedDelivery();
    for (const key of [undefined, '', '  ']) {
      const err = await rejection(() => verifyWebhookSignature(body, headers, key));
      expect(err.reason).toBe('missing_key');
      expect(err.message).toContain('webhookPublicKey');
      expect(err.message).toContain('CROSSBORDER_WEBHOOK_PUBLIC_KEY');
    }
  });

  it('reports a configuration error before anything about the delivery', async () => {
    const err = await rejection(() => verifyWebhookSignature('{}', {}, 'not a key'));
    expect(err.reason).toBe('invalid_key');
  });
});

describe('unicode bodies', () => {
  const text = JSON.stringify({ memo: 'café 👩🏽‍💻 e\u0301 ﷽ \u0000 "quoted"' });

  it('verifies the string and its UTF-8 bytes alike', async () => {
    const { signature } = await signedDelivery(text);
    const headers = { 'x-service-signature': signature };
    const fromString = await verifyWebhookSignature(text, headers, keys.publicKeyPem);
    const fromBytes = await verifyWebhookSignature(utf8(text), headers, keys.publicKeyPem);
    expect(fromBytes).toEqual(fromString);
  });

  it('refuses the same text in another normalization form: the bytes are what is signed', async () => {
    const { signature } = await signedDelivery(text);
    const nfc = text.normalize('NFC');
    expect(nfc).not.toBe(text);
    const err = await rejection(() => verifyWebhookSignature(nfc, { 'x-service-signature': signature }, keys.publicKeyPem));
    expect(err.reason).toBe('invalid_signature');
  });

  it('verifies bytes signed as bytes, even when they are not UTF-8', async () => {
    const bytes = Uint8Array.of(0xff, 0xfe, 0x00, 0x80);
    const { signature } = await signedDelivery(bytes);
    const out = await verifyWebhookSignature(bytes, { 'x-service-signature': signature }, keys.publicKeyPem);
    expect(out).toEqual(bytes);
  });
});

describe('body and header forms', () => {
  it('accepts string, Uint8Array, Buffer, ArrayBuffer, DataView and Request bodies', async () => {
    const { body, signature, headers } = await signedDelivery();
    const bytes = utf8(body);
    const forms: unknown[] = [
      body,
      bytes,
      Buffer.from(body),
      bytes.slice().buffer,
      new DataView(bytes.slice().buffer),
      // A Buffer view into a larger pooled allocation: only its own window must be read.
      Buffer.concat([Buffer.from('xx'), Buffer.from(body)]).subarray(2),
    ];
    for (const form of forms) {
      await expect(verifyWebhookSignature(form as Uint8Array, headers, keys.publicKeyPem)).resolves.toEqual(bytes);
    }
    const request = new Request('https://platform.example/webhooks', {
      method: 'POST',
      body,
      headers: { 'X-Service-Signature': signature },
    });
    await expect(verifyWebhookSignature(request, undefined, keys.publicKeyPem)).resolves.toEqual(bytes);
    // The caller can still read the body afterwards.
    await expect(request.text()).resolves.toBe(body);
  });

  it('refuses a Request whose body was already read', async () => {
    const { body, signature } = await signedDelivery();
    const request = new Request('https://platform.example/webhooks', {
      method: 'POST',
      body,
      headers: { 'X-Service-Signature': signature },
    });
    await request.text();
    const err = await rejection(() => verifyWebhookSignature(request, undefined, keys.publicKeyPem));
    expect(err.reason).toBe('invalid_body');
    expect(err.message).toContain('already read');
  });

  it('explains what to do when a JSON body parser ran first', async () => {
    const { body, headers } = await signedDelivery();
    const err = await rejection(() => verifyWebhookSignature(JSON.parse(body) as never, headers, keys.publicKeyPem));
    expect(err.reason).toBe('invalid_body');
    expect(err.message).toContain('express.raw');
  });

  it('reads headers from Headers, plain objects in any case, and Node arrays', async () => {
    const { body, signature } = await signedDelivery();
    const forms = [
      new Headers({ 'X-Service-Signature': signature }),
      { 'X-Service-Signature': signature },
      { 'x-service-signature': signature },
      { 'X-SERVICE-SIGNATURE': signature },
      { 'x-service-signature': [signature, 'ignored'], host: 'platform.example', 'x-other': undefined },
    ];
    for (const headers of forms) {
      await expect(verifyWebhookSignature(body, headers, keys.publicKeyPem)).resolves.toBeInstanceOf(Uint8Array);
    }
  });

  it('prefers explicit headers over the Request headers', async () => {
    const { body, signature } = await signedDelivery();
    const request = new Request('https://platform.example/webhooks', { method: 'POST', body });
    await expect(verifyWebhookSignature(request, { 'x-service-signature': signature }, keys.publicKeyPem)).resolves.toBeInstanceOf(Uint8Array);
  });

  it('getHeader returns undefined for absent names and non-string values', () => {
    expect(getHeader({ a: '1' }, 'b')).toBeUndefined();
    expect(getHeader({ a: [] }, 'a')).toBeUndefined();
    expect(getHeader(undefined, 'a')).toBeUndefined();
    expect(getHeader({ A: ['x', 'y'] }, 'a')).toBe('x');
  });

  it('readRawBody copies, so later changes to the caller buffer do not matter', async () => {
    const source = Uint8Array.of(1, 2, 3);
    const read = await readRawBody(source);
    source[0] = 9;
    expect(read).toEqual(Uint8Array.of(1, 2, 3));
    const buffer = Buffer.from([1, 2, 3]);
    const fromBuffer = await readRawBody(buffer);
    buffer[0] = 9;
    expect(fromBuffer).toEqual(Uint8Array.of(1, 2, 3));
    expect(Buffer.isBuffer(fromBuffer)).toBe(false);
  });
});

describe('keys', () => {
  it('accepts PEM, escaped-newline PEM, hex, 0x hex, upper-case hex and a CryptoKey', async () => {
    const { body, headers } = await signedDelivery();
    const cryptoKey = await globalThis.crypto.subtle.importKey(
      'spki',
      createPublicKey(keys.publicKeyPem).export({ type: 'spki', format: 'der' }),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    const forms = [
      keys.publicKeyPem,
      keys.publicKeyPem.replace(/\n/g, '\\n'),
      `\n${keys.publicKeyPem}\n`,
      keys.publicKeyHex,
      `0x${keys.publicKeyHex}`,
      keys.publicKeyHex.toUpperCase(),
      cryptoKey,
    ];
    for (const key of forms) {
      await expect(verifyWebhookSignature(body, headers, key)).resolves.toBeInstanceOf(Uint8Array);
    }
  });

  it('caches imports per key string', async () => {
    const a = await importWebhookPublicKey(keys.publicKeyPem);
    const b = await importWebhookPublicKey(keys.publicKeyPem);
    expect(a).toBe(b);
    expect(a.type).toBe('public');
    expect(a.usages).toEqual(['verify']);
  });

  it('refuses keys that cannot verify P-256 signatures', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' });
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({ type: 'spki', format: 'pem' });
    const offCurve = `04${'11'.repeat(64)}`;
    const hmac = await globalThis.crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const signingOnly = await globalThis.crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const bad: unknown[] = [
      'hello',
      keys.privateKeyPem,
      rsa,
      p384,
      offCurve,
      keys.publicKeyHex.slice(2), // no 04 prefix
      '-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----',
      hmac,
      signingOnly.privateKey,
      42,
    ];
    for (const key of bad) {
      const err = await rejection(() => importWebhookPublicKey(key as string));
      expect(err.reason, String(key)).toBe('invalid_key');
    }
    const err = await rejection(() => importWebhookPublicKey(keys.privateKeyPem));
    expect(err.message).toContain('private key');
    expect(err.message).not.toContain(keys.privateKeyPem.slice(40, 80)); // never echoes key material
  });

  it('does not cache a failed import', async () => {
    await rejection(() => importWebhookPublicKey('bad key'));
    const err = await rejection(() => importWebhookPublicKey('bad key'));
    expect(err.reason).toBe('invalid_key');
  });
});

describe('interoperability with node:crypto', () => {
  it('signWebhook signatures verify with node:crypto', async () => {
    for (let i = 0; i < 50; i++) {
      const body = eventBody();
      const signature = await signWebhook(body, keys.privateKeyPem, { format: 'bare' });
      const ok = nodeVerify('sha256', Buffer.from(body), { key: keys.publicKeyPem, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
      expect(ok).toBe(true);
    }
  });

  it('node:crypto DER signatures verify with verifyWebhookSignature (including short and padded integers)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const lengths = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const body = Buffer.from(`{"n":${i}}`);
      const der = nodeSign('sha256', body, { key: privateKey, dsaEncoding: 'der' });
      lengths.add(der.length);
      await expect(verifyWebhookSignature(body, { 'x-service-signature': der.toString('base64') }, pem)).resolves.toBeInstanceOf(Uint8Array);
    }
    // 70, 71 and 72 bytes: both 32- and 33-byte integers were exercised.
    expect([...lengths].filter((n) => n >= 70).length).toBeGreaterThanOrEqual(3);
  });

  it('DER from node:crypto converts to the P1363 form node:crypto produces', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    for (let i = 0; i < 50; i++) {
      const p1363 = nodeSign('sha256', Buffer.from([i]), { key: privateKey, dsaEncoding: 'ieee-p1363' });
      const der = p1363ToDer(p1363);
      expect(nodeVerify('sha256', Buffer.from([i]), { key: publicKey, dsaEncoding: 'der' }, der)).toBe(true);
      expect(derToP1363(der)).toEqual(new Uint8Array(p1363));
    }
  });

  it('hex keys match node:crypto public keys', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const jwk = publicKey.export({ format: 'jwk' });
    const hex = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
    const body = 'x';
    const der = nodeSign('sha256', Buffer.from(body), { key: privateKey, dsaEncoding: 'der' });
    await expect(verifyWebhookSignature(body, { 'x-service-signature': der.toString('base64') }, hex)).resolves.toBeInstanceOf(Uint8Array);
  });
});

describe('signWebhook', () => {
  it('accepts a CryptoKey and refuses keys that cannot sign', async () => {
    const pair = await globalThis.crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const signature = await signWebhook('{}', pair.privateKey);
    const raw = new Uint8Array(await globalThis.crypto.subtle.exportKey('raw', pair.publicKey));
    await expect(verifyWebhookSignature('{}', { 'x-service-signature': signature }, Buffer.from(raw).toString('hex'))).resolves.toBeInstanceOf(Uint8Array);

    const sec1 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' });
    expect((await rejection(() => signWebhook('{}', sec1 as string))).message).toContain('openssl pkcs8');
    expect((await rejection(() => signWebhook('{}', keys.publicKeyPem))).reason).toBe('invalid_key');
    expect((await rejection(() => signWebhook('{}', pair.publicKey))).reason).toBe('invalid_key');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect((await rejection(() => signWebhook('{}', rsa as string))).reason).toBe('invalid_key');
  });

  it('generateWebhookKeyPair gives matching PEM and hex public keys', async () => {
    const pair = await generateWebhookKeyPair();
    expect(pair.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(pair.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(pair.publicKeyHex).toMatch(/^04[0-9a-f]{128}$/);
    const jwk = createPublicKey(pair.publicKeyPem).export({ format: 'jwk' });
    expect(pair.publicKeyHex.slice(2, 66)).toBe(Buffer.from(jwk.x!, 'base64url').toString('hex'));
  });
});

describe('verification edges the mutation run found unguarded', () => {
  it('a CryptoKey must be a P-256 ECDSA public key with verify', async () => {
    const ecdsa = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const p384 = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
    const ecdh = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const signOnly = await crypto.subtle.importKey(
      'jwk',
      await crypto.subtle.exportKey('jwk', ecdsa.publicKey),
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      [],
    );
    await expect(importWebhookPublicKey(ecdsa.publicKey)).resolves.toBe(ecdsa.publicKey);
    for (const key of [ecdsa.privateKey, p384.publicKey, ecdh.publicKey, signOnly]) {
      const err = await rejection(() => importWebhookPublicKey(key));
      expect(err.reason).toBe('invalid_key');
      expect(err.message).toMatch(/ECDSA P-256 public key with usage "verify"/);
    }
    expect((await rejection(() => importWebhookPublicKey(42 as never))).message).toMatch(/string or a CryptoKey, got number/);
  });

  it('compressed hex keys (02…/03…, 66 characters) verify like the uncompressed key node:crypto derives from them', async () => {
    let odd = 0;
    for (let i = 0; i < 40; i++) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const uncompressedHex = Buffer.from(publicKey.export({ format: 'der', type: 'spki' }).subarray(-65)).toString('hex');
      const compressedHex = ECDH.convertKey(uncompressedHex, 'prime256v1', 'hex', 'hex', 'compressed') as string;
      if (compressedHex.startsWith('03')) odd++;
      expect(Buffer.from(decompressP256(Buffer.from(compressedHex, 'hex'))!).toString('hex')).toBe(uncompressedHex);
      const body = `{"n":${i}}`;
      const der = nodeSign('sha256', Buffer.from(body), { key: privateKey, dsaEncoding: 'der' });
      const headers = { 'x-service-signature': der.toString('base64') };
      for (const key of [compressedHex, `0x${compressedHex.toUpperCase()}`])
        await expect(verifyWebhookSignature(body, headers, key)).resolves.toBeInstanceOf(Uint8Array);
      // the other Y (the prefix flipped) is another key: the signature does not verify with it
      const flipped = `${compressedHex.startsWith('02') ? '03' : '02'}${compressedHex.slice(2)}`;
      expect((await rejection(() => verifyWebhookSignature(body, headers, flipped))).reason).toBe('invalid_signature');
    }
    expect(odd).toBeGreaterThan(0);
    expect(odd).toBeLessThan(40);
  });

  it('compressed hex keys: X off the curve or not below p, and other prefixes, are invalid_key', async () => {
    const keys = await testKeys();
    const x = keys.publicKeyHex.slice(2, 66);
    // x = 1 makes x³ − 3x + b a non-residue mod p: no point has that X (x = 0 and 5 do have points)
    const offCurve = `02${'0'.repeat(63)}1`;
    expect(decompressP256(Buffer.from(`02${'0'.repeat(63)}5`, 'hex'))).toHaveLength(65);
    expect(decompressP256(Buffer.from(offCurve, 'hex'))).toBeUndefined();
    expect((await rejection(() => importWebhookPublicKey(offCurve))).message).toMatch(/not a point on the P-256 curve/);
    expect((await rejection(() => importWebhookPublicKey(`02${'f'.repeat(64)}`))).reason).toBe('invalid_key'); // X ≥ p
    for (const bad of [`04${x}`, `01${x}`, `02${x}00`, `02${x.slice(2)}`]) {
      const err = await rejection(() => importWebhookPublicKey(bad));
      expect(err.reason).toBe('invalid_key');
    }
  });

  it('hex keys: exactly 130 characters starting 04 (0x or 0X prefix allowed)', async () => {
    const keys = await testKeys();
    for (const ok of [keys.publicKeyHex, `0x${keys.publicKeyHex}`, `0X${keys.publicKeyHex}`]) await expect(importWebhookPublicKey(ok)).resolves.toBeDefined();
    for (const bad of [keys.publicKeyHex.slice(2), `05${keys.publicKeyHex.slice(2)}`, `${keys.publicKeyHex}00`, `x${keys.publicKeyHex}`]) {
      const err = await rejection(() => importWebhookPublicKey(bad));
      expect(err.reason).toBe('invalid_key');
    }
  });

  it('header lengths: a 1,024-character header is the most read; the signature itself at most 100', async () => {
    const { body, signature } = await signedDelivery();
    const pem = (await testKeys()).publicKeyPem;
    const padded = JSON.stringify({ v: '1', s: signature, pad: 'x'.repeat(1024 - 30 - signature.length) });
    expect(padded.length).toBeLessThanOrEqual(1024);
    await expect(verifyWebhookSignature(body, { 'x-service-signature': padded }, pem)).resolves.toBeDefined();
    const tooLong = JSON.stringify({ v: '1', s: signature, pad: 'x'.repeat(1100) });
    expect((await rejection(() => verifyWebhookSignature(body, { 'x-service-signature': tooLong }, pem))).reason).toBe('malformed_signature');
    const longSig = `${signature}${'A'.repeat(101 - signature.length)}`;
    expect(longSig.length).toBe(101);
    expect((await rejection(() => verifyWebhookSignature(body, { 'x-service-signature': longSig }, pem))).message).toMatch(/at most 100/);
  });

  it('raw bodies: bytes are copied (a reused buffer cannot change what was verified); ArrayBuffers and views work', async () => {
    const bytes = utf8('{"a":1}');
    const copy = await readRawBody(bytes);
    bytes[0] = 0x20;
    expect(copy[0]).toBe('{'.charCodeAt(0));
    expect(Array.from(await readRawBody(utf8('ab').buffer))).toEqual([0x61, 0x62]);
    const view = new DataView(utf8('xyz').buffer, 1, 2);
    expect(Array.from(await readRawBody(view as never))).toEqual([0x79, 0x7a]);
    const err = await rejection(() => readRawBody(null as never));
    expect(err.message).toMatch(/got null/);
    expect((await rejection(() => readRawBody({} as never))).message).toMatch(/got an object/);
    expect((await rejection(() => readRawBody(5 as never))).message).toMatch(/got number/);
  });

  it('headers: case-insensitive, first of an array, nothing for non-strings', () => {
    expect(getHeader({ 'X-Service-Signature': ['a', 'b'] }, 'x-service-signature')).toBe('a');
    expect(getHeader({ 'x-service-signature': [5 as never] }, 'X-Service-Signature')).toBeUndefined();
    expect(getHeader(null, 'x')).toBeUndefined();
    expect(getHeader('x-service-signature' as never, 'x-service-signature')).toBeUndefined();
    expect(getHeader(new Headers({ 'X-Service-Signature': 'h' }), 'x-service-signature')).toBe('h');
  });

  it('a missing key is missing_key before anything about the delivery', async () => {
    for (const key of [undefined, null, '', '   ']) {
      expect((await rejection(() => verifyWebhookSignature('{}', {}, key as never))).reason).toBe('missing_key');
    }
  });
});

describe('cb.webhooks with null arguments (defect #10: always a result or a WebhookVerificationError)', () => {
  it('takes null headers-beside-a-Request and null options as absent', async () => {
    const { Crossborder } = await import('../../src/client');
    const keys = await testKeys();
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: keys.publicKeyPem });
    const { body, headers } = await signedDelivery();
    await expect(cb.webhooks.unwrap(body, headers, null)).resolves.toMatchObject({ id: JSON.parse(body).id, type: 'INCOMING_PAYMENT.COMPLETED' });
    await expect(cb.webhooks.verify(body, headers, null)).resolves.toBeUndefined();
    const request = new Request('https://platform.test.invalid/hooks', { method: 'POST', body, headers });
    await expect(cb.webhooks.unwrap(request, null, null)).resolves.toMatchObject({ type: 'INCOMING_PAYMENT.COMPLETED' });
    expect((await rejection(() => cb.webhooks.unwrap(`${body} `, headers, null))).reason).toBe('invalid_signature');
  });
});
