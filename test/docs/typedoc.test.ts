/**
 * The API reference, built once by TypeDoc (HTML and JSON, into a temporary directory):
 * - `npm run docs` has no warning (typedoc.json sets treatWarningsAsErrors);
 * - it documents every resource class and export, and the key types;
 * - every module page groups its exports the way users look for them (Client, Resources, Errors,
 *   Pagination, Webhooks, Wallet, Sandbox, Options, API types, Helpers), never by TypeDoc's kinds;
 * - every method of every resource class shows an example;
 * - the front page is the users' index (docs/typedoc/index.md), not the contributors' README, and
 *   the guides are pages of the reference;
 * - in Debian's Chromium (playwright-core), the index and the Customers page show their headings,
 *   groups and example code; screenshots go to test-artifacts/reference-*.png.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { Crossborder } from 'crossborder-sdk';
import * as sdk from 'crossborder-sdk';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from './markdown';

interface CommentPart {
  kind: string;
  text: string;
}
interface Comment {
  summary?: CommentPart[];
  blockTags?: { tag: string; content: CommentPart[] }[];
}
interface Reflection {
  id: number;
  name: string;
  kind: number;
  children?: Reflection[];
  groups?: { title: string; children: number[] }[];
  signatures?: { comment?: Comment }[];
  comment?: Comment;
  target?: number;
  frontmatter?: Record<string, unknown>;
}
interface Project extends Reflection {
  readme?: CommentPart[];
  documents?: Reflection[];
}

/** TypeDoc's ReflectionKind values used here. */
const KIND = { Module: 2, Class: 128, Method: 2048, Reference: 4194304, Document: 8388608 } as const;
/** TypeDoc's own groups by kind: none may be left on a module page. */
const KIND_GROUPS = ['Classes', 'Functions', 'Variables', 'Interfaces', 'Type Aliases', 'Enumerations', 'Namespaces', 'References', 'Modules'];

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts');

