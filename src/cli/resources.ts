/**
 * The resource commands: each row of the command table (./table) becomes a command of the parser,
 * and runs its operation through the SDK client's own pipeline.
 * @module
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { CallInput, Page, SignedRequestOptions } from './sdk';
import { connect, newClientKey, savedCredentialId, saveSession, sessionSigner, type ConnectionOptions } from './client';
import { FILE_PART_LIMIT_BYTES, INPUT_LIMIT_BYTES, parseJsonText, readFileBounded, readFileBytesBounded, readStdinBounded, refuseUnsafeTarget } from './files';
import { jsonLine, out, printResult } from './output';
import { effectOf, operationDocs, type Effect, type OperationDoc } from './shared';
import {
  commandTable,
  detailsOf,
  flagDescription,
  hasProperty,
  inShellWords,
  readFlagValue,
  refuseMissing,
  UsageError,
  type CommandDetails,
  type CommandSpec,
} from './table';

/** What a command's description says about its effect (the document's `x-effect`, raised by body fields). */
const EFFECT_NOTE: Record<Effect, string> = { read: '', write: '', money: ' — moves money', secret: ' — hands out key material' };

/** The command's effect in its description: what it declares, and what a flag raises it to (`quotes create`: moves money with --immediately-execute). */
function effectNote(spec: CommandSpec): string {
  const { effect, raisedBy } = effectOf(spec.op);
  const raised = Object.entries(raisedBy ?? {}).map(([field, to]) => `${EFFECT_NOTE[to]} with --${field.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}`);
  return `${EFFECT_NOTE[effect]}${raised.join('')}`;
}

/** Options every API command takes (kept on each command so that they may follow its arguments). */
export function addConnectionOptions(command: Command): Command {
  return command
    .option('--profile <name>', 'credentials from this profile of the config file (CROSSBORDER_CONFIG, default ~/.config/crossborder/config.json; mode 0600)')
    .option(
      '--base-url <url>',
      'service address (default: the profile, else CROSSBORDER_BASE_URL, else http://127.0.0.1:4010, the local sandbox; production only when chosen with --environment production)',
    )
    .option('--environment <env>', 'sandbox or production (default: the profile, else CROSSBORDER_ENVIRONMENT); production with no address goes to production')
    .option('--max-retries <n>', 'retries after the first attempt, for failures safe to repeat (default 2)')
    .option('--timeout <ms>', 'per-attempt timeout in ms (default 60000)')
    .option('--json', 'print JSON: one value per result (with --all, one line per item)');
}

/** Reads `--data`: inline JSON, `@file.json`, or `-` for stdin (a file or stdin up to `limit` bytes, ./files). */
export async function readData(text: string, limit = INPUT_LIMIT_BYTES): Promise<unknown> {
  if (text === '-') return parseJsonText(await readStdinBounded('--data - (stdin)', limit), '--data - (stdin)');
  if (text.startsWith('@')) return parseJsonText(readFileBounded(text.slice(1), `--data ${text}`, limit), `--data ${text}`);
  return parseJsonText(text, '--data');
}

/** True when the operation's answer is a wallet session (it carries the sealed session key). */
function answersSession(spec: CommandDetails): boolean {
  return hasProperty(spec.response, 'encryptedSessionSigningKey');
}

interface ApiOptions extends ConnectionOptions {
  json?: boolean;
  all?: boolean;
  data?: string;
  idempotencyKey?: string;
  sessionKey?: string;
  signature?: string;
  requestId?: string;
  saveSession?: string;
  [flag: string]: unknown;
}

/** The call of one command line: its input and options for the pipeline. */
async function callOf(spec: CommandDetails, args: string[], opts: ApiOptions): Promise<{ input: CallInput; options: SignedRequestOptions }> {
  const input: CallInput = {};
  if (spec.positionals.length) input.path = Object.fromEntries(spec.positionals.map((name, i) => [name, args[i]!]));
  let body: Record<string, unknown> | undefined;
  if (opts.data !== undefined) {
    const data = await readData(opts.data);
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError('--data needs a JSON object');
    body = data as Record<string, unknown>;
  }
  const query: Record<string, unknown> = {};
  for (const flag of spec.flags) {
    const key = flag.flag.slice(2).replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const given = opts[key];
    if (given === undefined) continue;
    // A file part goes as its bytes, under the file's own name (a PDF's bytes are not text).
    const value =
      flag.kind === 'file'
        ? flag.fileAsText
          ? readFileBounded(String(given), flag.flag)
          : { name: basename(String(given)), data: readFileBytesBounded(String(given), flag.flag, FILE_PART_LIMIT_BYTES) }
        : given === true
          ? true
          : readFlagValue(flag, String(given));
    if (flag.in === 'query') query[flag.name] = value;
    else (body ??= {})[flag.name] = value;
  }
  if (Object.keys(query).length) input.query = query;
  const options: SignedRequestOptions = {};
  if (opts.idempotencyKey !== undefined) options.idempotencyKey = opts.idempotencyKey;
  if (opts.sessionKey) options.signer = await sessionSigner(opts.sessionKey);
  if (opts.signature !== undefined) options.signature = opts.signature;
  if (opts.requestId !== undefined) {
    // A relayed signature's challenge id where the operation is signed; else the operation's own Request-Id header (PASSKEY verify).
    if (spec.headers.includes('Service-Wallet-Signature')) options.requestId = opts.requestId;
    else input.header = { 'Request-Id': opts.requestId };
  }
  if (body !== undefined) input.body = body;
  return { input, options };
}

