/**
 * One name per operation across the SDK, the CLI and the MCP tools, read from the document itself (each class of
 * `x-sdk-resources` with its `accessor`, each operation's `x-sdk.method`), not from the code under test: the SDK
 * method at that name runs that operation, the CLI command is that name in kebab case, and the MCP tool is the
 * command's words joined. A command whose name changed keeps its earlier words as a deprecated command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { Crossborder } from '../../src/client';
import { toolName, toolsByName } from '../../src/cli/mcp';
import { addResourceCommands } from '../../src/cli/resources';
import { commandTable } from '../../src/cli/table';
import { root } from '../setup/packed';

type Json = Record<string, any>;
const doc = parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8')) as Json;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const ops = Object.entries<Json>(doc.paths).flatMap(([path, item]) => METHODS.flatMap((m) => (item[m] ? [{ path, method: m, op: item[m] as Json }] : [])));

/** Where the document says each operation's method lives: `{ getExchangeRates: { accessor: 'exchangeRates', method: 'list' } }`. */
const named = new Map<string, { accessor: string; method: string }>();
for (const [className, resource] of Object.entries<Json>(doc['x-sdk-resources'])) {
  if (className.startsWith('$')) continue;
  for (const member of resource.operations as unknown[]) {
    if (typeof member !== 'string') continue;
    const op = ops.find((o) => o.op.operationId === member)!.op;
    named.set(member, { accessor: resource.accessor, method: op['x-sdk'].method });
  }
}
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
const wordsOf = (id: string) => {
  const { accessor, method } = named.get(id)!;
  return [...accessor.split('.'), method].map(kebab);
};

/** The commander command at `words` under `program`, if any (an alias of the last word counts). */
function commandAt(program: Command, words: string[]): Command | undefined {
  let current: Command | undefined = program;
  for (const word of words) current = current?.commands.find((c) => c.name() === word || c.aliases().includes(word));
  return current;
}

async function programFor(argv: string[]): Promise<Command> {
  const program = new Command('crossborder-sdk').exitOverride();
  // The action wrapper runs nothing: what is checked is what a command prints before its call.
  await addResourceCommands(program, async () => {}, argv);
  return program;
}

afterEach(() => vi.restoreAllMocks());

