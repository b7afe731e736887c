/**
 * `crossborder-sdk mcp`: the operations as MCP tools over stdio, for an assistant to call the API.
 * The tools come from the command table (one per operation, named by its words: `quotes_execute`),
 * with input schemas converted from the document's schemas (path parameters and query fields by
 * name, the body as `body`) and descriptions from the document's `x-sdk.doc`, the text of the SDK's own TSDoc.
 *
 * What a tool may do follows the effect the document declares for its operation (`x-effect` in the
 * generated table, raised by body fields such as `immediatelyExecute`), never its HTTP method:
 * reads always; writes with `--allow-writes`; money (a quote executed or created to execute at once,
 * a transfer in, a payment approved or rejected, sandbox funding) with `--allow-money-movement`; key
 * material (a wallet export, a session signing key, a new credential) with `--allow-key-export`. A
 * call whose effect is not allowed is answered with an error naming the flag, and nothing is sent.
 *
 * Given an agent's credential (`CROSSBORDER_AGENT_TOKEN`, no platform credentials), the server is that agent: it
 * serves only the operations an agent calls with its own credential (those under `/agents/me`, {@link isAgentTool}),
 * still by the tiers above, so the service applies the agent's policy and the platform's approvals to every call. A
 * money call the policy holds is answered, as a normal result, "waiting for approval" with the action's id.
 *
 * It points where every command points (./shared `targetOf`); anything but this machine needs
 * `--allow-remote`, and its first line on stderr says where it points and what it may do.
 *
 * `@modelcontextprotocol/sdk` is an optional peer dependency, loaded only by this command.
 * @module
 */
import type { Command } from 'commander';
import { VERSION, type SignedRequestOptions } from './sdk';
import { connect, sessionSigner } from './client';
import { describeError } from './output';
import {
  callEffect,
  EFFECT_FLAG,
  effectOf,
  isLoopbackUrl,
  mostEffect,
  raisingFields,
  shownUrl,
  operationDocs,
  type Effect,
  type Action,
  type OperationDoc,
} from './shared';
import { commandTable, detailsOf, splitInput, UsageError, type CommandDetails, type CommandSpec } from './table';

/** The MCP server's flags. */
export interface McpOptions {
  allowWrites?: boolean;
  allowMoneyMovement?: boolean;
  allowKeyExport?: boolean;
  allowRemote?: boolean;
  baseUrl?: string;
  environment?: string;
  profile?: string;
  sessionKey?: string;
}

/** The tool name of a command: its words joined (`auth_credentials_verify`), the SDK's name of the operation as the CLI's is. */
export const toolName = (spec: CommandSpec) => spec.words.join('_').replace(/-/g, '_');

/**
 * The tool's earlier name, where the operation's name changed (`exchange_rates_retrieve` before `exchange_rates_list`):
 * still answered, never listed, so that a client that saved it keeps working while assistants see one name.
 */
export const deprecatedToolName = (spec: CommandSpec) => spec.deprecatedWords?.join('_').replace(/-/g, '_');

/** The tools a call may name: each by its name, then by its earlier name (never shadowing a current one). */
export function toolsByName<T extends CommandSpec>(specs: readonly T[]): Map<string, T> {
  const byName = new Map(specs.map((spec) => [toolName(spec), spec]));
  for (const spec of specs) {
    const earlier = deprecatedToolName(spec);
    if (earlier && !byName.has(earlier)) byName.set(earlier, spec);
  }
  return byName;
}

/**
 * True for an operation an agent calls with its own credential: those under `/agents/me` (the document's
 * `AgentAuth` security). With an agent's credential the server offers these alone: the platform's would answer 401.
 */
export const isAgentTool = (spec: CommandSpec) => spec.op.path === '/agents/me' || spec.op.path.startsWith('/agents/me/');

/**
 * The answer of a money call that the agent's policy holds (`status: PENDING_APPROVAL`, an action with its `id`):
 * the action's id, else undefined (it ran, or it is not an action).
 */
export function heldActionId(result: unknown): string | undefined {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return undefined;
  const { status, id } = result as { status?: unknown; id?: unknown };
  return status === 'PENDING_APPROVAL' && typeof id === 'string' ? id : undefined;
}

