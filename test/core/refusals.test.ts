/**
 * What the pipeline refuses before sending, and answers it never takes at face value (issue #16:
 * secrets echoed by gateways, 2xx without the resource, timer overflow, Idempotency-Key in headers,
 * null arguments, unsendable headers, redirects).
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import { APIConnectionError, APIError, ConfigurationError, ValidationError } from '../../src/core/errors';
import { op, rejected, SECRET, testClient } from '../helpers/client';
import { json } from '../helpers/responses';

function recording(answer: (n: number) => Response) {
  const sent: { url: string; init: RequestInit }[] = [];
  return { sent, fetch: async (url: string, init: RequestInit) => (sent.push({ url, init }), answer(sent.length)) };
}

const basic = Buffer.from(`tok_test:${SECRET}`).toString('base64');
const quote = {
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:2' },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 100,
} as const;

describe('the client secret never comes back in an error (a gateway echoing the request)', () => {
  const echoes: [string, () => Response][] = [
    [
      'an HTML page',
      () =>
        new Response(`<html><pre>POST /quotes\nAuthorization: Basic ${basic}\nx: ${SECRET}</pre></html>`, {
          status: 502,
          headers: { 'content-type': 'text/html' },
        }),
    ],
    [
      'a JSON body',
      () =>
        json(
          {
            status: 500,
            code: 'INTERNAL_ERROR',
            message: `upstream said Authorization: Basic ${basic}`,
            details: { request: { headers: { authorization: `Basic ${basic}` } }, secret: SECRET },
          },
          500,
        ),
    ],
    [
      'a non-JSON 2xx',
      () => new Response(`<html>Authorization: Basic ${basic} ${SECRET}</html>`, { status: 200, headers: { 'content-type': 'application/json' } }),
    ],
    ['a header', () => json({ status: 400, code: 'INVALID_INPUT', message: 'no' }, 400, { 'x-echo-authorization': `Basic ${basic}` })],
    [
      'X-Request-Id on an error',
      () => json({ status: 503, code: 'UNAVAILABLE', message: 'later' }, 503, { 'x-request-id': `req-1 Authorization: Basic ${basic} ${SECRET}` }),
    ],
    [
      'X-Request-Id on a malformed 202 challenge',
      () => json({ payloadToSign: 5, requestId: 'r-1', expiresAt: 'soon' }, 202, { 'x-request-id': `Basic ${basic} ${SECRET}` }),
    ],
    [
      'X-Request-Id on a non-JSON 2xx',
      () => new Response('<html>ok</html>', { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': `Basic ${basic}` } }),
    ],
    [
      'a body nested deeper than the scrubber walks',
      () => {
        let details: unknown = { authorization: `Basic ${basic}`, secret: SECRET };
        for (let i = 0; i < 40; i++) details = { level: details };
        return json({ status: 500, code: 'INTERNAL_ERROR', message: 'deep', details }, 500);
      },
    ],
  ];
  for (const [what, answer] of echoes) {
    it(`in ${what}: not in message, stack, inspect, JSON, cause, nor debug logs`, async () => {
      const logs: unknown[] = [];
      const log = (...args: unknown[]) => void logs.push(args);
      const { fetch } = recording(answer);
      const { client } = testClient({ fetch, maxRetries: 0, logger: { debug: log, info: log, warn: log, error: log }, logLevel: 'debug' });
      const err = await rejected(client.call(op({ method: 'POST', path: '/quotes', idempotent: true }), { body: { a: 1 } }));
      const texts = [err.message, err.stack, inspect(err, { depth: 8 }), JSON.stringify(err), inspect(err.cause ?? ''), JSON.stringify(logs)];
      for (const text of texts) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(basic);
      }
    });
  }
});

it('X-Request-Id on a list answer that is not a list: not in the ResponseValidationError', async () => {
  const { fetch } = recording(() => json({ data: 5 }, 200, { 'x-request-id': `req-2 Basic ${basic} ${SECRET}` }));
  const { client } = testClient({ fetch, maxRetries: 0 });
  const err = await rejected(client.list(op({ method: 'GET', path: '/things', paginated: true })));
  expect(err.name).toBe('ResponseValidationError');
  expect(err.requestId).toMatch(/^req-2 /);
  for (const text of [err.message, err.stack, inspect(err, { depth: 8 }), JSON.stringify(err)]) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(basic);
  }
});

describe('a 2xx without the resource', () => {
  for (const [what, answer] of [
    ['200 null', () => json(null)],
    ['204', () => new Response(null, { status: 204 })],
    ['200 "hello"', () => json('hello')],
    ['200 true', () => json(true)],
    ['201 0', () => json(0, 201)],
    ['200 []', () => json([])],
  ] as const) {
    it(`${what} on quotes.create is a typed error with outcomeUnknown and the key; createAndExecute never a TypeError`, async () => {
      const { sent, fetch } = recording(answer);
      const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch, maxRetries: 0 });
      const err = await rejected(cb.quotes.create(quote, { idempotencyKey: 'k-1' }));
      expect(err).toBeInstanceOf(APIConnectionError);
      expect(err).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'k-1' });
      const again = await rejected(cb.quotes.createAndExecute(quote, { idempotencyKey: 'k-2' }));
      expect(again).toBeInstanceOf(APIConnectionError);
      expect(again).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'k-2:create' });
      expect(sent).toHaveLength(2);
    });
  }

  it('createAndExecute: a created quote without an id is an unknown outcome; a status it does not know is executed, not taken as done', async () => {
    const noId = recording(() => json({ status: 'PENDING' }, 201));
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch: noId.fetch, maxRetries: 0 });
    const err = await rejected(cb.quotes.createAndExecute(quote, { idempotencyKey: 'k-3' }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'k-3:create' });
    expect(noId.sent).toHaveLength(1);

    const answers = [json({ id: 'Quote:9', status: 'AWAITING_FUNDS' }, 201), json({ id: 'Quote:9', status: 'PROCESSING' })];
    const unknown = recording((n) => answers[n - 1]!);
    const cb2 = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch: unknown.fetch, maxRetries: 0 });
    await expect(cb2.quotes.createAndExecute(quote, { idempotencyKey: 'k-4' })).resolves.toMatchObject({ id: 'Quote:9', status: 'PROCESSING' });
    expect(unknown.sent.map((r) => r.url.replace(/^.*2025-10-13/, ''))).toEqual(['/quotes', '/quotes/Quote%3A9/execute']);

    for (const done of ['PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED']) {
      const once = recording(() => json({ id: 'Quote:5', status: done }, 201));
      const cb3 = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch: once.fetch, maxRetries: 0 });
      await expect(cb3.quotes.createAndExecute(quote)).resolves.toMatchObject({ status: done });
      expect(once.sent, done).toHaveLength(1);
    }
  });

  it('a key too long for <key>:execute is refused before the create is sent', async () => {
    const { sent, fetch } = recording(() => json({ id: 'Quote:1', status: 'PENDING' }, 201));
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch });
    const err = await rejected(cb.quotes.createAndExecute(quote, { idempotencyKey: 'k'.repeat(248) }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.field).toBe('options.idempotencyKey');
    expect(sent).toHaveLength(0);
  });
});

describe('timeouts a timer cannot hold', () => {
  it('are refused at construction and per call, never fire after 1 ms', async () => {
    expect(() => testClient({ timeout: 2 ** 31 })).toThrow(ConfigurationError);
    const { sent, fetch } = recording(() => json({}));
    const { client } = testClient({ fetch });
    const err = await rejected(client.call(op({ method: 'GET', path: '/x' }), {}, { timeout: 2 ** 31 }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.field).toBe('options.timeout');
    expect(sent).toHaveLength(0);
    await expect(client.call(op({ method: 'GET', path: '/x' }), {}, { timeout: 2 ** 31 - 1 })).resolves.toEqual({});
  });
});

describe('Idempotency-Key among the headers is the idempotencyKey option', () => {
  it('is used, not replaced, where the operation honours one; refused where it does not', async () => {
    const { sent, fetch } = recording(() => json({ id: 'Quote:1', status: 'PENDING' }, 201));
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch });
    await cb.quotes.create(quote, { headers: { 'idempotency-KEY': 'mine-1' } });
    expect((sent[0]!.init.headers as Record<string, string>)['idempotency-key']).toBe('mine-1');
    const { idempotencyKey } = await cb.quotes.create(quote, { headers: { 'Idempotency-Key': 'mine-2' } }).withResponse();
    expect(idempotencyKey).toBe('mine-2');
    const refused = await rejected(cb.customers.create({ customerType: 'INDIVIDUAL' }, { headers: { 'Idempotency-Key': 'x' } }));
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.message).toMatch(/does not honour Idempotency-Key/);
    const conflict = await rejected(cb.quotes.create(quote, { idempotencyKey: 'a', headers: { 'Idempotency-Key': 'b' } }));
    expect(conflict.field).toBe('options.headers.Idempotency-Key');
    const twice = await rejected(cb.quotes.create(quote, { headers: { 'idempotency-key': 'a', 'Idempotency-Key': 'b' } }));
    expect(twice).toBeInstanceOf(ValidationError);
    expect(twice.message).toContain('given twice');
    expect(sent).toHaveLength(2);
    // createAndExecute takes the header as its base key, like the option.
    await cb.quotes.createAndExecute(quote, { headers: { 'Idempotency-Key': 'pay-7' } });
    expect(sent.slice(2).map((r) => (r.init.headers as Record<string, string>)['idempotency-key'])).toEqual(['pay-7:create', 'pay-7:execute']);
    expect(() => new Crossborder({ tokenId: 't', clientSecret: 's', defaultHeaders: { 'Idempotency-Key': 'k' } })).toThrow(ConfigurationError);
  });
});

describe('the idempotencyKey option', () => {
  it('is a non-empty string of at most 255 characters, sent as given; otherwise refused naming it, nothing sent', async () => {
    const { sent, fetch } = recording(() => json({ id: 'Quote:1', status: 'PENDING' }, 201));
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch });
    for (const bad of ['', 'k'.repeat(256), 42, ['k']]) {
      const err = await rejected(cb.quotes.create(quote, { idempotencyKey: bad as string }));
      expect(err, String(bad)).toBeInstanceOf(ValidationError);
      expect([err.field, err.issues[0]?.rule]).toEqual(['options.idempotencyKey', 'invalid_format']);
    }
    expect(sent).toHaveLength(0);
    await cb.quotes.create(quote, { idempotencyKey: 'k'.repeat(255) });
    expect((sent[0]!.init.headers as Record<string, string>)['idempotency-key']).toBe('k'.repeat(255));
  });

  it('the same key given twice (option and header, or two spellings of the header) is one key; other headers pass through', async () => {
    const { sent, fetch } = recording(() => json({ id: 'Quote:1', status: 'PENDING' }, 201));
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch });
    await cb.quotes.create(quote, { idempotencyKey: 'same', headers: { 'Idempotency-Key': 'same', 'X-Trace': 't-1' } });
    await cb.quotes.create(quote, { headers: { 'idempotency-key': 'same2', 'Idempotency-Key': 'same2' } });
    const headers = sent.map((r) => r.init.headers as Record<string, string>);
    expect(headers.map((h) => Object.keys(h).filter((k) => k.toLowerCase() === 'idempotency-key'))).toEqual([['idempotency-key'], ['idempotency-key']]);
    expect(headers.map((h) => h['idempotency-key'])).toEqual(['same', 'same2']);
    expect(headers[0]!['x-trace'] ?? headers[0]!['X-Trace']).toBe('t-1');
  });
});

describe('null arguments', () => {
  it('are treated as absent: always a promise, never a synchronous TypeError', async () => {
    const { sent, fetch } = recording(() => json({ data: [], hasMore: false, totalCount: 0 }));
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'https://api.test.invalid', fetch });
    await expect(cb.customers.list(null as never)).resolves.toMatchObject({ data: [] });
    await expect(cb.customers.list(undefined, null as never)).resolves.toMatchObject({ data: [] });
    await expect(cb.customers.retrieve('Customer:1', null as never)).resolves.toBeDefined();
    await expect(
      cb.auth.credentials.verify('AuthMethod:1', { type: 'OAUTH', oidcToken: 't', clientPublicKey: '04' + 'a'.repeat(128) }, null),
    ).resolves.toBeDefined();
    const invalid = await rejected(cb.customers.create(null as never, null as never));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(4);
  });
});

describe('headers that cannot be sent', () => {
  it('a bad header name or a line break in a value is a ValidationError before anything is sent', async () => {
    const { sent, fetch } = recording(() => json({}));
    const { client } = testClient({ fetch });
    for (const headers of [{ 'bad name': 'x' }, { 'x-ok': 'a\r\nInjected: 1' }, { 'x:colon': 'v' }] as Record<string, string>[]) {
      const err = await rejected(client.call(op({ method: 'POST', path: '/x' }), { body: {} }, { headers }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.outcomeUnknown).toBeUndefined();
    }
    const relay = await rejected(client.call(op({ method: 'POST', path: '/x', signed: true }), { body: {} }, { signature: 's', requestId: 'r\n1' }));
    expect(relay).toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
    // The requestId was not burnt: the same one can be sent once fixed.
    await expect(client.call(op({ method: 'POST', path: '/x', signed: true }), { body: {} }, { signature: 's', requestId: 'r1' })).resolves.toEqual({});
  });
});

describe('headers the HTTP layer refuses (real fetch, loopback server)', () => {
  it('hop-by-hop headers are a ValidationError naming them, and nothing reaches the server', async () => {
    const { createServer } = await import('node:http');
    let received = 0;
    const server = createServer((_req, res) => (received++, res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"Customer:1"}')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const { client } = testClient({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0, fetch: (input, init) => globalThis.fetch(input, init) });
      for (const headers of [
        { connection: 'upgrade' },
        { Upgrade: 'websocket' },
        { expect: '100-continue' },
        { 'keep-alive': 'timeout=5' },
        { 'transfer-encoding': 'chunked' },
        { te: 'trailers' },
      ] as Record<string, string>[]) {
        const err = await rejected(client.call(op({ method: 'POST', path: '/customers' }), { body: {} }, { headers }));
        expect(err, JSON.stringify(headers)).toBeInstanceOf(ValidationError);
        expect(err.field).toBe(`options.headers.${Object.keys(headers)[0]}`);
        expect(err.message).toContain('hop-by-hop');
      }
      expect(received).toBe(0);
      await expect(client.call(op({ method: 'POST', path: '/customers' }), { body: {} }, { headers: { 'x-trace': '1' } })).resolves.toEqual({
        id: 'Customer:1',
      });
      expect(received).toBe(1);
    } finally {
      server.close();
    }
  });

  it('an argument undici refuses before writing anything is not an unknown outcome', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('invalid upgrade header'), { code: 'UND_ERR_INVALID_ARG' }),
    });
    const { client } = testClient({ maxRetries: 0, fetch: async () => Promise.reject(refused) });
    const err = await rejected(client.call(op({ method: 'POST', path: '/customers' }), { body: {} }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.outcomeUnknown).toBe(false);
  });
});

describe('redirects are never followed', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} on a write and on a read: a typed error naming the status and location`, async () => {
      const { sent, fetch } = recording(() => new Response(null, { status, headers: { location: 'https://elsewhere.example/collect' } }));
      const { client } = testClient({ fetch, maxRetries: 2 });
      for (const method of ['POST', 'GET'] as const) {
        const err = await rejected(client.call(op({ method, path: '/x' }), method === 'POST' ? { body: { fullName: 'Ada' } } : {}));
        expect(err).toBeInstanceOf(APIError);
        expect(err).toMatchObject({ status, code: 'REDIRECT' });
        expect(err.message).toContain('https://elsewhere.example/collect');
        // A 303 answers a write the service has processed (RFC 9110 §15.4.4): its outcome is unknown.
        expect(err.outcomeUnknown, `${status} ${method}`).toBe(status === 303 && method === 'POST');
      }
      expect(sent.map((s) => s.init.redirect)).toEqual(['manual', 'manual']);
      expect(sent.map((s) => s.url).every((u) => u.startsWith('https://api.test.invalid/'))).toBe(true);
    });
  }

  it('over real HTTP, the other origin is never contacted', async () => {
    const { createServer } = await import('node:http');
    let elsewhere = 0;
    const other = createServer((_req, res) => (elsewhere++, res.end('{"id":"stolen"}')));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherPort = (other.address() as { port: number }).port;
    const api = createServer((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${otherPort}/collect` });
      res.end();
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    try {
      const { client } = testClient({ baseUrl: `http://127.0.0.1:${(api.address() as { port: number }).port}`, fetch: undefined });
      const err = await rejected(client.call(op({ method: 'POST', path: '/customers' }), { body: { fullName: 'Ada' } }));
      expect(err).toMatchObject({ status: 307, code: 'REDIRECT' });
      expect(elsewhere).toBe(0);
    } finally {
      other.close();
      api.close();
    }
  });
});
