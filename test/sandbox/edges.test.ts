/**
 * The sandbox's edges against hostile peers (issue 22, defects 2, 3 and 6, and "nothing lost when the
 * sandbox stops"), over real HTTP on 127.0.0.1 and against the built package: `crossborder-sdk/sandbox`
 * as users get it (packed by test/setup/packed.ts; EDGES_SOURCE=1 runs the source instead, for a quick
 * loop while developing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePacked } from '../setup/packed';

type SandboxModule = typeof import('../../src/sandbox/index');
const SOURCE = process.env.EDGES_SOURCE === '1';
let mod: SandboxModule;
/** The built sandbox entry (an absolute file URL), for child processes. */
let entryUrl: string;
const scratch = mkdtempSync(join(tmpdir(), 'sandbox-edges-'));

beforeAll(async () => {
  if (SOURCE) {
    mod = await import('../../src/sandbox/index');
    entryUrl = '';
    return;
  }
  const { pkg } = ensurePacked();
  entryUrl = pathToFileURL(join(pkg, 'dist', 'sandbox.js')).href;
  mod = (await import(/* @vite-ignore */ entryUrl)) as SandboxModule;
}, 300_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const AUTH = `Basic ${btoa('tok:secret')}`;
const VERSION = '2025-10-13';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 20 ms for at most `ms`; its last value. */
async function within<T>(ms: number, check: () => T | undefined): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined || Date.now() > deadline) return value;
    await sleep(20);
  }
}

const readJson = (file: string) => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { world: { customers: [string, unknown][] } }) : undefined);
const customerIds = (file: string) => readJson(file)?.world.customers.map(([id]) => id) ?? [];

describe('the state file is written as it changes (nothing lost when the sandbox stops)', () => {
  it('persistStateTo writes atomically shortly after a change, skips unchanged content, and close() writes the last change', async () => {
    const sandbox = mod.createSandbox();
    const file = join(scratch, 'state-inprocess.json');
    const persister = await mod.persistStateTo(sandbox, file, { delayMs: 50 });
    try {
      expect(existsSync(file)).toBe(false); // nothing changed yet
      const created = await sandbox.fetch(`http://sandbox.test/${VERSION}/customers`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada' }),
      });
      const { id } = (await created.json()) as { id: string };
      const written = await within(2_000, () => (customerIds(file).includes(id) ? true : undefined));
      expect(written).toBe(true);
      expect(persister.writes).toBe(1);
      // Reads change nothing: no new write.
      await sandbox.fetch(`http://sandbox.test/${VERSION}/customers`, { headers: { authorization: AUTH } });
      await sleep(200);
      expect(persister.writes).toBe(1);
      // A change then close() at once: written by close, not lost with the timer.
      const second = await sandbox.fetch(`http://sandbox.test/${VERSION}/customers`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Bo' }),
      });
      const { id: id2 } = (await second.json()) as { id: string };
      persister.close();
      expect(customerIds(file)).toEqual([id, id2]);
      expect(persister.writes).toBe(2);
      expect(readdirSync(scratch).filter((f) => f.endsWith('.tmp'))).toEqual([]); // no temporary left behind
      // Closed: later changes are not written.
      sandbox.reset();
      await sleep(150);
      expect(customerIds(file)).toEqual([id, id2]);
    } finally {
      persister.close();
      await sandbox.close();
    }
  });

  it('a sandbox process killed with SIGKILL loses at most the last moments: the state file holds what was done before', async () => {
    if (SOURCE) return; // the child runs the built package
    const file = join(scratch, 'state-killed.json');
    const script = `
      const { createSandbox, persistStateTo } = await import(${JSON.stringify(entryUrl)});
      const sandbox = createSandbox();
      await persistStateTo(sandbox, ${JSON.stringify(file)}, { delayMs: 100 });
      const server = await sandbox.listen(0, '127.0.0.1');
      console.log(server.url);`;
    const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const url = await within(20_000, () => /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0]);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const ids: string[] = [];
      for (const fullName of ['Ada', 'Bo', 'Cy']) {
        const res = await fetch(`${url}/${VERSION}/customers`, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName }),
        });
        ids.push(((await res.json()) as { id: string }).id);
      }
      // "The last moments": 100 ms of delay, plus a generous margin for a loaded machine.
      await sleep(1_000);
      child.kill('SIGKILL');
      await within(5_000, () => (child.exitCode !== null || child.signalCode !== null ? true : undefined));
      expect(child.signalCode).toBe('SIGKILL');
      expect(customerIds(file)).toEqual(ids);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});