/** Runs one command line of the table. */
async function run(spec: CommandDetails, args: string[], opts: ApiOptions, onInput: (input: CallInput) => void = () => {}): Promise<void> {
  const { core: pipeline } = connect({ ...opts, anonymous: spec.op.anonymous });
  const { input, options } = await callOf(spec, args, opts);
  onInput(input);
  const json = opts.json === true;
  let client: Awaited<ReturnType<typeof newClientKey>> | undefined;
  if (opts.saveSession) {
    // Refused before the call: a session opened at the service and then not saved would be lost.
    refuseUnsafeTarget(opts.saveSession, '--save-session');
    const body = (input.body ??= {}) as Record<string, unknown>;
    if (body.clientPublicKey === undefined) {
      client = await newClientKey();
      body.clientPublicKey = client.publicKey;
    } else {
      throw new UsageError('--save-session makes the client key itself: leave out --client-public-key');
    }
  }
  refuseMissing(spec, input as { query?: Record<string, unknown>; body?: unknown });
  if (spec.op.paginated) {
    const list = pipeline.list<unknown>(spec.op, input, { ...options, prefetch: opts.all === true });
    if (opts.all) {
      if (json) {
        for await (const item of list) out(jsonLine(item));
      } else {
        const rows: unknown[] = [];
        for await (const item of list) rows.push(item);
        printResult(rows, false);
      }
      return;
    }
    const page: Page<unknown> = await list;
    printResult(page.body, json);
    return;
  }
  const result = await pipeline.call<unknown>(spec.op, input, options);
  if (client && opts.saveSession) {
    // A verify's session is of the credential it names; a refresh's, of the signing session's credential.
    const credentialId = (opts.sessionKey ? savedCredentialId(opts.sessionKey) : undefined) ?? (input.path as Record<string, string>).id ?? '';
    const saved = await saveSession(opts.saveSession, (result ?? {}) as Record<string, unknown>, credentialId, client);
    client.scalar.fill(0);
    if (!json) process.stderr.write(`Session ${saved.id ?? ''} saved to ${opts.saveSession} (mode 0600); sign with --session-key ${opts.saveSession}\n`);
  }
  printResult(result, json);
}

/**
 * What a command's help prints after its flags, from its operation's `x-sdk.doc`: the paragraphs after the first
 * (which is the description), then each `@example`, the same call made with the SDK, indented as code.
 */
export function helpAfter(doc: OperationDoc): string {
  const parts = doc.paragraphs.slice(1);
  for (const example of doc.examples) parts.push(`With the SDK (crossborder-sdk):\n${example.replace(/^(?=.)/gm, '  ')}`);
  return parts.length ? `\n${parts.join('\n\n')}` : '';
}

/** True when `argv` runs the command of these words (`customers retrieve …`, `customers get …`, `help customers retrieve`). */
function invoked(words: string[], argv: string[]): boolean {
  const given = argv[0] === 'help' ? argv.slice(1) : argv;
  return words.every((word, i) => given[i] === word || (i === words.length - 1 && word === 'retrieve' && given[i] === 'get'));
}

/** What a command at an operation's earlier words prints when used (and says in its help): the command to use instead. */
export function deprecationNote(spec: CommandSpec): string {
  return `\`${spec.deprecatedWords!.join(' ')}\` is deprecated: use \`${spec.words.join(' ')}\` (as the SDK's cb.${spec.sdkName}() and the MCP tool ${spec.words.join('_').replace(/-/g, '_')})`;
}

