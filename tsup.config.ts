import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import type { Plugin } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const src = resolve(root, 'src');

/**
 * Error classes every entry shares. `instanceof` must hold across entries (a `WalletCryptoError`
 * thrown by `crossborder-sdk/wallet` is the class `crossborder-sdk` exports), so the `sandbox` and
 * `wallet` builds import these modules from the `crossborder-sdk/errors` entry instead of bundling
 * copies: small, so a browser bundle of the wallet takes only the errors. Each name they import is
 * exported by src/errors.ts (esbuild fails the build otherwise).
 */
const SHARED_ERRORS = resolve(src, 'core/errors.ts');

const importSharedErrors: Plugin = {
  name: 'import-shared-errors',
  setup(build) {
    build.onResolve({ filter: /\/errors$/ }, (args) => {
      const target = resolve(args.resolveDir, `${args.path}.ts`);
      return target === SHARED_ERRORS ? { path: 'crossborder-sdk/errors', external: true } : undefined;
    });
  },
};

/**
 * The CLI runs the sandbox of the package's own `crossborder-sdk/sandbox` entry (`./sandbox.js`, beside the CLI
 * in dist/) instead of bundling a second copy of it (226 kB, issue 50 §8); it reaches the sandbox only through
 * that entry (test/cli/layering.test.ts). Its error classes come from `crossborder-sdk/errors`, as the sandbox's
 * do, so `instanceof` holds between what the two throw.
 */
const SANDBOX_ENTRY = resolve(src, 'sandbox/index.ts');
const ERROR_BASE = resolve(src, 'core/error-base.ts');
const cliThroughEntries: Plugin = {
  name: 'cli-through-entries',
  setup(build) {
    build.onResolve({ filter: /\/(sandbox\/index|errors|error-base)$/ }, (args) => {
      const target = resolve(args.resolveDir, `${args.path}.ts`);
      if (target === SANDBOX_ENTRY) return { path: './sandbox.js', external: true };
      if (target === SHARED_ERRORS || target === ERROR_BASE) return { path: 'crossborder-sdk/errors', external: true };
      return undefined;
    });
  },
};

/**
 * The main entry exports the passkey helpers (src/wallet/passkey.ts), which take only base64url
 * encoding from the wallet's encodings: given that function's own module, the main entry loads no
 * codec library (@scure/base) at import. A build error if passkey ever imports more from there.
 */
const PASSKEY = resolve(src, 'wallet/passkey.ts');
const passkeyEncoding: Plugin = {
  name: 'passkey-encoding',
  setup(build) {
    build.onResolve({ filter: /^\.\/encoding$/ }, (args) => (args.importer === PASSKEY ? { path: resolve(src, 'core/base64url.ts') } : undefined));
  },
};

/**
 * Source maps name the package's own `src/` (`../src/core/client.ts` from `dist/`), wherever the build
 * writes (test/setup/packed.ts builds into a staging directory): `node --enable-source-maps` and
 * debuggers show `node_modules/crossborder-sdk/src/...`, the TypeScript read from that file: `src/` ships
 * once (package.json `files`: the modules the maps name), and the maps carry no copy of it (`sourcesContent`,
 * which put each module's source in the map of every ES and CommonJS file built from it: 2.8 MB of 9.5, issue 50 §8).
 */
type TsupPlugin = NonNullable<Options['plugins']>[number];
const packageRelativeSources: TsupPlugin = {
  name: 'package-relative-sources',
  // After tsup's own plugins (tree-shaking, CommonJS splitting) have merged their maps and written them.
  buildEnd({ writtenFiles }) {
    for (const { name } of writtenFiles) {
      if (!name.endsWith('.map')) continue;
      const file = resolve(process.cwd(), name);
      const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] };
      map.sources = map.sources.map((source) => join('..', relative(root, resolve(dirname(file), source))).split(sep).join('/'));
      delete (map as { sourcesContent?: unknown }).sourcesContent;
      writeFileSync(file, JSON.stringify(map));
    }
  },
};

const common: Options = {
  format: ['esm', 'cjs'],
  // Stacks and debuggers land in the TypeScript of the shipped src/ (packageRelativeSources).
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  external: [/^node:/],
  treeshake: true,
  // Not minified: the line Node prints above an uncaught error's stack, and the code a debugger steps
  // through, are the code as written (as stripe-node and openai-node ship). Bundlers minify for
  // browsers; `npm run bench` measures what the extra bytes cost at import (docs/performance.md).
  minifyWhitespace: false,
  minifySyntax: false,
  plugins: [packageRelativeSources],
};

export default defineConfig([
  // Types of the three entries in one build, so each declaration exists once.
  {
    entry: { index: 'src/index.ts', errors: 'src/errors.ts', functions: 'src/functions.ts', sandbox: 'src/sandbox/index.ts', 'sandbox-msw': 'src/sandbox/msw.ts', wallet: 'src/wallet/index.ts', webhooks: 'src/webhooks/receiver.ts' },
    dts: { only: true },
    format: ['esm', 'cjs'],
  },
  // The main entry (and its error classes, alone): one module for Node to load at import besides
  // the errors; what it loads later (the generated schemas, webhook verification) is split into
  // chunks of its own.
  // crossborder-sdk/functions is built with it, so its functions and the main entry share one CrossborderCore
  // (and one class per error) in a common chunk.
  // crossborder-sdk/webhooks too (a receiver without the client): it runs the chunk `cb.webhooks.unwrap` loads, so one
  // WebhookVerificationError class serves both entries, and its import loads verification and nothing of the pipeline.
  { ...common, entry: { index: 'src/index.ts', errors: 'src/errors.ts', functions: 'src/functions.ts', webhooks: 'src/webhooks/receiver.ts' }, splitting: true, esbuildPlugins: [passkeyEncoding] },
  // sandbox and wallet, built apart so that they add nothing to the main entry's import.
  { ...common, entry: { sandbox: 'src/sandbox/index.ts', wallet: 'src/wallet/index.ts' }, splitting: true, external: [/^node:/, 'msw'], esbuildPlugins: [importSharedErrors] },
  // sandbox/msw loads msw with a top-level `await import()` in ESM and with `require` in CommonJS (which
  // has no top-level await), so that a missing msw is named as the optional peer to install.
  // No splitting: esbuild would still write the chunks of dynamic imports that tree-shaking removed from
  // the entry (the operations' checks), files nothing loads.
  { ...common, format: ['esm'], entry: { 'sandbox-msw': 'src/sandbox/msw.ts' }, splitting: false, external: [/^node:/, 'msw'], esbuildPlugins: [importSharedErrors] },
  { ...common, format: ['cjs'], entry: { 'sandbox-msw': 'src/sandbox/msw-cjs.ts' }, external: [/^node:/, 'msw'], esbuildPlugins: [importSharedErrors] },
  // crossborder-sdk/payouts (Node: journals on files, Redis, BullMQ), built apart: its types in a build of their own, ioredis and bullmq loaded only when used.
  { entry: { payouts: 'src/payouts/index.ts' }, dts: { only: true }, format: ['esm', 'cjs'] },
  { ...common, entry: { payouts: 'src/payouts/index.ts' }, splitting: true, platform: 'node', external: [/^node:/, 'ioredis', 'bullmq'], esbuildPlugins: [importSharedErrors] },
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: [/^node:/],
    esbuildPlugins: [cliThroughEntries],
  },
]);