/** One raw HTTP/1.1 exchange over node:http, with the headers as given (Host included, which fetch cannot set). */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return import('node:http').then(
    ({ request }) =>
      new Promise((resolve, reject) => {
        const { hostname, port } = new URL(url);
        const req = request(
          {
            host: hostname,
            port: Number(port),
            method,
            path,
            headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
            agent: false,
            timeout: 10_000,
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
          },
        );
        req.on('timeout', () => req.destroy(new Error('timed out')));
        req.on('error', reject);
        req.end(body);
      }),
  );
}

describe('CORS: only loopback origins by default (defect 2)', () => {
  let sandbox: ReturnType<SandboxModule['createSandbox']>;
  let url: string;
  let customerId: string;
  const EVIL = 'https://evil.example';
  beforeAll(async () => {
    sandbox = mod.createSandbox();
    url = (await sandbox.listen(0, '127.0.0.1')).url;
    const created = await fetch(`${url}/${VERSION}/customers`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada' }),
    });
    customerId = ((await created.json()) as { id: string }).id;
    await fetch(`${url}/${VERSION}/config`, {
      method: 'PATCH',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ webhookEndpoint: 'https://hooks.example/ok' }),
    });
  });
  afterAll(() => sandbox.close());

  it("a foreign page's simple requests are refused (403) and not acted upon: PATCH /config, reset, a state read, an API read", async () => {
    // text/plain bodies and no custom header: what a page can send without a preflight (worst case: with cached credentials).
    const patch = await raw(
      url,
      'PATCH',
      `/${VERSION}/config`,
      { origin: EVIL, authorization: AUTH, 'content-type': 'text/plain' },
      JSON.stringify({ webhookEndpoint: 'http://169.254.169.254/latest/meta-data/' }),
    );
    const reset = await raw(url, 'POST', '/_sandbox/reset', { origin: EVIL, authorization: AUTH, 'content-type': 'text/plain' }, '{}');
    const state = await raw(url, 'GET', '/_sandbox/state', { origin: EVIL, authorization: AUTH });
    const deliveries = await raw(url, 'GET', '/_sandbox/webhooks/deliveries', { origin: EVIL, authorization: AUTH });
    const customers = await raw(url, 'GET', `/${VERSION}/customers`, { origin: EVIL, authorization: AUTH });
    const opaque = await raw(url, 'POST', '/_sandbox/reset', { origin: 'null', authorization: AUTH }, '{}'); // a sandboxed iframe, file://
    for (const res of [patch, reset, state, deliveries, customers, opaque]) {
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.text).not.toContain(customerId);
    }
    expect(JSON.parse(patch.text)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    // Nothing changed: the customer is still there, the endpoint is the one set before.
    const config = (await (await fetch(`${url}/${VERSION}/config`, { headers: { authorization: AUTH } })).json()) as { webhookEndpoint: string };
    expect(config.webhookEndpoint).toBe('https://hooks.example/ok');
    expect(sandbox.state.snapshot().customers.map((c: { id: string }) => c.id)).toEqual([customerId]);
  });

  it("a foreign page's preflight is refused, and allows no headers", async () => {
    const res = await raw(url, 'OPTIONS', `/${VERSION}/config`, {
      origin: EVIL,
      'access-control-request-method': 'PATCH',
      'access-control-request-headers': 'authorization, content-type, x-sandbox-token',
    });
    expect(res.status).toBe(403);
    expect([res.headers['access-control-allow-origin'], res.headers['access-control-allow-headers'], res.headers['access-control-allow-methods']]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('loopback origins are allowed (the origin echoed, Vary: Origin); a preflight allows the headers asked', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'https://localhost:8443']) {
      const res = await raw(url, 'GET', `/${VERSION}/customers`, { origin, authorization: AUTH });
      expect([origin, res.status, res.headers['access-control-allow-origin'], res.headers.vary]).toEqual([origin, 200, origin, 'Origin']);
      const pre = await raw(url, 'OPTIONS', `/${VERSION}/config`, {
        origin,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type',
      });
      expect([origin, pre.status, pre.headers['access-control-allow-origin'], pre.headers['access-control-allow-headers']]).toEqual([
        origin,
        204,
        origin,
        'authorization, content-type',
      ]);
    }
    // Look-alikes are not loopback.
    for (const origin of ['http://localhost.evil.example', 'http://127.0.0.1.evil.example:3000', 'http://0.0.0.0:3000', 'http://192.168.1.20:5173']) {
      expect([origin, (await raw(url, 'GET', `/${VERSION}/customers`, { origin, authorization: AUTH })).status]).toEqual([origin, 403]);
    }
    // No Origin at all (curl, the SDK on Node, a same-origin GET): as before.
    expect((await raw(url, 'GET', `/${VERSION}/customers`, { authorization: AUTH })).status).toBe(200);
  });

  it("cors.origins adds origins; the others stay refused; '*' opens to every origin on purpose", async () => {
    const opened = mod.createSandbox({ cors: { origins: ['https://app.example'] } });
    const everyone = mod.createSandbox({ cors: { origins: '*' } });
    try {
      const at = (await opened.listen(0, '127.0.0.1')).url;
      const added = await raw(at, 'GET', `/${VERSION}/customers`, { origin: 'https://app.example', authorization: AUTH });
      expect([added.status, added.headers['access-control-allow-origin']]).toEqual([200, 'https://app.example']);
      expect((await raw(at, 'GET', `/${VERSION}/customers`, { origin: 'http://localhost:5173', authorization: AUTH })).status).toBe(200); // loopback still allowed
      expect((await raw(at, 'POST', '/_sandbox/reset', { origin: EVIL, authorization: AUTH }, '{}')).status).toBe(403);
      const all = (await everyone.listen(0, '127.0.0.1')).url;
      const any = await raw(all, 'GET', `/${VERSION}/customers`, { origin: EVIL, authorization: AUTH });
      expect([any.status, any.headers['access-control-allow-origin']]).toEqual([200, '*']);
    } finally {
      await opened.close();
      await everyone.close();
    }
  });

  it('in-process (fetch, msw) there is no network to guard: any origin, any URL', async () => {
    const inProcess = mod.createSandbox();
    try {
      const res = await inProcess.fetch(`https://api.example/${VERSION}/customers`, { headers: { authorization: AUTH, origin: 'https://storybook.example' } });
      expect(res.status).toBe(200);
    } finally {
      await inProcess.close();
    }
  });
});