let out: string;
let project: Project;
let log: string;
let buildMs: number;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'crossborder-typedoc-'));
  const started = performance.now();
  log = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/typedoc/bin/typedoc'), '--out', join(out, 'html'), '--json', join(out, 'api.json')],
      { cwd: root, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
      (error, stdout, stderr) => (error ? reject(new Error(`typedoc failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(`${stdout}\n${stderr}`)),
    );
  });
  buildMs = performance.now() - started;
  project = JSON.parse(readFileSync(join(out, 'api.json'), 'utf8')) as Project;
}, 150_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const moduleNamed = (name: string) => {
  const found = project.children?.find((m) => m.kind === KIND.Module && m.name === name);
  if (!found) throw new Error(`no module ${name}: ${project.children?.map((m) => m.name).join(', ')}`);
  return found;
};
const names = (module: Reflection) => (module.children ?? []).map((c) => c.name);
/** The group titles of a module, in page order. */
const groupTitles = (module: Reflection) => (module.groups ?? []).map((g) => g.title);
/** The groups a module's export named `name` is listed in. */
const groupsOf = (module: Reflection, name: string) => {
  const child = module.children?.find((c) => c.name === name);
  if (!child) throw new Error(`${module.name} has no ${name}`);
  return (module.groups ?? []).filter((g) => g.children.includes(child.id)).map((g) => g.title);
};
const text = (parts: CommentPart[] | undefined) => (parts ?? []).map((p) => p.text).join('');

describe('API reference (typedoc)', () => {
  it('builds with no warning and no error', () => {
    expect(log).not.toMatch(/\[warning\]|\[error\]/);
    expect(existsSync(join(out, 'html', 'index.html'))).toBe(true);

    console.log(`[reference] TypeDoc build: ${Math.round(buildMs)} ms`);
  });

  it('has one module per package entry point', () => {
    expect(project.children?.map((m) => m.name).sort()).toEqual([
      'crossborder-sdk',
      'crossborder-sdk/payouts',
      'crossborder-sdk/sandbox',
      'crossborder-sdk/sandbox/msw',
      'crossborder-sdk/wallet',
      'crossborder-sdk/webhooks',
    ]);
  });

  it('documents the class behind every resource of the client as a class', () => {
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's' });
    const resources = new Set<string>();
    const visit = (value: object, depth: number) => {
      for (const child of Object.values(value)) {
        if (child && typeof child === 'object' && '_client' in child) {
          resources.add(child.constructor.name);
          if (depth < 2) visit(child, depth + 1);
        }
      }
    };
    visit(cb, 0);
    expect([...resources]).toEqual(
      expect.arrayContaining(['Customers', 'Quotes', 'Transactions', 'Credentials', 'Sessions', 'PlatformExternalAccounts', 'Webhooks']),
    );
    const main = moduleNamed('crossborder-sdk');
    const classes = (main.children ?? []).filter((c) => c.kind === KIND.Class).map((c) => c.name);
    for (const name of resources) expect(classes, name).toContain(name);
    const page = readFileSync(join(out, 'html', 'modules', 'crossborder-sdk.html'), 'utf8');
    for (const name of resources) expect(page, name).toContain(`>${name}<`);
  });

  it('documents every export of the main entry, and the key types', () => {
    const main = names(moduleNamed('crossborder-sdk'));
    for (const name of Object.keys(sdk)) expect(main, name).toContain(name);
    for (const type of [
      'ClientOptions',
      'RequestOptions',
      'SignedRequestOptions',
      'ListOptions',
      'Page',
      'PagePromise',
      'APIPromise',
      'Customer',
      'Quote',
      'QuoteCreateParams',
      'Transaction',
      'WebhookEvent',
      'ErrorCode',
      'SignatureChallenge',
      'ValidationIssue',
    ]) {
      expect(main, type).toContain(type);
    }
  });

  it('documents the sandbox and wallet entry points', () => {
    expect(names(moduleNamed('crossborder-sdk/sandbox'))).toEqual(
      expect.arrayContaining(['createSandbox', 'MAGIC', 'Sandbox', 'SandboxOptions', 'createClock', 'signWebhook', 'generateWebhookKeyPair']),
    );
    expect(names(moduleNamed('crossborder-sdk/wallet'))).toEqual(
      expect.arrayContaining(['generateClientKeyPair', 'WalletSession', 'sessionKeySigner', 'passkeyAttestation', 'passkeyAssertion', 'ClientKeyPair']),
    );
  });

  it('names each reflection once per module', () => {
    for (const module of project.children ?? []) {
      const all = names(module);
      expect(
        all.filter((n, i) => all.indexOf(n) !== i),
        module.name,
      ).toEqual([]);
    }
  });
});

describe('groups of the reference', () => {
  it('groups the main entry by topic, in this order', () => {
    expect(groupTitles(moduleNamed('crossborder-sdk'))).toEqual([
      'Client',
      'Resources',
      'Errors',
      'Pagination',
      'Webhooks',
      'Wallet',
      'Options',
      'API types',
      'Helpers',
    ]);
  });

  it('groups the other entries by topic too', () => {
    // An entry named after a topic opens with it.
    expect(groupTitles(moduleNamed('crossborder-sdk/wallet'))).toEqual(['Wallet', 'Errors']);
    expect(groupTitles(moduleNamed('crossborder-sdk/sandbox'))).toEqual(['Sandbox', 'Webhooks', 'Options']);
    expect(groupTitles(moduleNamed('crossborder-sdk/sandbox/msw'))).toEqual(['Sandbox']);
    expect(groupTitles(moduleNamed('crossborder-sdk/payouts'))).toEqual(['Payouts', 'Errors', 'Options']);
  });

  it('leaves no TypeDoc kind group on any module page, and lists every export in exactly one group', () => {
    for (const module of project.children ?? []) {
      expect(
        groupTitles(module).filter((t) => KIND_GROUPS.includes(t)),
        module.name,
      ).toEqual([]);
      for (const child of module.children ?? []) expect(groupsOf(module, child.name), `${module.name}: ${child.name}`).toHaveLength(1);
    }
  });

  it('puts each export where a user looks for it', () => {
    const expected: Record<string, Record<string, string[]>> = {
      'crossborder-sdk': {
        Client: ['Crossborder', 'APIPromise', 'Environment', 'Logger', 'API_VERSION'],
        Resources: [
          'Customers',
          'Quotes',
          'Transactions',
          'Credentials',
          'Sessions',
          'Platform',
          'PlatformExternalAccounts',
          'Sandbox',
          'Webhooks',
          'isExpired',
          'TERMINAL_STATUSES',
        ],
        Errors: [
          'CrossborderError',
          'APIError',
          'NotFoundError',
          'RateLimitError',
          'ValidationError',
          'SignatureRequiredError',
          'WebhookVerificationError',
          'WalletCryptoError',
          'ErrorCode',
          'ValidationIssue',
          'SignatureChallenge',
        ],
        Pagination: ['Page', 'PagePromise', 'ListEnvelope', 'ListEnvelopeFields'],
        Webhooks: [
          'WebhookEvent',
          'IncomingPaymentPendingEvent',
          'OutgoingPaymentCompletedEvent',
          'UnknownEvent',
          'WebhookEnvelope',
          'WebhookHeaders',
          'RedisDedupeStore',
          'MemoryDedupeStore',
          'dedupe',
          'approvePayment',
          'PaymentApprovalReply',
        ],
        Wallet: ['passkeyAssertion', 'passkeyAttestation', 'Signer'],
        Options: ['ClientOptions', 'RequestOptions', 'SignedRequestOptions', 'ListOptions', 'WaitForOptions', 'UnwrapOptions', 'DedupeOptions'],
        'API types': ['Customer', 'CustomerCreateParams', 'CustomerListParams', 'Quote', 'QuoteCreateParams', 'Transaction', 'Address', 'DataList'],
        Helpers: ['formatAmount', 'toMinorUnits'],
      },
      'crossborder-sdk/wallet': {
        Wallet: ['generateClientKeyPair', 'sessionKeySigner', 'WalletSession', 'SessionKey', 'ClientKeyPair', 'passkeyAssertion', 'Signer'],
        Errors: ['WalletCryptoError', 'WalletCryptoErrorReason'],
      },
      'crossborder-sdk/sandbox': {
        Sandbox: ['createSandbox', 'Sandbox', 'MAGIC', 'createClock', 'Clock', 'SandboxServer'],
        Webhooks: ['signWebhook', 'generateWebhookKeyPair', 'Delivery'],
        Options: ['SandboxOptions', 'SignWebhookOptions'],
      },
      'crossborder-sdk/sandbox/msw': { Sandbox: ['sandboxHandlers'] },
      'crossborder-sdk/payouts': {
        Payouts: [
          'createPayoutBatch',
          'FileJournal',
          'MemoryJournal',
          'RedisJournal',
          'enqueuePayouts',
          'payoutProcessor',
          'PayoutInstruction',
          'PayoutRecord',
          'payoutKey',
        ],
        Errors: ['PayoutJournalError'],
        Options: ['PayoutBatchOptions', 'FileJournalOptions'],
      },
    };
    for (const [moduleName, groups] of Object.entries(expected)) {
      const module = moduleNamed(moduleName);
      for (const [group, members] of Object.entries(groups)) {
        for (const name of members) expect(groupsOf(module, name), `${moduleName}: ${name}`).toEqual([group]);
      }
    }
  });

  it('shows the groups as sections of the module page', () => {
    const page = readFileSync(join(out, 'html', 'modules', 'crossborder-sdk.html'), 'utf8');
    const headings = [...page.matchAll(/<h2 class="tsd-anchor-link" id="([^"]+)">([^<]+)</g)].map((m) => m[2]);
    expect(headings).toEqual(['Client', 'Resources', 'Errors', 'Pagination', 'Webhooks', 'Wallet', 'Options', 'API types', 'Helpers']);
  });
});

describe('examples in the reference', () => {
  it('shows an example calling `cb` on every method of every resource class', () => {
    const main = moduleNamed('crossborder-sdk');
    const resources = (main.groups ?? [])
      .find((g) => g.title === 'Resources')!
      .children.map((id) => main.children!.find((c) => c.id === id)!)
      .filter((c) => c.kind === KIND.Class);
    let methods = 0;
    const missing: string[] = [];
    for (const resource of resources) {
      for (const method of (resource.children ?? []).filter((c) => c.kind === KIND.Method)) {
        methods++;
        const examples = (method.signatures ?? []).flatMap((s) => s.comment?.blockTags ?? []).filter((t) => t.tag === '@example');
        const code = examples.flatMap((t) => t.content.filter((p) => p.kind === 'code').map((p) => p.text));
        if (!code.some((c) => /^```ts\n[\s\S]*\bcb\.[\s\S]*```$/.test(c))) missing.push(`${resource.name}.${method.name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(methods).toBeGreaterThanOrEqual(36);
  });

  it('renders the examples on the class pages', () => {
    const page = readFileSync(join(out, 'html', 'classes', 'crossborder-sdk.Customers.html'), 'utf8');
    // create, delete, list, retrieve, update, and production's endUserTerms, importCsv, retrieveImportJob, createKycLink,
    // and its contact verification: verifyEmail, confirmEmail, verifyPhone, confirmPhone
    expect(page.match(/<h4 class="tsd-anchor-link"[^>]*>Example/g)?.length).toBe(13);
    const code = [...page.matchAll(/<pre><code class="ts">([\s\S]*?)<\/code>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    for (const method of ['create', 'retrieve', 'update', 'delete', 'list', 'verifyEmail', 'confirmPhone'])
      expect(code.join('\n'), method).toContain(`cb.customers.${method}(`);
  });
});

describe('the reference index', () => {
  it("is docs/typedoc/index.md, not the contributors' README", () => {
    const readme = text(project.readme);
    const index = readFileSync(join(root, 'docs/typedoc/index.md'), 'utf8');
    expect(readme.startsWith(index.slice(0, index.indexOf('\n\n')))).toBe(true);
    for (const heading of ['## Install', '## Create a client', '## A first call', '## Where things are', '## Guides']) expect(readme).toContain(heading);
    expect(readme).toContain('npm install crossborder-sdk');
    expect(readme).not.toContain(
      readFileSync(join(root, 'README.md'), 'utf8')
        .split('\n')
        .find((l) => l.trim().length > 30)!,
    );
  });

  it('includes the guides as pages, titled by their headings, and links each from the index', () => {
    const guides = (project.documents ?? []).filter((d) => d.kind === KIND.Document);
    expect(guides.map((g) => g.name)).toEqual(
      expect.arrayContaining([
        'Quickstart',
        'Authentication and environments',
        'Pagination',
        'Errors',
        'Quotes and FX',
        'Customers and KYC',
        'Webhooks',
        'Testing your integration',
      ]),
    );
    expect(groupTitles(project)).toEqual(['Guides', 'Modules']);
    const index = readFileSync(join(out, 'html', 'index.html'), 'utf8');
    const links = [...index.matchAll(/href="(documents\/[^"#]+\.html)"/g)].map((m) => m[1]!);
    expect(new Set(links).size).toBe(10);
    for (const link of links) expect(existsSync(join(out, 'html', link)), link).toBe(true);
    for (const module of [
      'modules/crossborder-sdk.html',
      'modules/crossborder-sdk_wallet.html',
      'modules/crossborder-sdk_sandbox.html',
      'classes/crossborder-sdk.Customers.html',
    ]) {
      expect(index, module).toContain(`href="${module}"`);
    }
  });
});

describe('the reference in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
    const site = join(out, 'html');
    const types: Record<string, string> = {
      '.html': 'text/html; charset=utf-8',
      '.js': 'text/javascript',
      '.css': 'text/css',
      '.svg': 'image/svg+xml',
      '.png': 'image/png',
      '.json': 'application/json',
    };
    server = createServer((req, res) => {
      const path = normalize(join(site, decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)));
      const file = path.endsWith(sep) ? join(path, 'index.html') : path;
      if (!file.startsWith(site + sep)) return void res.writeHead(403).end();
      readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body),
        () => res.writeHead(404).end('not found'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // A fresh, temporary profile each launch.
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      timeout: 30_000,
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  /** Opens a page of the reference; every request it makes must be answered (no 404s). */
  async function open(path: string): Promise<{ page: Page; failures: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
    await page.goto(`${base}/${path}`, { timeout: 20_000, waitUntil: 'load' });
    return { page, failures };
  }

  it('shows the index: install, client, first call, where things are, guides; and the groups in the sidebar', async () => {
    const started = performance.now();
    const { page, failures } = await open('index.html');
    try {
      for (const heading of ['Install', 'Create a client', 'A first call', 'Where things are', 'Guides']) {
        await page.locator('.col-content h2', { hasText: heading }).first().waitFor({ state: 'visible', timeout: 10_000 });
      }
      await expect
        .poll(() => page.locator('.col-content pre').first().innerText({ timeout: 5_000 }), { timeout: 5_000 })
        .toContain('npm install crossborder-sdk');
      const table = await page.locator('.col-content table', { hasText: 'What you find there' }).innerText({ timeout: 5_000 });
      for (const group of ['Client', 'Resources', 'Errors', 'Pagination', 'Webhooks', 'Wallet', 'Sandbox']) expect(table).toContain(group);
      // The sidebar is built by the page's script: guides and modules.
      await page.locator('.site-menu', { hasText: 'Quickstart' }).waitFor({ state: 'visible', timeout: 10_000 });
      await page.locator('.site-menu', { hasText: 'crossborder-sdk/wallet' }).waitFor({ state: 'visible', timeout: 10_000 });
      // Code keeps its lines: no block of the index needs a sideways scroll at this width.
      const overflowing = await page
        .locator('.col-content pre')
        .evaluateAll((blocks) => blocks.filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent?.slice(0, 60)));
      expect(overflowing).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'reference-index.png'), fullPage: true, timeout: 20_000 });
      // A guide link opens the guide.
      await page.locator('.col-content a', { hasText: 'Quotes and FX' }).click({ timeout: 5_000 });
      await page.locator('.col-content h1', { hasText: 'Quotes and FX' }).waitFor({ state: 'visible', timeout: 10_000 });
      expect(failures).toEqual([]);
    } finally {
      await page.close();
    }

    console.log(`[reference] Chromium index: ${Math.round(performance.now() - started)} ms; test-artifacts/reference-index.png`);
  }, 60_000);

  it('shows the Customers page with an example per method, and the groups of its module', async () => {
    const started = performance.now();
    const { page, failures } = await open('classes/crossborder-sdk.Customers.html');
    try {
      await page.locator('h1', { hasText: 'Class Customers' }).waitFor({ state: 'visible', timeout: 10_000 });
      for (const method of ['create', 'retrieve', 'update', 'delete', 'list']) {
        // By the heading's anchor id: \`span:text-is("create")\` also matches \`create<wbr/>Kyc<wbr/>Link\`.
        const section = page.locator(`section.tsd-member:has(h3[id="${method.toLowerCase()}"])`);
        await section.waitFor({ state: 'visible', timeout: 10_000 });
        expect(await section.locator('h4', { hasText: 'Example' }).count(), method).toBe(1);
        expect(await section.locator('pre').last().innerText({ timeout: 5_000 }), method).toContain(`cb.customers.${method}(`);
      }
      // The sidebar (built by the page's script) lists the groups of the module, with Customers under Resources.
      const menu = page.locator('.site-menu');
      for (const group of ['Client', 'Resources', 'Errors', 'Pagination', 'Webhooks', 'Wallet', 'Options', 'API types', 'Helpers']) {
        await menu.locator(`summary[data-key="Modules$crossborder-sdk$${group}"]`).waitFor({ state: 'visible', timeout: 10_000 });
      }
      await menu
        .locator('details:has(> summary[data-key="Modules$crossborder-sdk$Resources"]) a[href$="crossborder-sdk.Customers.html"]')
        .waitFor({ state: 'visible', timeout: 10_000 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(ARTIFACTS, 'reference-customers.png'), fullPage: true, timeout: 20_000 });
      expect(failures).toEqual([]);
    } finally {
      await page.close();
    }

    console.log(`[reference] Chromium Customers page: ${Math.round(performance.now() - started)} ms; test-artifacts/reference-customers.png`);
  }, 60_000);

  it('shows the module page in sections, one per group', async () => {
    const { page, failures } = await open('modules/crossborder-sdk.html');
    try {
      const sections = page.locator('.col-content details.tsd-member-group > summary h2');
      await sections.first().waitFor({ state: 'visible', timeout: 10_000 });
      expect(await sections.allInnerTexts()).toEqual(['Client', 'Resources', 'Errors', 'Pagination', 'Webhooks', 'Wallet', 'Options', 'API types', 'Helpers']);
      // Each export with its one-line summary.
      const crossborder = page.locator('dd.tsd-member-summary').nth(
        await page
          .locator('dt.tsd-member-summary')
          .allInnerTexts()
          .then((all) => all.findIndex((t) => t.trim() === 'Crossborder')),
      );
      expect(await crossborder.innerText({ timeout: 5_000 })).toContain('Client of the Cross-Border Payments');
      await page.screenshot({ path: join(ARTIFACTS, 'reference-module.png'), fullPage: false, timeout: 20_000 });
      expect(failures).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
