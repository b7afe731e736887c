/**
 * The package's bin: `crossborder-sdk sandbox [--port 4010] [--production] [--seed <n>] [--quiet]
 * [--json]` serves the local sandbox over HTTP on 127.0.0.1 until SIGINT/SIGTERM, logging one line
 * per request and per webhook delivery attempt to stdout.
 * @module
 */
import { API_VERSION } from './sandbox/core';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createSandboxCore, type RequestLogEntry } from './sandbox/sandbox';
import { stringifyState } from './sandbox/persist';
import { createWebhookKeyPair } from './sandbox/webhook-keys';
import type { WebhookKeyPair } from './webhooks/sign';
import type { DeliveryLogEntry } from './sandbox/webhooks';

const USAGE = `Usage: crossborder-sdk sandbox [options]
       crossborder-sdk sandbox reset [--url <url>]
       crossborder-sdk sandbox clock advance <30s|10m|2h|1d> [--url <url>]
       crossborder-sdk sandbox trigger <TYPE> [resourceId] [--url <url>]

The verbs drive a running sandbox over HTTP (default --url http://127.0.0.1:4010).

Serves a local, stateful emulator of the Cross-Border Payments API on 127.0.0.1.
Any Basic credentials are accepted. State lives in memory and is lost on exit.

Options:
  --port <n>      Port to listen on (default 4010; 0 picks a free port)
  --production    Behave like production: sandbox-only endpoints answer 403 SANDBOX_ONLY
  --seed <n>      Seed of the id generator (default 1): same seed, same ids
  --host <addr>   Address to listen on (default 127.0.0.1; 0.0.0.0 exposes it to your network)
  --webhook-key <file>
                  Sign webhooks with the key pair in this file, created on first use and reused
                  after: the public key you configure stays the same across restarts
  --state <file>  Load the sandbox state from this file at start (if it exists: fixtures, or the
                  last run's state) and save it there on exit (GET /_sandbox/state's format)
  --quiet         No request or webhook delivery log
  --json          Log lines as JSON (one object per line) instead of text
  --help          Show this help
`;

interface Args {
  port: number;
  production: boolean;
  seed: number;
  quiet: boolean;
  json: boolean;
  host: string;
  webhookKey: string | undefined;
  state: string | undefined;
}

/** Parses argv (after `node cli.js`); a string is a usage error. */
function parse(argv: string[]): Args | 'help' | string {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const [command, ...rest] = argv;
  if (command !== 'sandbox') return command === undefined ? 'missing command' : `unknown command '${command}'`;
  const args: Args = { port: 4010, production: false, seed: 1, quiet: false, json: false, host: '127.0.0.1', webhookKey: undefined, state: undefined };
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? rest[++i];
    if (flag === '--production' && inline === undefined) args.production = true;
    else if (flag === '--quiet' && inline === undefined) args.quiet = true;
    else if (flag === '--json' && inline === undefined) args.json = true;
    else if (flag === '--host' || flag === '--webhook-key' || flag === '--state') {
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
  let url = 'http://127.0.0.1:4010';
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--url') url = inline ?? rest[++i] ?? url;
    else positional.push(rest[i]!);
  }
  let path: string;
  let body: unknown = {};
  if (name === 'reset') path = '/_sandbox/reset';
  else if (name === 'clock') {
    if (positional[0] !== 'advance' || !positional[1]) {
      process.stderr.write(`crossborder-sdk: usage: sandbox clock advance <30s|10m|2h|1d>\n`);
      process.exitCode = 2;
      return true;
    }
    path = '/_sandbox/clock';
    body = { advance: positional[1] };
  } else {
    if (!positional[0]) {
      process.stderr.write(`crossborder-sdk: usage: sandbox trigger <TYPE> [resourceId]\n`);
      process.exitCode = 2;
      return true;
    }
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
    process.stderr.write(`crossborder-sdk: cannot listen on 127.0.0.1:${args.port}: ${code === 'EADDRINUSE' ? 'the port is in use (try --port 0)' : String(error)}\n`);
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
      try {
        writeFileSync(args.state, stringifyState(sandbox.exportState()));
        process.stdout.write(`State saved to ${args.state}.\n`);
      } catch (error) {
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
      `  CROSSBORDER_WEBHOOK_PUBLIC_KEY=${sandbox.webhookPublicKey.hex}\n`,
  );
}

await main();