describe('one name per operation, from the document', () => {
  it('the document names every operation', () => {
    const unnamed = ops.filter((o) => !named.has(o.op.operationId)).map((o) => o.op.operationId);
    expect(unnamed).toEqual([]);
    expect(named.size).toBe(ops.length);
  });

  it('the SDK method at each name runs that operation', async () => {
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'http://127.0.0.1:9' });
    // Every resource runs on the one core: record the operation each method hands it, and send nothing.
    const core = (cb.customers as unknown as { _client: Json })._client;
    const ran: string[] = [];
    const record = (op: { id: string }) => {
      ran.push(op.id);
      return Promise.reject(new Error('not sent'));
    };
    core.call = record;
    core.list = record;
    const wrong: string[] = [];
    for (const { path, op } of ops) {
      const { accessor, method } = named.get(op.operationId)!;
      const resource = accessor.split('.').reduce<Json>((at, key) => at?.[key], cb as unknown as Json);
      const fn = resource?.[method];
      if (typeof fn !== 'function') {
        wrong.push(`${op.operationId}: cb.${accessor}.${method} is not a method`);
        continue;
      }
      ran.length = 0;
      const args = [...path.matchAll(/\{[^{}]+\}/g)].map(() => 'X:1');
      await Promise.resolve(fn.call(resource, ...args, {})).catch(() => {});
      if (ran.join() !== op.operationId) wrong.push(`${op.operationId}: cb.${accessor}.${method} ran ${ran.join() || 'nothing'}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the CLI command and the MCP tool are that name', async () => {
    const program = await programFor([]);
    const wrong: string[] = [];
    for (const spec of commandTable()) {
      const words = wordsOf(spec.op.id);
      if (spec.words.join(' ') !== words.join(' ')) wrong.push(`${spec.op.id}: command ${spec.words.join(' ')}, expected ${words.join(' ')}`);
      const command = commandAt(program, words);
      if (!command || command.description().startsWith('deprecated')) wrong.push(`${spec.op.id}: no command ${words.join(' ')}`);
      const tool = words.join('_').replace(/-/g, '_');
      if (toolName(spec) !== tool) wrong.push(`${spec.op.id}: tool ${toolName(spec)}, expected ${tool}`);
    }
    expect(wrong).toEqual([]);
    expect(commandTable()).toHaveLength(ops.length);
  });
});

/** The commands renamed to the SDK's name, with their earlier words (docs/cli.md lists the same). */
const RENAMED: [id: string, earlier: string, now: string][] = [
  ['getExchangeRates', 'exchange-rates retrieve', 'exchange-rates list'],
  ['getEndUserTerms', 'end-user-terms retrieve', 'customers end-user-terms'],
  ['uploadCustomersCsv', 'bulk csv upload', 'customers import-csv'],
  ['getBulkCustomerImportJob', 'bulk jobs retrieve', 'customers retrieve-import-job'],
  ['createCustomerKycLink', 'customers kyc-link create', 'customers create-kyc-link'],
  ['createExternalAccountOwnershipChallenge', 'external-accounts challenge create', 'external-accounts challenge'],
  ['createPlatformExternalAccountOwnershipChallenge', 'platform external-accounts challenge create', 'platform external-accounts challenge'],
  ['estimateCryptoWithdrawalFee', 'crypto estimate-withdrawal-fee estimate', 'crypto estimate-withdrawal-fee'],
  ['sendTestWebhook', 'sandbox webhooks test send', 'sandbox send-test-webhook'],
  ['lookupUmaReceiver', 'receiver uma lookup', 'receiver lookup-uma'],
  ['lookupExternalAccountReceiver', 'receiver external-account lookup', 'receiver lookup-external-account'],
  ['sandboxReceiveUmaPayment', 'sandbox uma receive', 'sandbox receive-uma-payment'],
  ['sandboxFundInternalAccount', 'sandbox internal-accounts fund', 'sandbox fund-internal-account'],
];

describe('a renamed command keeps its earlier words, deprecated', () => {
  it('exactly these commands were renamed', () => {
    const renamed = commandTable()
      .filter((spec) => spec.deprecatedWords)
      .map((spec) => [spec.op.id, spec.deprecatedWords!.join(' '), spec.words.join(' ')]);
    expect(renamed.sort()).toEqual([...RENAMED].sort());
  });

  for (const [id, earlier, now] of RENAMED) {
    it(`${earlier} → ${now}: said in its help and on stderr when used`, async () => {
      const words = earlier.split(' ');
      const spec = commandTable().find((s) => s.op.id === id)!;
      const args = spec.positionals.map(() => 'X:1');
      const help = await programFor([...words, '--help']);
      const old = commandAt(help, words)!;
      expect(old.description()).toContain(`\`${earlier}\` is deprecated: use \`${now}\``);
      expect(old.description()).toContain(`MCP tool ${now.replace(/[ -]/g, '_')}`);

      const written: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
      const run = await programFor([...words, ...args]);
      await run.parseAsync([...words, ...args], { from: 'user' });
      expect(written.join('')).toContain(`warning: \`${earlier}\` is deprecated: use \`${now}\``);

      // The current name says nothing of the kind.
      written.length = 0;
      const current = await programFor([...now.split(' '), ...args]);
      await current.parseAsync([...now.split(' '), ...args], { from: 'user' });
      expect(written.join('')).not.toContain('deprecated');
    });
  }

  it('an MCP call by the earlier tool name reaches the same operation; only the current name is listed', () => {
    const specs = commandTable();
    const byName = toolsByName(specs);
    for (const [id, earlier, now] of RENAMED) {
      expect(byName.get(earlier.replace(/[ -]/g, '_'))?.op.id).toBe(id);
      expect(byName.get(now.replace(/[ -]/g, '_'))?.op.id).toBe(id);
    }
    expect(specs.map(toolName)).not.toContain('exchange_rates_retrieve');
  });
});
