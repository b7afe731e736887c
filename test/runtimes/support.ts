/**
 * What the runtime smoke tests share: the service side of the flow (the local sandbox from the
 * packed package, in this Node process), the check of a runtime's answer, the drivers that load the
 * flow in each runtime, and the runtimes' binaries (devDependencies, resolved for this platform).
 *
 * A runtime that cannot be found or started fails its test with the reason: none is skipped.
 */
import { spawn } from 'node:child_process';
import { createPublicKey, ECDH, verify } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { build } from 'esbuild';
import { createSandbox, generateWebhookKeyPair, signWebhook, type Sandbox, type WebhookKeyPair } from 'crossborder-sdk/sandbox';
import { afterAll, expect } from 'vitest';
import { makeConsumer, root, type Packed } from '../setup/packed';
import { signatureVectors, type SignatureVector } from '../webhooks/vectors';

const here = dirname(fileURLToPath(import.meta.url));
/** The flow every runtime runs (plain JS, no imports: the drivers hand it the package). */
export const FLOW = join(here, 'fixtures', 'flow.mjs');

// ── The service side ─────────────────────────────────────────────────────────────────────────────

/** What a runtime answers from `begin()`. */
export interface Begun {
  runtime: string;
  clientPublicKey: string;
}

interface Described {
  name: string;
  message: string;
  reason: string | null;
  cause: Described | { value: string } | null;
}

/** What a runtime answers from `finish()`. */
export interface Finished {
  runtime: string;
  sessionPublicKey: string;
  stamp: string;
  tampered: (Described & { isWalletCryptoError: boolean }) | null;
  events: { type: string; id: string; dataId: string; issues: unknown[] }[];
  badSignature: (Described & { isWebhookVerificationError: boolean }) | null;
  vectors: { name: string; outcome: string }[];
}

/** What the tests assert, by value. */
export interface Verdict {
  /** The runtime opened the bundle into the session key the sandbox sealed (same public key). */
  decrypted: boolean;
  /** The stamp is the decisions.md format and its DER signature verifies with node:crypto over payloadToSign. */
  stampVerifies: boolean;
  /** The sandbox accepted the signed retry carrying the stamp (201). */
  serviceAccepts: boolean;
  /** A tampered bundle: WalletCryptoError `decrypt_failed` with the runtime's own error as `cause`. */
  causeKept: boolean;
  /** The name of that cause (the runtime's WebCrypto refusal). */
  cause: string | undefined;
  /** The event type unwrapped from each delivery form (versioned header, bare header, Request). */
  events: string[];
  /** Every unwrapped event matched the document (no `issues`). */
  eventsClean: boolean;
  /** A delivery signed over other bytes: WebhookVerificationError `invalid_signature`. */
  badSignatureRefused: boolean;
  /** The signature vectors whose outcome differs from the expected one (`name: got → expected`); none. */
  vectorMismatches: string[];
  /** How many signature vectors the runtime answered. */
  vectorCount: number;
}

/** How many signature vectors test/webhooks/vectors.ts makes (each runtime answers every one). */
const SIGNATURE_VECTOR_COUNT = 16;

export const EXPECTED_EVENTS = ['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.PENDING'];

const API = 'http://sandbox.test/2025-10-13';
const AUTH = { authorization: `Basic ${btoa('smoke:smoke-secret')}`, 'content-type': 'application/json' };
const base58check = createBase58check(sha256);

/** One round of the flow on the service side: a sandbox wallet, its sealed session key, a challenge and a webhook delivery. */
export class ServiceSide {
  readonly sandbox: Sandbox = createSandbox();
  #keys: Promise<WebhookKeyPair> = generateWebhookKeyPair();
  #expected = new Map<string, { sessionPublicKey: string; challenge: Challenge; retry: (stamp: string) => Promise<number>; vectors: SignatureVector[] }>();

