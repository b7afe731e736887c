/**
 * The package's bin: `crossborder-sdk sandbox [--port 4010] [--host 127.0.0.1] [--production]
 * [--seed <n>] [--cors-origin <origin>] [--webhook-key FILE] [--state FILE] [--quiet] [--json]` serves
 * the local sandbox over HTTP until SIGINT/SIGTERM, logging one line per request and per webhook
 * delivery attempt to stdout; `sandbox reset|clock advance|trigger` drive a running one.
 * @module
 */
// @ts-nocheck

import { API_VERSION } from './sandbox/core';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { WEBHOOK_EVENT_TYPES } from './generated/operations';
import { isLoopbackHost } from './sandbox/control';
import { createSandboxCore, type RequestLogEntry } from './sandbox/sandbox';
import { stringifyState } from './sandbox/persist';
import { createWebhookKeyPair } from './sandbox/webhook-keys';
import type { WebhookKeyPair } from './webhooks/sign';
import type { DeliveryLogEntry } from './sandbox/webhooks';

const USAGE = `Usage: crossborder-sdk sandbox [options]
       crossborder-sdk sandbox reset [--url <url>]
       crossborder-sdk sandbox clock advance <30s|10m|2h|1d> [--url <url>]
       crossborder-sdk sandbox trigger <TYPE> [resourceId] [--url <url>]

Serves a local, stateful emulator of the Cross-Border Payments API (default on 127.0.0.1:4010),
with its inspector at /_sandbox/. Any Basic credentials are accepted. State lives in memory;
--state FILE keeps it across runs. The verbs drive a running sandbox over HTTP (default --url
http://127.0.0.1:4010); each has its own --help.

Options:
  --port <n>      Port to listen on (default 4010; 0 picks a free port)
  --production    Behave like production: sandbox-only endpoints answer 403 SANDBOX_ONLY
  --seed <n>      Seed of the id generator (default 1): same seed, same ids
  --host <addr>   Address to listen on (default 127.0.0.1). On a non-loopback address (0.0.0.0
                  exposes it to your network) the inspector and /_sandbox/events ask for the
                  Basic credentials too, and browsers may call it only from --cors-origin origins
  --cors-origin <origin>
                  Allow a browser page on this origin (http://localhost:5173) to call the sandbox;
                  repeat it or separate origins with commas; '*' allows any. Default: any origin
                  on a loopback address, none on another address
  --webhook-key <file>
                  Sign webhooks with the key pair in this file, created on first use and reused
                  after: the public key you configure stays the same across restarts
  --state <file>  Load the sandbox state from this file at start (if it exists: fixtures, or the
                  last run's state) and save it there on exit (GET /_sandbox/state's format)
  --quiet         No request or webhook delivery log
  --json          Log lines as JSON (one object per line) instead of text
  --help, -h      Show this help
`;

/** The usage of each verb, printed by its --help and with its usage errors. */
const VERB_USAGE: Record<string, string> = {
  reset: `Usage: crossborder-sdk sandbox reset [--url <url>]

Forgets every customer, account, payment and webhook delivery of a running sandbox and puts its
clock back where it started (POST /_sandbox/reset). Ids are not reused.

Options:
  --url <url>     The sandbox (default http://127.0.0.1:4010)
  --help, -h      Show this help
`,
  clock: `Usage: crossborder-sdk sandbox clock advance <30s|10m|2h|1d> [--url <url>]

Moves a running sandbox's clock forward and runs what fell due: quotes expire, payments settle
(POST /_sandbox/clock). Prints the sandbox's new time.

Options:
  --url <url>     The sandbox (default http://127.0.0.1:4010)
  --help, -h      Show this help
`,
  trigger: `Usage: crossborder-sdk sandbox trigger <TYPE> [resourceId] [--url <url>]

Sends a webhook event of TYPE about a resource (a transaction, customer, verification, quote,
account, or an invitation code; TEST needs none) to the running sandbox's webhookEndpoint
(POST /_sandbox/webhooks/trigger). Prints the event id.

Types: ${WEBHOOK_EVENT_TYPES.join(', ')}

Options:
  --url <url>     The sandbox (default http://127.0.0.1:4010)
  --help, -h      Show this help
`,
};

interface Args {
  port: number;
  production: boolean;
  seed: number;
  quiet: boolean;
  json: boolean;
  host: string;
  webhookKey: string | undefined;
  state: string | undefined;
  /** Origins from --cors-origin; undefined: the sandbox's default for the address. */
  corsOrigins: '*' | string[] | undefined;
}

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

