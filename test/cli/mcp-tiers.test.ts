/**
 * Adversarial: an MCP client over stdio against the packed bin, at every tier, calls every tool, and
 * every tool whose body has an effect-raising field with that field set. The sandbox's own request
 * log (`GET /_sandbox/requests`) is the witness: a refused call sent nothing, an allowed one reached
 * the sandbox. What each operation may do is read from the document (`x-effect`,
 * `x-effect-raised-by`), and the issue's list of money and key operations is held against it.
 *
 * One sandbox, one MCP process per tier.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI, envFor, root, startSandbox, type Sandbox } from './helpers';

type Effect = 'read' | 'write' | 'money' | 'secret';
type Json = Record<string, any>;

const doc = parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8')) as Json;
const deref = (node: Json): Json => {
  let n = node;
  while (n && typeof n.$ref === 'string')
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce((o: Json, k: string) => o[k], doc);
  return n;
};

interface Op {
  id: string;
  method: string;
  path: string;
  effect: Effect;
  raisedBy: Record<string, Effect>;
  /** An input the tool takes: path parameters and required query fields from the document's examples, the body's example. */
  input: Record<string, unknown>;
}

/** Every operation of the document, with an input built from its examples (ids that do not exist: the sandbox answers 404, no state changes). */
const ops: Op[] = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
  (['get', 'post', 'put', 'patch', 'delete'] as const)
    .filter((m) => item[m])
    .map((m) => {
      const op = item[m];
      const input: Record<string, unknown> = {};
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref)) {
        if (p.in === 'path' || (p.in === 'query' && p.required)) input[p.name] = p.example ?? p.schema?.example ?? 'x';
      }
      const content = op.requestBody ? deref(op.requestBody).content : undefined;
      const media = content?.['application/json'] ?? content?.['multipart/form-data'];
      const example = media ? (media.example ?? deref(Object.values<Json>(media.examples ?? {})[0] ?? {}).value) : undefined;
      if (example !== undefined) input.body = example;
      return { id: op.operationId, method: m.toUpperCase(), path, effect: op['x-effect'], raisedBy: op['x-effect-raised-by'] ?? {}, input };
    }),
);

/** Each call tried: the operation with its effect-raising fields off, then with each one on. */
interface Case {
  op: Op;
  label: string;
  effect: Effect;
  args: Record<string, unknown>;
  /** The SDK may refuse these arguments itself (a string for a boolean): once the tier allows the call, it need not reach the sandbox. */
  mayNotReach?: boolean;
}
const cases: Case[] = ops.flatMap((op) => {
  const body = op.input.body as Record<string, unknown> | undefined;
  const off = body ? Object.fromEntries(Object.entries(body).filter(([k]) => !(k in op.raisedBy))) : undefined;
  const plain = { op, label: op.id, effect: op.effect, args: { ...op.input, ...(off ? { body: off } : {}) } };
  const raised = Object.entries(op.raisedBy).flatMap(([field, effect]) => [
    { op, label: `${op.id} ${field}=true`, effect, args: { ...op.input, body: { ...off, [field]: true } } },
    // Not only `true`: any value but false or null may be read as a yes by the service.
    { op, label: `${op.id} ${field}="yes"`, effect, args: { ...op.input, body: { ...off, [field]: 'yes' } }, mayNotReach: true },
    // Beside the body, as a top-level argument (it would go out as a query field).
    { op, label: `${op.id} ${field}=true beside body`, effect, args: { ...op.input, body: off, [field]: true }, mayNotReach: true },
    // false in the body does not hide true beside it.
    {
      op,
      label: `${op.id} ${field}=true beside body, false in it`,
      effect,
      args: { ...op.input, body: { ...off, [field]: false }, [field]: true },
      mayNotReach: true,
    },
  ]);
  return [plain, ...raised];
});

const TIERS: { name: string; flags: string[]; allows: Effect[] }[] = [
  { name: 'read-only', flags: [], allows: ['read'] },
  { name: 'writes', flags: ['--allow-writes'], allows: ['read', 'write'] },
  { name: 'money', flags: ['--allow-writes', '--allow-money-movement'], allows: ['read', 'write', 'money'] },
  { name: 'key export', flags: ['--allow-writes', '--allow-key-export'], allows: ['read', 'write', 'secret'] },
];

let sandbox: Sandbox;
let marker = 0;
/** operationId → its tool's name, read from the tools the server lists (each description names its operation: `(POST /quotes)`). */
const names = new Map<string, string>();

