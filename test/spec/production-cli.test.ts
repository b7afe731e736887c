/**
 * The header-renaming proxy of scripts/production-cli.ts (production's CLI against the sandbox), with a
 * fake upstream on 127.0.0.1: production's base path and header names become ours on the way in, ours
 * become production's on the way out, and nothing else changes. A failing upstream (nothing listening,
 * or one that never answers) is a bounded 502/504, never a hang.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { productionHeaderNames, renameHeaders, startHeaderProxy, type HeaderProxy } from '../../scripts/production-cli';

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: string;
}

const servers: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function upstream(handler: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString() };
      seen.push(entry);
      handler(req, res, entry);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  servers.push({ close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function proxyTo(url: string, timeoutMs?: number): Promise<HeaderProxy> {
  const proxy = await startHeaderProxy({ upstream: url, ...(timeoutMs ? { timeoutMs } : {}) });
  servers.push(proxy);
  return proxy;
}

/** A raw request (header names as written), resolving status, raw response headers and body. */
function send(url: string, method: string, headers: Array<[string, string]>, body?: string): Promise<{ status: number; rawHeaders: string[]; body: string }> {
  return new Promise((ok, ko) => {
    const req = request(url, { method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks).toString() }));
    });
    for (const [name, value] of headers) req.setHeader(name, value); // sent with the case written
    req.setTimeout(10_000, () => req.destroy(new Error('no answer from the proxy in 10 s')));
    req.on('error', ko);
    req.end(body);
  });
}

const pairs = (raw: string[]) => Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i]!, raw[2 * i + 1]!] as const);
const without = (raw: string[], names: string[]) => pairs(raw).filter(([n]) => !names.includes(n.toLowerCase()));

describe("production's CLI header proxy", () => {
  it('reads the names from openapi/production-map.json', () => {
    expect(productionHeaderNames()).toEqual({ 'Service-Wallet-Signature': 'Grid-Wallet-Signature', 'X-Service-Signature': 'X-Grid-Signature' });
  });

  it("forwards production's base path under ours and renames production's header names to ours, nothing else", async () => {
    const up = await upstream((_req, res) =>
      res
        .writeHead(202, {
          'X-Service-Signature': 'sig-out',
          'Service-Wallet-Signature': 'stamp-out',
          'X-Request-Id': 'req_1',
          'Content-Type': 'application/json',
        })
        .end('{"requestId":"r1"}'),
    );
    const proxy = await proxyTo(up.url);
    const body = '{"privateEnabled":true}';
    const answer = await send(
      `${proxy.url}/grid/2025-10-13/internal-accounts/InternalAccount%3A1?limit=2&cursor=a%2Fb`,
      'PATCH',
      [
        ['Authorization', 'Basic dDpz'],
        ['Grid-Wallet-Signature', 'stamp-in'],
        ['x-grid-signature', 'sig-in'],
        ['Request-Id', 'Request:9'],
        ['X-Custom', 'kept'],
        ['Content-Type', 'application/json'],
        ['Content-Length', String(Buffer.byteLength(body))],
      ],
      body,
    );

    expect(up.seen).toHaveLength(1);
    const seen = up.seen[0]!;
    expect(seen.method).toBe('PATCH');
    expect(seen.url).toBe('/2025-10-13/internal-accounts/InternalAccount%3A1?limit=2&cursor=a%2Fb');
    expect(seen.body).toBe(body);
    expect(without(seen.rawHeaders, ['host', 'connection'])).toEqual([
      ['Authorization', 'Basic dDpz'],
      ['Service-Wallet-Signature', 'stamp-in'],
      ['X-Service-Signature', 'sig-in'],
      ['Request-Id', 'Request:9'],
      ['X-Custom', 'kept'],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(Buffer.byteLength(body))],
    ]);
    expect(pairs(seen.rawHeaders).find(([n]) => n.toLowerCase() === 'host')?.[1]).toBe(new URL(up.url).host);

    expect(answer.status).toBe(202);
    expect(answer.body).toBe('{"requestId":"r1"}');
    const back = without(answer.rawHeaders, ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
    expect(back).toEqual([
      ['X-Grid-Signature', 'sig-out'],
      ['Grid-Wallet-Signature', 'stamp-out'],
      ['X-Request-Id', 'req_1'],
      ['Content-Type', 'application/json'],
    ]);
    expect(proxy.log).toEqual([
      {
        method: 'PATCH',
        path: '/grid/2025-10-13/internal-accounts/InternalAccount%3A1?limit=2&cursor=a%2Fb',
        forwardedPath: '/2025-10-13/internal-accounts/InternalAccount%3A1?limit=2&cursor=a%2Fb',
        status: 202,
      },
    ]);
  });

  it('leaves a path outside production’s base path as it is, and an error status as it is', async () => {
    const up = await upstream((_req, res) => res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"code":"NOT_FOUND"}'));
    const proxy = await proxyTo(up.url);
    const answer = await send(`${proxy.url}/grid/2025-10-130/customers`, 'GET', []);
    expect(up.seen[0]!.url).toBe('/grid/2025-10-130/customers');
    expect(answer).toMatchObject({ status: 404, body: '{"code":"NOT_FOUND"}' });
  });

  it('renames without regard to case and keeps repeated headers', () => {
    expect(
      renameHeaders(['GRID-WALLET-SIGNATURE', 'a', 'Set-Cookie', 'x=1', 'Set-Cookie', 'y=2', 'Connection', 'close'], {
        'grid-wallet-signature': 'Service-Wallet-Signature',
      }),
    ).toEqual({
      'Service-Wallet-Signature': 'a',
      'Set-Cookie': ['x=1', 'y=2'],
    });
  });

  it('answers 502 when nothing listens upstream, and 504 when the upstream never answers (bounded)', async () => {
    const dead = await upstream(() => undefined);
    const deadUrl = dead.url;
    await servers.pop()!.close();
    const refused = await send(`${(await proxyTo(deadUrl)).url}/grid/2025-10-13/config`, 'GET', []);
    expect(refused.status).toBe(502);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 502, code: 'PROXY_ERROR' });

    const silent = await upstream(() => undefined); // reads the request, never answers
    const started = Date.now();
    const timedOut = await send(`${(await proxyTo(silent.url, 300)).url}/grid/2025-10-13/config`, 'GET', []);
    expect(timedOut.status).toBe(504);
    expect(JSON.parse(timedOut.body)).toMatchObject({ status: 504, code: 'PROXY_ERROR', message: 'the upstream did not answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('`npm run production:cli` without a grid-api checkout says what it expects (exit 2)', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/production-cli.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const none = run();
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('Missing the path of a grid-api checkout');
    const wrong = run(root);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('no cli/src/index.ts (a checkout of lightsparkdev/grid-api is expected)');
  }, 120_000);
});
