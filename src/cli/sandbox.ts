/**
 * `crossborder-sdk sandbox`: serves the local sandbox over HTTP and logs one line per request and per
 * webhook delivery attempt; its verbs drive a running one over HTTP (`/_sandbox/*`).
 *
 * The process stops cleanly, its state saved first, on SIGTERM, SIGINT and SIGHUP, when its stdout
 * is gone (a closed pipe), and when the process that started it dies (`npx`: npm's wrapper stopped by
 * `docker stop` does not pass the signal on, so the server watches its parent instead).
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { WEBHOOK_EVENT_TYPES } from '../generated/operations';
import { processRunning } from '../helpers/process';
import { CONTROL_PREFIX, SANDBOX_CONTROLS } from '../helpers/sandbox-controls';
import type { DeliveryLogEntry, RequestLogEntry, SandboxFaults, StatePersister } from '../sandbox/index';
import type { WebhookKeyPair } from '../webhooks/sign';
import { jsonLine, visible, visibleLines } from './output';
import { parseJsonText, readFileBounded, readInput, refuseUnsafeTarget, STATE_LIMIT_BYTES, writePrivateFile } from './files';
import { API_VERSION, control, SANDBOX_CREDENTIALS, updateSandboxConfig } from './control';
import { isLoopbackUrl, type Action } from './shared';
import { UsageError } from './table';

/** `--faults` JSON, checked (the field named). */
function faults(value: string): SandboxFaults {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError(`--faults needs JSON such as '{"rateLimit":{"requestsPerSecond":50},"latency":{"ms":20}}', got '${value}'`);
  }
  // Its fields are checked by the sandbox's own rule once the sandbox is loaded (serve).
  return parsed as SandboxFaults;
}

/** Help of the verbs' --url: where they point without it (the rule of every command, ./shared targetOf). */
const SANDBOX_URL_HELP = 'the sandbox (default: CROSSBORDER_BASE_URL, else http://127.0.0.1:4010)';

// The sandbox's control client and the address rule live in ./control; re-exported for the commands that import them from here.
export { API_VERSION, attachListener, control, controlHeaders, DEFAULT_SANDBOX_URL, SandboxNotRunning, type AttachedListener } from './control';

/** An origin as browsers send it (`http://localhost:5173`), or `*`; undefined when it is not one. */
function origin(text: string): string | undefined {
  if (text === '*') return text;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text.replace(/\/$/, '') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function collectOrigins(value: string, previous: '*' | string[] | undefined): '*' | string[] {
  let result = previous;
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const allowed = origin(part);
    if (!allowed)
      throw new InvalidArgumentError(`--cors-origin needs origins such as http://localhost:5173 (scheme, host and port only) or '*', got '${part}'`);
    result = allowed === '*' || result === '*' ? '*' : [...new Set([...(result ?? []), allowed])];
  }
  if (result === undefined) throw new InvalidArgumentError('--cors-origin needs an origin such as http://localhost:5173');
  return result;
}

function port(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n <= 65535)) throw new InvalidArgumentError(`--port needs a number from 0 to 65535, got '${value}'`);
  return n;
}

function seed(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`--seed needs a whole number, got '${value}'`);
  return n;
}

function httpUrl(flag: string) {
  return (value: string): string => {
    if (!/^https?:\/\/[^/]/.test(value))
      throw new InvalidArgumentError(`${flag} needs an http(s) address, such as http://127.0.0.1:3000/webhooks, got '${value}'`);
    return value;
  };
}

/** The key pair kept in `file` (JSON), made and saved (owner-only) on first use. */
async function loadOrCreateKeyPair(file: string): Promise<WebhookKeyPair> {
  if (existsSync(file)) {
    const saved = (parseJsonText(readFileBounded(file, file), file) ?? {}) as Partial<WebhookKeyPair>;
    if (typeof saved.privateKeyPem !== 'string' || typeof saved.publicKeyPem !== 'string' || typeof saved.publicKeyHex !== 'string') {
      throw new Error('not a webhook key file (expected publicKeyPem, publicKeyHex and privateKeyPem)');
    }
    return saved as WebhookKeyPair;
  }
  const { generateWebhookKeyPair } = await import('../sandbox/index');
  const created = await generateWebhookKeyPair();
  writePrivateFile(file, `${JSON.stringify(created, null, 2)}\n`, '--webhook-key');
  return created;
}

