/**
 * The package's bin: `crossborder-sdk sandbox [--port 4010] [--production] [--seed <n>]` serves
 * the local sandbox over HTTP on 127.0.0.1 until SIGINT/SIGTERM.
 * @module
 */
import { API_VERSION } from './sandbox/core';
import { createSandboxCore } from './sandbox/sandbox';

const USAGE = `Usage: crossborder-sdk sandbox [options]

Serves a local, stateful emulator of the Cross-Border Payments API on 127.0.0.1.
Any Basic credentials are accepted. State lives in memory and is lost on exit.

Options:
  --port <n>      Port to listen on (default 4010; 0 picks a free port)
  --production    Behave like production: sandbox-only endpoints answer 403 SANDBOX_ONLY
  --seed <n>      Seed of the id generator (default 1): same seed, same ids
  --help          Show this help
`;

interface Args {
  port: number;
  production: boolean;
  seed: number;
}

/** Parses argv (after `node cli.js`); a string is a usage error. */
function parse(argv: string[]): Args | 'help' | string {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const [command, ...rest] = argv;
  if (command !== 'sandbox') return command === undefined ? 'missing command' : `unknown command '${command}'`;
  const args: Args = { port: 4010, production: false, seed: 1 };
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? rest[++i];
    if (flag === '--production' && inline === undefined) args.production = true;
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

async function main(): Promise<void> {
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
  const sandbox = createSandboxCore({ environment: args.production ? 'production' : 'sandbox', seed: args.seed });
  let server;
  try {
    server = await sandbox.listen(args.port);
  } catch (error) {
    await sandbox.close();
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(`crossborder-sdk: cannot listen on 127.0.0.1:${args.port}: ${code === 'EADDRINUSE' ? 'the port is in use (try --port 0)' : String(error)}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(
    `Crossborder sandbox (${sandbox.environment}) listening on ${server.url} — API at ${server.url}/${API_VERSION}\n` +
      `Try: CROSSBORDER_BASE_URL=${server.url} CROSSBORDER_TOKEN_ID=sandbox CROSSBORDER_CLIENT_SECRET=sandbox node your-app.js\n` +
      `Webhook public key (hex): ${sandbox.webhookPublicKey.hex}\n`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\nReceived ${signal}; shutting down.\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

await main();