/**
 * Adds every command of the table to `program`, grouped by their words (`auth credentials verify`); an operation
 * whose name changed also keeps its earlier words, as a deprecated command that says so on stderr and in its help.
 * Only the command `argv` runs gets its flags (worked out from the document's schemas, which are loaded for it
 * alone: a start stays cheap). `action` wraps each run (errors and exit codes).
 */
export async function addResourceCommands(
  program: Command,
  action: (json: boolean, body: () => Promise<void>) => Promise<void>,
  argv: string[],
): Promise<void> {
  const groups = new Map<string, Command>();
  const groupOf = (words: string[]): Command => {
    let parent = program;
    for (let i = 0; i < words.length; i++) {
      const key = words.slice(0, i + 1).join(' ');
      // A group may be a command of its own (`sandbox`: the server, and the sandbox-only operations under it).
      let group = groups.get(key) ?? parent.commands.find((c) => c.name() === words[i]);
      if (!group) {
        group = parent.command(words[i]!).description(`${words.slice(0, i + 1).join(' ')} operations`);
        groups.set(key, group);
      }
      parent = group;
    }
    return parent;
  };
  const register = async (spec: CommandSpec, words: string[], deprecated: boolean): Promise<void> => {
    const parent = groupOf(words.slice(0, -1));
    const verb = words.at(-1)!;
    const what = `${spec.op.method} ${spec.op.path}${spec.op.sandboxOnly ? ' (sandbox only)' : ''}${effectNote(spec)}`;
    const command = parent.command(verb).description(deprecated ? `deprecated: use ${spec.words.join(' ')} (${what})` : what);
    if (verb === 'retrieve') command.alias('get');
    for (const name of spec.positionals) command.argument(`<${name}>`);
    if (!invoked(words, argv)) return;
    // Its help says what it does, in the document's words (x-sdk.doc, generated: src/generated/cli-docs.ts).
    if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
      const doc = operationDocs().get(spec.op.id);
      if (doc?.summary) command.description(`${doc.summary} (${command.description()})`);
      if (deprecated) command.description(`${deprecationNote(spec)}. ${command.description()}`);
      const more = doc && helpAfter(doc);
      if (more) command.addHelpText('after', more);
    }
    const details = await detailsOf(spec);
    for (const flag of details.flags) {
      const placeholder =
        flag.kind === 'boolean' ? '[bool]' : flag.kind === 'json' ? '<json>' : flag.kind === 'list' ? '<a,b,…>' : flag.kind === 'file' ? '<path>' : '<value>';
      command.addOption(new Option(`${flag.flag} ${placeholder}`, flagDescription(flag)));
    }
    if (spec.op.params.body) command.option('--data <json|@file|->', 'the whole body as JSON: inline, @file.json, or - for stdin (flags override its fields)');
    if (spec.op.paginated) command.option('--all', 'every item of every page (with --json, one JSON line per item)');
    if (spec.op.idempotent || details.headers.includes('Idempotency-Key'))
      command.option(
        '--idempotency-key <key>',
        'Idempotency-Key to send (default: a new one per call; reuse the one printed to retry a call whose outcome is unknown)',
      );
    // A call that may change anything may be answered with a wallet challenge to sign.
    if (effectOf(spec.op).effect !== 'read') {
      command.option('--session-key <file>', 'sign a wallet challenge with the session saved by auth credentials verify … --save-session');
      command.option('--signature <sig>', 'relayed flow: the Service-Wallet-Signature of a challenge signed elsewhere (with --request-id)');
    }
    if (details.headers.includes('Request-Id') || effectOf(spec.op).effect !== 'read')
      command.option('--request-id <id>', 'the challenge requestId (relayed signature), or the Request-Id of a PASSKEY verify');
    if (answersSession(details))
      command.option('--save-session <file>', 'generate the client key, open the session key of the answer and save it to this file (mode 0600)');
    addConnectionOptions(command);
    command.action(async (...received: unknown[]) => {
      const cmd = received.at(-1) as Command;
      const opts = cmd.opts<ApiOptions>();
      if (deprecated) process.stderr.write(`crossborder-sdk: warning: ${deprecationNote(spec)}\n`);
      let input: CallInput | undefined;
      await action(opts.json === true, () =>
        run(details, cmd.args, opts, (given) => (input = given)).catch((error: unknown) => {
          throw inShellWords(error, details, input as { query?: Record<string, unknown>; body?: unknown } | undefined);
        }),
      );
    });
  };
  for (const spec of commandTable()) {
    await register(spec, spec.words, false);
    if (spec.deprecatedWords) await register(spec, spec.deprecatedWords, true);
  }
}
