import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError, APITimeoutError, APIUserAbortError, ConflictError, InternalServerError, RateLimitError } from '../../src/core/errors';
import { json, startLoopback } from '../helpers/loopback';
import { op, rejected, testClient } from '../helpers/client';

const getList = op({ method: 'GET', path: '/things' });
const createThing = op({ method: 'POST', path: '/things' });
const createQuote = op({ method: 'POST', path: '/quotes', idempotent: true });

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function server(handler: Parameters<typeof startLoopback>[0]) {
  const s = await startLoopback(handler);
  servers.push(s);
  return s;
}

describe('retries', () => {
  it('repeats a GET on 500 up to maxRetries with growing, jittered backoff', async () => {
    const s = await server((_req, res) => json(res, 500, { status: 500, code: 'INTERNAL_ERROR', message: 'boom' }));
    const { client, sleeps } = testClient({ baseUrl: s.url });
    const err = await rejected(client.call(getList));
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.status).toBe(500);
    expect(s.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(375);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
    expect(sleeps[1]).toBeGreaterThanOrEqual(750);
    expect(sleeps[1]).toBeLessThanOrEqual(1000);
  });

  it('does not repeat a write without Idempotency-Key after a 500 (it may have acted)', async () => {
    const s = await server((_req, res) => json(res, 500, { status: 500, code: 'INTERNAL_ERROR', message: 'boom' }));
    const { client } = testClient({ baseUrl: s.url });
    await expect(client.call(createThing, { body: { a: 1 } })).rejects.toBeInstanceOf(InternalServerError);
    expect(s.requests).toHaveLength(1);
  });

  it('never resends a write without key on 503 or 429, even with Retry-After: the gateway may answer after the service acted', async () => {
    for (const [status, code, name, unknown] of [
      [503, 'INTERNAL_ERROR', 'InternalServerError', true],
      [429, 'RATE_LIMITED', 'RateLimitError', false],
    ] as const) {
      const s = await server((_req, res) => json(res, status, { status, code, message: 'busy' }, { 'retry-after': '1' }));
      const { client, sleeps } = testClient({ baseUrl: s.url });
      const err = await rejected(client.call(createThing, { body: { a: 1 } }));
      expect(s.requests).toHaveLength(1);
      expect(sleeps).toEqual([]);
      expect(err).toMatchObject({ name, status, retryAfter: 1000, outcomeUnknown: unknown });
    }
  });

  it('resends a write without key when the connection was refused (it never arrived)', async () => {
    const s = await server((_req, res) => json(res, 201, { id: 'x' }));
    const url = s.url;
    await s.close();
    const { client, sleeps } = testClient({ baseUrl: url, maxRetries: 2 });
    const err = await rejected(client.call(createThing, { body: { a: 1 } }));
    expect(err).toMatchObject({ name: 'APIConnectionError', outcomeUnknown: false });
    expect(sleeps).toHaveLength(2);
  });

  it('honours Retry-After given as an HTTP date on 429 for a keyed write', async () => {
    let n = 0;
    const s = await server((_req, res) =>
      n++ === 0
        ? json(res, 429, { status: 429, code: 'RATE_LIMITED', message: 'slow down' }, { 'retry-after': new Date(Date.now() + 5_000).toUTCString() })
        : json(res, 200, { ok: true }),
    );
    const { client, sleeps } = testClient({ baseUrl: s.url });
    await client.call({ ...createThing, idempotent: true }, { body: {} });
    expect(s.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(3_000);
    expect(sleeps[0]).toBeLessThanOrEqual(5_000);
  });

  it('does not wait for a Retry-After beyond the cap: RateLimitError carries retryAfter in ms', async () => {
    const s = await server((_req, res) => json(res, 429, { status: 429, code: 'RATE_LIMITED', message: 'later' }, { 'retry-after': '120' }));
    const { client, sleeps } = testClient({ baseUrl: s.url });
    const err = await rejected(client.call(getList));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfter).toBe(120_000);
    expect(sleeps).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });

  it('repeats an idempotent write with the same key and the same body bytes', async () => {
    let n = 0;
    const s = await server((_req, res) => (n++ < 2 ? json(res, 502, {}) : json(res, 201, { id: 'Quote:1' })));
    const { client } = testClient({ baseUrl: s.url });
    const body = { amount: 10, note: 'café 💸', nested: { z: 1, a: [1, 2] } };
    const { data, idempotencyKey } = await client.call(createQuote, { body }).withResponse();
    expect(data).toEqual({ id: 'Quote:1' });
    expect(s.requests).toHaveLength(3);
    const keys = s.requests.map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(idempotencyKey);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(s.requests.map((r) => r.body)).size).toBe(1);
    expect(s.requests[0]!.body).toBe(JSON.stringify(body));
  });

  it('does not repeat a permanent 409 (QUOTE_EXPIRED) but repeats another 409 on a GET', async () => {
    const s1 = await server((_req, res) => json(res, 409, { status: 409, code: 'QUOTE_EXPIRED', message: 'expired' }));
    const { client } = testClient({ baseUrl: s1.url });
    await expect(client.call(createQuote, { body: {} })).rejects.toBeInstanceOf(ConflictError);
    expect(s1.requests).toHaveLength(1);
    let n = 0;
    const s2 = await server((_req, res) => (n++ === 0 ? json(res, 409, { status: 409, code: 'LOCKED', message: 'busy' }) : json(res, 200, { ok: 1 })));
    const c2 = testClient({ baseUrl: s2.url }).client;
    await expect(c2.call(getList)).resolves.toEqual({ ok: 1 });
    expect(s2.requests).toHaveLength(2);
  });

  it('uses the caller-provided idempotencyKey', async () => {
    const s = await server((_req, res) => json(res, 201, { id: 'Quote:1' }));
    const { client } = testClient({ baseUrl: s.url });
    const r = await client.call(createQuote, { body: {} }, { idempotencyKey: 'my-key-1' }).withResponse();
    expect(r.idempotencyKey).toBe('my-key-1');
    expect(s.requests[0]!.headers['idempotency-key']).toBe('my-key-1');
  });
});