/** Parses argv (after `node cli.js`); a string is a usage error. */
function parse(argv: string[]): Args | 'help' | string {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const [command, ...rest] = argv;
  if (command !== 'sandbox') return command === undefined ? 'missing command' : `unknown command '${command}'`;
  const args: Args = { port: 4010, production: false, seed: 1, quiet: false, json: false, host: '127.0.0.1', webhookKey: undefined, state: undefined, corsOrigins: undefined };
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? rest[++i];
    if (flag === '--production' && inline === undefined) args.production = true;
    else if (flag === '--quiet' && inline === undefined) args.quiet = true;
    else if (flag === '--json' && inline === undefined) args.json = true;
    else if (flag === '--cors-origin') {
      const raw = value();
      if (!raw) return `--cors-origin needs an origin such as http://localhost:5173`;
      for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
        const allowed = origin(part);
        if (!allowed) return `--cors-origin needs origins such as http://localhost:5173 (scheme, host and port only) or '*', got '${part}'`;
        if (allowed === '*' || args.corsOrigins === '*') args.corsOrigins = '*';
        else args.corsOrigins = [...new Set([...(args.corsOrigins ?? []), allowed])];
      }
    } else if (flag === '--host' || flag === '--webhook-key' || flag === '--state') {
      const raw = value();
      if (!raw) return `${flag} needs a value`;
      if (flag === '--host') args.host = raw;
      else if (flag === '--state') args.state = raw;
      else args.webhookKey = raw;
    }
    else if (flag === '--port' || flag === '--seed') {
      const raw = value();
      const n = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (flag === '--port' && !(n >= 0 && n <= 65535)) return `--port needs a number from 0 to 65535, got '${raw ?? ''}'`;
      if (flag === '--seed' && !Number.isSafeInteger(n)) return `--seed needs a whole number, got '${raw ?? ''}'`;
      if (flag === '--port') args.port = n;
      else args.seed = n;
    } else {
      return `unknown option '${rest[i]}'`;
    }
  }
  return args;
}

/** The key pair kept in `file` (JSON), made and saved (owner-only) on first use. */
function loadOrCreateKeyPair(file: string): WebhookKeyPair {
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<WebhookKeyPair>;
    if (typeof saved.privateKeyPem !== 'string' || typeof saved.publicKeyPem !== 'string' || typeof saved.publicKeyHex !== 'string') {
      throw new Error('not a webhook key file (expected publicKeyPem, publicKeyHex and privateKeyPem)');
    }
    return saved as WebhookKeyPair;
  }
  const created = createWebhookKeyPair();
  writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return created;
}

