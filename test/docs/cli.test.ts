/** docs/testing.md shows `npx crossborder-sdk sandbox --port 4010`: the same CLI, the packed package's `bin`, on a free port. */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, fstatSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crossborder } from 'crossborder-sdk';
import { describe, expect, inject, it } from 'vitest';
import { read, root } from './markdown';

/** What `npx crossborder-sdk` runs: the `bin` of the packed package. */
const pkg = inject('packed').pkg;
const CLI = join(pkg, (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['crossborder-sdk']!);

/** Runs the CLI to its end (bounded: killed after 20 s); its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => (clearTimeout(timer), resolve({ code, out, err })));
  });
}

/** A webhook receiver on 127.0.0.1 that keeps the bodies it gets. */
async function receiver() {
  const { createServer } = await import('node:http');
  const received: string[] = [];
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => (received.push(body), res.end()));
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  return { received, url: `http://127.0.0.1:${(hook.address() as { port: number }).port}/hooks`, close: () => new Promise<void>((r) => hook.close(() => r())) };
}

/** Waits (bounded, 5 s) until `check` holds. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
}

/** Starts the CLI on a free port; resolves once it prints its URL. Every wait is bounded. */
async function startCli(extra: string[]) {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', ...extra], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s: ${out}`)), 20_000);
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(out) ?? /"kind":"listening".*?"url":"(http:\/\/[\d.]+:\d+)"/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${out}`)));
  });
  const stop = async () => {
    const exited = new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000))]);
    if (code === 'timeout') child.kill('SIGKILL');
    return code;
  };
  /** Waits (bounded) until the output matches. */
  const waitFor = async (pattern: RegExp) => {
    for (let i = 0; i < 100 && !pattern.test(out); i++) await new Promise((r) => setTimeout(r, 50));
    return out;
  };
  return { url, output: () => out, stop, waitFor };
}

describe('the sandbox CLI of docs/testing.md', () => {
  it('serves the API on 127.0.0.1 until SIGTERM, prints the environment to paste and logs one line per request', async () => {
    expect(read('docs/testing.md')).toContain('npx crossborder-sdk sandbox --port 4010');
    const cli = await startCli([]);
    try {
      const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: cli.url });
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
      expect(customer.id).toMatch(/^Customer:/);
      // What `npx crossborder-sdk sandbox` prints is enough: a client from those variables reaches cb.sandbox.* too.
      const out = await cli.waitFor(/POST \/2025-10-13\/customers → 20\d/);
      expect(out).toContain(`CROSSBORDER_BASE_URL=${cli.url}`);
      expect(out).toContain('CROSSBORDER_ENVIRONMENT=sandbox');
      expect(out).toMatch(/CROSSBORDER_WEBHOOK_PUBLIC_KEY=04[0-9a-f]{128}/);
      expect(out).toContain(`Inspector: ${cli.url}/_sandbox/`);
      expect(out).toMatch(/POST \/2025-10-13\/customers → 20\d \d+ms \S+/);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  }, 60_000);

  it('--json logs machine-readable lines; --quiet logs none', async () => {
    const json = await startCli(['--json']);
    const quiet = await startCli(['--quiet']);
    try {
      for (const { url } of [json, quiet]) {
        const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: url });
        await cb.customers.list({ limit: 1 });
      }
      const lines = (await json.waitFor(/"kind":"request"/)).split('\n').filter(Boolean);
      // JSON lines only (`| jq -c .` works): the banner is one of them.
      expect(JSON.parse(lines[0]!)).toMatchObject({ kind: 'listening', url: json.url });
      expect(JSON.parse(lines[1]!)).toMatchObject({
        kind: 'request',
        method: 'GET',
        path: '/2025-10-13/customers?limit=1',
        status: 200,
        replayed: false,
        time: expect.any(String),
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(quiet.output()).not.toMatch(/GET \/2025-10-13/);
    } finally {
      expect(await json.stop()).toBe(0);
      expect(await quiet.stop()).toBe(0);
    }
  }, 60_000);

  it('--webhook-key FILE: the key is made on first use and the same after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-webhook-key-'));
    const file = join(dir, 'webhook-key.json');
    try {
      const keyOf = (out: string) => /CROSSBORDER_WEBHOOK_PUBLIC_KEY=(04[0-9a-f]{128})/.exec(out)?.[1];
      const first = await startCli(['--webhook-key', file, '--quiet']);
      const key = keyOf(first.output());
      expect(await first.stop()).toBe(0);
      expect(key).toBeDefined();
      expect(JSON.parse(readFileSync(file, 'utf8')).publicKeyHex).toBe(key);
      expect(statSync(file).mode & 0o077).toBe(0); // the private key is readable by its owner only
      const second = await startCli(['--webhook-key', file, '--quiet']);
      expect(keyOf(second.output())).toBe(key);
      expect(await second.stop()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('verbs drive a running sandbox: trigger a webhook, advance the clock, reset', async () => {
    const cli = await startCli(['--quiet']);
    const hook = await receiver();
    const received = hook.received;
    const verb = (...args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'sandbox', ...args, '--url', cli.url], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', (code) => (clearTimeout(timer), resolve({ code, out })));
      });
    try {
      const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: cli.url });
      await cb.config.update({ webhookEndpoint: hook.url });
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada' });
      const triggered = await verb('trigger', 'CUSTOMER.KYC_APPROVED', customer.id);
      expect(triggered.code).toBe(0);
      expect(JSON.parse(triggered.out)).toMatchObject({ type: 'CUSTOMER.KYC_APPROVED', eventId: expect.any(String) });
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(JSON.parse(received[0]!)).toMatchObject({ type: 'CUSTOMER.KYC_APPROVED', data: { id: customer.id } });
      const clock = await verb('clock', 'advance', '10m');
      expect(clock.code).toBe(0);
      expect(JSON.parse(clock.out).advancedMs).toBe(600_000);
      expect((await verb('reset')).code).toBe(0);
      expect((await cb.customers.list()).data).toEqual([]);
      expect((await verb('trigger', 'TEST')).code).toBe(1); // the reset forgot the webhookEndpoint
    } finally {
      await hook.close();
      expect(await cli.stop()).toBe(0);
    }
  }, 90_000);

  it('--state FILE: saved on exit (atomically), loaded at the next start; webhook event ids never repeat across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-state-'));
    const file = join(dir, 'state.json');
    const hook = await receiver();
    const eventIds = () => hook.received.map((b) => JSON.parse(b).id as string);
    const sequence = (id: string) => parseInt(id.slice('Webhook:'.length, 'Webhook:'.length + 8), 16);
    try {
      const first = await startCli(['--state', file, '--quiet']);
      const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: first.url });
      await cb.config.update({ webhookEndpoint: hook.url });
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Saved Across Runs' });
      expect((await runCli(['sandbox', 'trigger', 'TEST', '--url', first.url])).code).toBe(0);
      await eventually(() => hook.received.length === 1);
      expect(await first.stop()).toBe(0);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      expect(saved.format).toBe('crossborder-sandbox-state/1');
      expect(saved.lastWebhookSequence).toBe(sequence(eventIds()[0]!));
      // Held open, the first run's file keeps its inode (never reused while open) and its bytes: a save
      // that wrote in place would show here; one that renames a new file over it leaves them whole.
      const firstText = readFileSync(file, 'utf8');
      const held = openSync(file, 'r');
      const inode = fstatSync(held).ino;
      const second = await startCli(['--state', file, '--quiet']);
      try {
        const again = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: second.url });
        expect(await again.customers.retrieve(customer.id)).toMatchObject({ id: customer.id, fullName: 'Saved Across Runs' });
        expect((await runCli(['sandbox', 'trigger', 'TEST', '--url', second.url])).code).toBe(0);
        await eventually(() => hook.received.length === 2);
      } finally {
        expect(await second.stop()).toBe(0);
      }
      // The restart's event is a new id, its sequence going on from the saved one: a receiver's dedupe keeps it.
      const [before, after] = eventIds();
      expect(after).not.toBe(before);
      expect(sequence(after!)).toBe(sequence(before!) + 1);
      // A restart without the state (same seed): still a new id.
      const third = await startCli(['--quiet']);
      try {
        await new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: third.url }).config.update({ webhookEndpoint: hook.url });
        expect((await runCli(['sandbox', 'trigger', 'TEST', '--url', third.url])).code).toBe(0);
        await eventually(() => hook.received.length === 3);
      } finally {
        expect(await third.stop()).toBe(0);
      }
      expect(new Set(eventIds()).size).toBe(3);
      // Saved by writing a new file and renaming it over the old one (a new inode), no temporary left behind.
      expect(statSync(file).ino).not.toBe(inode);
      expect(readFileSync(held, 'utf8')).toBe(firstText);
      closeSync(held);
      expect(readdirSync(dir)).toEqual(['state.json']);
    } finally {
      await hook.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('each verb answers --help and -h before anything else (reset --help does not reset), and refuses unknown flags with exit 2 and its usage', async () => {
    const cli = await startCli(['--quiet']);
    const hook = await receiver();
    try {
      const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: cli.url });
      await cb.config.update({ webhookEndpoint: hook.url });
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Still Here' });
      for (const verb of [['reset'], ['clock', 'advance', '10m'], ['trigger', 'TEST'], ['trigger']]) {
        for (const help of ['--help', '-h']) {
          const res = await runCli(['sandbox', ...verb, help, '--url', cli.url]);
          expect({ verb, help, code: res.code, err: res.err }).toEqual({ verb, help, code: 0, err: '' });
          expect(res.out).toMatch(new RegExp(`^Usage: crossborder-sdk sandbox ${verb[0]} `));
        }
      }
      expect((await runCli(['sandbox', 'trigger', '--help'])).out).toContain('INCOMING_PAYMENT.PENDING');
      for (const verb of [
        ['reset', '--force'],
        ['reset', 'now'],
        ['clock', 'advance', '10m', '--fast'],
        ['trigger', 'TEST', '-x'],
        ['trigger', '--type=TEST'],
        ['reset', '--url'],
      ]) {
        const res = await runCli(['sandbox', ...verb, ...(verb.includes('--url') ? [] : ['--url', cli.url])]);
        expect({ verb, code: res.code, out: res.out }).toEqual({ verb, code: 2, out: '' });
        expect(res.err).toContain(`Usage: crossborder-sdk sandbox ${verb[0]} `);
      }
      // Nothing was done: the customer is there, the clock did not move, no event was sent.
      expect(await cb.customers.retrieve(customer.id)).toMatchObject({ fullName: 'Still Here' });
      await new Promise((r) => setTimeout(r, 200));
      expect(hook.received).toEqual([]);
      expect((await runCli(['sandbox', 'bogus'])).code).toBe(2);
      const usage = await runCli(['sandbox', '--help']);
      expect(usage.code).toBe(0);
      expect(usage.out).not.toContain('lost on exit');
      expect(usage.out).toContain('--cors-origin');
    } finally {
      await hook.close();
      expect(await cli.stop()).toBe(0);
    }
  }, 90_000);

  it("logs /_sandbox/* calls too (the verbs, the inspector), not the browser's favicon", async () => {
    const cli = await startCli([]);
    try {
      expect((await runCli(['sandbox', 'clock', 'advance', '1m', '--url', cli.url])).code).toBe(0);
      await fetch(`${cli.url}/_sandbox/`);
      const icon = await fetch(`${cli.url}/favicon.ico`);
      expect(icon.status).toBe(204);
      const out = await cli.waitFor(/GET \/_sandbox\/ → 200/);
      expect(out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} \[sandbox [^\]]+\] POST \/_sandbox\/clock → 200 \d+ms$/m);
      expect(out).not.toContain('favicon');
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  }, 60_000);

  it('--cors-origin (repeatable, comma-separated) limits the origins; a malformed one is refused', async () => {
    const cli = await startCli(['--quiet', '--cors-origin', 'http://localhost:5173,http://localhost:3000', '--cors-origin=https://app.example']);
    try {
      const preflight = (origin: string) =>
        fetch(`${cli.url}/2025-10-13/customers`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
        });
      for (const origin of ['http://localhost:5173', 'http://localhost:3000', 'https://app.example']) {
        const res = await preflight(origin);
        expect([origin, res.status, res.headers.get('access-control-allow-origin'), res.headers.get('access-control-allow-headers')]).toEqual([
          origin,
          204,
          origin,
          'authorization, content-type',
        ]);
      }
      expect((await preflight('https://evil.example')).status).toBe(403);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
    const bad = await runCli(['sandbox', '--port', '0', '--cors-origin', 'localhost:5173']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--cors-origin needs origins such as http://localhost:5173 (scheme, host and port only) or '*', got 'localhost:5173'");
  }, 60_000);

  it('--host: on 0.0.0.0 the controls ask for the control token it prints, the verbs send it, and CORS is off unless --cors-origin; a listen error names the host', async () => {
    const cli = await startCli(['--quiet', '--host', '0.0.0.0']); // briefly on every interface; reached through 127.0.0.1
    try {
      expect(cli.output()).toContain('Listening on 0.0.0.0, not a loopback address');
      const token = /CROSSBORDER_SANDBOX_TOKEN=([0-9a-f]+)/.exec(cli.output())?.[1] ?? '';
      expect(token).toMatch(/^[0-9a-f]{32,}$/);
      expect((await fetch(`${cli.url}/_sandbox/`)).status).toBe(401);
      expect((await fetch(`${cli.url}/_sandbox/events`)).status).toBe(401);
      const withToken = await fetch(`${cli.url}/_sandbox/`, { headers: { 'x-sandbox-token': token, authorization: `Basic ${btoa('any:any')}` } });
      expect(withToken.status).toBe(200);
      await withToken.text();
      // The verbs send CROSSBORDER_SANDBOX_TOKEN; without it they are refused.
      const refused = await runCli(['sandbox', 'clock', 'advance', '1m', '--url', cli.url]);
      expect([refused.code, refused.err]).toEqual([1, expect.stringContaining('the sandbox answered 401')]);
      const sent = spawnSync(process.execPath, [CLI, 'sandbox', 'clock', 'advance', '1m', '--url', cli.url], {
        cwd: root,
        env: { ...process.env, CROSSBORDER_SANDBOX_TOKEN: token },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect([sent.status, JSON.parse(sent.stdout).advancedMs]).toEqual([0, 60_000]);
      const answer = await fetch(`${cli.url}/2025-10-13/customers`, {
        headers: { authorization: `Basic ${btoa('any:any')}`, origin: 'http://192.168.1.20:5173' },
      });
      // An origin that is not allowed is refused, even without a preflight (issue 22).
      expect([answer.status, answer.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.2', r));
    try {
      const port = (taken.address() as { port: number }).port;
      const busy = await runCli(['sandbox', '--host', '127.0.0.2', '--port', String(port)]);
      expect([busy.code, busy.err.trim()]).toEqual([1, `crossborder-sdk: cannot listen on 127.0.0.2:${port}: the port is in use (try --port 0)`]);
    } finally {
      taken.close();
    }
    const nowhere = await runCli(['sandbox', '--host', '192.0.2.1', '--port', '0']); // TEST-NET-1: no interface has it
    expect([nowhere.code, nowhere.err.trim()]).toEqual([1, 'crossborder-sdk: cannot listen on 192.0.2.1:0: no interface of this machine has that address']);
  }, 60_000);
});
