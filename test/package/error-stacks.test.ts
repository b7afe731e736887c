/**
 * Issue 33: an error a call rejects with keeps the caller's frame (`at async yourFunction (app.mjs:12)`),
 * run as a user runs it: a program of its own, importing the packed package by its name (ESM and
 * CommonJS), against peers on 127.0.0.1: the HTTP sandbox (a 404), a server that accepts and never
 * answers (a timeout), a port nobody listens on (a connection error). Then the second day's other
 * surprises: a misspelt option refused, and a webhook-only receiver made without credentials.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeConsumer } from '../setup/packed';

const packed = inject('packed');
let scratch: string;
let consumer: string;
/** Accepts connections and never answers (the timeout's peer). */
let silent: Server;
const held: Socket[] = [];
let silentPort: number;
/** A port that was free a moment ago and is closed now (the connection error's peer). */
let closedPort: number;

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'crossborder-stacks-'));
  consumer = makeConsumer(packed, join(scratch, 'consumer'));
  silent = createServer((socket) => void held.push(socket));
  silentPort = await listen(silent);
  const probe = createServer();
  closedPort = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * The user's program. Each failing call sits in a function of the user's own (`findCustomer`, …),
 * which awaits the SDK and does nothing else: the frame must show in the error's stack.
 */
const program = (imports: string) => `${imports}

async function findCustomer(cb) {
  return await cb.customers.retrieve('Customer:does-not-exist');
}
async function findCustomerWithResponse(cb) {
  return await cb.customers.retrieve('Customer:does-not-exist').withResponse();
}
async function listEveryCustomer(cb) {
  for await (const customer of cb.customers.list({ limit: 1 })) void customer;
}
async function waitForSilentServer(cb) {
  await cb.customers.list({ limit: 1 });
}
async function callClosedPort(cb) {
  await cb.quotes.retrieve('Quote:1');
}
async function stackOf(fn, cb) {
  try {
    await fn(cb);
  } catch (error) {
    return { name: error.name, stack: String(error.stack) };
  }
  return { name: 'resolved', stack: '' };
}

async function main() {
  const sandbox = createSandbox();
  const server = await sandbox.listen();
  const options = { tokenId: 'demo', clientSecret: 'demo', maxRetries: 0 };
  try {
    const cb = new Crossborder({ ...options, environment: 'sandbox', baseUrl: server.url });
    const slow = new Crossborder({ ...options, baseUrl: 'http://127.0.0.1:' + process.env.SILENT_PORT, timeout: 150 });
    const down = new Crossborder({ ...options, baseUrl: 'http://127.0.0.1:' + process.env.CLOSED_PORT });
    const stacks = {
      notFound: await stackOf(findCustomer, cb),
      withResponse: await stackOf(findCustomerWithResponse, cb),
      timeout: await stackOf(waitForSilentServer, slow),
      connection: await stackOf(callClosedPort, down),
      iteration: await stackOf(listEveryCustomer, down),
    };

    let misspelt;
    try {
      new Crossborder({ ...options, baseURL: server.url });
    } catch (error) {
      misspelt = { name: error.name, message: error.message };
    }

    // A webhook-only receiver: no CROSSBORDER_TOKEN_ID, no secret, only the service's public key.
    const keys = await generateWebhookKeyPair();
    const receiver = new Crossborder({ webhookPublicKey: keys.publicKeyPem });
    const body = JSON.stringify({ id: 'Webhook:stack-1', type: 'TEST', timestamp: new Date().toISOString(), data: {} });
    const event = await receiver.webhooks.unwrap(body, { 'x-service-signature': await signWebhook(body, keys.privateKeyPem) });
    const firstCall = await receiver.customers.list().then(() => 'resolved', (error) => error.name + ': ' + error.message);

    console.log(JSON.stringify({ stacks, misspelt, webhook: { id: event.id, type: event.type }, firstCall }));
  } finally {
    await sandbox.close();
  }
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

interface Output {
  stacks: Record<string, { name: string; stack: string }>;
  misspelt: { name: string; message: string };
  webhook: { id: string; type: string };
  firstCall: string;
}

function runProgram(file: string): Promise<Output> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [file],
      {
        cwd: consumer,
        timeout: 60_000,
        env: { PATH: process.env.PATH, SILENT_PORT: String(silentPort), CLOSED_PORT: String(closedPort) },
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${file} failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Output);
      },
    );
  });
}

describe.each([
  [
    'ESM',
    'app.mjs',
    "import { Crossborder } from 'crossborder-sdk';\nimport { createSandbox, generateWebhookKeyPair, signWebhook } from 'crossborder-sdk/sandbox';",
  ],
  [
    'CommonJS',
    'app.cjs',
    "const { Crossborder } = require('crossborder-sdk');\nconst { createSandbox, generateWebhookKeyPair, signWebhook } = require('crossborder-sdk/sandbox');",
  ],
])('from the packed package (%s)', (_kind, file, imports) => {
  let out: Output;
  beforeAll(async () => {
    writeFileSync(join(consumer, file), program(imports));
    out = await runProgram(file);
  }, 90_000);

  it("an APIError (404 from the sandbox), a timeout and a connection error each carry the caller's frame", () => {
    const frame = (name: string) => new RegExp(`\\n\\s+at async ${name} \\(.*${file.replace('.', '\\.')}:\\d+:\\d+\\)`);
    expect(out.stacks.notFound!.name).toBe('NotFoundError');
    expect(out.stacks.notFound!.stack).toMatch(frame('findCustomer'));
    expect(out.stacks.withResponse!.name).toBe('NotFoundError');
    expect(out.stacks.withResponse!.stack).toMatch(frame('findCustomerWithResponse'));
    expect(out.stacks.timeout!.name).toBe('APITimeoutError');
    expect(out.stacks.timeout!.stack).toMatch(frame('waitForSilentServer'));
    expect(out.stacks.connection!.name).toBe('APIConnectionError');
    expect(out.stacks.connection!.stack).toMatch(frame('callClosedPort'));
    expect(out.stacks.iteration!.name).toBe('APIConnectionError');
    expect(out.stacks.iteration!.stack).toMatch(frame('listEveryCustomer'));
  });

  it('a misspelt option is refused, naming the one meant; a receiver without credentials unwraps, and its first API call asks for them', () => {
    expect(out.misspelt).toEqual({ name: 'ConfigurationError', message: 'Unknown client option baseURL. Did you mean baseUrl?' });
    expect(out.webhook).toEqual({ id: 'Webhook:stack-1', type: 'TEST' });
    expect(out.firstCall).toBe('ConfigurationError: Missing tokenId: pass { tokenId } or set CROSSBORDER_TOKEN_ID');
  });
});