describe('DNS rebinding: the Host header (defect 3)', () => {
  let sandbox: ReturnType<SandboxModule['createSandbox']>;
  let url: string;
  let port: number;
  beforeAll(async () => {
    sandbox = mod.createSandbox();
    url = (await sandbox.listen(0, '127.0.0.1')).url;
    port = Number(new URL(url).port);
    await fetch(`${url}/${VERSION}/customers`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada' }),
    });
  });
  afterAll(() => sandbox.close());

  it('a Host that is neither a loopback name nor the bound address is refused (421) and not acted upon', async () => {
    for (const host of [`rebind.evil.example:${port}`, 'rebind.evil.example', `localhost.evil.example:${port}`, `127.0.0.1.nip.io:${port}`]) {
      const reset = await raw(url, 'POST', '/_sandbox/reset', { host, authorization: AUTH }, '{}');
      const state = await raw(url, 'GET', '/_sandbox/state', { host, authorization: AUTH });
      const api = await raw(url, 'GET', `/${VERSION}/customers`, { host, authorization: AUTH });
      expect([host, reset.status, state.status, api.status]).toEqual([host, 421, 421, 421]);
      expect(state.text).not.toContain('Customer:');
    }
    expect(sandbox.state.snapshot().customers).toHaveLength(1); // not reset
  });

  it('loopback names and the bound address pass', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`, 'localhost', `localhost:8080`]) {
      expect([host, (await raw(url, 'GET', '/_sandbox/state', { host, authorization: AUTH })).status]).toEqual([host, 200]);
    }
  });
});

describe('the control token (defect 3: binding beyond loopback)', () => {
  it('when set, /_sandbox/* and PATCH /config take X-Sandbox-Token; the API does not', async () => {
    const token = mod.generateControlToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(mod.generateControlToken()).not.toBe(token);
    const sandbox = mod.createSandbox({ controlToken: token });
    try {
      const server = await sandbox.listen(0, '127.0.0.1');
      const url = server.url;
      await fetch(`${url}/${VERSION}/customers`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada' }),
      });
      for (const given of [undefined, 'wrong', token.slice(0, 63), `${token}0`]) {
        const headers: Record<string, string> = {
          authorization: AUTH,
          'content-type': 'application/json',
          ...(given === undefined ? {} : { 'x-sandbox-token': given }),
        };
        const reset = await raw(url, 'POST', '/_sandbox/reset', headers, '{}');
        const state = await raw(url, 'GET', '/_sandbox/state', headers);
        const patch = await raw(url, 'PATCH', `/${VERSION}/config`, headers, JSON.stringify({ webhookEndpoint: 'http://10.0.0.1/' }));
        expect([given, reset.status, state.status, patch.status]).toEqual([given, 401, 401, 401]);
        expect(JSON.parse(reset.text)).toMatchObject({ code: 'UNAUTHORIZED' });
        expect(reset.text + state.text + patch.text).not.toContain(token);
      }
      expect(sandbox.state.snapshot().customers).toHaveLength(1);
      expect(sandbox.state.snapshot().config.webhookEndpoint).not.toBe('http://10.0.0.1/');
      const ok = { authorization: AUTH, 'content-type': 'application/json', 'x-sandbox-token': token };
      expect((await raw(url, 'GET', '/_sandbox/state', ok)).status).toBe(200);
      expect((await raw(url, 'PATCH', `/${VERSION}/config`, ok, JSON.stringify({ webhookEndpoint: 'https://hooks.example/' }))).status).toBe(200);
      expect((await raw(url, 'POST', '/_sandbox/reset', ok, '{}')).status).toBe(200);
      expect((await raw(url, 'GET', `/${VERSION}/customers`, { authorization: AUTH })).status).toBe(200); // the API itself: Basic, as the service
      expect((await raw(url, 'GET', `/${VERSION}/config`, { authorization: AUTH })).status).toBe(200); // reading the config is the API
      // The inspector page: ?token= once sets a same-site cookie, which its own reads and EventSource carry.
      expect((await raw(url, 'GET', '/_sandbox/', {})).status).toBe(401);
      const page = await raw(url, 'GET', `/_sandbox/?token=${token}`, {});
      expect(page.status).toBe(200);
      const cookie = String(page.headers['set-cookie']);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
      expect((await raw(url, 'GET', '/_sandbox/requests', { authorization: AUTH, cookie: cookie.split(';')[0]! })).status).toBe(200);
      expect((await raw(url, 'GET', '/_sandbox/', { cookie: 'crossborder_sandbox_token=wrong' })).status).toBe(401);
      // In-process calls hold the sandbox itself: no token.
      expect((await sandbox.fetch(`http://sandbox.test/_sandbox/state`, { headers: { authorization: AUTH } })).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('beyond loopback a token is always required: one is generated when none is given (server.controlToken)', async () => {
    const { requiresControlToken } = await import('../../src/sandbox/serve/exposure');
    expect(['127.0.0.1', 'localhost', '::1', '127.0.0.2'].map((h) => requiresControlToken(h, undefined))).toEqual([false, false, false, false]);
    expect(['0.0.0.0', '::', '192.168.1.20', 'devbox.local'].map((h) => requiresControlToken(h, undefined))).toEqual([true, true, true, true]);
    expect(requiresControlToken('127.0.0.1', 'given')).toBe(true);
    // A token that is not one is refused at creation, without echoing it.
    for (const bad of ['', 'short', 'x'.repeat(15), 'has space in it 12345', 'semi;colon-1234567', 42]) {
      expect(() => mod.createSandbox({ controlToken: bad as string })).toThrow(/^controlToken must be a string of 16 to 512 visible ASCII characters/);
    }
    // What a listener bound to every interface answers for: loopback names, address literals on its port, allowedHosts.
    const { hostAllowed } = await import('../../src/sandbox/serve/exposure');
    const everywhere = { host: '0.0.0.0', port: 4010, allowedHosts: ['devbox.local'] };
    const verdicts = Object.fromEntries(
      [
        'localhost:4010',
        '127.0.0.1:9999',
        '[::1]:4010',
        '192.168.1.20:4010',
        '192.168.1.20:4011',
        '[fe80::1]:4010',
        'devbox.local:4010',
        'rebind.evil.example:4010',
        '',
        'a b:4010',
        'user@127.0.0.1:4010',
      ].map((h) => [h, hostAllowed(h, everywhere)]),
    );
    expect(verdicts).toEqual({
      'localhost:4010': true,
      '127.0.0.1:9999': true,
      '[::1]:4010': true,
      '192.168.1.20:4010': true,
      '192.168.1.20:4011': false,
      '[fe80::1]:4010': true,
      'devbox.local:4010': true,
      'rebind.evil.example:4010': false,
      '': false,
      'a b:4010': false,
      'user@127.0.0.1:4010': false,
    });
    expect(hostAllowed(undefined, everywhere)).toBe(false);
    const lan = { host: '192.168.1.20', port: 4010 };
    expect(['192.168.1.20:4010', '192.168.1.20:80', '10.0.0.1:4010'].map((h) => hostAllowed(h, lan))).toEqual([true, false, false]);
    // Served on loopback with no token: no token asked, none reported.
    const open = mod.createSandbox();
    try {
      const server = await open.listen(0, '127.0.0.1');
      expect(server.controlToken).toBeUndefined();
      expect((await raw(server.url, 'POST', '/_sandbox/reset', { authorization: AUTH }, '{}')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

/**
 * A sandbox in a child process (its memory measured alone), on 127.0.0.1, from `entry` (the packed
 * build; EDGES_CHILD_ENTRY points it at another build, e.g. the previous code's, to compare). It answers
 * IPC 'mem' with its memory after a full GC.
 */
async function childSandbox(
  entry: string,
): Promise<{ url: string; mem: () => Promise<{ heapUsed: number; rss: number; external: number; arrayBuffers: number }>; stop: () => void }> {
  const file = join(scratch, `child-${Date.now()}-${Math.random().toString(36).slice(2)}.mjs`);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    file,
    `const { createSandbox } = await import(${JSON.stringify(entry)});
     const sandbox = createSandbox({ onRequest: () => {} });
     const server = await sandbox.listen(0, '127.0.0.1');
     process.on('message', (m) => { if (m === 'mem') { globalThis.gc(); globalThis.gc(); process.send(process.memoryUsage()); } });
     process.on('disconnect', () => process.exit(0));
     process.send({ url: server.url });`,
  );
  const child = spawn(process.execPath, ['--expose-gc', ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), file], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: unknown[] = [];
  child.on('message', (m) => messages.push(m));
  const next = async () => {
    const n = messages.length;
    const got = await within(30_000, () => (messages.length > n ? messages[n] : undefined));
    if (got === undefined) throw new Error('the sandbox child did not answer within 30 s');
    return got;
  };
  const { url } = (await within(30_000, () => messages[0])) as { url: string };
  if (!url) throw new Error('the sandbox child did not start within 30 s');
  messages.shift();
  return {
    url,
    mem: async () => {
      child.send('mem');
      return (await next()) as never;
    },
    stop: () => child.kill('SIGKILL'),
  };
}

/** A TCP client that subscribes to /_sandbox/events and then never reads another byte; `closed` (Node's own) once the server cuts it. */
function stalledSubscriber(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`GET /_sandbox/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: ${AUTH}\r\nAccept: text/event-stream\r\n\r\n`);
      socket.once('data', () => {
        socket.pause(); // read the status line, then stop reading: the kernel buffers fill, then the server's
        resolve(socket);
      });
    });
    socket.on('error', () => undefined); // the server may cut it
    socket.setTimeout(60_000, () => reject(new Error('no answer')));
  });
}

