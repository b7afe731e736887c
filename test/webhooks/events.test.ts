import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { eventParser, unwrapWebhook, type UnknownEvent, type WebhookEnvelope, type WebhookKeyPair } from '../../src/webhooks/index';
import { parseIsoDateTime } from '../../src/webhooks/events';
import { eventBody, rejection, signedDelivery, testKeys } from './helpers';

let keys: WebhookKeyPair;
beforeAll(async () => {
  keys = await testKeys();
});

async function unwrapBody(body: string | Uint8Array, extra: { maxAge?: number; now?: () => number } = {}) {
  const { headers } = await signedDelivery(body);
  return unwrapWebhook(body, headers, { publicKey: keys.publicKeyPem, ...extra });
}

describe('unwrapWebhook', () => {
  it('returns the envelope of a valid delivery', async () => {
    const body = eventBody({ type: 'INVITATION.CLAIMED', data: { code: 'abc' } });
    const event = await unwrapBody(body);
    expectTypeOf(event).toEqualTypeOf<WebhookEnvelope>();
    expect(event).toEqual(JSON.parse(body));
  });

  it('checks the signature before reading the body', async () => {
    const { headers } = await signedDelivery('{"other":1}');
    const err = await rejection(() => unwrapWebhook('not json', headers, { publicKey: keys.publicKeyPem }));
    expect(err.reason).toBe('invalid_signature');
  });

  it('refuses a body that is not JSON', async () => {
    const err = await rejection(() => unwrapBody('{"id": "Webhook:1",'));
    expect(err.reason).toBe('invalid_body');
    expect(err.message).toBe('the webhook body is not JSON: it ends before the JSON value does at position 19 (19 characters)');
  });

  it('says why a body is not JSON without quoting it: the kind of fault and its position only', async () => {
    // V8's SyntaxError quotes the text ("Ada" is not valid JSON): a webhook body carries customers' data.
    const cases: [string, string][] = [
      ['{"id": "Webhook:1", "name": "Ada Lovelace" x}', 'an unexpected character at position 43 (45 characters)'],
      ['Ada Lovelace', 'an unexpected character (12 characters)'],
      ['{"id":"Ada"} Lovelace', 'text follows the JSON value at position 13 (21 characters)'],
      ['{"name":"Ada\u0001"}', 'a control character inside a string at position 12 (15 characters)'],
      ['', 'it ends before the JSON value does (0 characters)'],
    ];
    for (const [body, why] of cases) {
      const err = await rejection(() => unwrapBody(body));
      expect(err.reason).toBe('invalid_body');
      expect(err.message).toBe(`the webhook body is not JSON: ${why}`);
      expect(err.message).not.toMatch(/Ada|Lovelace/);
      expect(err.cause).toBeUndefined();
    }
  });

  it("parses the bytes it verified: read in place when node:crypto checks at once, copied before WebCrypto's asynchronous check", async () => {
    const body = eventBody({ type: 'TEST', data: { n: 1 } });
    const { headers } = await signedDelivery(body);
    const spki = (await import('node:crypto')).createPublicKey(keys.publicKeyPem).export({ format: 'der', type: 'spki' });
    // A caller's non-extractable CryptoKey goes to WebCrypto (an asynchronous job); the PEM to node:crypto.
    const webCryptoKey = await crypto.subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    for (const publicKey of [keys.publicKeyPem, webCryptoKey]) {
      await unwrapWebhook(body, headers, { publicKey }); // the key imported: no wait before the check
      const buffer = new TextEncoder().encode(body);
      const pending = unwrapWebhook(buffer, headers, { publicKey });
      // The caller reuses its buffer (a pooled one) before the check has ended: "n":1 becomes "n":7.
      buffer[body.indexOf('"n":1') + 4] = 0x37;
      expect(await pending).toMatchObject({ type: 'TEST', data: { n: 1 } });
    }
  });

  it('a body given as a string is parsed as its UTF-8 bytes decode: a lone surrogate as U+FFFD, a leading BOM dropped', async () => {
    // JSON.stringify would escape it: the raw lone surrogate is put in by hand.
    const lone = eventBody({ type: 'TEST', data: { name: 'aXb' } }).replace('aXb', 'a\uD800b');
    expect(((await unwrapBody(lone)).data as { name: string }).name).toBe('a\uFFFDb');
    const bom = eventBody({ type: 'TEST', data: { name: 'Ada' } });
    expect(await unwrapBody(`\uFEFF${bom}`)).toEqual(JSON.parse(bom));
    expect(await unwrapBody(bom)).toEqual(JSON.parse(bom));
  });

  it('refuses a body that is not UTF-8', async () => {
    const bytes = new TextEncoder().encode(eventBody());
    bytes[bytes.length - 3] = 0xff;
    const err = await rejection(() => unwrapBody(bytes));
    expect(err.reason).toBe('invalid_body');
    expect(err.message).toContain('UTF-8');
  });

  for (const [name, body] of [
    ['an array', [1]],
    ['null', null],
    ['a string', 'Webhook:1'],
  ] as const) {
    it(`refuses a body that is ${name}: not an event at all`, async () => {
      const err = await rejection(() => unwrapBody(JSON.stringify(body)));
      expect(err.reason).toBe('invalid_event');
      expect(err.message).toContain('not a JSON object');
    });
  }

  // A verified delivery is always delivered: what differs from the document is listed, never thrown.
  const envelopeCases: Array<[string, Record<string, unknown>, string]> = [
    ['no id', { id: undefined }, 'id'],
    ['a numeric id', { id: 1 }, 'id'],
    ['no type', { type: undefined }, 'type'],
    ['an empty type', { type: '' }, 'type'],
    ['no timestamp', { timestamp: undefined }, 'timestamp'],
    ['a date-only timestamp', { timestamp: '2025-10-13' }, 'timestamp'],
    ['a timestamp without offset', { timestamp: '2025-10-13T10:00:00' }, 'timestamp'],
    ['30 February', { timestamp: '2025-02-30T10:00:00Z' }, 'timestamp'],
    ['hour 24', { timestamp: '2025-02-10T24:00:00Z' }, 'timestamp'],
    ['an epoch-number timestamp', { timestamp: 1760000000000 }, 'timestamp'],
    ['no data', { data: undefined }, 'data'],
    ['array data', { data: [] }, 'data'],
    ['null data', { data: null }, 'data'],
  ];
  for (const [name, override, field] of envelopeCases) {
    it(`delivers an envelope with ${name}, the field named in event.issues`, async () => {
      const body = eventBody(override);
      const event = (await unwrapBody(body)) as { issues?: { path: string }[] };
      expect(event.issues?.map((i) => i.path)).toEqual([field]);
      const { issues: _, ...rest } = event;
      expect(rest).toEqual(JSON.parse(body));
    });
  }

  it('an id of any shape is no issue (identifiers are never checked by prefix)', async () => {
    for (const id of ['Transaction:1', 'Webhook:', 'evt_123']) {
      const event = (await unwrapBody(eventBody({ id }))) as { id: string; issues?: unknown };
      expect(event.id).toBe(id);
      expect(event.issues).toBeUndefined();
    }
  });

  it('accepts offsets, fractions and lower-case separators in the timestamp', async () => {
    for (const timestamp of ['2025-10-13T10:00:00.123456Z', '2025-10-13T12:00:00+02:00', '2025-10-13t10:00:00z']) {
      await expect(unwrapBody(eventBody({ timestamp }))).resolves.toMatchObject({ timestamp });
    }
  });

  it('refuses an event older than maxAge', async () => {
    const now = Date.parse('2025-10-13T12:00:00Z');
    const body = eventBody({ timestamp: '2025-10-13T11:00:00Z' });
    await expect(unwrapBody(body, { maxAge: 2 * 3600_000, now: () => now })).resolves.toBeDefined();
    const err = await rejection(() => unwrapBody(body, { maxAge: 30 * 60_000, now: () => now }));
    expect(err.reason).toBe('stale_event');
    expect(err.message).toContain('3600 s old');
  });

  it('refuses an event dated more than 5 minutes in the future', async () => {
    const now = Date.parse('2025-10-13T12:00:00Z');
    const soon = eventBody({ timestamp: '2025-10-13T12:04:59Z' });
    await expect(unwrapBody(soon, { maxAge: 60_000, now: () => now })).resolves.toBeDefined();
    const later = eventBody({ timestamp: '2025-10-13T12:05:01Z' });
    const err = await rejection(() => unwrapBody(later, { maxAge: 60_000, now: () => now }));
    expect(err.reason).toBe('future_event');
    expect(err.message).toContain('future');
  });

  it('skips the age check without maxAge', async () => {
    await expect(unwrapBody(eventBody({ timestamp: '2001-01-01T00:00:00Z' }))).resolves.toBeDefined();
  });

  it('refuses a nonsensical maxAge as a programming error', async () => {
    await expect(unwrapBody(eventBody(), { maxAge: -1 })).rejects.toThrow(RangeError);
    await expect(unwrapBody(eventBody(), { maxAge: Number.NaN })).rejects.toThrow(RangeError);
  });

  it('returns unknown event types as the envelope, without throwing', async () => {
    const body = eventBody({ type: 'SOMETHING.NEW', data: { anything: [1, 2] } });
    await expect(unwrapBody(body)).resolves.toEqual(JSON.parse(body));
  });

  it('passes the envelope to parse and returns its result', async () => {
    const { body, headers } = await signedDelivery(eventBody({ type: 'TEST' }));
    const event = await unwrapWebhook(body, headers, {
      publicKey: keys.publicKeyPem,
      parse: (json) => ({ kind: 'test' as const, id: (json as WebhookEnvelope).id }),
    });
    expectTypeOf(event).toEqualTypeOf<{ kind: 'test'; id: string }>();
    expect(event).toEqual({ kind: 'test', id: JSON.parse(body).id });
  });

  it('a parser that throws still hands the verified event over, the reason in event.issues', async () => {
    const { body, headers } = await signedDelivery(eventBody({ type: 'INCOMING_PAYMENT.PENDING' }));
    const event = (await unwrapWebhook(body, headers, {
      publicKey: keys.publicKeyPem,
      parse: async () => {
        throw new Error('data.status: expected "PENDING"');
      },
    })) as { type: string; issues?: { rule: string; message: string }[] };
    expect(event.type).toBe('INCOMING_PAYMENT.PENDING');
    expect(event.issues).toEqual([{ path: '', rule: 'parse_failed', message: 'data.status: expected "PENDING"' }]);
  });
});