  async #call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
    const response = await this.sandbox.fetch(`${API}${path}`, {
      method,
      headers: { ...AUTH, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The input of `finish()` for the key pair a runtime made in `begin()`. */
  async inputFor(begun: Begun): Promise<Record<string, unknown>> {
    const customer = await this.#call('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    });
    must(customer, 200, 'create a customer');
    const accounts = await this.#call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`);
    const walletId = String(accounts.body.data[0].id).replace('InternalAccount:', 'EmbeddedWallet:');
    const credential = await this.#call('POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: walletId });
    must(credential, 201, 'create an EMAIL_OTP credential');
    // The sandbox seals a fresh session key to the runtime's public key (the production bundle format).
    const verified = await this.#call('POST', `/auth/credentials/${credential.body.id}/verify`, {
      type: 'EMAIL_OTP',
      otp: '000000',
      clientPublicKey: begun.clientPublicKey,
    });
    must(verified, 200, "verify with the runtime's clientPublicKey");
    const bundle: string = verified.body.encryptedSessionSigningKey;
    // The session's public key is the sandbox's record (the answer does not carry it).
    const sessions = new Map(this.sandbox.exportState().world.sessions as [string, { publicKey: string }][]);
    const sessionPublicKey = sessions.get(verified.body.id)?.publicKey;
    if (!bundle || !sessionPublicKey) throw new Error(`sandbox: no sealed session key for ${verified.body.id}`);
    // A second credential needs a signed retry: the 202 carries the challenge the runtime signs.
    const passkey = {
      type: 'PASSKEY',
      accountId: walletId,
      nickname: 'Ada’s laptop',
      challenge: 'dGhlLXJlZ2lzdHJhdGlvbi1jaGFsbGVuZ2U',
      attestation: {
        credentialId: 'Y3JlZGVudGlhbC1pZC0x',
        clientDataJson: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
        attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YQ',
        transports: ['internal'],
      },
    };
    const unsigned = await this.#call('POST', '/auth/credentials', passkey);
    must(unsigned, 202, 'ask for the signed retry');
    const challenge = unsigned.body as Challenge;
    const vectors = signatureVectors();
    this.#expected.set(begun.clientPublicKey, {
      sessionPublicKey,
      challenge,
      vectors,
      retry: async (stamp) =>
        (await this.#call('POST', '/auth/credentials', passkey, { 'service-wallet-signature': stamp, 'request-id': challenge.requestId })).status,
    });

    const keys = await this.#keys;
    const now = new Date().toISOString();
    const currency = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 };
    const body = JSON.stringify({
      id: 'Webhook:smoke-1',
      type: 'INCOMING_PAYMENT.PENDING',
      timestamp: now,
      data: {
        id: 'Transaction:smoke-1',
        type: 'INCOMING',
        status: 'PENDING',
        createdAt: now,
        updatedAt: now,
        source: { sourceType: 'UMA_ADDRESS', umaAddress: '$ada@sender.example' },
        destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:1' },
        receivedAmount: { amount: 1000, currency },
      },
    });
    return {
      bundle,
      tamperedBundle: tamper(bundle),
      challenge,
      webhook: {
        publicKeyPem: keys.publicKeyPem,
        body,
        headers: [await signWebhook(body, keys.privateKeyPem), await signWebhook(body, keys.privateKeyPem, { format: 'bare' })],
        // A well-formed signature, over other bytes.
        badSignature: await signWebhook(`${body} `, keys.privateKeyPem),
        vectors: vectors.map(({ name, key, body, header }) => ({ name, key, body, header })),
      },
    };
  }

  /** Checks a runtime's answer: the stamp here with node:crypto and by the sandbox, the rest by value. */
  async verdict(begun: Begun, finished: Finished): Promise<Verdict> {
    const expected = this.#expected.get(begun.clientPublicKey);
    if (!expected) throw new Error('verdict() before inputFor() for this key pair');
    const { tampered, badSignature } = finished;
    return {
      decrypted: finished.sessionPublicKey === expected.sessionPublicKey,
      stampVerifies: stampVerifies(finished.stamp, expected.challenge.payloadToSign, expected.sessionPublicKey),
      serviceAccepts: (await expected.retry(finished.stamp)) === 201,
      causeKept: tampered?.isWalletCryptoError === true && tampered.reason === 'decrypt_failed' && tampered.cause !== null && 'name' in tampered.cause,
      cause: tampered?.cause && 'name' in tampered.cause ? tampered.cause.name : undefined,
      events: finished.events.map((e) => e.type),
      eventsClean: finished.events.every((e) => e.id === 'Webhook:smoke-1' && e.dataId === 'Transaction:smoke-1' && e.issues.length === 0),
      badSignatureRefused: badSignature?.isWebhookVerificationError === true && badSignature.reason === 'invalid_signature',
      vectorMismatches: expected.vectors.flatMap((v) => {
        const got = (finished.vectors ?? []).find((answer) => answer.name === v.name)?.outcome;
        return got === v.expect ? [] : [`${v.name}: ${got ?? 'no answer'} → ${v.expect}`];
      }),
      vectorCount: (finished.vectors ?? []).length,
    };
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }
}

