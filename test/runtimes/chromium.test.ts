/**
 * A real browser: Debian's Chromium driven by playwright-core, on a page served from 127.0.0.1 (a
 * secure context, where browsers expose WebCrypto) that loads the packed package bundled for
 * browsers (support.ts `browserBundle`): `crossborder-sdk/wallet` and the client's
 * `webhooks.unwrap`. See support.ts.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { browserBundle, expectPassed, ServiceSide, smokeBySteps, versionOf, within } from './support';

const CHROMIUM = '/usr/bin/chromium';
const packed = inject('packed');
const service = new ServiceSide();
let browser: Browser | undefined;
let server: Server | undefined;
afterAll(async () => {
  await browser?.close();
  server?.close();
  server?.closeAllConnections();
  await service.close();
});

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
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'], // a fresh, temporary profile each launch
      timeout: 30_000,
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { timeout: 20_000 });
    const run = await smokeBySteps(service, (step, input) =>
      within(20_000, `chromium ${step}`, page.evaluate(([name, value]) => (globalThis as any).__crossborderSmoke[name](value) as Promise<unknown>, [step, input] as const)),
    );
    expect(errors).toEqual([]);
    expectPassed(run, /HeadlessChrome\/\d+/, 'chromium', browser.version());
  });
});
