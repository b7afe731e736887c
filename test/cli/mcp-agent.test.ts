/**
 * The MCP server acting as an agent: given an agent's credential (`CROSSBORDER_AGENT_TOKEN`, no platform
 * credentials), over its real stdio transport from the packed bin, against the sandbox. The agent's policy holds
 * transfers above 200.00 USD for the platform's approval: a small transfer-out runs at once; a large one answers
 * "waiting for approval" with the action's id (a result, not an error) and nothing moves until the platform
 * approves it, then it moves once. The tools listed are the agent's own (the operations under `/agents/me`, the
 * document's `AgentAuth` ones), by the tiers; a platform tool is refused and sends nothing. The sandbox's balances
 * and request log are the witnesses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI, root, sdk, startSandbox, type Sandbox } from './helpers';

type Json = Record<string, any>;
type Effect = 'read' | 'write' | 'money' | 'secret';

const doc = parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8')) as Json;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const ops = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({
    id: item[m].operationId as string,
    method: m.toUpperCase(),
    path,
    effect: item[m]['x-effect'] as Effect,
    agentAuth: JSON.stringify(item[m].security ?? doc.security) === JSON.stringify([{ AgentAuth: [] }]),
  })),
);
const agentOps = ops.filter((op) => op.agentAuth);

const POLICY = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000, dailyTransactionLimit: 10 },
  approvalThresholds: { currency: 'USD', amount: 20_000 },
};

let sandbox: Sandbox;
let cb: any;
let agentId: string;
let accessToken: string;
let usd: string;
let bank: string;
let marker = 0;

interface Logged {
  method: string;
  path: string;
  status: number;
}

/** The API requests the sandbox logged since the previous call (a marker request of its own separates them). */
async function sinceLastMark(): Promise<Logged[]> {
  const previous = `/_sandbox/requests?mark=${marker}`;
  marker += 1;
  const res = await fetch(`${sandbox.url}/_sandbox/requests?mark=${marker}`, { headers: { authorization: `Basic ${btoa('sandbox:sandbox')}` } });
  expect(res.status).toBe(200);
  const entries = ((await res.json()) as { data: Logged[] }).data;
  const from = entries.findIndex((e) => e.path === previous);
  return (from === -1 ? entries : entries.slice(from + 1)).filter((e) => !e.path.startsWith('/_sandbox'));
}

let customerId: string;
/** The USD account's balance, as the platform lists it. */
const balance = async (): Promise<number> =>
  (await cb.internalAccounts.list({ customerId, currency: 'USD' })).data.find((a: { id: string }) => a.id === usd).balance.amount as number;

async function serve(flags: string[], env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'agent-assistant', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--base-url', sandbox.url, ...flags],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', CROSSBORDER_ENVIRONMENT: 'sandbox', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  await client.connect(transport);
  return { client, stderr: () => err };
}

const texts = (answer: Json) => (answer.content as { text: string }[]).map((c) => c.text);
const toolOf = (name: string) => `agents_me_${name}`;

beforeAll(async () => {
  sandbox = await startSandbox(['--quiet']);
  const { Crossborder } = await sdk();
  cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', environment: 'sandbox', baseUrl: sandbox.url, maxRetries: 0 });
  const customer = await cb.customers.create({
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
    address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    currencies: ['USD'],
  });
  customerId = customer.id;
  usd = (await cb.internalAccounts.list({ customerId, currency: 'USD' })).data[0].id;
  await cb.sandbox.fundInternalAccount(usd, { amount: 200_000 });
  bank = (
    await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    })
  ).id;
  const { agent, deviceCode } = await cb.agents.create({ name: 'Assistant', customerId: customer.id, policy: POLICY });
  agentId = agent.id;
  accessToken = (await cb.agents.redeemDeviceCode(deviceCode.code)).accessToken;
  expect(accessToken).toMatch(/^gat_/);
}, 60_000);
afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
});