beforeAll(async () => {
  sandbox = await startSandbox(['--quiet']);
  // The money and key-export tiers together list every tool.
  for (const tier of TIERS.slice(2)) {
    const { client } = await connect(tier.flags);
    try {
      for (const tool of (await client.listTools()).tools) {
        const op = ops.find((o) => tool.description!.includes(`(${o.method} ${o.path})`));
        if (op) names.set(op.id, tool.name);
      }
    } finally {
      await client.close();
    }
  }
}, 60_000);
afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
});

interface Logged {
  method: string;
  path: string;
  status: number;
}

/** Reads the sandbox's request log with a marker of its own; answers the API requests logged since the previous marker. */
async function sinceLastMark(): Promise<Logged[]> {
  const previous = `/_sandbox/requests?mark=${marker}`;
  marker += 1;
  const res = await fetch(`${sandbox.url}/_sandbox/requests?mark=${marker}`, { headers: { authorization: `Basic ${btoa('sandbox:sandbox')}` } });
  expect(res.status).toBe(200);
  const entries = ((await res.json()) as { data: Logged[] }).data;
  const from = entries.findIndex((e) => e.path === previous);
  const after = from === -1 ? entries : entries.slice(from + 1);
  return after.filter((e) => !e.path.startsWith('/_sandbox'));
}

const templateMatches = (op: Op, logged: Logged) =>
  logged.method === op.method && new RegExp(`^/2025-10-13${op.path.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`).test(logged.path);

async function connect(flags: string[]): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'adversary', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--base-url', sandbox.url, ...flags],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...envFor(sandbox) },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  await client.connect(transport);
  return { client, stderr: () => err };
}

describe('the document declares the effects the issue names', () => {
  it('money: execute, immediately executed quotes, transfer-in, approve, reject, sandbox money; secret: export and what hands out session keys', () => {
    const effect = Object.fromEntries(ops.map((op) => [op.id, op.effect]));
    for (const id of [
      'executeQuote',
      'createTransferIn',
      'approveTransaction',
      'rejectTransaction',
      'sandboxFundInternalAccount',
      'sandboxReceiveUmaPayment',
      'createStablecoinMint',
      'createStablecoinBurn',
      'agentExecuteQuote',
      'agentCreateTransferIn',
      'agentCreateTransferOut',
      'approveAgentAction',
      'rejectAgentAction',
    ])
      expect([id, effect[id]]).toEqual([id, 'money']);
    for (const id of ['exportInternalAccount', 'verifyCredential', 'createCredential', 'createToken', 'revealCard', 'redeemAgentDeviceCode'])
      expect([id, effect[id]]).toEqual([id, 'secret']);
    // The card simulations move a funding source's balance; a balance inquiry moves nothing.
    const simulations = ops.filter((op) => op.path.startsWith('/sandbox/cards/'));
    expect(simulations).toHaveLength(10);
    for (const op of simulations) expect([op.id, op.effect]).toEqual([op.id, op.id === 'sandboxSimulateCardBalanceInquiry' ? 'write' : 'money']);
    expect(ops.find((op) => op.id === 'createQuote')!.raisedBy).toEqual({ immediatelyExecute: 'money' });
    // An agent's quote executed at once is the agent's money, under its policy; its policy's update overwrites it.
    expect(ops.find((op) => op.id === 'agentCreateQuote')!.raisedBy).toEqual({ immediatelyExecute: 'money' });
    expect(ops.find((op) => op.id === 'updateAgentPolicy')!.effect).toBe('write');
    expect(doc.paths['/agents/{agentId}/policy'].patch['x-destructive']).toBe(true);
    for (const op of ops) expect(['read', 'write', 'money', 'secret']).toContain(op.effect);
  });
});