describe('the live stream /_sandbox/events under stalled subscribers (defect 6)', () => {
  it("4 subscribers that never read + 6,000 requests: the sandbox's memory stays flat and the laggards are closed", async () => {
    const entry = process.env.EDGES_CHILD_ENTRY ?? (SOURCE ? join(import.meta.dirname, '../../src/sandbox/index.ts') : entryUrl);
    const sandbox = await childSandbox(entry);
    const sockets: Socket[] = [];
    try {
      // Warm up (JIT, the request log's 200 entries), then measure.
      await load(sandbox.url, 400);
      const before = await sandbox.mem();
      for (let i = 0; i < 4; i++) sockets.push(await stalledSubscriber(sandbox.url));
      expect(sockets.map((s) => s.closed)).toEqual([false, false, false, false]); // the replay of recent requests fits
      // Measured every 1,500 requests (after a full GC): the peak counts, not only the end (a laggard
      // closed late would free its buffer before the end).
      const started = Date.now();
      const growth: number[] = [];
      let rssMb = 0;
      for (let round = 0; round < 4; round++) {
        await load(sandbox.url, 1_500);
        const now = await sandbox.mem();
        growth.push(Math.round((now.heapUsed + now.external - before.heapUsed - before.external) / 2 ** 20));
        rssMb = Math.max(rssMb, Math.round((now.rss - before.rss) / 2 ** 20));
      }
      console.log(
        `[edges] 6,000 requests in ${Date.now() - started} ms with 4 stalled subscribers: heap+external growth every 1,500 requests ${growth.join(', ')} MB; rss at most +${rssMb} MB`,
      );
      // Each stalled subscriber may cost its 256 KiB buffer and little else: 4 × 0.25 MB, with room for
      // noise (the request log keeps its last 200 entries of ~8 KB). The previous code: +184 MB at the end.
      expect(Math.max(...growth)).toBeLessThan(24);
      expect(rssMb).toBeLessThan(80);
      // The laggards were closed by the server (read what the kernel holds, then see the end).
      for (const s of sockets) s.resume();
      await within(20_000, () => (sockets.every((s) => s.closed) ? true : undefined));
      expect(sockets.map((s) => s.closed)).toEqual([true, true, true, true]);
      // Each got a bounded share before it was cut: far from the 48 MB the 6,000 events weigh.
      for (const s of sockets) expect(s.bytesRead).toBeLessThan(40 * 2 ** 20);
    } finally {
      for (const s of sockets) s.destroy();
      sandbox.stop();
    }
  }, 240_000);

  it('at most 16 subscribers at once; one more is answered 503 with Retry-After', async () => {
    const sandbox = mod.createSandbox();
    const controllers: AbortController[] = [];
    // The answers are held until the end: fetch cancels the body of a Response that is garbage-collected,
    // which closes its connection and so frees its slot (a GC under load made the 17th a 200).
    const held: Response[] = [];
    try {
      const { url } = await sandbox.listen(0, '127.0.0.1');
      for (let i = 0; i < 16; i++) {
        const controller = new AbortController();
        controllers.push(controller);
        const res = await fetch(`${url}/_sandbox/events`, { signal: controller.signal });
        held.push(res);
        expect(res.status).toBe(200);
      }
      const extra = await fetch(`${url}/_sandbox/events`);
      expect([extra.status, extra.headers.get('retry-after')]).toEqual([503, '5']);
      expect(((await extra.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
      // One leaves: its slot is free again.
      controllers.pop()!.abort();
      const again = await (async () => {
        for (let i = 0; i < 50; i++) {
          const controller = new AbortController();
          const res = await fetch(`${url}/_sandbox/events`, { signal: controller.signal });
          if (res.status === 200) {
            controllers.push(controller);
            held.push(res);
            return 200;
          }
          await res.text();
          await sleep(100);
        }
        return 503;
      })();
      expect(again).toBe(200);
    } finally {
      for (const c of controllers) c.abort();
      held.length = 0;
      await sandbox.close();
    }
  });
});

/**
 * `count` API requests (GET /config with an 8 KB query, so that each live event is ~8 KB: 6,000 of them
 * are ~48 MB per subscriber, well past what the kernel's socket buffers absorb), 16 at a time over
 * keep-alive connections.
 */
async function load(url: string, count: number): Promise<void> {
  let next = 0;
  const pad = 'x'.repeat(8_000);
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await fetch(`${url}/${VERSION}/config?pad=${pad}`, { headers: { authorization: AUTH } });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