describe('lost responses and connection failures', () => {
  it('never resends a non-idempotent create whose response was lost; the error says the outcome is unknown', async () => {
    const s = await server((_req, _res, socket) => socket.destroy());
    const { client } = testClient({ baseUrl: s.url });
    const err = await rejected(client.call(createThing, { body: { name: 'x' } }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.outcomeUnknown).toBe(true);
    expect(err.message).toMatch(/outcome is unknown/);
    expect(s.requests).toHaveLength(1);
  });

  it('resends an idempotent write whose response was lost, with the same key', async () => {
    let n = 0;
    const s = await server((_req, res, socket) => (n++ === 0 ? socket.destroy() : json(res, 201, { id: 'Quote:9' })));
    const { client } = testClient({ baseUrl: s.url });
    await expect(client.call(createQuote, { body: { a: 1 } })).resolves.toEqual({ id: 'Quote:9' });
    expect(s.requests).toHaveLength(2);
    expect(s.requests[0]!.headers['idempotency-key']).toBe(s.requests[1]!.headers['idempotency-key']);
  });

  it('repeats even a non-idempotent write when the connection was refused (it never arrived)', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const url = s.url;
    await s.close();
    servers = [];
    const { client, sleeps } = testClient({ baseUrl: url });
    const err = await rejected(client.call(createThing, { body: {} }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.outcomeUnknown).toBe(false);
    expect(sleeps).toHaveLength(2);
  });

  it('a truncated body is a lost response: GET is repeated, a plain POST is not', async () => {
    let n = 0;
    const truncate = (res: import('node:http').ServerResponse, socket: import('node:net').Socket) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"data": [');
      setTimeout(() => socket.destroy(), 5);
    };
    const s = await server((_req, res, socket) => (n++ === 0 ? truncate(res, socket) : json(res, 200, { ok: true })));
    const { client } = testClient({ baseUrl: s.url });
    await expect(client.call(getList)).resolves.toEqual({ ok: true });
    n = 0;
    const before = s.requests.length;
    const err = await rejected(client.call(createThing, { body: {} }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.outcomeUnknown).toBe(true);
    expect(s.requests.length - before).toBe(1);
  });

  it('times out an attempt with APITimeoutError and repeats a GET', async () => {
    const s = await server(() => undefined); // never answers; closed in afterEach
    const { client, sleeps } = testClient({ baseUrl: s.url, timeout: 50, maxRetries: 1 });
    const err = await rejected(client.call(getList));
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err.message).toMatch(/timed out after 50 ms/);
    expect(s.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('an abort by the caller is APIUserAbortError, distinct from a timeout, and never retried', async () => {
    const s = await server(() => undefined);
    const { client } = testClient({ baseUrl: s.url, timeout: 10_000 });
    const controller = new AbortController();
    const pending = rejected(client.call(getList, {}, { signal: controller.signal }));
    // Abort once the request has arrived (bounded wait: a loaded machine may take more than a few ms).
    for (let i = 0; i < 500 && s.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const err = await pending;
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(err).not.toBeInstanceOf(APITimeoutError);
    expect(s.requests).toHaveLength(1);
  });

  it('an abort during the backoff sleep stops at once', async () => {
    const s = await server((_req, res) => json(res, 500, {}));
    const controller = new AbortController();
    const { client } = testClient({
      baseUrl: s.url,
      sleep: async () => {
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      },
    });
    const err = await rejected(client.call(getList, {}, { signal: controller.signal }));
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(s.requests).toHaveLength(1);
  });
});

describe('unusable answers become typed errors', () => {
  it('a 2xx HTML page is an APIConnectionError with the status, not a SyntaxError', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'x-request-id': 'req_html' });
      res.end('<html><body>proxy login</body></html>');
    });
    const { client } = testClient({ baseUrl: s.url });
    const err = await rejected(client.call(createThing, { body: {} }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.status).toBe(200);
    expect(err.requestId).toBe('req_html');
    expect(err.outcomeUnknown).toBe(true);
  });

  it('an empty 5xx is an InternalServerError with its status', async () => {
    const s = await server((_req, res) => {
      res.writeHead(504);
      res.end();
    });
    const { client } = testClient({ baseUrl: s.url, maxRetries: 0 });
    const err = await rejected(client.call(getList));
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.status).toBe(504);
    expect(err.code).toBe('UNKNOWN');
  });

  it('an HTML 502 keeps a short readable excerpt in the message', async () => {
    const s = await server((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><h1>Bad gateway</h1></html>');
    });
    const { client } = testClient({ baseUrl: s.url, maxRetries: 0 });
    const err = await rejected(client.call(getList));
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message).toContain('Bad gateway');
  });

  it('a 200 with an empty body where JSON was expected is a typed error', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    });
    const { client } = testClient({ baseUrl: s.url });
    await expect(client.call(createThing, { body: {} })).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('a 204 resolves to undefined', async () => {
    const s = await server((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const { client } = testClient({ baseUrl: s.url });
    await expect(client.call(op({ method: 'DELETE', path: '/things/1' }))).resolves.toBeUndefined();
  });
});

describe('concurrency', () => {
  it('1,000 concurrent idempotent calls get 1,000 distinct keys', async () => {
    const s = await server((req, res) => json(res, 201, { key: req.headers['idempotency-key'] }));
    const { client } = testClient({ baseUrl: s.url });
    const results = await Promise.all(Array.from({ length: 1000 }, () => client.call<{ key: string }>(createQuote, { body: { a: 1 } }).withResponse()));
    const keys = new Set(results.map((r) => r.idempotencyKey));
    expect(keys.size).toBe(1000);
    for (const r of results) expect(r.data.key).toBe(r.idempotencyKey);
    expect(s.requests).toHaveLength(1000);
  });
});