describe('the MCP server with an agent credential', () => {
  it('the document: the operations under /agents/me are exactly those an agent calls with its own credential', () => {
    expect(agentOps.length).toBeGreaterThan(10);
    expect(ops.filter((op) => op.path === '/agents/me' || op.path.startsWith('/agents/me/')).map((op) => op.id)).toEqual(agentOps.map((op) => op.id));
  });

  it('money tier: lists the agent’s tools only; a small transfer runs, a large one waits for approval with its id and moves once approved', async () => {
    // The platform's credentials in the environment are left aside: the agent's wins, as in the SDK.
    const { client, stderr } = await serve(['--allow-writes', '--allow-money-movement'], {
      CROSSBORDER_AGENT_TOKEN: accessToken,
      CROSSBORDER_TOKEN_ID: 'sandbox',
      CROSSBORDER_CLIENT_SECRET: 'sandbox',
    });
    try {
      const { tools } = await client.listTools();
      // Every agent operation (none is `secret`), and nothing else.
      expect(tools.length).toBe(agentOps.length);
      for (const op of agentOps)
        expect(
          tools.some((t) => t.description!.includes(`(${op.method} ${op.path})`)),
          op.id,
        ).toBe(true);
      for (const tool of tools) expect(tool.name).toMatch(/^agents_me_/);
      expect(stderr().split('\n')[0]).toContain('reads, writes, money movement; as the agent of CROSSBORDER_AGENT_TOKEN');
      expect(stderr()).not.toContain(accessToken);

      await sinceLastMark();
      const transfer = (amount: number) =>
        client.callTool({ name: toolOf('transfer_out'), arguments: { body: { source: { accountId: usd }, destination: { accountId: bank }, amount } } });

      // Within the policy: runs at once.
      const small = await transfer(12_550);
      expect(small.isError).not.toBe(true);
      expect(texts(small)).toHaveLength(1);
      expect(JSON.parse(texts(small)[0]!)).toMatchObject({ agentId, status: 'APPROVED', type: 'TRANSFER_OUT', transaction: { type: 'OUTGOING' } });
      expect(await balance()).toBe(200_000 - 12_550);
      expect((await sinceLastMark()).filter((e) => e.path.includes('/agents/')).map((e) => [e.method, e.path, e.status])).toEqual([
        ['POST', '/2025-10-13/agents/me/transfer-out', 201],
      ]);

      // Above the threshold: held, said as a result with the action's id; nothing moves.
      const large = await transfer(30_000);
      expect(large.isError).not.toBe(true);
      const [said, json] = texts(large);
      const action = JSON.parse(json!) as { id: string; status: string; transaction?: unknown };
      expect(action).toMatchObject({ agentId, status: 'PENDING_APPROVAL', type: 'TRANSFER_OUT', transferDetails: { amount: 30_000 } });
      expect(action.transaction).toBeUndefined();
      expect(said).toBe(
        `Waiting for approval: action ${action.id} is held by the agent's policy until the platform approves or rejects it; nothing has moved yet. Follow it with agents_me_actions_retrieve (actionId ${action.id}).`,
      );
      expect(await balance()).toBe(200_000 - 12_550);
      expect((await cb.agents.listApprovals({ agentId })).data.map((a: { id: string }) => a.id)).toEqual([action.id]);

      // The assistant reads it as still held; a platform tool is not the agent's: refused, nothing sent.
      await sinceLastMark();
      const still = await client.callTool({ name: toolOf('actions_retrieve'), arguments: { actionId: action.id } });
      expect(texts(still)).toHaveLength(1);
      expect(JSON.parse(texts(still)[0]!)).toMatchObject({ id: action.id, status: 'PENDING_APPROVAL' });
      for (const name of ['transfer_out_create', 'agents_approve_action', 'customers_list']) {
        const refused = await client.callTool({ name, arguments: { agentId, actionId: action.id, body: {} } });
        expect(refused.isError, name).toBe(true);
        expect(texts(refused)[0]).toContain('"error":"Refused"');
        expect(texts(refused)[0]).toContain("serves the agent's own tools");
      }
      expect((await sinceLastMark()).map((e) => [e.method, e.path])).toEqual([['GET', `/2025-10-13/agents/me/actions/${encodeURIComponent(action.id)}`]]);
      expect(await balance()).toBe(200_000 - 12_550);

      // The platform approves: it moves, once.
      const approved = await cb.agents.approveAction(agentId, action.id);
      expect(approved).toMatchObject({ status: 'APPROVED', transaction: { type: 'OUTGOING' } });
      expect(await balance()).toBe(200_000 - 12_550 - 30_000);
      await expect(cb.agents.approveAction(agentId, action.id)).rejects.toMatchObject({ status: 409 });
      expect(await balance()).toBe(200_000 - 12_550 - 30_000);
      const after = await client.callTool({ name: toolOf('actions_retrieve'), arguments: { actionId: action.id } });
      expect(JSON.parse(texts(after)[0]!)).toMatchObject({ id: action.id, status: 'APPROVED', transaction: { id: approved.transaction.id } });
    } finally {
      await client.close();
    }
  }, 120_000);

  it('without --allow-money-movement the money tools are not offered, and a call of one sends nothing', async () => {
    for (const [flags, allows] of [
      [['--allow-writes'], ['read', 'write']],
      [[], ['read']],
    ] as [string[], Effect[]][]) {
      const { client } = await serve(flags, { CROSSBORDER_AGENT_TOKEN: accessToken });
      try {
        const { tools } = await client.listTools();
        const offered = agentOps.filter((op) => allows.includes(op.effect));
        expect(tools.length, flags.join(' ')).toBe(offered.length);
        for (const op of offered)
          expect(
            tools.some((t) => t.description!.includes(`(${op.method} ${op.path})`)),
            op.id,
          ).toBe(true);
        for (const name of ['transfer_out', 'transfer_in', 'quotes_execute']) expect(tools.map((t) => t.name)).not.toContain(toolOf(name));
        const before = await balance();
        await sinceLastMark();
        const refused = await client.callTool({
          name: toolOf('transfer_out'),
          arguments: { body: { source: { accountId: usd }, destination: { accountId: bank }, amount: 100 } },
        });
        expect(refused.isError).toBe(true);
        expect(texts(refused)[0]).toContain('"error":"Refused"');
        expect(await sinceLastMark()).toEqual([]);
        expect(await balance()).toBe(before);
      } finally {
        await client.close();
      }
    }
  }, 120_000);
});
