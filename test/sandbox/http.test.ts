/** The sandbox over real HTTP on 127.0.0.1 (listen), through msw, and as the CLI. */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { http as mswHttp, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { sandboxHandlers } from '../../src/sandbox/msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import { AUTH, VERSION, accountOf, caller, createCustomer, expectError, type Call } from './helpers';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let sandbox: Sandbox;
let server: SandboxServer;
let call: Call;

beforeAll(async () => {
  sandbox = createSandbox();
  server = await sandbox.listen();
  call = caller((input, init) => fetch(input, init), server.url);
});
afterAll(() => sandbox.close());

/** A raw node:http request (full control over bytes and headers) on `agent`. */
function raw(
  agent: Agent,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any; reused: boolean; localPort: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, agent, headers: { authorization: AUTH, ...options.headers } }, (res) => {
      // Read now: the socket goes back to the agent (and off `res`) once the body has been read.
      const localPort = res.socket.localPort!;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined, reused: req.reusedSocket, localPort });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('listen()', () => {
  it('serves on 127.0.0.1 without the version segment in the url', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('keeps connections alive across requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await raw(agent, 'GET', `/${VERSION}/customers`));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(answers.slice(1).every((a) => a.reused)).toBe(true);
      expect(new Set(answers.map((a) => a.localPort)).size).toBe(1);
      expect(answers[0]!.headers.connection).toBe('keep-alive');
      // Even error answers keep the connection.
      const bad = await raw(agent, 'POST', `/${VERSION}/customers`, { body: '{', headers: { 'content-type': 'application/json' } });
      expect(bad.status).toBe(400);
      expect(bad.reused).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('handles concurrent requests over several connections', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const created = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          raw(agent, 'POST', `/${VERSION}/customers`, {
            body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: `Parallel ${i}` }),
            headers: { 'content-type': 'application/json' },
          }),
        ),
      );
      expect(created.every((c) => c.status === 200)).toBe(true);
      expect(new Set(created.map((c) => c.body.id)).size).toBe(40);
      expect(new Set(created.map((c) => c.body.umaAddress)).size).toBe(40);
    } finally {
      agent.destroy();
    }
  });

  it('answers bad input with 4xx and the error body, and changes nothing', async () => {
    const c = await createCustomer(call, { fullName: 'Bad Input' });
    const usd = await accountOf(call, c.id, 'USD');
    const agent = new Agent({ keepAlive: true });
    const json = { 'content-type': 'application/json' };
    const before = sandbox.state.snapshot();
    try {
      const cases: [string, string, Buffer | string, number, string][] = [
        ['POST', '/customers', '{"customerType": "INDIVIDUAL",', 400, 'INVALID_INPUT'], // malformed JSON
        ['POST', '/customers', '', 400, 'INVALID_INPUT'], // missing body
        ['POST', '/customers', '[]', 400, 'INVALID_INPUT'],
        ['POST', '/customers', '{"customerType": 5}', 400, 'INVALID_INPUT'], // wrong type
        ['POST', '/customers', '{"fullName": "No Type"}', 400, 'INVALID_INPUT'], // missing field
        ['POST', '/customers', '{"customerType":"INDIVIDUAL","address":{"line1":"x"}}', 400, 'INVALID_INPUT'], // nested missing fields
        ['POST', '/customers', '{"customerType":"INDIVIDUAL","birthDate":"10/12/1990"}', 400, 'INVALID_INPUT'],
        ['POST', '/customers', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 400, 'INVALID_INPUT'], // not UTF-8
        ['POST', '/customers', `{"customerType":"INDIVIDUAL","fullName":"${'x'.repeat(1024 * 1024)}"}`, 400, 'INVALID_INPUT'], // > 1 MiB
        ['POST', `/sandbox/internal-accounts/${usd.id}/fund`, '{"amount": 100000000001}', 400, 'AMOUNT_OUT_OF_RANGE'], // oversized
        ['POST', `/sandbox/internal-accounts/${usd.id}/fund`, '{"amount": 1e400}', 400, 'AMOUNT_OUT_OF_RANGE'], // parses to Infinity
        ['POST', `/sandbox/internal-accounts/${usd.id}/fund`, '{"amount": -1}', 400, 'AMOUNT_OUT_OF_RANGE'],
        [
          'POST',
          '/quotes',
          JSON.stringify({
            source: { sourceType: 'ACCOUNT', accountId: usd.id },
            destination: { destinationType: 'ACCOUNT', accountId: usd.id },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 2 ** 60,
          }),
          400,
          'AMOUNT_OUT_OF_RANGE',
        ],
        ['POST', '/quotes', '{"source": {"sourceType": "CARD"}}', 400, 'INVALID_INPUT'],
        ['PATCH', `/customers/${c.id}`, '{"region":"GB"}', 400, 'INVALID_INPUT'],
        ['PATCH', `/customers/${c.id}`, '{"currencies":"USD"}', 400, 'INVALID_INPUT'],
        ['PATCH', '/config', '{"webhookEndpoint": 42}', 400, 'INVALID_INPUT'],
        ['POST', '/transfer-in', '{"amount": 5}', 400, 'INVALID_INPUT'],
      ];
      for (const [method, path, body, status, code] of cases) {
        const res = await raw(agent, method, `/${VERSION}${path}`, { body, headers: json });
        expect({ path, status: res.status, code: res.body?.code }).toEqual({ path, status, code });
        expect(res.body).toMatchObject({ status, message: expect.any(String) });
        expect(res.headers['x-request-id']).toMatch(/^req_/);
      }
      const typed = await raw(agent, 'POST', `/${VERSION}/customers`, { body: '{"customerType": "INDIVIDUAL", "address": {"line1": 7}}', headers: json });
      expect(typed.body.details.issues.map((i: any) => i.field)).toContain('address.line1');
    } finally {
      agent.destroy();
    }
    expect(sandbox.state.snapshot()).toEqual(before);
  });

  it('requires Basic credentials (any) and the version segment; says which methods a path accepts', async () => {
    const agent = new Agent({ keepAlive: true });
    try {
      const none = await raw(agent, 'GET', `/${VERSION}/customers`, { headers: { authorization: '' } });
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('UNAUTHORIZED');
      expect(none.headers['www-authenticate']).toMatch(/^Basic/);
      for (const authorization of ['Bearer abc', 'Basic !!!', `Basic ${btoa('no-colon')}`, `Basic ${btoa(':secret-only')}`]) {
        expect((await raw(agent, 'GET', `/${VERSION}/customers`, { headers: { authorization } })).status).toBe(401);
      }
      expect((await raw(agent, 'GET', `/${VERSION}/customers`, { headers: { authorization: `Basic ${btoa('anything:goes')}` } })).status).toBe(200);
      const unversioned = await raw(agent, 'GET', '/customers');
      expect(unversioned.status).toBe(404);
      expect(unversioned.body).toMatchObject({ code: 'NOT_FOUND', details: { hint: `prefix the path with /${VERSION}` } });
      expect((await raw(agent, 'GET', '/2024-01-01/customers')).status).toBe(404);
      const unknown = await raw(agent, 'GET', `/${VERSION}/nothing-here`);
      expect(unknown.body.code).toBe('NOT_FOUND');
      const method = await raw(agent, 'PUT', `/${VERSION}/customers`);
      expect(method.status).toBe(404);
      expect(String(method.headers.allow).split(', ').sort()).toEqual(['GET', 'POST']);
      expect(method.headers['x-request-id']).toBeDefined();
    } finally {
      agent.destroy();
    }
  });

  it('answers a request that is not HTTP with 400', async () => {
    const port = Number(new URL(server.url).port);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('HELLO THERE\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      socket.setTimeout(5_000, () => socket.destroy(new Error('timeout')));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
  });

  it('production mode refuses sandbox-only endpoints with 403 SANDBOX_ONLY', async () => {
    const production = createSandbox({ environment: 'production' });
    const s = await production.listen();
    try {
      const prod = caller((input, init) => fetch(input, init), s.url);
      const c = await createCustomer(prod);
      const usd = await accountOf(prod, c.id, 'USD');
      expectError(await prod('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 100 }), 403, 'SANDBOX_ONLY');
      expectError(
        await prod('POST', '/sandbox/uma/receive', {
          senderUmaAddress: '$a@b.example',
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 1,
          customerId: c.id,
        }),
        403,
        'SANDBOX_ONLY',
      );
      // Refused before the body is even looked at.
      expectError(await prod('POST', `/sandbox/internal-accounts/${usd.id}/fund`, '{'), 403, 'SANDBOX_ONLY');
      expect((await prod('GET', '/customers')).status).toBe(200);
    } finally {
      await production.close();
    }
  });

  it('close() stops the server and its keep-alive connections', async () => {
    const other = createSandbox();
    const s = await other.listen();
    const agent = new Agent({ keepAlive: true });
    const first = await new Promise<number>((resolve, reject) =>
      request(`${s.url}/${VERSION}/config`, { agent, headers: { authorization: AUTH } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      })
        .on('error', reject)
        .end(),
    );
    expect(first).toBe(200);
    await other.close();
    await expect(fetch(`${s.url}/${VERSION}/config`, { headers: { authorization: AUTH } })).rejects.toThrow();
    agent.destroy();
  });
});

describe('msw handlers', () => {
  it('answers any origin under the version segment, and leaves other requests alone', async () => {
    const mocked = createSandbox();
    const mswServer = setupServer(
      ...sandboxHandlers(mocked),
      mswHttp.get('https://elsewhere.example/ping', () => HttpResponse.json({ pong: true })),
    );
    mswServer.listen({ onUnhandledRequest: 'error' });
    try {
      const viaMsw = caller((input, init) => fetch(input, init), 'https://api.anything.example');
      const c = await createCustomer(viaMsw);
      expect((await viaMsw('GET', `/customers/${c.id}`)).body.id).toBe(c.id);
      expect(mocked.state.snapshot().customers).toHaveLength(1);
      expect(await (await fetch('https://elsewhere.example/ping')).json()).toEqual({ pong: true });
    } finally {
      mswServer.close();
    }
  });
});

describe('CLI', () => {
  function run(args: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/index.ts'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exit, out: () => stdout, err: () => stderr };
  }

  async function waitFor(predicate: () => boolean, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('serves until SIGTERM and prints the URL and an env hint', async () => {
    const cli = run(['sandbox', '--port', '0']);
    try {
      await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(cli.out()));
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())![1]!;
      expect(cli.out()).toContain(`CROSSBORDER_BASE_URL=${url}`);
      const viaCli = caller((input, init) => fetch(input, init), url);
      expect((await viaCli('GET', '/config')).status).toBe(200);
      const c = await createCustomer(viaCli);
      const usd = await accountOf(viaCli, c.id, 'USD');
      expect((await viaCli('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 5 })).status).toBe(200);
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exit).toBe(0);
  });

  it('--production refuses sandbox endpoints; SIGINT stops it', async () => {
    const cli = run(['sandbox', '--port=0', '--production']);
    try {
      await waitFor(() => /listening on/.test(cli.out()));
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())![1]!;
      const viaCli = caller((input, init) => fetch(input, init), url);
      expectError(await viaCli('POST', '/sandbox/uma/receive', {}), 403, 'SANDBOX_ONLY');
    } finally {
      cli.child.kill('SIGINT');
    }
    expect(await cli.exit).toBe(0);
  });

  it('--help prints usage; unknown arguments exit 2 with usage', async () => {
    const help = run(['sandbox', '--help']);
    expect(await help.exit).toBe(0);
    expect(help.out()).toMatch(/^Usage: crossborder-sdk sandbox/);
    for (const args of [
      ['sandbox', '--bogus'],
      ['sandbox', '--port', 'abc'],
      ['sandbox', '--port', '70000'],
    ]) {
      const bad = run(args);
      expect(await bad.exit).toBe(2);
      expect(bad.err()).toMatch(/Usage: crossborder-sdk sandbox/);
    }
    for (const args of [['serve'], []]) {
      const bad = run(args);
      expect(await bad.exit).toBe(2);
      expect(bad.err()).toMatch(/unknown command 'serve'|Usage: crossborder-sdk/);
    }
  });
});
