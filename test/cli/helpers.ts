/**
 * The CLI as users run it: the `bin` of the packed tarball (test/setup/packed.ts), spawned with Node.
 * Every wait is bounded; servers bind to 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ensurePacked, packedPaths, root } from '../setup/packed';

export { root };

/** The packed package, built once per tree (CB_TEST_PACKED_KEY: an earlier build, for a quick iteration with CB_TEST_CLI). */
export const packed = process.env.CB_TEST_PACKED_KEY ? packedPaths(process.env.CB_TEST_PACKED_KEY) : ensurePacked();

/** What `npx crossborder-sdk` runs. */
export const CLI =
  process.env.CB_TEST_CLI ??
  join(packed.pkg, (JSON.parse(readFileSync(join(packed.pkg, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['crossborder-sdk']!);

/** The packed SDK (what a user's receiver imports). */
export const sdk = (): Promise<typeof import('crossborder-sdk')> => import(join(packed.pkg, 'dist/index.js'));

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the CLI to its end (killed after `timeoutMs`). */
export function cli(args: string[], options: { env?: Record<string, string>; input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    if (options.input !== undefined) child.stdin!.end(options.input);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.once('exit', (code) => (clearTimeout(timer), resolve({ code, out, err })));
  });
}

/** Parses the one JSON value a `--json` command printed. */
export function json<T = Record<string, unknown>>(ran: Ran): T {
  if (ran.code !== 0) throw new Error(`exit ${ran.code}: ${ran.err}${ran.out}`);
  return JSON.parse(ran.out) as T;
}

/** Waits (bounded) until `check` holds. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

export interface Sandbox {
  url: string;
  port: number;
  publicKey: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(signal?: NodeJS.Signals): Promise<number | null | 'timeout'>;
}

/** Starts `crossborder-sdk sandbox` from the packed bin; resolves once it prints its URL. */
export async function startSandbox(extra: string[] = [], port = 0): Promise<Sandbox> {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', String(port), ...extra], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s: ${out}`)), 20_000);
    const look = () => {
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(out) ?? /"url":"(http:\/\/[\d.]+:\d+)"/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', look);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${out}`)));
  });
  const publicKey = /(04[0-9a-f]{128})/.exec(out)?.[1] ?? '';
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const exited = new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
    child.kill(signal);
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000))]);
    if (code === 'timeout') child.kill('SIGKILL');
    return code;
  };
  return { url, port: Number(new URL(url).port), publicKey, child, output: () => out, stop };
}

export interface Receiver {
  url: string;
  /** Each delivery: its verified event (or the reason verification refused it), and the raw body. */
  received: { type: string; id: string; verified: boolean; reason?: string; body: string; data: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** A webhook receiver that verifies each delivery's signature with the packed SDK and `publicKey`. */
export async function verifyingReceiver(publicKey: string, status = 200): Promise<Receiver> {
  const { Crossborder } = await sdk();
  const cb = new Crossborder({ tokenId: 'x', clientSecret: 'x', baseUrl: 'http://127.0.0.1:9', webhookPublicKey: publicKey });
  const received: Receiver['received'] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const answer = async (body: string) => {
      const parsed = JSON.parse(body) as { type: string; id: string; data: Record<string, unknown> };
      try {
        await cb.webhooks.unwrap(body, req.headers);
        received.push({ type: parsed.type, id: parsed.id, verified: true, body, data: parsed.data });
        res.statusCode = status;
      } catch (error) {
        received.push({
          type: parsed.type,
          id: parsed.id,
          verified: false,
          reason: (error as { reason?: string }).reason ?? String(error),
          body,
          data: parsed.data,
        });
        res.statusCode = 400;
      }
      res.end();
    };
    // A body that is not JSON is answered 500 with the reason, not left as an unhandled rejection and an open request.
    req.on('end', () => {
      answer(Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** The environment of a client of `sandbox`. */
export const envFor = (sandbox: { url: string }) => ({
  CROSSBORDER_BASE_URL: sandbox.url,
  CROSSBORDER_TOKEN_ID: 'sandbox',
  CROSSBORDER_CLIENT_SECRET: 'sandbox',
  CROSSBORDER_ENVIRONMENT: 'sandbox',
});