interface Challenge {
  requestId: string;
  payloadToSign: string;
  expiresAt: string;
  type: string;
}

function must(answer: { status: number; body: unknown }, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`sandbox: ${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/** The same bundle with one bit of the GCM tag flipped, under a valid base58check checksum: it decodes, then fails to decrypt. */
export function tamper(bundle: string): string {
  const bytes = Uint8Array.from(base58check.decode(bundle));
  bytes[bytes.length - 1]! ^= 0x01;
  return base58check.encode(bytes);
}

/** decisions.md: base64url JSON {publicKey (compressed hex), scheme, signature (DER hex)}, key order included. */
export function stampVerifies(stamp: string, payloadToSign: string, sessionPublicKey: string): boolean {
  const json = Buffer.from(stamp, 'base64url').toString('utf8');
  if (Buffer.from(json, 'utf8').toString('base64url') !== stamp) return false;
  const parsed = JSON.parse(json) as Record<string, string>;
  if (Object.keys(parsed).join() !== 'publicKey,scheme,signature') return false;
  if (parsed.scheme !== 'SIGNATURE_SCHEME_TK_API_P256' || parsed.publicKey !== sessionPublicKey) return false;
  const point = ECDH.convertKey(parsed.publicKey, 'prime256v1', 'hex', undefined, 'uncompressed') as Buffer;
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  return verify('sha256', Buffer.from(payloadToSign, 'utf8'), { key, dsaEncoding: 'der' }, Buffer.from(parsed.signature!, 'hex'));
}

/** The whole flow against one runtime: `begin` and `finish` run there, the service side here. */
export async function smoke(
  service: ServiceSide,
  runner: (between: (begun: Begun) => Promise<Record<string, unknown>>) => Promise<{ begun: Begun; finished: Finished }>,
) {
  const started = performance.now();
  const { begun, finished } = await runner((begun) => service.inputFor(failedIn('begin', begun)));
  failedIn('finish', finished);
  const ms = Math.round(performance.now() - started);
  return { begun, finished, verdict: await service.verdict(begun, finished), ms };
}

/**
 * The flow through a runtime reached by one call per step: `begin`, then `finish` with what the
 * service side made of the first answer.
 */
export function smokeBySteps(service: ServiceSide, step: (name: 'begin' | 'finish', input?: Record<string, unknown>) => Promise<unknown>) {
  return smoke(service, async (between) => {
    const begun = (await step('begin')) as Begun;
    return { begun, finished: (await step('finish', await between(begun))) as Finished };
  });
}

/** Asserts that the run is the named runtime's and reached the verdict every runtime must; writes its row of the matrix. */
export function expectPassed(run: { begun: Begun; verdict: Verdict; ms: number }, runtime: string | RegExp, name: string, version: string): void {
  if (typeof runtime === 'string') expect(run.begun.runtime).toBe(runtime);
  else expect(run.begun.runtime).toMatch(runtime);
  record(name, version, run);
  expect(run.verdict).toEqual(expectedVerdict('OperationError'));
}

/** A scratch directory and the service side for one test file, both gone after its tests. */
export function scratchAndService(name: string): { scratch: string; service: ServiceSide } {
  const scratch = mkdtempSync(join(tmpdir(), `crossborder-rt-${name}-`));
  const service = new ServiceSide();
  afterAll(async () => {
    await service.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  return { scratch, service };
}

/** Writes the runtime's row of the matrix (what ran, the verdict, the time) to test-artifacts/runtimes/. */
export function record(name: string, version: string, run: { begun: Begun; verdict: Verdict; ms: number }): void {
  const dir = join(root, 'test-artifacts', 'runtimes');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ name, version, runtime: run.begun.runtime, ms: run.ms, verdict: run.verdict }, null, 2)}\n`);
}

