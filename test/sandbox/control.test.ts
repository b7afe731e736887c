/** The sandbox's own surface over real HTTP on 127.0.0.1 (issue #17.2, #17.5): controls and CORS. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock, createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';

const AUTH = `Basic ${Buffer.from('tok:secret').toString('base64')}`;
let sandbox: Sandbox;
let server: SandboxServer;
let startedAt: number;
beforeAll(async () => {
  sandbox = createSandbox({ clock: createClock(undefined, { frozen: true }) });
  startedAt = sandbox.clock.now();
  server = await sandbox.listen();
});
afterAll(() => sandbox.close());

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: AUTH }) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

describe('/_sandbox/ controls', () => {
  it('advance the clock: a quote expires, the answer is the new time', async () => {
    const customer = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada', currencies: ['USD'] })).body;
    const account = (await call('GET', `/2025-10-13/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`)).body.data[0];
    await call('POST', `/2025-10-13/sandbox/internal-accounts/${encodeURIComponent(account.id)}/fund`, { amount: 10_000 });
    const other = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Bo', currencies: ['USD'] })).body;
    const target = (await call('GET', `/2025-10-13/customers/internal-accounts?customerId=${encodeURIComponent(other.id)}`)).body.data[0];
    const quote = (
      await call('POST', '/2025-10-13/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: account.id },
        destination: { destinationType: 'ACCOUNT', accountId: target.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100,
      })
    ).body;
    expect(quote.status).toBe('PENDING');
    const before = sandbox.clock.now();
    const advanced = await call('POST', '/_sandbox/clock', { advance: '10m' });
    expect(advanced.status).toBe(200);
    expect(Date.parse(advanced.body.now) - before).toBe(600_000);
    expect((await call('GET', `/2025-10-13/quotes/${encodeURIComponent(quote.id)}`)).body.status).toBe('EXPIRED');
    const again = await call('POST', '/_sandbox/clock', { advanceMs: 30_000 });
    expect(Date.parse(again.body.now) - before).toBe(630_000);
    expect((await call('POST', '/_sandbox/clock', { advance: 'soon' })).status).toBe(400);
    expect((await call('POST', '/_sandbox/clock', { advanceMs: -1 })).status).toBe(400);
  });

  it('refuse an advance past the last valid date (naming the field) and keep answering; reset puts the clock back and never reuses an id', async () => {
    const start = sandbox.clock.now();
    const customer = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Kim' })).body;
    for (const [body, field] of [
      [{ advance: '100000000d' }, 'advance'],
      [{ advanceMs: 1e20 }, 'advanceMs'],
      [{ advanceMs: 8.64e15 }, 'advanceMs'],
      [{ advance: '3000000d' }, 'advance'],
    ] as const) {
      const refused = await call('POST', '/_sandbox/clock', body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'INVALID_INPUT', details: { field } });
      expect(refused.body.message).toContain('9999-12-30T23:59:59.999Z'); // past it a date is no longer a date-time the state file can hold
    }
    expect(sandbox.clock.now()).toBe(start); // refused: not moved
    expect(() => sandbox.clock.advance(1e20)).toThrow(RangeError);
    expect((await call('GET', '/2025-10-13/customers')).status).toBe(200);
    const far = await call('POST', '/_sandbox/clock', { advance: '36500d' }); // a century on is fine
    expect(far.status).toBe(200);
    expect(Date.parse(far.body.now) - start).toBe(36_500 * 86_400_000);
    const reset = await call('POST', '/_sandbox/reset', {});
    expect(reset.status).toBe(200);
    expect(Date.parse(reset.body.now)).toBe(startedAt); // where this frozen clock stood when the sandbox was made
    expect(sandbox.clock.now()).toBe(startedAt); // (the test before this one moved it 10.5 minutes on)
    const after = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Kim' })).body;
    expect(after.id).not.toBe(customer.id);
  });

  it('export the state, reset to empty, import it back: the same customers, pending work resumes, new ids do not collide', async () => {
    const customer = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Grace', currencies: ['USD'] })).body;
    const account = (await call('GET', `/2025-10-13/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`)).body.data[0];
    await call('POST', `/2025-10-13/sandbox/internal-accounts/${encodeURIComponent(account.id)}/fund`, { amount: 5_000 });
    const payee = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Hal', currencies: ['USD'] })).body;
    const target = (await call('GET', `/2025-10-13/customers/internal-accounts?customerId=${encodeURIComponent(payee.id)}`)).body.data[0];
    const quote = (
      await call('POST', '/2025-10-13/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: account.id },
        destination: { destinationType: 'ACCOUNT', accountId: target.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100,
      })
    ).body;
    const state = await call('GET', '/_sandbox/state');
    expect(state.body.format).toBe('crossborder-sandbox-state/1');
    const customersIn = (doc: { world: { customers: [string, unknown][] } }) => doc.world.customers.map(([id]) => id);
    expect(customersIn(state.body)).toContain(customer.id);
    expect((await call('GET', '/_sandbox/webhooks/deliveries')).body).toEqual({ data: expect.any(Array) });
    expect((await call('POST', '/_sandbox/reset', {})).body.reset).toBe(true);
    expect(customersIn((await call('GET', '/_sandbox/state')).body)).toEqual([]);
    expect((await call('GET', `/2025-10-13/customers/${encodeURIComponent(customer.id)}`)).status).toBe(404);

    expect((await call('PUT', '/_sandbox/state', state.body)).status).toBe(200);
    expect((await call('GET', `/2025-10-13/customers/${encodeURIComponent(customer.id)}`)).body.fullName).toBe('Grace');
    expect(sandbox.state.balance(account.id)).toBe(5_000);
    await call('POST', '/_sandbox/clock', { advance: '10m' });
    expect((await call('GET', `/2025-10-13/quotes/${encodeURIComponent(quote.id)}`)).body.status).toBe('EXPIRED'); // its expiry was scheduled again
    const later = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ivy' })).body;
    expect(customersIn(state.body)).not.toContain(later.id);
    expect((await call('PUT', '/_sandbox/state', { format: 'nope' })).status).toBe(400);
  });

  it('PUT back a state of a few MB that GET exported; a body over a limit is reported as too large', async () => {
    await call('POST', '/_sandbox/reset', {});
    const first = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Many Copies', currencies: ['USD'] }))
      .body;
    const doc = (await call('GET', '/_sandbox/state')).body;
    const [, record] = doc.world.customers[0];
    // 8,000 more customers, each a copy of the first under its own id: a state of about 3.6 MB.
    for (let i = 1; i <= 8_000; i++) {
      const id = `Customer:${(0x10000 + i).toString(16).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`;
      doc.world.customers.push([
        id,
        { ...record, seq: 0x10000 + i, data: { ...record.data, id, fullName: `Copy ${i}`, umaAddress: `$copy${i}@sandbox.crossborder.example` } },
      ]);
    }
    doc.lastSequence = 0x10000 + 8_000;
    const text = JSON.stringify(doc);
    expect(text.length).toBeGreaterThan(3_000_000);
    const res = await fetch(`${server.url}/_sandbox/state`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: text,
    });
    expect([res.status, (await res.json()).imported]).toEqual([200, true]);
    const list = (await call('GET', '/2025-10-13/customers?limit=1')).body;
    expect(list.totalCount).toBe(8_001);
    const exported = await fetch(`${server.url}/_sandbox/state`, { headers: { authorization: AUTH } });
    const again = await exported.text();
    expect(again.length).toBeGreaterThan(3_000_000);
    const back = await fetch(`${server.url}/_sandbox/state`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: again,
    });
    expect(back.status).toBe(200); // what GET exports, PUT takes back
    expect((await call('GET', `/2025-10-13/customers/${encodeURIComponent(first.id)}`)).body.fullName).toBe('Many Copies');

    // Other routes keep the 1 MiB limit, and say so rather than "not a sandbox state".
    const big = JSON.stringify({ advance: '10m', padding: 'x'.repeat(1_100_000) });
    const clock = await call('POST', '/_sandbox/clock', JSON.parse(big));
    expect(clock.status).toBe(400);
    expect(clock.body).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'body' } });
    expect(clock.body.message).toBe('The request body exceeds 1048576 bytes (1 MiB).');
    const { bodyLimit, MAX_STATE_BODY_BYTES } = await import('../../src/sandbox/serve/http');
    expect([
      bodyLimit('PUT', '/_sandbox/state'),
      bodyLimit('PUT', 'http://x/_sandbox/state?x=1'),
      bodyLimit('POST', '/_sandbox/state'),
      bodyLimit('PUT', '/2025-10-13/customers/x'),
    ]).toEqual([MAX_STATE_BODY_BYTES, MAX_STATE_BODY_BYTES, 1024 * 1024, 1024 * 1024]);
    // In-process (fetch) the same limits apply.
    const inProcess = await sandbox.fetch('http://sandbox.test/_sandbox/state', { method: 'PUT', headers: { authorization: AUTH }, body: again });
    expect(inProcess.status).toBe(200);
    await call('POST', '/_sandbox/reset', {});
  });

  it('check each record on import: a malformed one is refused with 400 naming its table and key, and the state is left as it was', async () => {
    await call('POST', '/_sandbox/reset', {});
    const kept = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Kept', currencies: ['USD'] })).body;
    const good = (await call('GET', '/_sandbox/state')).body;
    const [customerKey, customer] = good.world.customers[0];
    const [txKey] = [`Transaction:none`];
    const broken = (world: Record<string, unknown>) => ({ ...good, world: { ...good.world, ...world } });
    const cases: [unknown, string, string | undefined, RegExp][] = [
      [
        { format: 'crossborder-sandbox-state/1', world: { customers: [['Customer:x', { garbage: true }]] } },
        'world.customers',
        'Customer:x',
        /world\.customers\["Customer:x"\] has a missing or malformed seq, createdMs/,
      ],
      [
        broken({ customers: [[customerKey, { ...customer, data: { ...customer.data, platformCustomerId: undefined, customerType: 'INDIVIDUAL' } }]] }),
        'world.customers',
        customerKey,
        /data: platformCustomerId is required/,
      ],
      [
        broken({ customers: [[customerKey, { ...customer, data: { ...customer.data, customerType: 'ROBOT' } }]] }),
        'world.customers',
        customerKey,
        /data: customerType does not match any accepted shape/,
      ],
      [broken({ customers: [['Customer:other', customer]] }), 'world.customers', 'Customer:other', /stored under a key that is not its id/],
      [
        broken({
          customers: [
            [customerKey, customer],
            [customerKey, customer],
          ],
        }),
        'world.customers',
        customerKey,
        /appears twice/,
      ],
      [
        broken({ transactions: [[txKey, { seq: 1, createdMs: 0, data: { id: txKey } }]] }),
        'world.transactions',
        txKey,
        /world\.transactions\["Transaction:none"\] data: /,
      ],
      [
        broken({
          sessions: [
            [
              'Session:1',
              { id: 'Session:1', seq: 1, createdMs: 0, walletSuffix: 'w', credentialId: 'c', type: 'EMAIL_OTP', publicKey: '02', expiresMs: 0, revoked: 'no' },
            ],
          ],
        }),
        'world.sessions',
        'Session:1',
        /malformed revoked/,
      ],
      [broken({ quotes: 'none' }), 'world.quotes', undefined, /world\.quotes must be a list/],
      [broken({ config: { id: 42 } }), 'world.config', undefined, /world\.config: /],
    ];
    for (const [doc, field, key, message] of cases) {
      const res = await call('PUT', '/_sandbox/state', doc);
      expect({ field, status: res.status, code: res.body.code, details: res.body.details }).toEqual({
        field,
        status: 400,
        code: 'INVALID_INPUT',
        details: key === undefined ? { field } : { field, key },
      });
      expect(res.body.message).toMatch(message);
    }
    // Nothing was imported: the customer is still there and the list still answers.
    const list = await call('GET', '/2025-10-13/customers');
    expect([list.status, list.body.data.map((c: { id: string }) => c.id)]).toEqual([200, [kept.id]]);
  });

  it('trigger any webhook type for a resource, list the deliveries with bodies and answers, redeliver one', async () => {
    const { createServer } = await import('node:http');
    const bodies: string[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => (bodies.push(body), res.end(`thanks for ${JSON.parse(body).id}`)));
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      expect((await call('POST', '/_sandbox/webhooks/trigger', { type: 'TEST' })).status).toBe(400); // no webhookEndpoint yet
      await call('PATCH', '/2025-10-13/config', { webhookEndpoint: `http://127.0.0.1:${(hook.address() as { port: number }).port}/hooks` });
      const customer = (await call('POST', '/2025-10-13/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada' })).body;
      const triggered = await call('POST', '/_sandbox/webhooks/trigger', { type: 'CUSTOMER.KYC_REJECTED', resourceId: customer.id });
      expect(triggered.status).toBe(200);
      await sandbox.webhooks.flush();
      const deliveries = (await call('GET', '/_sandbox/webhooks/deliveries')).body.data as { eventId: string; body: string; attempts: { status?: number }[] }[];
      const mine = deliveries.find((d) => d.eventId === triggered.body.eventId)!;
      expect(JSON.parse(mine.body)).toMatchObject({ type: 'CUSTOMER.KYC_REJECTED', data: { id: customer.id } });
      // Each attempt with its time, how long it took, and what the receiver answered.
      expect(mine.attempts).toEqual([
        { at: new Date(sandbox.clock.now()).toISOString(), ms: expect.any(Number), status: 200, response: `thanks for ${mine.eventId}` },
      ]);
      const redelivered = await call('POST', `/_sandbox/webhooks/deliveries/${encodeURIComponent(mine.eventId)}/redeliver`, {});
      expect(redelivered.status).toBe(202);
      await sandbox.webhooks.flush();
      expect(bodies.filter((b) => b === mine.body)).toHaveLength(2); // same event id, same bytes
      expect((await call('POST', '/_sandbox/webhooks/deliveries/Webhook%3Anone/redeliver', {})).status).toBe(404);
      expect((await call('POST', '/_sandbox/webhooks/trigger', { type: 'CUSTOMER.KYC_APPROVED', resourceId: 'Customer:none' })).status).toBe(400);
    } finally {
      hook.close();
    }
  });

  it('take the API credentials; a preflight needs none', async () => {
    expect((await call('POST', '/_sandbox/reset', {}, {})).status).toBe(401);
    const preflight = await fetch(`${server.url}/2025-10-13/customers`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173'); // a loopback origin, echoed (issue 22)
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const answer = await call('GET', '/2025-10-13/customers', undefined, { authorization: AUTH, origin: 'http://localhost:5173' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-request-id');
    expect((await call('GET', '/_sandbox/nothing')).status).toBe(404);
  });

  it('CORS can be limited to configured origins', async () => {
    const limited = createSandbox({ cors: { origins: ['http://localhost:5173'] } });
    const s = await limited.listen();
    try {
      const allowed = await fetch(`${s.url}/2025-10-13/customers`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      const refused = await fetch(`${s.url}/2025-10-13/customers`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await limited.close();
    }
  });
});

describe('/_sandbox/events: the live stream', () => {
  it('pushes a change when the scheduler settles a payment by its own timer and when a webhook attempt finishes, with no request made', async () => {
    const { createServer } = await import('node:http');
    const hook = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const live = createSandbox(); // real time: settlement is due 2 s after execution, on a timer
    const s = await live.listen();
    const controller = new AbortController();
    try {
      const api = (method: string, path: string, body?: unknown) =>
        fetch(`${s.url}/2025-10-13${path}`, {
          method,
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then((r) => r.json());
      await api('PATCH', '/config', { webhookEndpoint: `http://127.0.0.1:${(hook.address() as { port: number }).port}/hooks` });
      const customer = await api('POST', '/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada', currencies: ['USD', 'EUR'] });
      const accounts = (await api('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`)).data as {
        id: string;
        balance: { currency: { code: string } };
      }[];
      const usd = accounts.find((a) => a.balance.currency.code === 'USD')!;
      const eur = accounts.find((a) => a.balance.currency.code === 'EUR')!;
      await api('POST', `/sandbox/internal-accounts/${encodeURIComponent(usd.id)}/fund`, { amount: 10_000 });

      const stream = await fetch(`${s.url}/_sandbox/events`, { signal: controller.signal }); // open on loopback
      expect(stream.headers.get('content-type')).toBe('text/event-stream');
      const reader = stream.body!.getReader();
      let text = '';
      const until = async (pattern: RegExp, ms: number) => {
        const deadline = Date.now() + ms;
        while (!pattern.test(text) && Date.now() < deadline) {
          const chunk = await Promise.race([reader.read(), new Promise<undefined>((r) => setTimeout(() => r(undefined), deadline - Date.now()))]);
          if (!chunk || chunk.done) break;
          text += new TextDecoder().decode(chunk.value);
        }
        return pattern.test(text);
      };
      const quote = await api('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: usd.id },
        destination: { destinationType: 'ACCOUNT', accountId: eur.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        immediatelyExecute: true,
      });
      expect(quote.status).toBe('PROCESSING');
      expect(await until(/data: \{"method":"POST","path":"\/2025-10-13\/quotes"/, 5_000)).toBe(true); // the request itself
      const afterRequest = text.length;
      // No request from here on: the settlement timer fires ~2 s later and the stream says so.
      expect(await until(/event: change\ndata: \{"source":"scheduler"/, 6_000)).toBe(true);
      expect(await until(/event: change\ndata: \{"source":"delivery"[^\n]*"type":"OUTGOING_PAYMENT.COMPLETED","state":"delivered"/, 5_000)).toBe(true);
      const later = text.slice(afterRequest).split('\n\n').filter(Boolean);
      expect(later.every((event) => event.startsWith('event: change\n'))).toBe(true); // only changes: nothing was requested meanwhile
      expect(live.state.snapshot().transactions.find((t) => t.id === quote.transactionId)!.status).toBe('COMPLETED');
    } finally {
      controller.abort();
      await live.close();
      hook.close();
    }
  }, 20_000);
});

describe('loopback or not (issue #17.5: open inspector and CORS * on loopback only)', () => {
  it('tells loopback addresses from the others', async () => {
    const { isLoopbackHost } = await import('../../src/sandbox/serve/control');
    const hosts = [
      '127.0.0.1',
      '127.0.0.2',
      '127.255.0.9',
      'localhost',
      'LOCALHOST',
      'app.localhost',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      '::',
      '192.168.1.20',
      '10.0.0.1',
      'example.com',
      '128.0.0.1',
      '127.0.0.1.example.com',
    ];
    expect(Object.fromEntries(hosts.map((h) => [h, isLoopbackHost(h)]))).toEqual({
      '127.0.0.1': true,
      '127.0.0.2': true,
      '127.255.0.9': true,
      localhost: true,
      LOCALHOST: true,
      'app.localhost': true,
      '::1': true,
      '[::1]': true,
      '::ffff:127.0.0.1': true,
      '0.0.0.0': false,
      '::': false,
      '192.168.1.20': false,
      '10.0.0.1': false,
      'example.com': false,
      '128.0.0.1': false,
      '127.0.0.1.example.com': false,
    });
  });

  it('on a non-loopback address the inspector and /_sandbox/events take the credentials, and CORS allows only configured origins', async () => {
    const { handleControl, corsHeaders, preflight } = await import('../../src/sandbox/serve/control');
    const controls = { requests: () => [], subscribe: () => () => undefined, subscribers: () => 0 } as never;
    const req = (path: string, authorization?: string) => ({
      method: 'GET',
      url: path,
      header: (n: string) => (n === 'authorization' ? authorization : undefined),
      body: undefined,
    });
    const network = { loopback: false, binding: { host: '0.0.0.0', port: 4010 } };
    for (const path of ['/_sandbox/', '/_sandbox/events']) {
      const refused = handleControl(req(path), path, controls, network);
      expect([path, refused.status, refused.headers['WWW-Authenticate']]).toEqual([path, 401, 'Basic realm="crossborder-sandbox"']);
      expect(handleControl(req(path, AUTH), path, controls, network).status).toBe(200);
      expect(handleControl(req(path), path, controls, { loopback: true }).status).toBe(200); // open on loopback
    }
    const origin = 'http://192.168.1.20:5173';
    expect(corsHeaders(origin, {}, network)).toEqual({});
    expect(preflight(origin, {}, network, 'authorization').status).toBe(403);
    expect(corsHeaders(origin, { origins: [origin] }, network)['Access-Control-Allow-Origin']).toBe(origin);
    expect(corsHeaders(origin, { origins: '*' }, network)['Access-Control-Allow-Origin']).toBe('*'); // asked for explicitly
    expect(corsHeaders(origin, {}, { loopback: true })['Access-Control-Allow-Origin']).toBe('*'); // in-process: no network
  });

  it('on another loopback address (127.0.0.2) the inspector is open and a loopback origin is allowed; a preflight allows the headers it asks for', async () => {
    const local = createSandbox();
    const s = await local.listen(0, '127.0.0.2');
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      const page = await fetch(`${s.url}/_sandbox/`);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      const answer = await fetch(`${s.url}/2025-10-13/customers`, { headers: { authorization: AUTH, origin: 'http://localhost:5173' } });
      expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      const asked = await fetch(`${s.url}/2025-10-13/customers`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,x-trace-id',
        },
      });
      expect([asked.status, asked.headers.get('access-control-allow-headers')]).toEqual([204, 'authorization,content-type,x-trace-id']);
      expect(asked.headers.get('vary')).toContain('Access-Control-Request-Headers');
    } finally {
      await local.close();
    }
  });
});

describe('the request log', () => {
  it("has the /_sandbox/* calls and preflights too, not the inspector page's own reads nor the favicon (204, quietly)", async () => {
    const logged: string[] = [];
    const s = createSandbox({ onRequest: (e) => logged.push(`${e.method} ${e.path} ${e.status}`) });
    const server = await s.listen();
    try {
      const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers: { authorization: AUTH, ...headers } });
      await fetch(`${server.url}/_sandbox/reset`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: '{}' });
      await get('/_sandbox/state');
      await get('/_sandbox/');
      await get('/_sandbox/state', { 'x-sandbox-inspector': '1' }); // the page's own read
      const icon = await get('/favicon.ico');
      expect([icon.status, await icon.text()]).toEqual([204, '']);
      await fetch(`${server.url}/2025-10-13/customers`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
      });
      await get('/2025-10-13/customers');
      const expected = [
        'POST /_sandbox/reset 200',
        'GET /_sandbox/state 200',
        'GET /_sandbox/ 200',
        'OPTIONS /2025-10-13/customers 204',
        'GET /2025-10-13/customers 200',
      ];
      expect(logged).toEqual(expected);
      const kept = (await (await get('/_sandbox/requests', { 'x-sandbox-inspector': '1' })).json()).data as { method: string; path: string; status: number }[];
      expect(kept.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(expected);
    } finally {
      await s.close();
    }
  });
});

describe('a state at the end of the clock loads again (issue 32.12)', () => {
  it('at the last instant the clock may reach, a quote expiring 5 minutes later and a payment settling 2 s later export and import', async () => {
    const { MAX_CLOCK_MS, MAX_DATE_MS } = await import('../../src/sandbox/domain/clock');
    expect(new Date(MAX_DATE_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
    const far = createSandbox({ clock: createClock(undefined, { frozen: true }) });
    const basic = { authorization: AUTH, 'content-type': 'application/json' };
    const api = async (method: string, path: string, body?: unknown) =>
      (
        await far.fetch(`http://sandbox.test/2025-10-13${path}`, { method, headers: basic, body: body === undefined ? undefined : JSON.stringify(body) })
      ).json();
    try {
      far.clock.advance(MAX_CLOCK_MS - far.clock.now());
      expect(() => far.clock.advance(1)).toThrow(RangeError);
      const ada = await api('POST', '/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada', currencies: ['USD'] });
      const bo = await api('POST', '/customers', { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Bo', currencies: ['USD'] });
      const from = (await api('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(ada.id)}`)).data[0];
      const to = (await api('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(bo.id)}`)).data[0];
      await api('POST', `/sandbox/internal-accounts/${encodeURIComponent(from.id)}/fund`, { amount: 1_000 });
      const pending = await api('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: from.id },
        destination: { destinationType: 'ACCOUNT', accountId: to.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100,
      });
      const paid = await api('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: from.id },
        destination: { destinationType: 'ACCOUNT', accountId: to.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 200,
        immediatelyExecute: true,
      });
      expect([pending.expiresAt, paid.status]).toEqual(['9999-12-31T00:04:59.999Z', 'PROCESSING']);
      const exported = far.exportState();
      const again = createSandbox({ clock: createClock(MAX_CLOCK_MS, { frozen: true }) });
      try {
        again.importState(JSON.stringify(exported));
        expect((again.exportState().world.quotes as [string, unknown][]).map(([id]) => id).sort()).toEqual([pending.id, paid.id].sort());
      } finally {
        await again.close();
      }
    } finally {
      await far.close();
    }
  });

  it('removes the state.json.<pid>.tmp files a killed writer left, and only those', async () => {
    const { mkdtempSync, writeFileSync, readdirSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { removeStaleTemporaries } = await import('../../src/sandbox/serve/state-file');
    const dir = mkdtempSync(join(tmpdir(), 'cb-stale-'));
    try {
      const file = join(dir, 'state.json');
      for (const name of [
        'state.json',
        'state.json.999999999.tmp',
        'state.json.999999998.tmp',
        `state.json.${process.pid}.tmp`,
        'state.json.abc.tmp',
        'other.json.999999999.tmp',
      ])
        writeFileSync(join(dir, name), '{');
      expect(
        removeStaleTemporaries(file)
          .map((p) => p.slice(dir.length + 1))
          .sort(),
      ).toEqual(['state.json.999999998.tmp', 'state.json.999999999.tmp']);
      expect(readdirSync(dir).sort()).toEqual(['other.json.999999999.tmp', 'state.json', `state.json.${process.pid}.tmp`, 'state.json.abc.tmp'].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
