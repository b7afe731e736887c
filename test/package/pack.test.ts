/**
 * The published package: built with tsup, checked with publint and attw, packed with `npm pack`,
 * and imported from a scratch ESM consumer and a CJS consumer. Dependencies are linked from this
 * checkout's node_modules, so the test needs no network.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIZE_BUDGET } from '../../scripts/bench/budget';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[], cwd = root) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout: 240_000 });

let scratch: string;
let consumer: string;

beforeAll(() => {
  run('npm', ['run', 'build']);
  scratch = mkdtempSync(join(tmpdir(), 'crossborder-pack-'));
  const out = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch]);
  const [{ filename }] = JSON.parse(out) as [{ filename: string }];
  consumer = join(scratch, 'consumer');
  const pkgDir = join(consumer, 'node_modules', 'crossborder-sdk');
  mkdirSync(pkgDir, { recursive: true });
  run('tar', ['-xzf', join(scratch, filename), '-C', pkgDir, '--strip-components=1']);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // Node resolves a linked package by its real path, so the dependencies' own dependencies resolve too.
  // msw is the sandbox's optional peer (its msw handlers), installed by users who test with msw.
  for (const dep of [...Object.keys(pkg.dependencies), 'msw']) {
    const target = join(consumer, 'node_modules', dep);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, 'node_modules', dep), target, 'dir');
  }
}, 300_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('package', () => {
  it('ships only what users need', () => {
    const files = readdirSync(join(consumer, 'node_modules', 'crossborder-sdk'));
    expect(files.sort()).toEqual(['README.md', 'dist', 'openapi', 'package.json']);
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
    expect(out).toEqual({ client: 'function', err: 'function', val: 'function', kp: 130, sandbox: 'function', sameClass: true, wallet: true, fromSandbox: true });
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

  it('a browser bundle of the published wallet entry takes only the error classes from the rest of the package', async () => {
    const entry = join(consumer, 'wallet-browser.mjs');
    writeFileSync(entry, "import { generateClientKeyPair, WalletSession } from 'crossborder-sdk/wallet';\nconsole.log(await generateClientKeyPair(), WalletSession);\n");
    const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent' });
    const fromPackage = Object.keys(result.metafile.inputs)
      .filter((input) => input.includes('node_modules/crossborder-sdk/') && result.metafile.inputs[input]!.bytes > 0)
      .map((input) => input.replace(/^.*node_modules\/crossborder-sdk\/dist\//, ''));
    // The wallet entry, its own chunk and the errors entry (with the chunk holding the classes); not the client, not the schemas.
    expect(fromPackage.some((file) => file.startsWith('index') || file.startsWith('zod.gen'))).toBe(false);
    expect(fromPackage).toContain('wallet.js');
    expect(fromPackage).toContain('errors.js');
    expect(gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length).toBeLessThanOrEqual(SIZE_BUDGET.wallet);
  });

  it('publint finds nothing', { timeout: 60_000 }, () => {
    const out = run(bin('publint'), ['--strict']);
    expect(out).not.toMatch(/warning|error|suggestion/i);
  });

  it('are-the-types-wrong finds nothing', { timeout: 120_000 }, () => {
    // attw exits non-zero on any problem for the node16 profile (ESM and CJS consumers, and bundlers).
    const out = run(bin('attw'), ['--pack', '.', '--format', 'ascii', '--profile', 'node16']);
    const verdicts = out.split('\n').filter((line) => /^(node16 \(from (CJS|ESM)\)|bundler):/.test(line));
    expect(verdicts).toHaveLength(15); // 5 entries (., ./errors, ./sandbox, ./wallet, ./package.json) × 3 resolutions
    for (const line of verdicts) expect(line).toContain('🟢');
  });
});