/** `sandbox reset|clock|trigger …`: one call to a running sandbox's /_sandbox/ controls. */
async function verb(argv: string[]): Promise<boolean> {
  const [command, name, ...rest] = argv;
  if (command !== 'sandbox' || !['reset', 'clock', 'trigger'].includes(name ?? '')) return false;
  const usage = VERB_USAGE[name!]!;
  const refuse = (problem: string) => {
    process.stderr.write(`crossborder-sdk: ${problem}\n\n${usage}`);
    process.exitCode = 2;
    return true;
  };
  // --help first, before anything is sent: `reset --help` must not reset.
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(usage);
    return true;
  }
  let url = 'http://127.0.0.1:4010';
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--url') {
      const value = inline ?? rest[++i];
      if (!value || !/^https?:\/\//.test(value)) return refuse(`--url needs the sandbox's address, such as http://127.0.0.1:4010`);
      url = value;
    } else if (rest[i]!.startsWith('-')) {
      return refuse(`unknown option '${rest[i]}'`);
    } else positional.push(rest[i]!);
  }
  let path: string;
  let body: unknown = {};
  if (name === 'reset') {
    if (positional.length > 0) return refuse(`reset takes no arguments, got '${positional.join(' ')}'`);
    path = '/_sandbox/reset';
  } else if (name === 'clock') {
    if (positional[0] !== 'advance' || !positional[1] || positional.length > 2) return refuse('give clock advance and one duration, such as 10m');
    path = '/_sandbox/clock';
    body = { advance: positional[1] };
  } else {
    if (!positional[0] || positional.length > 2) return refuse('give the event TYPE and, for all but TEST, the resource id');
    path = '/_sandbox/webhooks/trigger';
    body = { type: positional[0], ...(positional[1] ? { resourceId: positional[1] } : {}) };
  }
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('sandbox:sandbox')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    process.stdout.write(`${text}\n`);
    if (!res.ok) process.exitCode = 1;
  } catch (error) {
    process.stderr.write(`crossborder-sdk: cannot reach the sandbox at ${url}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
  return true;
}

async function main(): Promise<void> {
  if (await verb(process.argv.slice(2))) return;
  const args = parse(process.argv.slice(2));
  if (args === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (typeof args === 'string') {
    process.stderr.write(`crossborder-sdk: ${args}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const log = (entry: ({ kind: 'request' } & RequestLogEntry) | ({ kind: 'webhook' } & DeliveryLogEntry)) => {
    if (args.quiet) return;
    if (args.json) return void process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
    const line =
      entry.kind === 'request'
        ? `${entry.method} ${entry.path} → ${entry.status} ${entry.ms}ms${entry.requestId ? ` ${entry.requestId}` : ''}${entry.replayed ? ' (idempotent replay)' : ''}`
        : `webhook ${entry.type} → ${entry.url} ${entry.status ?? entry.error ?? ''} (attempt ${entry.attempt})`;
    process.stdout.write(`${line}\n`);
  };
  let keyPair: WebhookKeyPair | undefined;
  if (args.webhookKey) {
    try {
      keyPair = loadOrCreateKeyPair(args.webhookKey);
    } catch (error) {
      process.stderr.write(`crossborder-sdk: --webhook-key ${args.webhookKey}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
      return;
    }
  }
  const sandbox = createSandboxCore({
    environment: args.production ? 'production' : 'sandbox',
    seed: args.seed,
    ...(args.corsOrigins ? { cors: { origins: args.corsOrigins } } : {}),
    onRequest: (entry) => log({ kind: 'request', ...entry }),
    webhookDelivery: { onAttempt: (entry) => log({ kind: 'webhook', ...entry }), ...(keyPair ? { keyPair } : {}) },
  });
  if (args.state && existsSync(args.state)) {
    try {
      sandbox.importState(readFileSync(args.state, 'utf8'));
    } catch (error) {
      await sandbox.close();
      process.stderr.write(`crossborder-sdk: --state ${args.state}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
      return;
    }
  }
  let server;
  try {
    server = await sandbox.listen(args.port, args.host);
  } catch (error) {
    await sandbox.close();
    const code = (error as NodeJS.ErrnoException).code;
    const where = `${args.host.includes(':') ? `[${args.host}]` : args.host}:${args.port}`;
    const reason = code === 'EADDRINUSE' ? 'the port is in use (try --port 0)' : code === 'EADDRNOTAVAIL' ? 'no interface of this machine has that address' : error instanceof Error ? error.message : String(error);
    process.stderr.write(`crossborder-sdk: cannot listen on ${where}: ${reason}\n`);
    process.exitCode = 1;
    return;
  }
  // Before the first line: whoever reads it may stop the process right away.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\nReceived ${signal}; shutting down.\n`);
    if (args.state) {
      // Written beside the file, then renamed over it: a crash mid-write never leaves half a state.
      const temporary = `${args.state}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, stringifyState(sandbox.exportState()));
        renameSync(temporary, args.state);
        process.stdout.write(`State saved to ${args.state}.\n`);
      } catch (error) {
        rmSync(temporary, { force: true });
        process.stderr.write(`crossborder-sdk: could not save the state to ${args.state}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.stdout.write(
    `Crossborder sandbox (${sandbox.environment}) listening on ${server.url} — API at ${server.url}/${API_VERSION}\n` +
      `Environment for your app:\n` +
      `  CROSSBORDER_BASE_URL=${server.url}\n` +
      `  CROSSBORDER_ENVIRONMENT=${sandbox.environment}\n` +
      `  CROSSBORDER_TOKEN_ID=sandbox CROSSBORDER_CLIENT_SECRET=sandbox\n` +
      `  CROSSBORDER_WEBHOOK_PUBLIC_KEY=${sandbox.webhookPublicKey.hex}\n` +
      `Inspector: ${server.url}/_sandbox/\n` +
      (isLoopbackHost(args.host)
        ? ''
        : `Listening on ${args.host}, not a loopback address: the inspector and /_sandbox/events ask for the Basic credentials (any values), ` +
          `and browsers may call the sandbox only from ${args.corsOrigins === '*' ? 'any origin' : args.corsOrigins?.length ? args.corsOrigins.join(', ') : 'no origin (add --cors-origin)'}.\n`),
  );
}

await main();