/** A step's answer, or the error the runtime reported, thrown here with its causes. */
function failedIn<T extends { runtime: string }>(step: string, answer: T): T {
  const failed = (answer as { failed?: unknown }).failed;
  if (failed) throw new Error(`${step}() failed in ${answer.runtime}: ${JSON.stringify(failed, null, 2)}`);
  return answer;
}

/** The verdict every runtime must reach (the cause's name is the runtime's own). */
export function expectedVerdict(cause: string): Verdict {
  return {
    decrypted: true,
    stampVerifies: true,
    serviceAccepts: true,
    causeKept: true,
    cause,
    events: EXPECTED_EVENTS,
    eventsClean: true,
    badSignatureRefused: true,
    vectorMismatches: [],
    vectorCount: SIGNATURE_VECTOR_COUNT,
  };
}

// ── Drivers ──────────────────────────────────────────────────────────────────────────────────────

const ESM_DRIVER = `import * as main from 'crossborder-sdk';
import * as wallet from 'crossborder-sdk/wallet';
import { createFlow } from './flow.mjs';
import { lines } from './stdio.mjs';

const flow = createFlow({ ...main, ...wallet });
const input = lines();
console.log(JSON.stringify(await flow.begin()));
console.log(JSON.stringify(await flow.finish(JSON.parse((await input.next()).value))));
`;