/**
 * Calls `onGone` once the process that started this one is gone. The parent is watched (its pid
 * changes when it dies: the process is re-parented); when the parent is a `sh -c` wrapper (what
 * npm runs a bin through), its own parent is watched too.
 */
export function watchParent(onGone: (reason: string) => void): () => void {
  const watched: number[] = [process.ppid];
  try {
    const cmdline = readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0');
    if (/(^|\/)(sh|dash|bash)$/.test(cmdline[0] ?? '') && cmdline.includes('-c')) {
      const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
      const grandparent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (grandparent > 1) watched.push(grandparent);
    }
  } catch {
    // no /proc (macOS, Windows): the parent's pid alone
  }
  const started = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== started || watched.some((pid) => !processRunning(pid))) {
      clearInterval(timer);
      onGone('the process that started the sandbox exited');
    }
  }, 500).unref();
  return () => clearInterval(timer);
}

interface ServeOptions {
  port: number;
  host: string;
  production?: boolean;
  seed: number;
  corsOrigin?: '*' | string[];
  webhookKey?: string;
  webhookUrl?: string;
  controlToken?: string;
  state?: string;
  quiet?: boolean;
  json?: boolean;
  watchParent: boolean;
  faults?: SandboxFaults;
}

/** Serves the sandbox until a signal, a closed stdout or the parent's death. */
async function serve(args: ServeOptions): Promise<void> {
  // The sandbox is loaded by this command alone, through its public entry (crossborder-sdk/sandbox).
  const entry = await import('../sandbox/index');
  const { createSandbox: createSandboxCore, persistStateTo, describeFaults } = entry;
  const faultsProblem = args.faults === undefined ? undefined : entry.faultsProblem(args.faults);
  if (faultsProblem !== undefined) throw new UsageError(`--faults: ${faultsProblem}`);
  const json = args.json === true;
  const clockMoved = (at: string | undefined) => at !== undefined && Math.abs(Date.parse(at) - Date.now()) > 1_000;
  const line = (text: string, fields: Record<string, unknown>) => {
    // What a request sent (its path, an id) is printed visibly: a client cannot forge a line of this log.
    if (json) process.stdout.write(jsonLine({ time: new Date().toISOString(), ...fields }));
    else process.stdout.write(`${visibleLines(text)}\n`);
  };
  const stamp = (at: string | undefined) => `${new Date().toISOString().slice(11, 23)}${clockMoved(at) ? ` [sandbox ${at}]` : ''}`;
  let listening = false;
  const logRequest = (entry: RequestLogEntry & { at?: string }) => {
    if (args.quiet || !listening) return; // the banner first (the --webhook-url set before it is not logged)
    const { at, ...rest } = entry;
    const fields = { kind: 'request', ...rest, ...(clockMoved(at) ? { sandboxTime: at } : {}) };
    line(
      `${stamp(at)} ${entry.method} ${entry.path} → ${entry.status}${entry.code ? ` ${entry.code}` : ''} ${entry.ms}ms${entry.requestId ? ` ${entry.requestId}` : ''}${entry.replayed ? ' (idempotent replay)' : ''}`,
      fields,
    );
  };
  const logDelivery = (entry: DeliveryLogEntry) => {
    if (args.quiet) return;
    const at = new Date(sandbox.clock.now()).toISOString();
    // A status with an error is a failed attempt all the same (a redirect, not followed): both are shown.
    const outcome = [entry.status, entry.error].filter((v) => v !== undefined).join(' ');
    line(`${stamp(at)} webhook ${entry.type} ${entry.eventId} → ${entry.url} ${outcome} (attempt ${entry.attempt})`, {
      kind: 'webhook',
      ...entry,
      ...(clockMoved(at) ? { sandboxTime: at } : {}),
    });
  };
  let keyPair: WebhookKeyPair | undefined;
  if (args.webhookKey) {
    try {
      keyPair = await loadOrCreateKeyPair(args.webhookKey);
    } catch (error) {
      throw new UsageError(`--webhook-key ${args.webhookKey}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // The state file is rewritten while the sandbox runs: a path that is not the user's own regular file is refused first.
  if (args.state) refuseUnsafeTarget(args.state, '--state');
  let writer: StatePersister | undefined;
  const sandbox = createSandboxCore({
    environment: args.production ? 'production' : 'sandbox',
    seed: args.seed,
    ...(args.corsOrigin ? { cors: { origins: args.corsOrigin } } : {}),
    ...(args.controlToken ? { controlToken: args.controlToken } : {}),
    ...(args.faults ? { faults: args.faults } : {}),
    onRequest: logRequest,
    webhookDelivery: {
      onAttempt: logDelivery,
      ...(keyPair ? { keyPair } : {}),
    },
  });
  if (args.state && existsSync(args.state)) {
    try {
      sandbox.importState(readFileBounded(args.state, '--state', STATE_LIMIT_BYTES));
    } catch (error) {
      await sandbox.close();
      throw new UsageError(`--state ${args.state}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (args.webhookUrl) {
    // Through the SDK's own client, in process: the sandbox is not listening yet.
    const [{ cliCore }, { operations }] = await Promise.all([import('./sdk'), import('../generated/operations')]);
    const inProcess = cliCore({ ...SANDBOX_CREDENTIALS, baseUrl: 'http://sandbox.invalid', environment: 'sandbox', maxRetries: 0, fetch: sandbox.fetch });
    try {
      await inProcess.call(operations.updateConfig, { body: { webhookEndpoint: args.webhookUrl } });
    } catch (error) {
      await sandbox.close();
      throw new UsageError(`--webhook-url ${args.webhookUrl}: the sandbox refused it (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  let server;
  try {
    server = await sandbox.listen(args.port, args.host);
  } catch (error) {
    await sandbox.close();
    const code = (error as NodeJS.ErrnoException).code;
    const where = `${args.host.includes(':') ? `[${args.host}]` : args.host}:${args.port}`;
    const reason =
      code === 'EADDRINUSE'
        ? 'the port is in use (try --port 0)'
        : code === 'EADDRNOTAVAIL'
          ? 'no interface of this machine has that address'
          : error instanceof Error
            ? error.message
            : String(error);
    process.stderr.write(`crossborder-sdk: cannot listen on ${where}: ${reason}\n`);
    process.exitCode = 1;
    return;
  }
  if (args.state) {
    // Written atomically shortly after each change (the sandbox says when), and at once on the way out.
    const file = args.state;
    writer = await persistStateTo(sandbox, file, {
      onError: (error) =>
        process.stderr.write(`crossborder-sdk: could not save the state to ${file}: ${error instanceof Error ? error.message : String(error)}\n`),
    });
  }
  listening = true;
  // Set up before the first line: whoever reads it may stop the process right away.
  let stopping = false;
  let unwatch = () => {};
  const stop = (why: string, speak: boolean) => {
    if (stopping) return;
    stopping = true;
    unwatch();
    const say = (text: string, fields: Record<string, unknown>) => {
      if (!speak) return;
      try {
        line(text, fields);
      } catch {
        // stdout may be gone
      }
    };
    // A signal is received; anything else is said as what happened ("the process that started the sandbox exited").
    const sentence = /^SIG[A-Z]+$/.test(why) ? `Received ${why}` : why.charAt(0).toUpperCase() + why.slice(1);
    say(`\n${sentence}; shutting down.`, { kind: 'stopping', reason: why });
    if (args.state && writer) {
      try {
        // The file is kept written as the state changes; close() writes whatever is still waiting.
        writer.close();
        say(`State saved to ${args.state}.`, { kind: 'state-saved', file: args.state });
      } catch (error) {
        process.stderr.write(`crossborder-sdk: could not save the state to ${args.state}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    const timer = setTimeout(() => process.exit(0), 3_000).unref();
    sandbox.close().then(
      () => (clearTimeout(timer), process.exit(0)),
      () => process.exit(1),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal, true));
  process.once('crossborder:stdout-closed' as never, () => stop('a closed stdout', false));
  if (args.watchParent) unwatch = watchParent((reason) => stop(reason, true));
  const env = {
    CROSSBORDER_BASE_URL: server.url,
    CROSSBORDER_ENVIRONMENT: sandbox.environment,
    CROSSBORDER_TOKEN_ID: 'sandbox',
    CROSSBORDER_CLIENT_SECRET: 'sandbox',
    CROSSBORDER_WEBHOOK_PUBLIC_KEY: sandbox.webhookPublicKey.hex,
    // Beyond loopback the control plane and PATCH /config take a token (given, or generated): the verbs read it from here.
    ...(server.controlToken ? { CROSSBORDER_SANDBOX_TOKEN: server.controlToken } : {}),
  };
  const exposure = isLoopbackUrl(`http://${args.host.includes(':') ? `[${args.host}]` : args.host}`)
    ? ''
    : `Listening on ${args.host}, not a loopback address: the ${CONTROL_PREFIX} controls, the inspector and PATCH /config ask for the control token (CROSSBORDER_SANDBOX_TOKEN; the inspector: open ${SANDBOX_CONTROLS.inspector.path}?token=… once), ` +
      `and browsers may call the sandbox only from ${args.corsOrigin === '*' ? 'any origin' : args.corsOrigin?.length ? args.corsOrigin.join(', ') : 'no origin (add --cors-origin)'}.\n`;
  // What --faults turned on, said in the banner: a batch tested against this sandbox meets them.
  const faults = describeFaults(sandbox.faults.get());
  if (json) {
    line('', {
      kind: 'listening',
      url: server.url,
      api: `${server.url}/${API_VERSION}`,
      environment: sandbox.environment,
      inspector: `${server.url}${SANDBOX_CONTROLS.inspector.path}`,
      env,
      ...(args.webhookUrl ? { webhookEndpoint: args.webhookUrl } : {}),
      ...(args.state ? { state: args.state } : {}),
      ...(faults.length > 0 ? { faults: sandbox.faults.get() } : {}),
    });
    if (exposure) process.stderr.write(exposure);
    return;
  }
  process.stdout.write(
    `Crossborder sandbox (${sandbox.environment}) listening on ${server.url} — API at ${server.url}/${API_VERSION}\n` +
      `Environment for your app:\n` +
      `  CROSSBORDER_BASE_URL=${env.CROSSBORDER_BASE_URL}\n` +
      `  CROSSBORDER_ENVIRONMENT=${env.CROSSBORDER_ENVIRONMENT}\n` +
      `  CROSSBORDER_TOKEN_ID=sandbox CROSSBORDER_CLIENT_SECRET=sandbox\n` +
      `  CROSSBORDER_WEBHOOK_PUBLIC_KEY=${env.CROSSBORDER_WEBHOOK_PUBLIC_KEY}\n` +
      (env.CROSSBORDER_SANDBOX_TOKEN
        ? `  CROSSBORDER_SANDBOX_TOKEN=${env.CROSSBORDER_SANDBOX_TOKEN}  (the ${CONTROL_PREFIX} controls and PATCH /config ask for it as X-Sandbox-Token)\n`
        : '') +
      `Inspector: ${server.url}${SANDBOX_CONTROLS.inspector.path}\n` +
      (args.webhookUrl ? `Webhooks: delivered to ${args.webhookUrl}\n` : '') +
      (args.state ? `State: ${args.state} (written after each change)\n` : '') +
      (faults.length > 0 ? `Faults (--faults): ${faults.join('; ')}\n` : '') +
      exposure,
  );
}

/** Adds `sandbox` and its verbs. */
export function addSandboxCommand(program: Command, action: Action): void {
  const sandbox = program
    .command('sandbox')
    .description(
      `Serve a local, stateful emulator of the API (default 127.0.0.1:4010), with its inspector at ${SANDBOX_CONTROLS.inspector.path}; the verbs drive a running one`,
    )
    .addHelpText(
      'after',
      `\nAny Basic credentials are accepted except the token ids MAGIC_UNAUTHORIZED (answered 401) and MAGIC_FORBIDDEN (403). State lives in memory; --state FILE keeps it across runs (written after each change).\n` +
        `It stops cleanly (state saved) on SIGTERM, SIGINT, SIGHUP, when its stdout closes, and when the process that started it exits.\n`,
    )
    .option('--port <n>', 'port to listen on (0 picks a free port)', port, 4010)
    .option('--host <addr>', 'address to listen on; 0.0.0.0 exposes it to your network (the inspector then asks for credentials)', '127.0.0.1')
    .option('--production', 'behave like production: sandbox-only endpoints answer 403 SANDBOX_ONLY')
    .option('--seed <n>', 'seed of the id generator: same seed, same ids', seed, 1)
    .option('--cors-origin <origin>', "allow a browser page on this origin (http://localhost:5173); repeat or comma-separate; '*' allows any", collectOrigins)
    .option('--webhook-key <file>', 'sign webhooks with the key pair in this file (made on first use): the public key stays the same across restarts')
    .option('--webhook-url <url>', 'deliver webhooks to this URL (sets the platform config webhookEndpoint)', httpUrl('--webhook-url'))
    .option('--control-token <token>', 'the token the controls and PATCH /config ask for beyond loopback (default there: generated and printed)')
    .option('--state <file>', 'load the state from this file at start (if it exists) and keep it written there, after each change and on exit')
    .option('--quiet', 'no request or webhook delivery log')
    .option('--json', 'log JSON lines only on stdout (the banner is one too), one "time" field each')
    .addOption(new Option('--no-watch-parent', 'keep running when the process that started it exits').default(true))
    .option(
      '--faults <json>',
      'inject what payout batches meet: {"rateLimit":{"requestsPerSecond":50},"dailyVolumeLimit":{"USD":1000000},"failAfterProcessing":{"rate":0.1},"latency":{"ms":20}} (docs/payouts.md)',
      faults,
    )
    .enablePositionalOptions()
    .showHelpAfterError()
    .action(async (opts: ServeOptions) => action(false, () => serve(opts)));

  const verb = (name: string, description: string) =>
    sandbox
      .command(name)
      .description(description)
      .option('--url <url>', SANDBOX_URL_HELP, httpUrl('--url'))
      .option('--json', 'print the answer as one JSON line')
      .showHelpAfterError();
  /** Prints the answer; a non-2xx is an error (exit 1). */
  const show = (res: { status: number; json: unknown; text: string }, json: boolean, text?: (value: unknown) => string) => {
    if (res.status >= 300) {
      process.stderr.write(`crossborder-sdk: the sandbox answered ${res.status}: ${visible(res.text)}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(json || !text ? `${visible(res.text)}\n` : visibleLines(text(res.json)));
  };

  verb('reset', 'forget every customer, account, payment and delivery of a running sandbox; its clock goes back (ids are not reused)').action(
    async (opts: { url?: string; json?: boolean }) => action(opts.json === true, async () => show(await control(opts.url, 'reset', {}), true)),
  );
  sandbox
    .command('clock')
    .description("move a running sandbox's clock")
    .command('advance')
    .description('move the clock forward and run what fell due: quotes expire, payments settle')
    .argument('<duration>', '30s, 10m, 2h, 1d')
    .option('--url <url>', SANDBOX_URL_HELP, httpUrl('--url'))
    .showHelpAfterError()
    .action(async (duration: string, opts: { url?: string }) => action(false, async () => show(await control(opts.url, 'clock', { advance: duration }), true)));
  verb(
    'trigger',
    `send a webhook event of TYPE about an existing resource (none for TEST) to the configured webhookEndpoint and the attached listeners.\nTypes: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  )
    .argument('<type>', 'the event type')
    .argument('[resourceId]', 'the transaction, customer, verification, quote, account or invitation code it is about')
    .action(async (type: string, resourceId: string | undefined, opts: { url?: string; json?: boolean }) =>
      action(opts.json === true, async () => {
        refuseUnknownType(type);
        show(await control(opts.url, 'trigger', { type, ...(resourceId ? { resourceId } : {}) }), true);
      }),
    );
  verb('webhook-url', 'deliver webhooks to URL from now on (PATCH /config webhookEndpoint)')
    .argument('<url>', 'the receiver', httpUrl('webhook-url'))
    .action(async (to: string, opts: { url?: string; json?: boolean }) =>
      action(opts.json === true, async () => {
        const config = await updateSandboxConfig(opts.url, { webhookEndpoint: to });
        process.stdout.write(opts.json === true ? `${JSON.stringify(config)}\n` : `webhooks now go to ${to}\n`);
      }),
    );
  verb('requests', 'the last requests answered (method, path, status, error code, request id)').action(async (opts: { url?: string; json?: boolean }) =>
    action(opts.json === true, async () =>
      show(await control(opts.url, 'requests'), opts.json === true, (value) =>
        ((value as { data: (RequestLogEntry & { at: string })[] }).data ?? [])
          .map((e) => `${e.at} ${e.method} ${e.path} → ${e.status}${e.code ? ` ${e.code}` : ''} ${e.ms}ms ${e.requestId ?? ''}`.trimEnd() + '\n')
          .join(''),
      ),
    ),
  );
  verb('deliveries', 'webhook deliveries: event, type, state, attempts, last answer or error').action(async (opts: { url?: string; json?: boolean }) =>
    action(opts.json === true, async () =>
      show(await control(opts.url, 'deliveries'), opts.json === true, (value) =>
        ((value as { data: { eventId: string; type: string; state: string; endpoint: string; attempts: { status?: number; error?: string }[] }[] }).data ?? [])
          .map((d) => {
            const last = d.attempts.at(-1);
            return `${d.eventId} ${d.type} ${d.state} → ${d.endpoint} ${d.attempts.length} attempt(s)${last ? ` last: ${last.status ?? last.error ?? ''}` : ''}\n`;
          })
          .join(''),
      ),
    ),
  );
  verb('redeliver', 'send a webhook event again')
    .argument('<eventId>')
    .action(async (eventId: string, opts: { url?: string; json?: boolean }) =>
      action(opts.json === true, async () => show(await control(opts.url, 'redeliver', {}, { eventId }), true)),
    );
  const state = sandbox.command('state').description("export or import a running sandbox's whole state");
  state
    .command('export')
    .description('print the state (or write it to --out FILE)')
    .option('--url <url>', SANDBOX_URL_HELP, httpUrl('--url'))
    .option('--out <file>', 'write it to this file instead of stdout')
    .showHelpAfterError()
    .action(async (opts: { url?: string; out?: string }) =>
      action(false, async () => {
        const res = await control(opts.url, 'exportState');
        if (res.status >= 300 || !opts.out) return show(res, true);
        writePrivateFile(opts.out, `${res.text}\n`, '--out');
        process.stderr.write(`State written to ${opts.out}.\n`);
      }),
    );
  state
    .command('import')
    .description('replace the state with a file written by state export (or - for stdin)')
    .argument('<file>')
    .option('--url <url>', SANDBOX_URL_HELP, httpUrl('--url'))
    .showHelpAfterError()
    .action(async (file: string, opts: { url?: string }) =>
      action(false, async () => {
        const label = file === '-' ? 'state import - (stdin)' : `state import ${file}`;
        const document = parseJsonText(await readInput(file, label, STATE_LIMIT_BYTES), label);
        show(await control(opts.url, 'importState', document), true);
      }),
    );
}

/** Refuses a webhook event type the document does not list. */
export function refuseUnknownType(type: string): void {
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`unknown event type '${type}'; the types are: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
}