async function serveMcp(opts: McpOptions): Promise<void> {
  let sdk: {
    Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server;
    StdioServerTransport: typeof import('@modelcontextprotocol/sdk/server/stdio.js').StdioServerTransport;
    types: typeof import('@modelcontextprotocol/sdk/types.js');
  };
  try {
    const [server, stdio, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    sdk = { Server: server.Server, StdioServerTransport: stdio.StdioServerTransport, types };
  } catch {
    throw new UsageError('crossborder-sdk mcp needs the MCP SDK, an optional peer dependency: npm install @modelcontextprotocol/sdk@^1.32.2');
  }
  for (const [flag, given] of [
    ['--allow-money-movement', opts.allowMoneyMovement],
    ['--allow-key-export', opts.allowKeyExport],
  ] as const) {
    if (given && !opts.allowWrites) throw new UsageError(`${flag} needs --allow-writes too`);
  }
  let connection: ReturnType<typeof connect>;
  try {
    connection = connect({ profile: opts.profile, baseUrl: opts.baseUrl, environment: opts.environment });
  } catch (error) {
    const { ConfigurationError } = await import('./sdk');
    if (error instanceof ConfigurationError && /^missing credentials/.test(error.message)) {
      throw new ConfigurationError(
        `crossborder-sdk mcp: ${error.message.replace(/^missing credentials: /, 'no credentials for the address given: ')}; only the local default (no --base-url, no CROSSBORDER_BASE_URL) uses the sandbox's own`,
      );
    }
    throw error;
  }
  const { core, target, agent } = connection;
  const remote = !isLoopbackUrl(core.baseUrl);
  const where = `${shownUrl(core.baseUrl)} (${target.from === 'default' ? 'the local default' : `from ${target.from}`}, environment ${core.environment})`;
  // The first line on stderr says where the server points and what it may do, before anything else.
  const who = agent ? `; as the agent of CROSSBORDER_AGENT_TOKEN (its tools only, under its policy)` : '';
  process.stderr.write(`crossborder-sdk mcp: pointed at ${where}; ${tierText(opts)}${who}\n`);
  if (remote && !opts.allowRemote) {
    throw new UsageError(
      `crossborder-sdk mcp is pointed at ${shownUrl(core.baseUrl)}, which is not this machine: an assistant would act on that service. Add --allow-remote to serve it.`,
    );
  }
  const signer = opts.sessionKey ? await sessionSigner(opts.sessionKey) : undefined;
  const texts = operationDocs();
  const every = await Promise.all(commandTable().map(detailsOf));
  // An agent's credential reaches the agent's own operations alone: the others are neither listed nor called.
  const specs = agent ? every.filter(isAgentTool) : every;
  const byName = toolsByName(specs);
  const platformTools = agent ? toolsByName(every.filter((spec) => !isAgentTool(spec))) : new Map<string, CommandDetails>();
  const actionTool = specs.find((spec) => spec.op.method === 'GET' && spec.op.path === '/agents/me/actions/{actionId}');
  const server = new sdk.Server({ name: 'crossborder-sdk', version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(sdk.types.ListToolsRequestSchema, async () => ({ tools: offeredTools(specs, texts, opts) }));
  server.setRequestHandler(sdk.types.CallToolRequestSchema, async (request) => {
    const spec = byName.get(request.params.name);
    const fail = (value: unknown) => ({ isError: true, content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
    if (!spec && platformTools.has(request.params.name)) {
      return fail({
        error: 'Refused',
        message: `${request.params.name} is the platform's: this server holds an agent's credential and serves the agent's own tools (agents_me_…) only`,
      });
    }
    if (!spec) return fail({ error: 'UnknownTool', message: `no tool ${request.params.name}` });
    // The operation alone first: a refused tool is refused whatever its arguments (even ones that do not parse).
    const declared = refusal(spec, opts);
    if (declared) return fail({ error: 'Refused', message: declared });
    // A body field given both beside body and in it, with different values, is not sent: refused by its tier
    // when the value beside would raise the call beyond it, else answered with where the field goes.
    let placed: unknown;
    try {
      placed = bodyFieldsInBody(spec, request.params.arguments ?? {});
    } catch (error) {
      const refused = refusal(spec, opts, request.params.arguments ?? {});
      return fail(refused ? { error: 'Refused', message: refused } : describeError(error));
    }
    try {
      const call = splitInput(spec.op, placed);
      // Then what this call does: its body may raise the effect (a quote created with immediatelyExecute).
      // Query fields count too, each part on its own (a `false` in one never hides a `true` in the other):
      // what the service reads from where is its business, not the tool's.
      const refused = refusal(spec, opts, call.body) ?? refusal(spec, opts, call.query);
      if (refused) return fail({ error: 'Refused', message: refused });
      const options: SignedRequestOptions = signer ? { signer } : {};
      const result = spec.op.paginated ? (await core.list<unknown>(spec.op, call, options)).body : await core.call<unknown>(spec.op, call, options);
      const answer = { type: 'text' as const, text: JSON.stringify(result ?? null) };
      // A money call the agent's policy holds moved nothing: said first, with the action's id, as a result (not an error).
      const held = callEffect(spec.op, call.body) === 'money' ? heldActionId(result) : undefined;
      if (held === undefined) return { content: [answer] };
      const follow = actionTool ? ` Follow it with ${toolName(actionTool)} (actionId ${held}).` : '';
      return {
        content: [
          {
            type: 'text' as const,
            text: `Waiting for approval: action ${held} is held by the agent's policy until the platform approves or rejects it; nothing has moved yet.${follow}`,
          },
          answer,
        ],
      };
    } catch (error) {
      return fail(describeError(error));
    }
  });
  const transport = new sdk.StdioServerTransport();
  await server.connect(transport);
  const stop = () => void server.close().finally(() => process.exit(0));
  process.stdin.once('end', stop);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
}

/**
 * A body field given beside `body` (`{ body: {…}, immediatelyExecute: true }`, where an assistant often puts a
 * flag) goes into the body, where the document has it: left beside it, it would be sent as a query parameter
 * the operation does not have, and the effect it raises would not be seen. Given both beside and inside `body`
 * with different values, the call is refused, saying where the field goes. A name that is a query parameter,
 * a path parameter or no field of the body is left where it is.
 */
export function bodyFieldsInBody(spec: CommandDetails, input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const given = input as Record<string, unknown>;
  const body = given.body;
  if (!Object.hasOwn(given, 'body') || body === null || typeof body !== 'object' || Array.isArray(body)) return input;
  const inBody = new Set(spec.flags.filter((f) => f.in === 'body').map((f) => f.name));
  const elsewhere = new Set([...spec.positionals, ...spec.flags.filter((f) => f.in === 'query').map((f) => f.name), 'body']);
  const moved = Object.keys(given).filter((name) => inBody.has(name) && !elsewhere.has(name));
  if (moved.length === 0) return input;
  const placed: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!moved.includes(name)) {
      rest[name] = value;
      continue;
    }
    if (Object.hasOwn(placed, name) && JSON.stringify(placed[name]) !== JSON.stringify(value)) {
      throw new UsageError(`${name} is a field of body, and was given both beside body and inside it with different values: give it inside body only`);
    }
    placed[name] = value;
  }
  return { ...rest, body: placed };
}

/** The flags that allow `effect` (reads need none). */
export function flagsFor(effect: Effect): string[] {
  if (effect === 'read') return [];
  return effect === 'write' ? [EFFECT_FLAG.write] : [EFFECT_FLAG.write, EFFECT_FLAG[effect]];
}

/** True when the server's flags allow `effect`. */
export function allowed(effect: Effect, opts: McpOptions): boolean {
  switch (effect) {
    case 'read':
      return true;
    case 'write':
      return opts.allowWrites === true;
    case 'money':
      return opts.allowWrites === true && opts.allowMoneyMovement === true;
    case 'secret':
      return opts.allowWrites === true && opts.allowKeyExport === true;
  }
}

const DOES: Record<Effect, string> = {
  read: 'changes data',
  write: 'changes data',
  money: 'moves money',
  secret: 'hands out key material',
};

/** Why this call is refused (its operation and body), or undefined when the server's flags allow it. */
export function refusal(spec: CommandSpec, opts: McpOptions, body?: unknown): string | undefined {
  const effect = callEffect(spec.op, body);
  if (allowed(effect, opts)) return undefined;
  const raised = raisingFields(spec.op, body)
    .filter(([, to]) => to === effect)
    .map(([field]) => field);
  const what = `${toolName(spec)}${raised.length ? ` with ${raised.join(', ')}` : ''} ${DOES[effect]}`;
  if (effect === 'write') return `${what}: the server is read-only (start it with --allow-writes)`;
  return `${what}: start the server with ${flagsFor(effect).join(' ')}`;
}

/** What a tool list offers of each tool. */
export interface OfferedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, object> };
  annotations: ReturnType<typeof annotations>;
}

/**
 * The tools the server lists under `opts`: a tool is offered when its declared effect is allowed (a body field that
 * raises it is refused per call), described from its operation's `x-sdk.doc` (`docs`, from {@link operationDocs}).
 */
export function offeredTools(specs: readonly CommandDetails[], docs: ReadonlyMap<string, OperationDoc>, opts: McpOptions): OfferedTool[] {
  return specs
    .filter((spec) => allowed(effectOf(spec.op).effect, opts))
    .map((spec) => ({
      name: toolName(spec),
      description: description(spec, docs.get(spec.op.id)),
      inputSchema: spec.inputSchema as OfferedTool['inputSchema'],
      annotations: annotations(spec),
    }));
}

/**
 * What the tool says it does: the prose of the operation's `x-sdk.doc` (every paragraph, without the `@example`
 * code, which is the SDK's TypeScript and not the tool's input), the operation, and its effect in words (with what
 * raises it).
 */
export function description(spec: CommandSpec, doc: OperationDoc | undefined): string {
  const prose = doc?.paragraphs.join(' ').replace(/\.$/, '');
  const what = prose || `${spec.op.method} ${spec.op.path}`;
  const effect = {
    read: ' Read-only: changes nothing.',
    write: ' Changes data.',
    money: ` MOVES MONEY: it moves funds or decides a payment (allowed by ${flagsFor('money').join(' ')}).`,
    secret: ` HANDS OUT KEY MATERIAL: the answer carries, or gives a way to get, the wallet's keys (allowed by ${flagsFor('secret').join(' ')}).`,
  }[effectOf(spec.op).effect];
  const raised = Object.entries(effectOf(spec.op).raisedBy ?? {})
    .map(([field, to]) => ` With ${field} sent (other than false) it ${DOES[to]} and is refused unless the server was started with ${flagsFor(to).join(' ')}.`)
    .join('');
  return `${what} (${spec.op.method} ${spec.op.path}).${effect}${raised}${spec.op.sandboxOnly ? ' Sandbox only.' : ''}`;
}

/**
 * The tool's hints, from the operation table alone: read-only for reads (whatever their body); destructive when
 * the table says so (it may move money, hand out keys, or overwrite or remove what exists: `x-destructive`);
 * idempotent for reads only (a create's Idempotency-Key is new per call, so calling it twice makes two).
 */
export function annotations(spec: CommandSpec): { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean } {
  const read = mostEffect(spec.op) === 'read';
  return { readOnlyHint: read, destructiveHint: effectOf(spec.op).destructive, idempotentHint: read };
}

/**
 * The tools that may have `effect`, from the operation table: those that declare it, then those a body field
 * raises to it (`quotes_create with immediatelyExecute`). What `mcp --help` lists for each flag.
 */
export function toolsWith(effect: Exclude<Effect, 'read' | 'write'>): string[] {
  const table = commandTable();
  const declared = table.filter((spec) => effectOf(spec.op).effect === effect).map(toolName);
  const raised = table.flatMap((spec) =>
    Object.entries(effectOf(spec.op).raisedBy ?? {})
      .filter(([, to]) => to === effect)
      .map(([field]) => `${toolName(spec)} with ${field}`),
  );
  return [...declared, ...raised];
}

/** What the server's flags allow, in words. */
function tierText(opts: McpOptions): string {
  const allowedEffects = (['write', 'money', 'secret'] as const).filter((e) => allowed(e, opts));
  return allowedEffects.length === 0
    ? 'read-only'
    : `reads, ${allowedEffects.map((e) => ({ write: 'writes', money: 'money movement', secret: 'key export' })[e]).join(', ')}`;
}

/** Adds `mcp`. */
export function addMcpCommand(program: Command, action: Action): void {
  program
    .command('mcp')
    .description(
      'serve the operations as MCP tools over stdio (default: the local sandbox, read-only); tiers by effect: --allow-writes, --allow-money-movement, --allow-key-export; with CROSSBORDER_AGENT_TOKEN it is that agent: its own tools (agents_me_…) only, under its policy',
    )
    .option('--allow-writes', 'offer the operations that change data (reads are always offered)')
    .option('--allow-money-movement', `also those that move money or decide a payment (${toolsWith('money').join(', ')}); needs --allow-writes`)
    .option('--allow-key-export', `also those that hand out key material (${toolsWith('secret').join(', ')}); needs --allow-writes`)
    .option(
      '--base-url <url>',
      'the service (default: the profile, else CROSSBORDER_BASE_URL, else http://127.0.0.1:4010, the local sandbox, with its own credentials)',
    )
    .option('--environment <env>', 'sandbox or production; production with no address goes to production')
    .option('--allow-remote', 'serve a service that is not on this machine (needed for any address but loopback)')
    .option('--profile <name>', 'credentials from this profile of the config file')
    .option('--session-key <file>', 'sign wallet challenges with this saved session')
    .action(async (opts: McpOptions) => action(false, () => serveMcp(opts)));
}
