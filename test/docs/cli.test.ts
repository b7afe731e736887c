/** docs/testing.md shows `npx crossborder-sdk sandbox --port 4010`: the same CLI, the packed package's `bin`, on a free port. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crossborder } from 'crossborder-sdk';
import { describe, expect, inject, it } from 'vitest';
import { read, root } from './markdown';

/** What `npx crossborder-sdk` runs: the `bin` of the packed package. */
const pkg = inject('packed').pkg;
const CLI = join(pkg, (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['crossborder-sdk']!);

/** Starts the CLI on a free port; resolves once it prints its URL. Every wait is bounded. */
async function startCli(extra: string[]) {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', ...extra], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s: ${out}`)), 20_000);
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
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
      const lines = (await json.waitFor(/"kind":"request"/)).split('\n').filter((l) => l.startsWith('{'));
      expect(JSON.parse(lines[0]!)).toMatchObject({ kind: 'request', method: 'GET', path: '/2025-10-13/customers?limit=1', status: 200, replayed: false });
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
    const { createServer } = await import('node:http');
    const received: string[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => (received.push(body), res.end()));
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
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
      await cb.config.update({ webhookEndpoint: `http://127.0.0.1:${(hook.address() as { port: number }).port}/hooks` });
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
      hook.close();
      expect(await cli.stop()).toBe(0);
    }
  }, 90_000);

  it('--state FILE: saved on exit, loaded at the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-state-'));
    const file = join(dir, 'state.json');
    try {
      const first = await startCli(['--state', file, '--quiet']);
      const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: first.url });
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Saved Across Runs' });
      expect(await first.stop()).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('crossborder-sandbox-state/1');
      const second = await startCli(['--state', file, '--quiet']);
      try {
        const again = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: second.url });
        expect(await again.customers.retrieve(customer.id)).toMatchObject({ id: customer.id, fullName: 'Saved Across Runs' });
      } finally {
        expect(await second.stop()).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
