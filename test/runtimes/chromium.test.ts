/**
 * A real browser: Debian's Chromium driven by playwright-core, on a page served from 127.0.0.1 (a
 * secure context, where browsers expose WebCrypto) that loads the packed package bundled for
 * browsers (support.ts `browserBundle`): `crossborder-sdk/wallet` and the client's
 * `webhooks.unwrap`. See support.ts.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Crossborder, SignatureRequiredError } from 'crossborder-sdk';
import { MAGIC } from 'crossborder-sdk/sandbox';
import { LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY } from 'crossborder-sdk/wallet';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { makeConsumer } from '../setup/packed';
import { browserBundle, expectPassed, ServiceSide, smokeBySteps, versionOf, within } from './support';

const CHROMIUM = '/usr/bin/chromium';
const packed = inject('packed');
const service = new ServiceSide();
let browser: Browser | undefined;
let server: Server | undefined;
let page: Page | undefined;
let workerServer: Server | undefined;
afterAll(async () => {
  await browser?.close();
  for (const s of [server, workerServer]) {
    s?.close();
    s?.closeAllConnections();
  }
  await service.close();
});

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A worker script made from the packed package: it tries to make a client holding the client
 * secret, without and with dangerouslyAllowBrowser, and answers what happened (dedicated workers
 * answer a message, shared workers a connection).
 */
