/**
 * `crossborder-sdk mcp`: the operations as MCP tools over stdio, for an assistant to call the API.
 * The tools come from the command table (one per operation, named by its words: `quotes_execute`),
 * with input schemas converted from the document's schemas (path parameters and query fields by
 * name, the body as `body`) and descriptions from its summaries.
 *
 * By default it is pointed at the local sandbox (http://127.0.0.1:4010, sandbox credentials) and
 * read-only: only GET operations are tools. `--allow-writes` adds the writes, except those that move
 * money (a quote executed, a transfer in, an incoming payment approved), which also need
 * `--allow-money-movement`. A refused call answers an error that says which flag allows it.
 *
 * `@modelcontextprotocol/sdk` is an optional peer dependency, loaded only by this command.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { VERSION } from '../core/version';
import type { SignedRequestOptions } from '../core/options';
import { makeClient, pipelineOf, sessionSigner } from './client';
import { describeError } from './output';
import { DEFAULT_SANDBOX_URL } from './sandbox';
import { commandTable, detailsOf, splitInput, UsageError, type CommandSpec } from './table';

type Action = (json: boolean, body: () => Promise<void>) => Promise<void>;

interface McpOptions {
  allowWrites?: boolean;
  allowMoneyMovement?: boolean;
  baseUrl?: string;
  profile?: string;
  sessionKey?: string;
}

/** The tool name of a command: its words joined (`auth_credentials_verify`). */
export const toolName = (spec: CommandSpec) => spec.words.join('_').replace(/-/g, '_');

/** Summaries and descriptions of the operations, from the document the package ships. */
async function summaries(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const candidates = ['../openapi/openapi.yaml', '../../openapi/openapi.yaml'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const file = candidates.find((p) => existsSync(p));
  if (!file) return found;
  const doc = (await import('yaml')).parse(readFileSync(file, 'utf8')) as { paths?: Record<string, Record<string, { operationId?: string; summary?: string; description?: string }>> };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId) found.set(op.operationId, [op.summary, op.description].filter(Boolean).join('. ').replace(/\s+/g, ' ').trim());
    }
  }
  return found;
}

/** Why a tool is not offered, or undefined when it is. */
export function refusal(spec: CommandSpec, opts: McpOptions): string | undefined {
  if (spec.op.method === 'GET') return undefined;
  if (!opts.allowWrites) return `${toolName(spec)} changes data: the server is read-only (start it with --allow-writes)`;
  if (spec.movesMoney && !opts.allowMoneyMovement) return `${toolName(spec)} moves money: start the server with --allow-writes --allow-money-movement`;
  return undefined;
}

function description(spec: CommandSpec, summary: string | undefined): string {
  const what = summary || `${spec.op.method} ${spec.op.path}`;
  const money = spec.movesMoney
    ? ' MOVES MONEY: ' +
      ({ executeQuote: 'executes the quote, sending its amount from the source account to the destination.', createTransferIn: 'moves funds from an external account into an internal account.', approveTransaction: 'approves an incoming payment held for approval, so that the funds are credited.' } as Record<string, string>)[spec.op.id]
    : '';
  const kind = spec.op.method === 'GET' ? ' Read-only.' : ' Changes data.';
  return `${what} (${spec.op.method} ${spec.op.path}).${kind}${money}${spec.op.sandboxOnly ? ' Sandbox only.' : ''}`;
}

async function serveMcp(opts: McpOptions): Promise<void> {
  let sdk: { Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server; StdioServerTransport: typeof import('@modelcontextprotocol/sdk/server/stdio.js').StdioServerTransport; types: typeof import('@modelcontextprotocol/sdk/types.js') };
  try {
    const [server, stdio, types] = await Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/server/stdio.js'), import('@modelcontextprotocol/sdk/types.js')]);
    sdk = { Server: server.Server, StdioServerTransport: stdio.StdioServerTransport, types };
  } catch {
    throw new UsageError('crossborder-sdk mcp needs the MCP SDK, an optional peer dependency: npm install @modelcontextprotocol/sdk@^1.32.2');
  }
  if (opts.allowMoneyMovement && !opts.allowWrites) throw new UsageError('--allow-money-movement needs --allow-writes too');
  const local = !opts.baseUrl && !opts.profile;
  const cb = makeClient(
    { profile: opts.profile, baseUrl: opts.baseUrl ?? (local ? DEFAULT_SANDBOX_URL : undefined) },
    local ? { tokenId: 'sandbox', clientSecret: 'sandbox', environment: 'sandbox' } : {},
  );
  const pipeline = pipelineOf(cb);
  const signer = opts.sessionKey ? await sessionSigner(opts.sessionKey) : undefined;
  const texts = await summaries();
  const specs = await Promise.all(commandTable().map(detailsOf));
  const byName = new Map(specs.map((s) => [toolName(s), s]));
  const server = new sdk.Server({ name: 'crossborder-sdk', version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(sdk.types.ListToolsRequestSchema, async () => ({
    tools: specs
      .filter((spec) => refusal(spec, opts) === undefined)
      .map((spec) => ({
        name: toolName(spec),
        description: description(spec, texts.get(spec.op.id)),
        inputSchema: spec.inputSchema as { type: 'object'; properties?: Record<string, object> },
        annotations: { readOnlyHint: spec.op.method === 'GET', destructiveHint: spec.op.method === 'DELETE' || spec.movesMoney, idempotentHint: spec.op.method === 'GET' || spec.op.idempotent },
      })),
  }));
  server.setRequestHandler(sdk.types.CallToolRequestSchema, async (request) => {
    const spec = byName.get(request.params.name);
    const fail = (value: unknown) => ({ isError: true, content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
    if (!spec) return fail({ error: 'UnknownTool', message: `no tool ${request.params.name}` });
    const refused = refusal(spec, opts);
    if (refused) return fail({ error: 'Refused', message: refused });
    try {
      const call = splitInput(spec.op, request.params.arguments ?? {});
      const options: SignedRequestOptions = signer ? { signer } : {};
      const result = spec.op.paginated ? (await pipeline.list<unknown>(spec.op, call, options)).body : await pipeline.call<unknown>(spec.op, call, options);
      return { content: [{ type: 'text' as const, text: JSON.stringify(result ?? null) }] };
    } catch (error) {
      return fail(describeError(error));
    }
  });
  const transport = new sdk.StdioServerTransport();
  await server.connect(transport);
  const stop = () => void server.close().finally(() => process.exit(0));
  process.stdin.once('end', stop);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
  process.stderr.write(
    `crossborder-sdk mcp: ${cb.baseUrl}; ${opts.allowWrites ? (opts.allowMoneyMovement ? 'reads, writes and money movement' : 'reads and writes (no money movement)') : 'read-only'}\n`,
  );
}

/** Adds `mcp`. */
export function addMcpCommand(program: Command, action: Action): void {
  program
    .command('mcp')
    .description('serve the operations as MCP tools over stdio (default: the local sandbox, read-only)')
    .option('--allow-writes', 'offer the operations that change data')
    .option('--allow-money-movement', 'also offer those that move money (quote execute, transfer-in, approve); needs --allow-writes')
    .option('--base-url <url>', `the service (default ${DEFAULT_SANDBOX_URL}, the local sandbox, with sandbox credentials)`)
    .option('--profile <name>', 'credentials from this profile of the config file')
    .option('--session-key <file>', 'sign wallet challenges with this saved session')
    .action(async (opts: McpOptions) => action(false, () => serveMcp(opts)));
}
