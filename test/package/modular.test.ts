/**
 * Pay for what you import (issues 26, 36): a worker that lists customers and verifies webhooks, written
 * with `CrossborderCore` without optional parts, the standalone function it calls and the webhook
 * resource, bundled by esbuild from the packed package into one file, then run against the HTTP sandbox.
 * It holds none of the other operations, no local checks, no logger and no OpenTelemetry recorder, stays
 * within its size ceiling, and answers and throws as the full `Crossborder` client does on the same
 * calls, but for a bad parameter: the service's 400 without the `requestChecks` part, the local
 * `ValidationError` with it.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SIZE_BUDGET } from '../../scripts/bench/budget';
import { WORKER_PROGRAM } from '../../scripts/bench/size';
import { makeConsumer, root } from '../setup/packed';

const packed = inject('packed');
let scratch: string;
let consumer: string;

/** Bundles `code` as a worker bundler does (one file, minified, browser conditions) from the installed package. */
async function bundle(code: string, outfile: string): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents: code, resolveDir: consumer, loader: 'ts' },
    absWorkingDir: consumer,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile,
    write: true,
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  return readFileSync(outfile);
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'crossborder-modular-'));
  consumer = makeConsumer(packed, join(scratch, 'consumer'));
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('CrossborderCore with the functions a worker uses, from the packed package', () => {
  it('bundles to one file within the worker ceiling, without the other resources or the OpenTelemetry recorder', async () => {
    const bytes = await bundle(WORKER_PROGRAM, join(consumer, 'worker-size.mjs'));
    const text = new TextDecoder().decode(bytes);
    const gzip = gzipSync(bytes, { level: 9 }).length;
    console.log(`[size] worker from the packed package: ${gzip} B min+gzip (ceiling ${SIZE_BUDGET.worker})`);
    expect(gzip).toBeLessThanOrEqual(SIZE_BUDGET.worker);
    // Present: the operations it calls and webhook verification.
    const holds = (needle: string) => text.toLowerCase().includes(needle.toLowerCase());
    expect(holds('/customers'), '/customers').toBe(true);
    expect(holds('x-service-signature'), 'x-service-signature').toBe(true);
    // Absent: what it does not import.
    // Nor the other customer operations (a standalone function, not a class), nor the optional parts: the
    // compiled checks and their messages, the logger's redaction.
    for (const absent of [
      '/quotes/{quoteId}/execute',
      '/auth/credentials',
      '/transfer-in',
      'http.client.request.duration',
      'crossborder.outcome_unknown',
      '/customers/{customerId}',
      'nonoptional',
      'must have at most',
      'cookie',
    ]) {
      expect(holds(absent), absent).toBe(false);
    }
    // The full client, bundled the same way, does hold them: the test can tell.
    const full = new TextDecoder().decode(
      await bundle(
        "import { Crossborder } from 'crossborder-sdk';\nexport const cb = new Crossborder({ tokenId: 't', clientSecret: 's' });\n",
        join(consumer, 'full.mjs'),
      ),
    );
    expect(full.includes('/quotes/{quoteId}/execute')).toBe(true);
    expect(full.includes('http.client.request.duration')).toBe(true);
    for (const present of ['/customers/{customerId}', 'nonoptional', 'must have at most', 'cookie']) expect(full.includes(present), present).toBe(true);
  });

  it("answers and throws as the full client does, against the HTTP sandbox; without the checks part a bad parameter gets the service's 400, with it the local ValidationError", async () => {
    // The worker as a module exporting its parts, so a script can drive it; bundled from the package:
    // a core without optional parts, one with the requestChecks part, the standalone functions and the webhook resource.
    await bundle(
      [
        "import { CrossborderCore, Webhooks, requestChecks } from 'crossborder-sdk';",
        "import { listCustomers, getCustomer } from 'crossborder-sdk/functions';",
        'export function makeWorker(baseUrl: string, webhookPublicKey: string, checked: boolean) {',
        "  const core = new CrossborderCore({ tokenId: 'tok', clientSecret: 'secret', baseUrl, webhookPublicKey, maxRetries: 0 }, checked ? { requestChecks } : {});",
        '  return { customers: { list: (p: any) => listCustomers(core, p), retrieve: (id: string) => getCustomer(core, id) }, webhooks: new Webhooks(core) };',
        '}',
      ].join('\n'),
      join(consumer, 'worker.bundle.mjs'),
    );
    writeFileSync(
      join(consumer, 'compare.mjs'),
      `import { Crossborder } from 'crossborder-sdk';
import { createSandbox, generateWebhookKeyPair, signWebhook } from 'crossborder-sdk/sandbox';
import { makeWorker } from './worker.bundle.mjs';

const sandbox = createSandbox();
const server = await sandbox.listen();
const keys = await generateWebhookKeyPair();
const baseUrl = server.url;
const full = new Crossborder({ tokenId: 'tok', clientSecret: 'secret', baseUrl, webhookPublicKey: keys.publicKeyPem, maxRetries: 0 });
const sides = { full: { customers: full.customers, webhooks: full.webhooks }, worker: makeWorker(baseUrl, keys.publicKeyPem, false), checked: makeWorker(baseUrl, keys.publicKeyPem, true) };

for (const fullName of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) {
  await full.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName });
}
const body = JSON.stringify({ id: 'Webhook:1', type: 'TEST', timestamp: new Date().toISOString(), data: {} });
const signature = await signWebhook(body, keys.privateKeyPem);
// The request id is the one thing that differs between two calls.
const errorOf = (e) => ({ name: e.name, status: e.status, code: e.code, message: e.message.replace(/ \\(request req_\\w+\\)/, ''), reason: e.reason, issues: e.issues, outcomeUnknown: e.outcomeUnknown });
const out = {};
for (const [side, { customers, webhooks }] of Object.entries(sides)) {
  const names = [];
  for await (const c of customers.list({ limit: 2 })) names.push(c.fullName);
  const page = await customers.list({ limit: 2 });
  const event = await webhooks.unwrap(body, { 'x-service-signature': signature });
  out[side] = {
    names,
    firstPage: { count: page.data.length, hasMore: page.hasMore, pages: typeof page.nextPage === 'function' && typeof page[Symbol.asyncIterator] === 'function' },
    event: { type: event.type, id: event.id },
    invalid: await customers.list({ limit: 0 }).then(() => 'resolved', errorOf),
    missing: await customers.retrieve('Customer:nope').then(() => 'resolved', errorOf),
    forged: await webhooks.unwrap(body.replace('TEST', 'TEXT'), { 'x-service-signature': signature }).then(() => 'resolved', errorOf),
  };
}
await sandbox.close();
console.log(JSON.stringify(out));
`,
    );
    const out = JSON.parse(execFileSync('node', ['compare.mjs'], { cwd: consumer, encoding: 'utf8', timeout: 60_000 })) as Record<
      'full' | 'worker' | 'checked',
      Record<string, unknown>
    >;
    expect([...(out.worker.names as string[])].sort()).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    expect(out.worker.firstPage).toEqual({ count: 2, hasMore: true, pages: true });
    expect(out.worker.event).toEqual({ type: 'TEST', id: 'Webhook:1' });
    expect(out.worker.missing).toMatchObject({ name: 'NotFoundError', status: 404 });
    expect(out.worker.forged).toMatchObject({ name: 'WebhookVerificationError' });
    // The trade of a core without the requestChecks part: the service refuses the bad limit with its 400.
    expect(out.worker.invalid).toMatchObject({ name: 'BadRequestError', status: 400 });
    // With the part (and always on Crossborder): refused before sending, naming the field.
    expect(out.checked.invalid).toMatchObject({ name: 'ValidationError', issues: [expect.objectContaining({ path: expect.stringContaining('limit') })] });
    expect(out.full.invalid).toEqual(out.checked.invalid);
    // Everything else, errors included, is what the full client gives.
    const { invalid: _w, ...worker } = out.worker;
    const { invalid: _f, ...fullSide } = out.full;
    const { invalid: _c, ...checked } = out.checked;
    expect(worker).toEqual(fullSide);
    expect(checked).toEqual(fullSide);
  });

  it('the worker docs/performance.md shows lists customers and takes webhooks, bundled from the package', async () => {
    copyFileSync(join(root, 'examples/guides/performance/worker.ts'), join(consumer, 'worker.ts'));
    await bundle("export { customerWorker } from './worker.ts';", join(consumer, 'guide-worker.bundle.mjs'));
    writeFileSync(
      join(consumer, 'guide.mjs'),
      `import { createSandbox, generateWebhookKeyPair, signWebhook } from 'crossborder-sdk/sandbox';
import { customerWorker } from './guide-worker.bundle.mjs';

const sandbox = createSandbox();
const server = await sandbox.listen();
const keys = await generateWebhookKeyPair();
const worker = customerWorker({ tokenId: 'tok', clientSecret: 'secret', baseUrl: server.url, webhookPublicKey: keys.publicKeyPem });
const created = [];
for (const fullName of ['Ada Lovelace', 'Grace Hopper']) {
  const r = await fetch(server.url + '/2025-10-13/customers', { method: 'POST', headers: { authorization: 'Basic ' + btoa('tok:secret'), 'content-type': 'application/json' }, body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName }) });
  created.push((await r.json()).id);
}
const listed = await (await worker.fetch(new Request('https://worker.example/'))).json();
const body = JSON.stringify({ id: 'Webhook:7', type: 'TEST', timestamp: new Date().toISOString(), data: {} });
const post = (b, signature) => worker.fetch(new Request('https://worker.example/', { method: 'POST', body: b, headers: { 'x-service-signature': signature } }));
const signature = await signWebhook(body, keys.privateKeyPem);
const good = await post(body, signature);
const forged = await post(body.replace('Webhook:7', 'Webhook:8'), signature);
await sandbox.close();
console.log(JSON.stringify({ created, listed, good: [good.status, await good.json()], forged: [forged.status, await forged.text()] }));
`,
    );
    const out = JSON.parse(execFileSync('node', ['guide.mjs'], { cwd: consumer, encoding: 'utf8', timeout: 60_000 })) as {
      created: string[];
      listed: string[];
      good: [number, unknown];
      forged: [number, string];
    };
    expect(out.created).toHaveLength(2);
    expect([...out.listed].sort()).toEqual([...out.created].sort());
    expect(out.good).toEqual([200, { received: 'TEST' }]);
    expect(out.forged[0]).toBe(400);
    expect(out.forged[1]).toMatch(/signature/);
  });
});