describe('eventParser', () => {
  type Pending = WebhookEnvelope<'INCOMING_PAYMENT.PENDING', { id: string; status: 'PENDING' }>;
  const parse = eventParser({
    'INCOMING_PAYMENT.PENDING': (e): Pending => {
      if (e.data.status !== 'PENDING') throw new Error('data.status must be PENDING');
      return e as Pending;
    },
  });

  it('dispatches on type and marks unknown types', async () => {
    const pending = eventBody({ type: 'INCOMING_PAYMENT.PENDING', data: { id: 'Transaction:1', status: 'PENDING' } });
    const { headers } = await signedDelivery(pending);
    const event = await unwrapWebhook(pending, headers, { publicKey: keys.publicKeyPem, parse });
    expectTypeOf(event).toEqualTypeOf<Pending | UnknownEvent>();
    expect('unknown' in event).toBe(false);
    if (!('unknown' in event)) expect(event.data.status).toBe('PENDING');

    for (const type of ['SOMETHING.NEW', '__proto__', 'constructor', 'toString']) {
      const other = eventBody({ type });
      const signed = await signedDelivery(other);
      await expect(unwrapWebhook(other, signed.headers, { publicKey: keys.publicKeyPem, parse })).resolves.toMatchObject({ type, unknown: true });
    }
  });

  it('reports a typed event that fails its parser in event.issues, never as a refusal', async () => {
    const bad = eventBody({ type: 'INCOMING_PAYMENT.PENDING', data: { status: 'COMPLETED' } });
    const { headers } = await signedDelivery(bad);
    const event = (await unwrapWebhook(bad, headers, { publicKey: keys.publicKeyPem, parse })) as { data: unknown; issues?: { message: string }[] };
    expect(event.data).toEqual({ status: 'COMPLETED' });
    expect(event.issues?.[0]?.message).toContain('must be PENDING');
  });
});

describe('parseIsoDateTime', () => {
  it('agrees with Date.parse on valid date-times and refuses impossible ones', () => {
    expect(parseIsoDateTime('2024-02-29T23:59:59Z')).toBe(Date.parse('2024-02-29T23:59:59Z'));
    expect(parseIsoDateTime('2023-02-29T00:00:00Z')).toBeUndefined();
    expect(parseIsoDateTime('2025-04-31T00:00:00Z')).toBeUndefined();
    expect(parseIsoDateTime('2025-13-01T00:00:00Z')).toBeUndefined();
    expect(parseIsoDateTime('2025-01-01T00:60:00Z')).toBeUndefined();
    expect(parseIsoDateTime('2025-01-01T00:00:00+24:00')).toBeUndefined();
    expect(parseIsoDateTime(' 2025-01-01T00:00:00Z')).toBeUndefined();
  });
});