async function guardWorkerBundle(): Promise<string> {
  const consumer = makeConsumer(packed, join(dirname(packed.tarball), 'runtimes', `guard-consumer-${process.pid}`));
  writeFileSync(
    join(consumer, 'guard-entry.mjs'),
    `import { Crossborder } from 'crossborder-sdk';
const attempt = (options) => { try { new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'http://127.0.0.1:9', ...options }); return 'made'; } catch (e) { return e.name + ': ' + e.message; } };
const answer = () => ({ scope: self.constructor.name, refused: attempt({}), allowed: attempt({ dangerouslyAllowBrowser: true }) });
self.onmessage = () => self.postMessage(answer());
self.onconnect = (event) => event.ports[0].postMessage(answer());
`,
  );
  const result = await build({
    absWorkingDir: consumer,
    entryPoints: ['guard-entry.mjs'],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  rmSync(consumer, { recursive: true, force: true });
  return result.outputFiles[0]!.text;
}

describe(`Chromium (Debian's, driven by playwright-core ${versionOf('playwright-core')})`, () => {
  it('key pair, sandbox-sealed session key, stamp, webhooks.unwrap', { timeout: 60_000 }, async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (Debian's package; .ci/run installs it)`);
    const bundle = await browserBundle(packed);
    server = createServer((request, response) => {
      if (request.url === '/smoke.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>crossborder-sdk smoke</title><script src="/smoke.js"></script>');
    });
    await new Promise<void>((resolve, reject) => server!.once('error', reject).listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: LAUNCH_ARGS, // a fresh, temporary profile each launch
      timeout: 30_000,
    });
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { timeout: 20_000 });
    const run = await smokeBySteps(service, (step, input) =>
      within(
        20_000,
        `chromium ${step}`,
        page!.evaluate(([name, value]) => (globalThis as any).__crossborderSmoke[name](value) as Promise<unknown>, [step, input] as const),
      ),
    );
    expect(errors).toEqual([]);
    expectPassed(run, /HeadlessChrome\/\d+/, 'chromium', browser.version());
  });

  it('secure OTP login: the page checks the target bundle, seals the code and signs the verification token', { timeout: 60_000 }, async () => {
    if (!page) throw new Error('the smoke test above opens the page');
    const inPage = async (name: string, value: unknown) => {
      const answer = (await within(
        20_000,
        `chromium ${name}`,
        page!.evaluate(([n, v]) => (globalThis as any).__crossborderSmoke[n](v) as Promise<unknown>, [name, value] as const),
      )) as Record<string, any>;
      if (answer.failed) throw new Error(`${name}() failed in the page: ${JSON.stringify(answer.failed, null, 2)}`);
      return answer;
    };
    // The backend: the sandbox in Node, through the packed client.
    const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', fetch: service.sandbox.fetch });
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const {
      data: [account],
    } = await cb.internalAccounts.list({ customerId: customer.id });
    const walletId = account!.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');
    const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
    const bundle = JSON.parse(credential.otpEncryptionTargetBundle!) as Record<string, string>;
    // The same bundle claiming to be signed by the pinned key, with another signature: must be refused.
    const forgedBundle = JSON.stringify({ ...bundle, dataSignature: bundle.dataSignature!.replace(/..$/, (b) => (b === '00' ? '01' : '00')) });

    const sealed = await inPage('otpSeal', {
      otpEncryptionTargetBundle: credential.otpEncryptionTargetBundle,
      otpCode: MAGIC.otp,
      signerPublicKey: LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY,
      forgedBundle,
    });
    expect(sealed.runtime).toMatch(/HeadlessChrome\/\d+/);
    expect(sealed.forged).toMatchObject({ isWalletCryptoError: true, reason: 'invalid_input' });
    expect(sealed.body).toEqual({
      type: 'EMAIL_OTP',
      encryptedOtpBundle: expect.stringMatching(/^\{"encappedPublic":"04[0-9a-f]{128}","ciphertext":"[0-9a-f]+"\}$/),
    });

    // Relay mode: the 202 goes to the page, the stamp comes back.
    const required = await cb.auth.credentials.verify(credential.id, sealed.body).catch((e: unknown) => e);
    expect(required).toBeInstanceOf(SignatureRequiredError);
    const { challenge } = required as SignatureRequiredError;
    const signed = await inPage('otpSign', challenge);
    const session = await cb.auth.credentials.verify(credential.id, sealed.body, { signature: signed.stamp, requestId: challenge.requestId });
    expect(session).toMatchObject({ accountId: walletId, type: 'EMAIL_OTP' });
    expect(session.encryptedSessionSigningKey).toBeUndefined();
    // The session's key is the key pair the page sealed with the code.
    const sessions = new Map(service.sandbox.exportState().world.sessions as [string, { publicKey: string }][]);
    expect(sessions.get(session.id)?.publicKey).toBe(sealed.publicKey);
  });

  it(
    'a dedicated and a shared worker are refused a client holding the client secret, unless dangerouslyAllowBrowser (issue 22, defect 5)',
    { timeout: 60_000 },
    async () => {
      if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (Debian's package; .ci/run installs it)`);
      const worker = await guardWorkerBundle();
      workerServer = createServer((request, response) => {
        if (request.url === '/guard-worker.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>worker guard</title>');
      });
      await new Promise<void>((resolve, reject) => workerServer!.once('error', reject).listen(0, '127.0.0.1', resolve));
      browser ??= await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS, timeout: 30_000 });
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(workerServer.address() as AddressInfo).port}/`, { timeout: 20_000 });
      const answers = await within(
        20_000,
        'chromium workers',
        page.evaluate(async () => {
          const dedicated = await new Promise((resolve) => {
            const w = new Worker('/guard-worker.js');
            w.onmessage = (event) => resolve(event.data);
            w.postMessage('go');
          });
          const shared = await new Promise((resolve) => {
            const w = new SharedWorker('/guard-worker.js');
            w.port.onmessage = (event) => resolve(event.data);
            w.port.start();
          });
          return [dedicated, shared] as { scope: string; refused: string; allowed: string }[];
        }),
      );
      expect(answers.map((a) => a.scope)).toEqual(['DedicatedWorkerGlobalScope', 'SharedWorkerGlobalScope']);
      for (const answer of answers) {
        expect(answer.refused).toMatch(/^ConfigurationError: .*dangerouslyAllowBrowser/);
        expect(answer.allowed).toBe('made');
      }
    },
  );
});
