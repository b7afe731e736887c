/**
 * `crossborder-sdk sandbox` as a process: it stops cleanly with its state saved on SIGTERM, SIGINT
 * and SIGHUP, when its stdout is gone, and when npm's wrapper (`npx`) is stopped; `--state` is
 * written after each change (a `kill -9` loses at most the last moments); `--json` stdout is JSON
 * lines only; the verbs and their messages.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, CLI, envFor, eventually, json, packed, root, startSandbox } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'cb-sandbox-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const customers = (file: string) =>
  existsSync(file) ? ((JSON.parse(readFileSync(file, 'utf8')) as { world: { customers: unknown } }).world.customers as unknown[]) : [];
const createCustomer = (url: string, name: string) =>
  cli(['customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--full-name', name, '--json'], { env: envFor({ url }) });
/** True once nothing accepts connections on the port. */
const portClosed = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

describe('the sandbox process', () => {
  it.each(['SIGINT', 'SIGHUP'] as const)(
    'stops with exit 0 on %s, its state saved',
    async (signal) => {
      const file = join(dir, `${signal}.json`);
      const sandbox = await startSandbox(['--quiet', '--state', file]);
      expect((await createCustomer(sandbox.url, signal)).code).toBe(0);
      expect(await sandbox.stop(signal)).toBe(0);
      expect(sandbox.output()).toContain(`Received ${signal}; shutting down.`);
      expect(customers(file)).toHaveLength(1);
    },
    30_000,
  );

  it('--state is written shortly after each change: kill -9 keeps what was done', async () => {
    const file = join(dir, 'killed.json');
    const sandbox = await startSandbox(['--quiet', '--state', file]);
    expect((await createCustomer(sandbox.url, 'Survivor')).code).toBe(0);
    expect(await eventually(() => customers(file).length === 1, 5_000)).toBe(true);
    sandbox.child.kill('SIGKILL');
    const again = await startSandbox(['--quiet', '--state', file]);
    try {
      const list = json<{ data: { fullName: string }[] }>(await cli(['customers', 'list', '--json'], { env: envFor(again) }));
      expect(list.data.map((c) => c.fullName)).toEqual(['Survivor']);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 40_000);

  it('a closed stdout stops it cleanly (no EPIPE crash), its state saved', async () => {
    const file = join(dir, 'pipe.json');
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--state', file], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const url = await new Promise<string>((resolve) =>
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      }),
    );
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    expect((await createCustomer(url, 'Before The Pipe Closed')).code).toBe(0);
    child.stdout.destroy(); // the reader goes away; the next log line meets EPIPE
    await createCustomer(url, 'Logged Into A Closed Pipe');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000))]);
    if (code === 'timeout') child.kill('SIGKILL');
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(customers(file).length).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it('through npm exec (npx): SIGTERM to npm stops the server too, its state saved', async () => {
    const consumer = join(dir, 'consumer');
    mkdirSync(join(consumer, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(packed.pkg, join(consumer, 'node_modules', 'crossborder-sdk'), 'dir');
    symlinkSync(CLI, join(consumer, 'node_modules', '.bin', 'crossborder-sdk')); // the packed bin
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    const file = join(dir, 'npx.json');
    const npm = spawn('npm', ['exec', '--offline', '--', 'crossborder-sdk', 'sandbox', '--port', '0', '--state', file], {
      cwd: consumer,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    npm.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL: ${out}`)), 30_000);
      npm.stdout.on('data', () => {
        const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
        if (m) (clearTimeout(timer), resolve(m[1]!));
      });
    });
    expect((await createCustomer(url, 'Through Npx')).code).toBe(0);
    npm.kill('SIGTERM');
    const port = Number(new URL(url).port);
    expect(await eventually(() => portClosed(port), 10_000)).toBe(true);
    expect(customers(file)).toHaveLength(1);
  }, 60_000);

  it('--json: stdout is JSON lines only, one "time" field each, the banner one of them; --webhook-url delivers there', async () => {
    const { createServer } = await import('node:http');
    const hits: string[] = [];
    const hook = createServer((req, res) => (req.resume(), req.on('end', () => (hits.push(req.url ?? ''), res.end()))));
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/from-flag`;
    const sandbox = await startSandbox(['--json', '--webhook-url', hookUrl]);
    try {
      expect((await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url])).code).toBe(0);
      expect(await eventually(() => hits.length === 1)).toBe(true);
      await cli(['customers', 'retrieve', 'Customer:nope'], { env: envFor(sandbox) });
      await eventually(() => sandbox.output().includes('CUSTOMER_NOT_FOUND'));
    } finally {
      expect(await sandbox.stop()).toBe(0);
      hook.close();
    }
    const lines = sandbox
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ kind: 'listening', url: sandbox.url, webhookEndpoint: hookUrl, env: { CROSSBORDER_BASE_URL: sandbox.url } });
    for (const line of lines) {
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(line).not.toHaveProperty('at');
    }
    expect(lines.find((l) => l.status === 404)).toMatchObject({ kind: 'request', code: 'CUSTOMER_NOT_FOUND' });
    expect(lines.find((l) => l.kind === 'webhook')).toMatchObject({ type: 'TEST', url: hookUrl, status: 200 });
    expect(lines.at(-1)).toMatchObject({ kind: 'stopping', reason: 'SIGTERM' });
  }, 40_000);

  it('verbs: webhook-url, requests, deliveries, redeliver, state export/import; a stopped sandbox is said so', async () => {
    const { createServer } = await import('node:http');
    const hits: string[] = [];
    const hook = createServer((req, res) => (req.resume(), req.on('end', () => (hits.push(req.url ?? ''), res.end()))));
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/from-verb`;
    const sandbox = await startSandbox([]);
    const at = ['--url', sandbox.url];
    try {
      expect((await cli(['sandbox', 'webhook-url', hookUrl, ...at])).out).toBe(`webhooks now go to ${hookUrl}\n`);
      const { eventId } = JSON.parse((await cli(['sandbox', 'trigger', 'TEST', ...at])).out) as { eventId: string };
      expect(await eventually(() => hits.length === 1)).toBe(true);
      expect((await cli(['sandbox', 'redeliver', eventId, ...at])).code).toBe(0);
      expect(await eventually(() => hits.length === 2)).toBe(true);
      const deliveries = await cli(['sandbox', 'deliveries', ...at]);
      expect(deliveries.out).toMatch(new RegExp(`^${eventId} TEST delivered → ${hookUrl} 2 attempt\\(s\\) last: 200$`, 'm'));
      await cli(['customers', 'retrieve', 'Customer:nope'], { env: envFor(sandbox) });
      const requests = await cli(['sandbox', 'requests', ...at]);
      expect(requests.out).toMatch(/ GET \/2025-10-13\/customers\/Customer%3Anope → 404 CUSTOMER_NOT_FOUND \d+ms req_\w+$/m);
      expect(sandbox.output()).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/2025-10-13\/customers\/Customer%3Anope → 404 CUSTOMER_NOT_FOUND \d+ms req_\w+$/m);
      // The clock moved: log lines give the sandbox time beside the wall time.
      await cli(['sandbox', 'clock', 'advance', '2h', ...at]);
      await cli(['sandbox', 'requests', ...at]);
      expect(sandbox.output()).toMatch(/^\d\d:\d\d:\d\d\.\d{3} \[sandbox \d{4}-\d\d-\d\dT[\d:.]+Z\] GET \/_sandbox\/requests → 200/m);
      const file = join(dir, 'exported.json');
      expect((await cli(['sandbox', 'state', 'export', '--out', file, ...at])).code).toBe(0);
      expect((await cli(['sandbox', 'reset', ...at])).code).toBe(0);
      const imported = await cli(['sandbox', 'state', 'import', file, ...at]);
      expect(JSON.parse(imported.out)).toMatchObject({ imported: true });
      expect(json<{ webhookEndpoint: string }>(await cli(['config', 'retrieve', '--json'], { env: envFor(sandbox) })).webhookEndpoint).toBe(hookUrl);
    } finally {
      expect(await sandbox.stop()).toBe(0);
      hook.close();
    }
    const stopped = await cli(['sandbox', 'reset', '--url', sandbox.url]);
    expect([stopped.code, stopped.err]).toEqual([
      1,
      `crossborder-sdk: no sandbox is running at ${sandbox.url} (start one with: npx crossborder-sdk sandbox --port …, or give its --url)\n`,
    ]);
  }, 60_000);

  it('a delivery to an unreachable endpoint names ECONNREFUSED in the log', async () => {
    const { createServer } = await import('node:net');
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r())); // nobody listens there now
    const sandbox = await startSandbox(['--webhook-url', `http://127.0.0.1:${port}/hooks`]);
    try {
      await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
      const line = new RegExp(
        `webhook TEST \\S+ → http://127\\.0\\.0\\.1:${port}/hooks fetch failed \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\) \\(attempt 1\\)`,
      );
      expect(await eventually(() => line.test(sandbox.output()))).toBe(true);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  }, 30_000);

  it("--faults is checked by the sandbox's own rule, through its public entry: a bad field is a usage error naming it, and nothing listens", async () => {
    const ran = await cli(['sandbox', '--port', '0', '--faults', '{"rateLimit":{"requestsPerSecond":-1}}'], { timeoutMs: 20_000 });
    expect(ran.code).toBe(2);
    expect(ran.err).toContain('--faults: faults.rateLimit.requestsPerSecond: expected a number > 0');
    expect(ran.out).not.toContain('127.0.0.1');
  }, 30_000);
});
