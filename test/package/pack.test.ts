/**
 * The published package: the tarball test/setup/packed.ts built and packed once for this run,
 * checked with publint and attw, and imported from scratch ESM, CJS and TypeScript consumers that
 * have only the package's own dependencies (msw only in a second consumer, for
 * `crossborder-sdk/sandbox/msw`). Dependencies are linked from this checkout's node_modules, so the
 * test needs no network.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SIZE_BUDGET } from '../../scripts/bench/budget';
import { reachable } from '../../scripts/dist-reach';
import { DOCUMENT_DATA } from '../../tsup.config';
import { bin, makeConsumer, root } from '../setup/packed';

const run = (cmd: string, args: string[], cwd = root) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout: 240_000 });

const packed = inject('packed');
let scratch: string;
let consumer: string;
/** A second consumer with msw installed beside the package (the optional peer of `./sandbox/msw`). */
let withMsw: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'crossborder-pack-'));
  consumer = makeConsumer(packed, join(scratch, 'consumer'));
  withMsw = makeConsumer(packed, join(scratch, 'with-msw'), ['msw']);
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('package', () => {
  it('ships only what users need', () => {
    const files = readdirSync(join(consumer, 'node_modules', 'crossborder-sdk'));
    expect(files.sort()).toEqual(['LICENSE', 'README.md', 'dist', 'docs', 'examples', 'openapi', 'package.json', 'src']);
    // The CLI's help and MCP texts are generated (src/generated/cli-docs.ts): the API document itself does not ship.
    expect(readdirSync(join(consumer, 'node_modules', 'crossborder-sdk', 'openapi'))).toEqual(['production-map.json']);
  });

  it('every file in dist/ is loaded by an entry of package.json (exports, bin), or is the source map or declaration of one', () => {
    const pkg = join(consumer, 'node_modules', 'crossborder-sdk');
    // The walk of scripts/dist-reach.ts, which the build also runs to remove what no entry loads.
    const { missing, files, reached } = reachable(pkg);
    expect(missing, 'named by an entry or an import, but not in the package').toEqual([]);
    expect(
      files.filter((f) => !reached.has(f)),
      'in dist/, loaded by nothing',
    ).toEqual([]);
    expect(files.length).toBeGreaterThan(100); // the walk followed the chunks (a broken walk would flag them above)
  });

  it('each source map names TypeScript the package ships, once: maps carry no copy of it (sourcesContent), and src/ holds only what a map names', () => {
    const pkg = join(consumer, 'node_modules', 'crossborder-sdk');
    const dist = join(pkg, 'dist');
    const maps = readdirSync(dist).filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(60); // 79: the chunks of code (each operation's checks, data alone, have none)
    const named = new Set<string>();
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(dist, map), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
      expect(sourcesContent, map).toBeUndefined();
      for (const source of sources) named.add(posix.normalize(posix.join('dist', source)));
    }
    const missing = [...named].filter((source) => !existsSync(join(pkg, source)));
    expect(missing, 'named by a map, not in the package').toEqual([]);
    const shipped = (readdirSync(join(pkg, 'src'), { recursive: true }) as string[])
      .map((f) => `src/${f.split('\\').join('/')}`)
      .filter((f) => f.endsWith('.ts'));
    expect(named.has('src/core/transport.ts')).toBe(true);
    // Not the CLI's (built without maps), nor the generated declarations (types only), nor the generated modules of
    // the document's data (DOCUMENT_DATA: no stack frame lands in them): of src/generated/, the code a call runs through.
    expect(shipped.filter((f) => f.startsWith('src/cli/'))).toEqual([]);
    expect(shipped.filter((f) => f.startsWith('src/generated/')).sort()).toEqual(['src/generated/functions.ts', 'src/generated/resources.ts']);
    expect([...named].filter((f) => DOCUMENT_DATA.test(f))).toEqual([]);
    expect(named.has('src/generated/resources.ts') && named.has('src/generated/functions.ts')).toBe(true);
    // A built file without a map holds nothing but the document's data (each operation's checks) or the CLI's code;
    // every other file has its map (the modules it holds, by the `// src/…` line esbuild writes above each).
    const code = readdirSync(dist).filter((f) => /\.c?js$/.test(f));
    const unmapped = code.filter((f) => !maps.includes(`${f}.map`));
    expect(unmapped.length).toBeGreaterThan(300); // 154 operations' checks, ES and CommonJS
    for (const f of unmapped) {
      const text = readFileSync(join(dist, f), 'utf8');
      expect(text, f).not.toMatch(/sourceMappingURL/);
      const modules = [...text.matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]!);
      expect(
        modules.filter((m) => !DOCUMENT_DATA.test(m) && !m.startsWith('src/cli/')),
        f,
      ).toEqual([]);
    }
    for (const f of code.filter((f) => maps.includes(`${f}.map`)))
      expect(readFileSync(join(dist, f), 'utf8'), f).toMatch(new RegExp(`\\n//# sourceMappingURL=${f.replace(/\./g, '\\.')}\\.map\\n?$`));
    // What no map names is the entries' re-exports and modules of types alone (no code to map): a few kB, not sources of weight.
    const unnamed = shipped.filter((f) => !named.has(f));
    const unnamedBytes = unnamed.reduce((n, f) => n + readFileSync(join(pkg, f)).length, 0);
    expect(unnamedBytes, unnamed.join(', ')).toBeLessThan(70_000); // 64,572 B with the stablecoin, card and document resources' type-only modules; 67,955 B with SCA, contact verification and agents (47 operations: the entries' re-exports, the options' agentToken, the rows' SCA loader)
    for (const f of unnamed) expect(readFileSync(join(pkg, f), 'utf8'), f).not.toMatch(/^(export )?(async )?function |^(export )?class /m);
  });

  it('the built code carries no copy of the TSDoc, and the declarations are indented with tabs', () => {
    const dist = join(consumer, 'node_modules', 'crossborder-sdk', 'dist');
    const files = readdirSync(dist);
    const code = files.filter((f) => /\.c?js$/.test(f) && f !== 'cli.js');
    // The comments ship in src/ and in the declarations, not in the JavaScript (scripts/blank-comments.ts).
    const withDocs = code.filter((f) => /^\s*\/\*\*/m.test(readFileSync(join(dist, f), 'utf8')));
    expect(withDocs).toEqual([]);
    const declarations = files.filter((f) => /\.d\.c?ts$/.test(f));
    const index = readFileSync(join(dist, 'index.d.cts'), 'utf8');
    expect(index).toMatch(/^\t\/\*\*$/m); // TSDoc of a member, one tab in
    expect(index).toContain('@example');
    for (const f of declarations) expect(readFileSync(join(dist, f), 'utf8'), f).not.toMatch(/^ {4}/m);
  });

  it('the declarations import nothing from zod (its .d.cts files need esModuleInterop under node10)', () => {
    const dist = join(consumer, 'node_modules', 'crossborder-sdk', 'dist');
    const declarations = readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f));
    expect(declarations.length).toBeGreaterThanOrEqual(10);
    const importsZod = declarations.filter((f) => /(?:from\s*|import\s*\(\s*)["']zod(?:\/[^"']*)?["']/.test(readFileSync(join(dist, f), 'utf8')));
    expect(importsZod).toEqual([]);
  });

  it('an uncaught SDK error prints a short readable source line and a stack naming functions; with --enable-source-maps, the TypeScript in src/', async () => {
    // A port that refuses: listened on, then closed.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    writeFileSync(
      join(consumer, 'uncaught.mjs'),
      `import { Crossborder } from 'crossborder-sdk';
       const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: 'http://127.0.0.1:${port}', maxRetries: 0 });
       await cb.customers.retrieve('Customer:1');`,
    );
    const uncaught = (...flags: string[]) => spawnSync('node', [...flags, 'uncaught.mjs'], { cwd: consumer, encoding: 'utf8', timeout: 30_000 });
    const plain = uncaught();
    expect(plain.status).toBe(1);
    // Node prints the file and line of the throw, that line, a caret, then the error and its stack.
    const [where, line, caret] = plain.stderr.split('\n');
    expect(where).toMatch(/node_modules\/crossborder-sdk\/dist\/[\w-]+\.js:\d+$/);
    expect(line!.length).toBeLessThan(200);
    expect(line).toContain('new APIConnectionError(');
    expect(caret).toMatch(/^ *\^$/);
    expect(plain.stderr).toMatch(/\nAPIConnectionError: GET \/customers\/\{customerId\} failed: fetch failed/);
    // The attempt loop (one asynchronous step per call since issue 36 §2), then the caller's own line.
    expect(plain.stderr).toMatch(/\n {4}at (async )?attempts \(file:\/\/\S+\/node_modules\/crossborder-sdk\/dist\/[\w-]+\.js:\d+:\d+\)/);
    expect(plain.stderr).toMatch(/\n {4}at async file:\/\/\S+\/uncaught\.mjs:3:\d+/);

    const mapped = uncaught('--enable-source-maps');
    expect(mapped.status).toBe(1);
    const [mappedWhere, mappedLine] = mapped.stderr.split('\n');
    expect(mappedWhere).toMatch(/node_modules\/crossborder-sdk\/src\/core\/transport\.ts:\d+$/);
    expect(mappedLine).toContain('new APIConnectionError(');
    expect(mappedLine).not.toBe(line); // the TypeScript, not the built JavaScript
    // The error's own stack (before its cause), frame by frame: named functions in the package's src/*.ts.
    const ownStack = mapped.stderr.slice(0, mapped.stderr.indexOf('[cause]'));
    const frames = [...ownStack.matchAll(/\n {4}at (?:async )?([\w.#]+) \(\S+\/node_modules\/crossborder-sdk\/src\/([\w/-]+\.ts):\d+:\d+\)/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(frames[0]).toBe('attempts core/transport.ts');
    expect(ownStack).toMatch(/\n {4}at async \S+\/uncaught\.mjs:3:\d+/);
  });

  it('an ESM consumer imports every entry', () => {
    writeFileSync(
      join(consumer, 'esm.mjs'),
      `import { Crossborder, APIError, ValidationError } from 'crossborder-sdk';
       import { CrossborderError, WalletCryptoError, WebhookVerificationError } from 'crossborder-sdk';
       import * as errors from 'crossborder-sdk/errors';
       import { generateClientKeyPair, importSessionKey, WalletCryptoError as WalletEntryError } from 'crossborder-sdk/wallet';
       import { createSandbox, signWebhook } from 'crossborder-sdk/sandbox';
       const cb = new Crossborder({ tokenId: 't', clientSecret: 's' });
       const kp = await generateClientKeyPair();
       const walletErr = await importSessionKey('not hex').catch((e) => e);
       const sandboxErr = await signWebhook('{}', 'not a key').catch((e) => e);
       console.log(JSON.stringify({ client: typeof cb.customers.list, err: typeof APIError, val: typeof ValidationError, kp: kp.publicKey.length, sandbox: typeof createSandbox,
         sameClass: WalletEntryError === WalletCryptoError && errors.WalletCryptoError === WalletCryptoError && errors.CrossborderError === CrossborderError, wallet: walletErr instanceof WalletCryptoError && walletErr instanceof CrossborderError,
         fromSandbox: sandboxErr instanceof WebhookVerificationError && sandboxErr instanceof CrossborderError }));`,
    );
    const out = JSON.parse(run('node', ['esm.mjs'], consumer));
    // One class per error across entries: an error thrown by the wallet or the sandbox entry is an instance of what the main entry exports.
    expect(out).toEqual({
      client: 'function',
      err: 'function',
      val: 'function',
      kp: 130,
      sandbox: 'function',
      sameClass: true,
      wallet: true,
      fromSandbox: true,
    });
  });

  it('a CJS consumer requires every entry', () => {
    writeFileSync(
      join(consumer, 'cjs.cjs'),
      `const { Crossborder, APIError, CrossborderError, WalletCryptoError } = require('crossborder-sdk');
       const { generateClientKeyPair, importSessionKey } = require('crossborder-sdk/wallet');
       const { createSandbox } = require('crossborder-sdk/sandbox');
       const cb = new Crossborder({ tokenId: 't', clientSecret: 's' });
       (async () => {
         const kp = await generateClientKeyPair();
         const walletErr = await importSessionKey('not hex').catch((e) => e);
         console.log(JSON.stringify({ client: typeof cb.quotes.create, err: typeof APIError, kp: kp.publicKey.length, sandbox: typeof createSandbox,
           wallet: walletErr instanceof WalletCryptoError && walletErr instanceof CrossborderError }));
       })();`,
    );
    const out = JSON.parse(run('node', ['cjs.cjs'], consumer));
    expect(out).toEqual({ client: 'function', err: 'function', kp: 130, sandbox: 'function', wallet: true });
  });

  it("crossborder-sdk/webhooks: a receiver without the client unwraps a signed delivery by name, ESM and CJS, and throws the main entry's error class", () => {
    // The delivery is signed by the sandbox entry (the service's signer); the receiver loads only its own entry and what it imports.
    const script = (load: string) => `${load}
      (async () => {
        const keys = await generateWebhookKeyPair();
        const body = JSON.stringify({ id: 'Webhook:1', type: 'OUTGOING_PAYMENT.COMPLETED', timestamp: new Date().toISOString(), data: { id: 'Transaction:9', status: 'COMPLETED' } });
        const headers = { 'x-service-signature': await signWebhook(body, keys.privateKeyPem) };
        const event = await unwrap(body, headers, { publicKey: keys.publicKeyPem });
        await verify(body, headers, { publicKey: keys.publicKeyPem });
        const refused = await unwrap(body + ' ', headers, { publicKey: keys.publicKeyPem }).catch((e) => e);
        const broken = '{"name":"Ada Lovelace" x}';
        const notJson = await unwrap(broken, { 'x-service-signature': await signWebhook(broken, keys.privateKeyPem) }, { publicKey: keys.publicKeyPem }).catch((e) => e);
        const loaded = typeof require === 'function' ? Object.keys(require.cache).filter((f) => f.includes('crossborder-sdk')).map((f) => f.replace(/.*crossborder-sdk[\\/]dist[\\/]/, '')).sort() : [];
        console.log(JSON.stringify({ type: event.type, id: event.data.id, reason: refused.reason, sameClass: refused instanceof WebhookVerificationError && refused instanceof Main.WebhookVerificationError,
          notJson: notJson.message, loaded }));
      })();`;
    const esm = script(`import { unwrap, verify, WebhookVerificationError } from 'crossborder-sdk/webhooks';
      import * as Main from 'crossborder-sdk';
      import { generateWebhookKeyPair, signWebhook } from 'crossborder-sdk/sandbox';`);
    const cjs = script(`const { unwrap, verify, WebhookVerificationError } = require('crossborder-sdk/webhooks');
      const { generateWebhookKeyPair, signWebhook } = require('crossborder-sdk/sandbox');
      const Main = require('crossborder-sdk');`);
    writeFileSync(join(consumer, 'receiver.mjs'), esm);
    writeFileSync(join(consumer, 'receiver.cjs'), cjs);
    const expected = {
      type: 'OUTGOING_PAYMENT.COMPLETED',
      id: 'Transaction:9',
      reason: 'invalid_signature',
      sameClass: true,
      notJson: 'the webhook body is not JSON: an unexpected character at position 23 (25 characters)',
    };
    const esmOut = JSON.parse(run('node', ['receiver.mjs'], consumer));
    expect(esmOut).toEqual({ ...expected, loaded: [] });
    const cjsOut = JSON.parse(run('node', ['receiver.cjs'], consumer));
    expect({ ...cjsOut, loaded: [] }).toEqual({ ...expected, loaded: [] });
    expect(cjsOut.loaded).toContain('webhooks.cjs');
  });

  it('crossborder-sdk/webhooks alone loads no module of the request pipeline (ESM: its static imports; CJS: what require loads)', () => {
    writeFileSync(
      join(consumer, 'receiver-only.cjs'),
      `require('crossborder-sdk/webhooks');
       console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('crossborder-sdk')).map((f) => f.replace(/.*crossborder-sdk[\\/]dist[\\/]/, '')).sort()));`,
    );
    const loaded = JSON.parse(run('node', ['receiver-only.cjs'], consumer)) as string[];
    expect(loaded).toContain('webhooks.cjs');
    // Not the main entry, whose module holds the client and the pipeline.
    expect(loaded).not.toContain('index.cjs');
    const pkg = join(consumer, 'node_modules', 'crossborder-sdk', 'dist');
    const text = loaded.map((f) => readFileSync(join(pkg, f), 'utf8')).join('\n');
    // The modules it holds, by the `// src/…` line esbuild writes above each (the built code is not minified).
    const modules = [...text.matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]!);
    expect(modules).toEqual(expect.arrayContaining(['src/webhooks/verify.ts', 'src/webhooks/events.ts', 'src/webhooks/unwrap.ts', 'src/webhooks/receiver.ts']));
    expect(
      modules.filter((m) =>
        /^src\/(core\/(client|transport|retry|answers|settings|pagination|dispatcher|call-options|wire|logger|api-promise|plan|signed-retry|errors)|resources\/)/.test(
          m,
        ),
      ),
    ).toEqual([]);
    for (const absent of ['Idempotency-Key', 'retry-after', 'openapi-fetch']) expect(text.toLowerCase().includes(absent.toLowerCase()), absent).toBe(false);
    expect(text.toLowerCase()).toContain('x-service-signature');
  });

  it('crossborder-sdk/sandbox loads and works with only the package dependencies (no msw), ESM and CJS', () => {
    const script = (load: string) => `${load}
      (async () => {
        const sandbox = createSandbox();
        const cb = new Crossborder({ tokenId: 't', clientSecret: 's', environment: 'sandbox', fetch: sandbox.fetch });
        const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada' });
        const keys = await generateWebhookKeyPair();
        const header = await signWebhook('{"id":"Webhook:1","type":"TEST","timestamp":"2025-10-13T10:00:00Z","data":{}}', keys.privateKeyPem);
        console.log(JSON.stringify({ customer: customer.id.startsWith('Customer:'), header: JSON.parse(header).v, magic: typeof MAGIC }));
        await sandbox.close();
      })();`;
    writeFileSync(
      join(consumer, 'sandbox.mjs'),
      script(
        "import { Crossborder } from 'crossborder-sdk';\nimport { createSandbox, generateWebhookKeyPair, signWebhook, MAGIC } from 'crossborder-sdk/sandbox';",
      ),
    );
    writeFileSync(
      join(consumer, 'sandbox.cjs'),
      script(
        "const { Crossborder } = require('crossborder-sdk');\nconst { createSandbox, generateWebhookKeyPair, signWebhook, MAGIC } = require('crossborder-sdk/sandbox');",
      ),
    );
    for (const file of ['sandbox.mjs', 'sandbox.cjs']) {
      expect(JSON.parse(run('node', [file], consumer)), file).toEqual({ customer: true, header: '1', magic: 'object' });
    }
  });

  it('crossborder-sdk/sandbox/msw is the one entry that needs msw: a clear error without it, msw handlers with it', () => {
    const script =
      "import { createSandbox } from 'crossborder-sdk/sandbox';\nimport { sandboxHandlers } from 'crossborder-sdk/sandbox/msw';\nconsole.log(sandboxHandlers(createSandbox()).length);\nprocess.exit(0);";
    writeFileSync(join(consumer, 'msw.mjs'), script);
    writeFileSync(join(withMsw, 'msw.mjs'), script);
    let failure = '';
    try {
      run('node', ['msw.mjs'], consumer);
    } catch (error) {
      failure = String((error as { stderr?: string }).stderr);
    }
    // Says which package is missing, that it is the optional peer, and the command that installs it.
    expect(failure).toContain(
      'crossborder-sdk/sandbox/msw needs msw, an optional peer dependency of crossborder-sdk that is not installed: run `npm install --save-dev msw`',
    );
    expect(run('node', ['msw.mjs'], withMsw).trim()).toBe('1');
    const cjs =
      "const { createSandbox } = require('crossborder-sdk/sandbox');\nconst { sandboxHandlers } = require('crossborder-sdk/sandbox/msw');\nconsole.log(sandboxHandlers(createSandbox()).length);";
    writeFileSync(join(consumer, 'msw.cjs'), cjs);
    writeFileSync(join(withMsw, 'msw.cjs'), cjs);
    let cjsFailure = '';
    try {
      run('node', ['msw.cjs'], consumer);
    } catch (error) {
      cjsFailure = String((error as { stderr?: string }).stderr);
    }
    expect(cjsFailure).toContain('needs msw, an optional peer dependency of crossborder-sdk that is not installed: run `npm install --save-dev msw`');
    expect(run('node', ['msw.cjs'], withMsw).trim()).toBe('1');
    // Node 20.0–20.15 have no process.getBuiltinModule: msw is loaded there too (it used to be refused).
    const older = "delete process.getBuiltinModule; await import('./msw.mjs');";
    expect(run('node', ['--input-type=module', '-e', older], withMsw).trim()).toBe('1');
  });

  it('a TypeScript consumer type-checks every entry with skipLibCheck: false (node16 and bundler resolution)', { timeout: 120_000 }, () => {
    writeFileSync(
      join(consumer, 'consumer.ts'),
      `import { Crossborder, APIError, RedisDedupeStore, type Customer, type QuoteCreateParams, type WebhookEvent } from 'crossborder-sdk';
       import { ValidationError } from 'crossborder-sdk/errors';
       import { generateClientKeyPair, WalletSession } from 'crossborder-sdk/wallet';
       import { createSandbox, MAGIC } from 'crossborder-sdk/sandbox';
       export async function main(): Promise<[Customer, QuoteCreateParams | undefined, WebhookEvent | undefined]> {
         const sandbox = createSandbox();
         const cb = new Crossborder({ tokenId: 't', clientSecret: 's', environment: 'sandbox', fetch: sandbox.fetch });
         const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US' });
         const kp = await generateClientKeyPair();
         void [APIError, ValidationError, WalletSession, MAGIC, kp.publicKeyCompressed, RedisDedupeStore];
         return [customer, undefined, undefined];
       }
      `,
    );
    for (const resolution of ['node16', 'bundler'] as const) {
      const config = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          target: 'ES2022',
          module: resolution === 'node16' ? 'node16' : 'esnext',
          moduleResolution: resolution,
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: [],
        },
        files: ['consumer.ts'],
      };
      writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(config));
      let output = '';
      try {
        output = run(bin('tsc'), ['-p', 'tsconfig.json'], consumer);
      } catch (error) {
        output = String((error as { stdout?: string }).stdout);
      }
      expect(output, resolution).toBe('');
    }
  });

  it(
    "a TypeScript consumer with moduleResolution node10 (CommonJS, no esModuleInterop, skipLibCheck: false) resolves every subpath's types",
    { timeout: 120_000 },
    () => {
      // msw beside the package: the types of crossborder-sdk/sandbox/msw name its HttpHandler.
      writeFileSync(
        join(withMsw, 'node10.ts'),
        `import { Crossborder, APIError } from 'crossborder-sdk';
       import { ValidationError } from 'crossborder-sdk/errors';
       import { getCustomer } from 'crossborder-sdk/functions';
       import { createSandbox } from 'crossborder-sdk/sandbox';
       import { sandboxHandlers } from 'crossborder-sdk/sandbox/msw';
       import { generateClientKeyPair } from 'crossborder-sdk/wallet';
       export async function main(): Promise<string> {
         const sandbox = createSandbox();
         const cb = new Crossborder({ tokenId: 't', clientSecret: 's', environment: 'sandbox', fetch: sandbox.fetch });
         const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US' });
         const keys = await generateClientKeyPair();
         // @ts-expect-error: the types are the package's, not any: issues are not a string
         const wrong: string = new ValidationError([]).issues;
         // @ts-expect-error: a standalone function takes a core, not the Crossborder facade
         void getCustomer(cb, customer.id);
         void [APIError, sandboxHandlers(sandbox), wrong];
         return customer.id + keys.publicKey;
       }
      `,
      );
      const config = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'commonjs',
          moduleResolution: 'node10',
          esModuleInterop: false,
          skipLibCheck: false,
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: [],
        },
        files: ['node10.ts'],
      };
      writeFileSync(join(withMsw, 'tsconfig.json'), JSON.stringify(config));
      let output = '';
      try {
        output = run(bin('tsc'), ['-p', 'tsconfig.json'], withMsw);
      } catch (error) {
        output = String((error as { stdout?: string }).stdout);
      }
      expect(output).toBe('');
    },
  );

  it('a browser bundle of the published wallet entry takes only the error classes from the rest of the package', async () => {
    const entry = join(consumer, 'wallet-browser.mjs');
    writeFileSync(
      entry,
      "import { generateClientKeyPair, WalletSession } from 'crossborder-sdk/wallet';\nconsole.log(await generateClientKeyPair(), WalletSession);\n",
    );
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const fromPackage = Object.keys(result.metafile.inputs)
      .filter((input) => input.includes('node_modules/crossborder-sdk/') && result.metafile.inputs[input]!.bytes > 0)
      .map((input) => input.replace(/^.*node_modules\/crossborder-sdk\/dist\//, ''));
    // The wallet entry and the chunks it loads: the wallet's modules, the error classes and the encodings they share
    // with the core; not the client, not the schemas (each module's `// src/…` line in the built files).
    expect(fromPackage.some((file) => file.startsWith('index') || file.startsWith('zod.gen'))).toBe(false);
    expect(fromPackage).toContain('wallet.js');
    const modules = fromPackage.flatMap((file) =>
      [...readFileSync(join(consumer, 'node_modules', 'crossborder-sdk', 'dist', file), 'utf8').matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]!),
    );
    expect(modules).toContain('src/core/errors.ts');
    expect(modules).toContain('src/wallet/session.ts');
    // sca.ts: ScaRequiredError, an error class errors.ts re-exports (the chunk of the error classes holds it).
    expect(modules.filter((m) => !/^src\/wallet\/|^src\/core\/(errors|error-base|sca|encoding|base64url)\.ts$/.test(m))).toEqual([]);
    expect(gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length).toBeLessThanOrEqual(SIZE_BUDGET.wallet);
  });

  it('publint finds nothing', { timeout: 60_000 }, () => {
    const out = run(bin('publint'), ['run', packed.tarball, '--strict']);
    expect(out).not.toMatch(/warning|error|suggestion/i);
  });

  it('are-the-types-wrong finds nothing', { timeout: 120_000 }, () => {
    // attw exits non-zero on any problem for its strict profile: node10 (typesVersions), ESM and CJS consumers, and bundlers.
    const out = run(bin('attw'), [packed.tarball, '--format', 'ascii']);
    const verdicts = out.split('\n').filter((line) => /^(node10|node16 \(from (CJS|ESM)\)|bundler):/.test(line));
    expect(verdicts).toHaveLength(36); // 9 entries (., ./errors, ./functions, ./sandbox, ./sandbox/msw, ./wallet, ./webhooks, ./payouts, ./package.json) × 4 resolutions
    for (const line of verdicts) expect(line).toContain('🟢');
  });
});