describe('MCP tiers by effect, against the sandbox request log', () => {
  it.each(TIERS)(
    '$name: every tool with every effect-raising field; refused calls send nothing, allowed ones reach the sandbox',
    async (tier) => {
      const { client, stderr } = await connect(tier.flags);
      try {
        await sinceLastMark();
        const results: string[] = [];
        const violations: string[] = [];
        for (const c of cases) {
          const name = names.get(c.op.id)!;
          const answer = await client.callTool({ name, arguments: c.args });
          const text = (answer.content as { text: string }[])[0]?.text ?? '';
          const reached = await sinceLastMark();
          const allowed = tier.allows.includes(c.effect);
          // Every violation is collected, so that a failure lists them all.
          if (!allowed) {
            if (answer.isError !== true || !text.includes('"error":"Refused"')) violations.push(`${c.label}: not refused (${text.slice(0, 120)})`);
            if (reached.length) violations.push(`${c.label}: refused but reached the sandbox: ${JSON.stringify(reached)}`);
          } else {
            if (text.includes('"error":"Refused"')) violations.push(`${c.label}: allowed but refused (${text})`);
            else if (!c.mayNotReach && !reached.some((r) => templateMatches(c.op, r)))
              violations.push(`${c.label}: allowed but did not reach the sandbox: ${text.slice(0, 200)}`);
          }
          results.push(`${c.label}: ${allowed ? 'allowed' : 'refused'}`);
        }
        expect(violations, tier.name).toEqual([]);
        expect(results).toHaveLength(cases.length);
        const { tools } = await client.listTools();
        // Offered: exactly the tools whose declared effect the tier allows.
        expect(tools.map((t) => t.name).sort()).toHaveLength(ops.filter((op) => tier.allows.includes(op.effect)).length);
        for (const tool of tools) {
          const op = ops.find((o) => tool.description!.includes(`(${o.method} ${o.path})`))!;
          expect(tier.allows).toContain(op.effect);
          expect(tool.annotations?.readOnlyHint).toBe(op.effect === 'read' && Object.keys(op.raisedBy).length === 0);
          if (op.effect !== 'read' && op.effect !== 'write') expect(tool.annotations?.destructiveHint).toBe(true);
          if (Object.keys(op.raisedBy).length) {
            // A tool that may move money says so, and is marked destructive, even when offered as a write.
            expect(tool.annotations?.destructiveHint).toBe(true);
            for (const field of Object.keys(op.raisedBy)) expect(tool.description).toContain(`With ${field} sent`);
          }
        }
        // Its first line on stderr says where it points and what it may do.
        expect(stderr().split('\n')[0]).toBe(
          `crossborder-sdk mcp: pointed at ${sandbox.url}/2025-10-13 (from --base-url, environment sandbox); ${tier.name === 'read-only' ? 'read-only' : `reads, ${['writes', ...(tier.allows.includes('money') ? ['money movement'] : []), ...(tier.allows.includes('secret') ? ['key export'] : [])].join(', ')}`}`,
        );
      } finally {
        await client.close();
      }
    },
    120_000,
  );

  it('docs/cli.md gives the tiers as a table of the tools by effect that agrees with the document and the server', () => {
    const text = readFileSync(join(root, 'docs', 'cli.md'), 'utf8');
    const table = /<!-- mcp-effects:start[^>]*-->([\s\S]*?)<!-- mcp-effects:end -->/.exec(text)?.[1] ?? '';
    const rows = Object.fromEntries(
      table
        .split('\n')
        .filter((line) => /^\| (read|write|money|secret) \|/.test(line))
        .map((line) => {
          const [effect, flags, tools] = line
            .split('|')
            .slice(1, 4)
            .map((cell) => cell.trim());
          const [declared, raised = ''] = tools!.split(';');
          return [effect!, { flags, tools: [...declared!.matchAll(/`(\w+)`/g)].map((m) => m[1]!).sort(), raised: raised.trim() }];
        }),
    );
    const flags: Record<Effect, string> = {
      read: 'always',
      write: '`--allow-writes`',
      money: '`--allow-writes --allow-money-movement`',
      secret: '`--allow-writes --allow-key-export`',
    };
    for (const effect of ['read', 'write', 'money', 'secret'] as const) {
      expect(rows[effect]?.flags, effect).toBe(flags[effect]);
      expect(rows[effect]?.tools, effect).toEqual(
        ops
          .filter((op) => op.effect === effect)
          .map((op) => names.get(op.id)!)
          .sort(),
      );
      const raising = ops.flatMap((op) =>
        Object.entries(op.raisedBy)
          .filter(([, to]) => to === effect)
          .map(([field]) => `\`${names.get(op.id)}\` with \`${field}\``),
      );
      expect(rows[effect]?.raised, effect).toBe(raising.join(', '));
    }
  });

  it('the tools called are the server’s: the tiers together offer one tool per operation', () => {
    expect(ops.filter((op) => !names.has(op.id)).map((op) => op.id)).toEqual([]);
    expect(new Set(names.values()).size).toBe(ops.length);
  });
});
