/**
 * Every command points where the user pointed it (issue 32, items 7 and 8), from the packed bin:
 * `--base-url`, then the profile, then `CROSSBORDER_BASE_URL`, then the local sandbox; never
 * production unless chosen; `mcp` beyond loopback only with `--allow-remote`, its first stderr line
 * saying where it points; missing credentials named as the shell spells them.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cli, envFor, json, root, startSandbox, type Sandbox } from './helpers';

let sandbox: Sandbox;
const creds = { CROSSBORDER_TOKEN_ID: 'sandbox', CROSSBORDER_CLIENT_SECRET: 'sandbox' };

beforeAll(async () => {
  sandbox = await startSandbox(['--quiet']);
});
afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
});

describe('one rule for where every command points', () => {
  it('CROSSBORDER_BASE_URL alone points the sandbox verbs, trigger and mcp at that sandbox', async () => {
    const env = { CROSSBORDER_BASE_URL: sandbox.url };
    const made = json<{ id: string }>(
      await cli(['customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--full-name', 'Ada Target', '--json'], { env: envFor(sandbox) }),
    );
    // The control verb reads the request log of the sandbox the variable names: the customer just made is there.
    const requests = json<{ data: { method: string; path: string }[] }>(await cli(['sandbox', 'requests', '--json'], { env }));
    expect(requests.data.some((r) => r.method === 'POST' && r.path === '/2025-10-13/customers')).toBe(true);
    const triggered = await cli(['trigger', 'TEST', '--json'], { env });
    expect(triggered.err).not.toMatch(/no sandbox is running at http:\/\/127\.0\.0\.1:4010/);
    // mcp with no flags: that sandbox, with its own credentials taken from the environment.
    const client = new Client({ name: 'test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...envFor(sandbox) },
      stderr: 'pipe',
    });
    let err = '';
    transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    await client.connect(transport);
    try {
      const read = await client.callTool({ name: 'customers_retrieve', arguments: { customerId: made.id } });
      expect(JSON.parse((read.content as { text: string }[])[0]!.text)).toMatchObject({ id: made.id, fullName: 'Ada Target' });
      expect(err.split('\n')[0]).toBe(`crossborder-sdk mcp: pointed at ${sandbox.url}/2025-10-13 (from CROSSBORDER_BASE_URL, environment sandbox); read-only`);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('credentials and no address never reach production: the command goes to the local sandbox', async () => {
    const ran = await cli(['customers', 'list', '--max-retries', '0', '--json'], { env: creds });
    expect(`${ran.out}${ran.err}`).not.toMatch(/crossborder\.example|ENOTFOUND/);
    // Only --environment production goes there (no network here: the name does not resolve).
    const chosen = await cli(['customers', 'list', '--max-retries', '0', '--environment', 'production', '--timeout', '3000'], { env: creds });
    expect(chosen.code).not.toBe(0);
    expect(chosen.err).not.toMatch(/127\.0\.0\.1:4010/);
  }, 60_000);

  it('missing credentials are named as the shell spells them, not as JavaScript does', async () => {
    const ran = await cli(['customers', 'list', '--base-url', sandbox.url]);
    expect(ran.code).toBe(2);
    expect(ran.err).toContain('missing credentials: set CROSSBORDER_TOKEN_ID and CROSSBORDER_CLIENT_SECRET, or give --profile NAME');
    expect(ran.err).not.toContain('pass {');
    const mcp = await cli(['mcp', '--base-url', sandbox.url], { input: '' });
    expect(mcp.code).toBe(2);
    expect(mcp.err).toContain('CROSSBORDER_TOKEN_ID');
    expect(mcp.err).toContain('CROSSBORDER_CLIENT_SECRET');
    expect(mcp.err).toContain('--profile');
    expect(mcp.err).not.toContain('pass {');
  }, 60_000);

  it('mcp beyond loopback needs --allow-remote; its first line says where it points, without the userinfo; nothing is sent', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      // A name that is not loopback (it resolves nowhere): refused before anything is sent.
      const remote = await cli(['mcp', '--base-url', 'https://payments.example.net'], { env: creds, input: '' });
      expect(remote.code).toBe(2);
      expect(remote.err.split('\n')[0]).toBe(
        'crossborder-sdk mcp: pointed at https://payments.example.net/2025-10-13 (from --base-url, environment unknown); read-only',
      );
      expect(remote.err).toContain('--allow-remote');
      // An address with credentials in it is refused as every command refuses it, said without them.
      const withUserinfo = await cli(['mcp', '--base-url', 'https://user:s3cret-pass@payments.example.net', '--allow-remote'], { env: creds, input: '' });
      expect(withUserinfo.code).toBe(2);
      expect(withUserinfo.err).toContain('--base-url https://***@payments.example.net: an address with credentials in it is not used');
      expect(withUserinfo.err).not.toContain('s3cret-pass');
      // Loopback needs no flag.
      const local = await cli(['mcp', '--base-url', `http://127.0.0.1:${port}`], { env: creds, input: '', timeoutMs: 15_000 });
      expect(local.err.split('\n')[0]).toBe(
        `crossborder-sdk mcp: pointed at http://127.0.0.1:${port}/2025-10-13 (from --base-url, environment unknown); read-only`,
      );
      expect(local.err).not.toContain('--allow-remote');
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  }, 60_000);
});
