/**
 * The sandbox inspector in a real Chromium (Debian's `chromium`, installed by `.ci/run`), driven by
 * playwright-core: run the README's quickstart against a sandbox on 127.0.0.1, open `/_sandbox/`, and
 * check the customer, the payment's status timeline, the webhook deliveries and the live request log
 * are shown on the first screen; a screenshot goes to test-artifacts/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts');

let sandbox: Sandbox;
let server: SandboxServer;
let hooks: Server;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
  sandbox = createSandbox();
  server = await sandbox.listen();
  hooks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ], // a fresh, temporary profile each launch
    timeout: 30_000,
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  hooks?.close();
  await sandbox?.close();
});

describe('the sandbox inspector', () => {
  it('shows the customer, the payment timeline, the deliveries and the requests of the quickstart', async () => {
    const started = performance.now();
    // The README quickstart, against the sandbox over HTTP.
    const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', environment: 'sandbox', baseUrl: server.url });
    await cb.config.update({ webhookEndpoint: `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hooks` });
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const {
      data: [account],
    } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
    await cb.sandbox.fundInternalAccount(account!.id, { amount: 100_000 });
    const payee = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'GBP',
      accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819' },
    });
    const quote = await cb.quotes.createAndExecute({
      source: { sourceType: 'ACCOUNT', accountId: account!.id },
      destination: { destinationType: 'ACCOUNT', accountId: payee.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    sandbox.clock.advance(5_000);
    await sandbox.webhooks.flush();

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      await page.goto(`${server.url}/_sandbox/`, { timeout: 20_000 });
      await page.locator('#customers', { hasText: 'Ada Lovelace' }).waitFor({ timeout: 10_000 });
      const payment = page.locator('#transactions tr', { hasText: quote.transactionId });
      await payment.waitFor({ timeout: 10_000 });
      const timeline = await payment.locator('.timeline').innerText();
      expect(timeline).toMatch(/PENDING.*PROCESSING.*COMPLETED/s); // in order, each with its time
      await page.locator('#deliveries', { hasText: 'OUTGOING_PAYMENT.COMPLETED' }).waitFor({ timeout: 10_000 });
      // Each attempt: its time, status, duration and the receiver's answer.
      const completed = page.locator('#deliveries tr', { hasText: 'OUTGOING_PAYMENT.COMPLETED' }).first();
      const attempt = completed.locator('.attempt').first();
      expect(await attempt.innerText()).toMatch(/^\d\d:\d\d:\d\d 200 \d+ ms/);
      await attempt.locator('summary', { hasText: 'answer' }).click();
      expect(await attempt.locator('pre').innerText()).toBe('{"received":true}');
      await page.locator('#log', { hasText: 'POST /2025-10-13/quotes' }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#accounts').innerText()).toContain('900.00 USD'); // $1,000 funded, $100 sent
      // Every webhook type can be triggered from the page.
      const types = await page.locator('#trigger-type option').allInnerTexts();
      expect(types).toHaveLength(37); // the 12 decided types, the 17 production sends, the 7 of cards and the agents' one
      expect(types).toEqual(expect.arrayContaining(['TEST', 'INCOMING_PAYMENT.PENDING', 'INVITATION.CLAIMED', 'VERIFICATION.RESOLVE_ERRORS']));

      // Live for changes no request makes: the scheduler settles a second payment (the clock moved
      // in-process, no HTTP request) and the page shows it COMPLETED without a reload.
      const second = await cb.quotes.createAndExecute({
        source: { sourceType: 'ACCOUNT', accountId: account!.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000,
      });
      const secondRow = page.locator('#transactions tr', { hasText: second.transactionId });
      await secondRow.locator('.timeline', { hasText: 'PROCESSING' }).waitFor({ timeout: 10_000 });
      sandbox.clock.advance(5_000);
      await secondRow.locator('.timeline', { hasText: 'COMPLETED' }).waitFor({ timeout: 10_000 });
      await page.locator('#deliveries tr', { hasText: 'OUTGOING_PAYMENT.COMPLETED' }).nth(1).waitFor({ timeout: 10_000 }); // its webhook too

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'sandbox-inspector.png'), fullPage: true });

      // Debounced: a burst of 40 requests is read back a few times, not 40.
      let reads = 0;
      const count = (request: { url(): string }) => void (request.url().endsWith('/_sandbox/state') && reads++);
      page.on('request', count);
      await Promise.all(Array.from({ length: 40 }, () => cb.customers.list({ limit: 1 })));
      await page.locator('#log', { hasText: 'GET /2025-10-13/customers?limit=1' }).waitFor({ timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 1_000));
      page.off('request', count);
      expect(reads).toBeGreaterThanOrEqual(1);
      expect(reads).toBeLessThanOrEqual(4);

      // The clock button moves the sandbox clock.
      const before = sandbox.clock.now();
      await page.click('#advance');
      await expect.poll(() => sandbox.clock.now() - before, { timeout: 5_000 }).toBeGreaterThanOrEqual(600_000);

      console.log(`[inspector] Chromium test: ${Math.round(performance.now() - started)} ms; screenshot test-artifacts/sandbox-inspector.png`);
    } finally {
      await page.close();
    }
  }, 90_000);
});
