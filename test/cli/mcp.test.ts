/**
 * `crossborder-sdk mcp` from the packed bin, driven by the MCP SDK's own client over stdio, against
 * the HTTP sandbox: the tools listed (read-only by default), a read called, a write refused.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationEffects } from '../../src/generated/effects';
import { CLI, cli, envFor, json, root, startSandbox, type Sandbox } from './helpers';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox(['--quiet']);
});
afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
});

async function connect(flags: string[]): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--base-url', sandbox.url, ...flags],
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...envFor(sandbox) },
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('the MCP server', () => {
  it('read-only by default: lists the reads, calls one, refuses a write', async () => {
    const customer = json<{ id: string }>(
      await cli(['customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--full-name', 'Ada MCP', '--json'], { env: envFor(sandbox) }),
    );
    const client = await connect([]);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain('customers_retrieve');
      expect(names).toContain('transactions_list');
      expect(names.filter((n) => /_(create|update|delete|execute|approve|reject|fund|receive|revoke|verify|challenge|export)$/.test(n))).toEqual([]);
      // One tool per read operation of the document (x-effect: read), and no other.
      expect(names).toHaveLength(Object.values(operationEffects).filter((e) => e.effect === 'read').length);
      const retrieve = tools.find((t) => t.name === 'customers_retrieve')!;
      expect(retrieve.inputSchema).toMatchObject({ type: 'object', properties: { customerId: { type: 'string' } }, required: ['customerId'] });
      expect(retrieve.description).toMatch(/^Fetches a customer by its system id/);
      const read = await client.callTool({ name: 'customers_retrieve', arguments: { customerId: customer.id } });
      expect(read.isError).toBeFalsy();
      expect(JSON.parse((read.content as { text: string }[])[0]!.text)).toMatchObject({ id: customer.id, fullName: 'Ada MCP' });
      const write = await client.callTool({ name: 'customers_delete', arguments: { customerId: customer.id } });
      expect(write.isError).toBe(true);
      expect((write.content as { text: string }[])[0]!.text).toContain('the server is read-only (start it with --allow-writes)');
      // Nothing changed.
      expect(json<{ isDeleted: boolean }>(await cli(['customers', 'retrieve', customer.id, '--json'], { env: envFor(sandbox) })).isDeleted).toBe(false);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('--allow-writes offers writes but not money movement, whose descriptions say what they do once allowed', async () => {
    const writes = await connect(['--allow-writes']);
    try {
      const names = (await writes.listTools()).tools.map((t) => t.name);
      expect(names).toContain('customers_create');
      expect(names).not.toContain('quotes_execute');
      const refused = await writes.callTool({ name: 'quotes_execute', arguments: { quoteId: 'Quote:x' } });
      expect((refused.content as { text: string }[])[0]!.text).toContain('moves money: start the server with --allow-writes --allow-money-movement');
    } finally {
      await writes.close();
    }
    const money = await connect(['--allow-writes', '--allow-money-movement']);
    try {
      const execute = (await money.listTools()).tools.find((t) => t.name === 'quotes_execute')!;
      expect(execute.description).toContain('MOVES MONEY: it moves funds or decides a payment (allowed by --allow-writes --allow-money-movement).');
      expect(execute.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    } finally {
      await money.close();
    }
  }, 60_000);
});
