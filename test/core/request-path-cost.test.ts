/**
 * What the request path costs per call, as counts that do not move with the machine's load (issue 36 §2):
 * the promises a call makes over raw `fetch` against a loopback server. Plus the order the list page's
 * reading keeps with a trace (it was moved into the leg's own step when there is none).
 */
import { createHook } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder, ResponseValidationError } from '../../src/index';
import { otel } from '../telemetry/helpers';

const customer = {
  id: 'Customer:1',
  customerType: 'INDIVIDUAL',
  region: 'US',
  fullName: 'Ada',
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};
let server: Server;
let base: string;
/** The envelope the list answers with: a good one, unless a test breaks it. */
let listBody: unknown = { data: [customer, customer], hasMore: false, totalCount: 2 };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = Buffer.from(JSON.stringify(req.method === 'GET' ? listBody : { id: 'Quote:1' }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': 'req_cost' });
      res.end(body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** Promises created per call of `fn`, over `calls` warm sequential calls (the caller's `await` included). */
async function promisesPerCall(fn: () => PromiseLike<unknown>, calls = 50): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made++;
    },
  });
  hook.enable();
  try {
    for (let i = 0; i < calls; i++) await fn();
  } finally {
    hook.disable();
  }
  return made / calls;
}

describe('promises per call, over raw fetch (same loopback server, same process)', () => {
  it('customers.list(): at most 5 more than fetch + json() (6 before the page was read in the leg)', async () => {
    const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox', timeout: 60_000 });
    const raw = await promisesPerCall(async () => (await fetch(`${base}/2025-10-13/customers?limit=20`, { headers: { accept: 'application/json' } })).json());
    const sdk = await promisesPerCall(() => cb.customers.list({ limit: 20 }));
    const page = await cb.customers.list({ limit: 20 });
    expect(page.data).toEqual([customer, customer]); // the same answer both ways
    expect(sdk - raw).toBeLessThanOrEqual(5);
  });
});

describe('a list page whose envelope is malformed', () => {
  it('untraced: the call rejects with ResponseValidationError naming the field', async () => {
    listBody = { data: 'not a list' };
    try {
      const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' });
      const error = await cb.customers.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues).toEqual([{ path: 'data', rule: 'invalid_type', message: 'expected array' }]);
      expect((error as ResponseValidationError).requestId).toBe('req_cost');
    } finally {
      listBody = { data: [customer, customer], hasMore: false, totalCount: 2 };
    }
  });

  it('traced: the call rejects the same, and its span (the HTTP call, which succeeded) ends without an error', async () => {
    const o = otel();
    try {
      const cb = new Crossborder({
        tokenId: 'tok',
        clientSecret: 'sec',
        baseUrl: base,
        environment: 'sandbox',
        tracerProvider: o.tracerProvider,
        meterProvider: o.meterProvider,
      });
      await cb.customers.list(); // the recorder loaded: the next call is traced from its first step
      listBody = { data: 'not a list' };
      const error = await cb.customers.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ResponseValidationError);
      const spans = o.spans();
      expect(spans.map((s) => [s.name, s.status.code, s.attributes['http.response.status_code'], s.attributes['error.type']])).toEqual([
        ['GET /customers', 0, 200, undefined],
        ['GET /customers', 0, 200, undefined],
      ]);
    } finally {
      listBody = { data: [customer, customer], hasMore: false, totalCount: 2 };
    }
  });
});