// The package comes through require (its CJS build); the flow file has no imports, so import() of it is neutral.
const CJS_DRIVER = `const main = require('crossborder-sdk');
const wallet = require('crossborder-sdk/wallet');

(async () => {
  const { createFlow } = await import('./flow.mjs');
  const { lines } = await import('./stdio.mjs');
  const flow = createFlow({ ...main, ...wallet });
  const input = lines();
  console.log(JSON.stringify(await flow.begin()));
  console.log(JSON.stringify(await flow.finish(JSON.parse((await input.next()).value))));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

// Lines of standard input, read the way each runtime reads it.
const STDIO = `export async function* lines() {
  const stream = typeof Deno !== 'undefined' ? Deno.stdin.readable : process.stdin;
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let at;
    while ((at = buffered.indexOf('\\n')) >= 0) {
      yield buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
    }
  }
  if (buffered) yield buffered;
}
`;

/** A consumer project with the flow and its drivers (`main.mjs`, and `main.cjs` for CommonJS). */
export function flowConsumer(packed: Packed, dir: string, type: 'module' | 'commonjs' = 'module'): string {
  makeConsumer(packed, dir, [], type);
  copyFileSync(FLOW, join(dir, 'flow.mjs'));
  writeFileSync(join(dir, 'stdio.mjs'), STDIO);
  writeFileSync(join(dir, 'main.mjs'), ESM_DRIVER);
  writeFileSync(join(dir, 'main.cjs'), CJS_DRIVER);
  return dir;
}

/**
 * Runs a driver in a child process: its first line is `begin()`'s answer, `between` makes the input
 * written back on its standard input, its second line is `finish()`'s answer. Bounded by `timeoutMs`.
 */
export function runProcess(command: string, args: string[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }) {
  return (between: (begun: Begun) => Promise<Record<string, unknown>>) =>
    new Promise<{ begun: Begun; finished: Finished }>((resolve, reject) => {
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.cwd, ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const answers: string[] = [];
      let stdout = '';
      let stderr = '';
      let settled = false;
      const fail = (why: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`${command} ${args.join(' ')}: ${why}\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-4000)}`));
      };
      const timer = setTimeout(() => fail(`no answer within ${options.timeoutMs ?? 30_000} ms`), options.timeoutMs ?? 30_000);
      child.on('error', (error) => fail(`could not start: ${error.message}`));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        for (let at = stdout.indexOf('\n'); at >= 0; at = stdout.indexOf('\n')) {
          answers.push(stdout.slice(0, at));
          stdout = stdout.slice(at + 1);
          if (answers.length === 1) {
            between(JSON.parse(answers[0]!) as Begun).then(
              (input) => child.stdin.end(`${JSON.stringify(input)}\n`),
              (error: Error) => fail(`the service side failed: ${error.stack}`),
            );
          }
        }
      });
      child.on('close', (code, signal) => {
        if (settled) return;
        if (code !== 0 || answers.length !== 2) return fail(`exited with ${signal ?? code} after ${answers.length} of 2 answers`);
        settled = true;
        clearTimeout(timer);
        resolve({ begun: JSON.parse(answers[0]!) as Begun, finished: JSON.parse(answers[1]!) as Finished });
      });
    });
}

/** Bounds a promise (a runtime that hangs fails instead of stalling the run). */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

// ── The browser/worker bundle ────────────────────────────────────────────────────────────────────

/**
 * The flow and the package bundled for browsers and workers, as users' bundlers do: from a consumer
 * where `crossborder-sdk` is the tarball, platform `browser`, no Node built-ins (a `node:` import
 * fails the build). One script that sets `globalThis.__crossborderSmoke` to the flow; built once per
 * packed tarball and shared by the workerd, edge and Chromium tests.
 */
export async function browserBundle(packed: Packed): Promise<string> {
  const file = join(dirname(packed.tarball), 'runtimes', 'smoke.bundle.js');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const staging = join(dirname(file), `consumer-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  const consumer = flowConsumer(packed, staging);
  writeFileSync(
    join(consumer, 'bundle-entry.mjs'),
    "import * as main from 'crossborder-sdk';\nimport * as wallet from 'crossborder-sdk/wallet';\nimport { createFlow } from './flow.mjs';\nglobalThis.__crossborderSmoke = createFlow({ ...main, ...wallet });\n",
  );
  const result = await build({
    absWorkingDir: consumer,
    entryPoints: ['bundle-entry.mjs'],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  rmSync(consumer, { recursive: true, force: true });
  writeFileSync(`${file}.${process.pid}`, result.outputFiles[0]!.text);
  renameSync(`${file}.${process.pid}`, file);
  return result.outputFiles[0]!.text;
}

// ── Runtimes (devDependencies, this platform's binaries) ─────────────────────────────────────────

const require = createRequire(join(root, 'package.json'));

function packageDir(name: string): string | undefined {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** A platform package's binary, or an error saying what is missing and how to get it. */
function binary(runtime: string, candidates: { pkg: string; file: string }[]): string {
  for (const { pkg, file } of candidates) {
    const dir = packageDir(pkg);
    if (dir && existsSync(join(dir, file))) return join(dir, file);
  }
  throw new Error(
    `${runtime} is not installed for ${process.platform}-${process.arch}: looked for ${candidates.map((c) => `${c.pkg}/${c.file}`).join(', ')}. ` +
      'It is a devDependency: run npm install (optional platform packages must not be omitted).',
  );
}

/** Bun's binary: the `bun` package's own copy (its postinstall puts it there), else the platform package. */
export function bunBinary(): string {
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  return binary('Bun', [
    { pkg: 'bun', file: 'bin/bun.exe' },
    { pkg: `@oven/bun-${process.platform}-${arch}`, file: 'bin/bun' },
    { pkg: `@oven/bun-${process.platform}-${arch}-baseline`, file: 'bin/bun' },
  ]);
}

/** Deno's binary from the platform package of the `deno` npm package. */
export function denoBinary(): string {
  const platforms: Record<string, string> = {
    'linux-x64': 'linux-x64-glibc',
    'linux-arm64': 'linux-arm64-glibc',
    'darwin-x64': 'darwin-x64',
    'darwin-arm64': 'darwin-arm64',
    'win32-x64': 'win32-x64',
  };
  const platform = platforms[`${process.platform}-${process.arch}`];
  return binary('Deno', [{ pkg: `@deno/${platform ?? `${process.platform}-${process.arch}`}`, file: process.platform === 'win32' ? 'deno.exe' : 'deno' }]);
}

/** A package's version from its package.json. */
export function versionOf(name: string): string {
  const dir = packageDir(name);
  if (!dir) throw new Error(`${name} is not installed: it is a devDependency (npm install)`);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}
