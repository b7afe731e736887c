import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import type { Plugin } from 'esbuild';
import { blankComments } from './scripts/blank-comments';
import { keepSources, lineLevel } from './scripts/line-maps';

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
 * The package's TypeScript as esbuild reads it: each comment written over with spaces (scripts/blank-comments.ts),
 * so the built JavaScript carries none (its TSDoc ships in `src/` and the declarations), every line and column
 * unchanged for the maps.
 */
const withoutComments: Plugin = {
  name: 'without-comments',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!args.path.startsWith(src + sep)) return undefined;
      return { contents: blankComments(readFileSync(args.path, 'utf8'), args.path), loader: 'ts' };
    });
  },
};

/**
 * The generated modules that hold the document's data, not code a call runs through: the zod schemas, the
 * operation table, its effects and names, the compiled checks (calls of src/core/checks.ts, evaluated once
 * when their chunk loads) and the tables of their loaders. No stack frame or step of a debugger lands in them,
 * so their lines are left out of the maps and their TypeScript does not ship (0.4 MB of src/generated/); the
 * built JavaScript of them is plain and readable. The generated code a call runs through keeps its maps and
 * ships: the resource classes (src/generated/resources.ts) and the functions (src/generated/functions.ts).
 * package.json `files` ships src/generated/ accordingly; test/package/pack.test.ts checks both sides.
 */
export const DOCUMENT_DATA = /^src\/generated\/(?!(?:resources|functions)\.ts$)/;

/**
 * Source maps name the package's own `src/` (`../src/core/client.ts` from `dist/`), wherever the build
 * writes (test/setup/packed.ts builds into a staging directory): `node --enable-source-maps` and
 * debuggers show `node_modules/crossborder-sdk/src/...`, the TypeScript read from that file: `src/` ships
 * once (package.json `files`: the modules the maps name), and the maps carry no copy of it (`sourcesContent`,
 * which put each module's source in the map of every ES and CommonJS file built from it: 2.8 MB of 9.5).
 * A file left with nothing to map has no map: one built from the document's data alone ({@link DOCUMENT_DATA}: each
 * operation's checks), or an entry that only re-exports (`dist/errors.js`), whose map was empty.
 */
type TsupPlugin = NonNullable<Options['plugins']>[number];
const packageRelativeSources: TsupPlugin = {
  name: 'package-relative-sources',
  // After tsup's own plugins (tree-shaking, CommonJS splitting) have merged their maps and written them.
  buildEnd({ writtenFiles }) {
    for (const { name } of writtenFiles) {
      if (!name.endsWith('.map')) continue;
      const file = resolve(process.cwd(), name);
      const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; sourcesContent?: unknown; mappings: string; names?: string[] };
      const named = map.sources.map((source) =>
        join('..', relative(root, resolve(dirname(file), source)))
          .split(sep)
          .join('/'),
      );
      // At the grain of lines: each position still maps to its file and line, at a seventh of the size (scripts/line-maps.ts).
      const { sources, mappings } = keepSources({ sources: named, mappings: map.mappings }, (source) => !DOCUMENT_DATA.test(source.slice('../'.length)));
      if (sources.length === 0) {
        const code = file.slice(0, -'.map'.length);
        // esbuild's own comment and the one tsup appends: both name the map.
        writeFileSync(code, readFileSync(code, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+/g, ''));
        rmSync(file);
        continue;
      }
      writeFileSync(file, JSON.stringify({ ...map, sources, sourcesContent: undefined, mappings: lineLevel(mappings), names: [] }));
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

/**
 * The CLI is an entry of the ES build that holds every other ES entry, so what it shares with them
 * (the client, the resources, the sandbox, the payouts runner) is one set of chunks, not a second copy.
 * Its own code ships without maps (src/cli is not shipped), and `dist/cli.js` starts with its shebang
 * and is executable.
 */
export const cliEntry: TsupPlugin = {
  name: 'cli-entry',
  buildEnd({ writtenFiles }) {
    for (const { name } of writtenFiles) {
      if (!name.endsWith('.map')) continue;
      const file = resolve(process.cwd(), name);
      if (!existsSync(file)) continue; // a file with nothing to map: no map (packageRelativeSources)
      const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] };
      // A chunk holding a CLI module is the CLI's alone (only its entry reaches src/cli): no map for it, whatever
      // else it holds (the command names generated for it).
      if (!map.sources.some((source) => source.startsWith('../src/cli/'))) continue;
      const code = file.slice(0, -'.map'.length);
      writeFileSync(code, readFileSync(code, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+/g, ''));
      rmSync(file);
    }
    const cli = writtenFiles.find(({ name }) => /(^|[\\/])cli\.js$/.test(name));
    if (cli) {
      const file = resolve(process.cwd(), cli.name);
      const code = readFileSync(file, 'utf8');
      if (!code.startsWith('#!')) writeFileSync(file, `#!/usr/bin/env node\n${code}`);
      chmodSync(file, 0o755);
    }
  },
};

export default defineConfig([
  // Types of the entries in one build, so each declaration exists once.
  {
    entry: {
      index: 'src/index.ts',
      errors: 'src/errors.ts',
      functions: 'src/functions.ts',
      sandbox: 'src/sandbox/index.ts',
      'sandbox-msw': 'src/sandbox/msw.ts',
      wallet: 'src/wallet/index.ts',
      webhooks: 'src/webhooks/receiver.ts',
    },
    dts: { only: true },
    format: ['esm', 'cjs'],
  },
  // crossborder-sdk/payouts's types in a build of their own.
  { entry: { payouts: 'src/payouts/index.ts' }, dts: { only: true }, format: ['esm', 'cjs'] },
  // Every ES module entry, and the CLI, in one build: a module exists once, in the chunk of the entries that
  // reach it, so an entry loads only what it reaches (the main entry nothing of the sandbox, the payouts or
  // the CLI; crossborder-sdk/webhooks verification and the event types, nothing of the request pipeline), and
  // `instanceof` holds across entries (one class per error). What an entry loads later (the generated schemas,
  // webhook verification, an operation's checks) is a chunk of its own. msw (sandbox/msw), ioredis and
  // bullmq (payouts) are optional peers, loaded only when used.
  {
    ...common,
    format: ['esm'],
    entry: {
      index: 'src/index.ts',
      errors: 'src/errors.ts',
      functions: 'src/functions.ts',
      webhooks: 'src/webhooks/receiver.ts',
      sandbox: 'src/sandbox/index.ts',
      'sandbox-msw': 'src/sandbox/msw.ts',
      wallet: 'src/wallet/index.ts',
      payouts: 'src/payouts/index.ts',
      cli: 'src/cli/index.ts',
    },
    splitting: true,
    external: [/^node:/, 'msw', 'ioredis', 'bullmq'],
    esbuildPlugins: [withoutComments, passkeyEncoding],
    plugins: [packageRelativeSources, cliEntry],
  },
  // CommonJS (no CLI): the main entry with functions and webhooks sharing one CrossborderCore in a common chunk;
  // sandbox and wallet built apart so that they add nothing to the main entry's require, their error classes
  // required from crossborder-sdk/errors so that `instanceof` holds between what the entries throw.
  {
    ...common,
    format: ['cjs'],
    entry: { index: 'src/index.ts', errors: 'src/errors.ts', functions: 'src/functions.ts', webhooks: 'src/webhooks/receiver.ts' },
    splitting: true,
    esbuildPlugins: [withoutComments, passkeyEncoding],
  },
  {
    ...common,
    format: ['cjs'],
    entry: { sandbox: 'src/sandbox/index.ts', wallet: 'src/wallet/index.ts' },
    splitting: true,
    external: [/^node:/, 'msw'],
    esbuildPlugins: [withoutComments, importSharedErrors],
  },
  // sandbox/msw in CommonJS loads msw with `require` (no top-level await), so that a missing msw is named as the optional peer to install.
  {
    ...common,
    format: ['cjs'],
    entry: { 'sandbox-msw': 'src/sandbox/msw-cjs.ts' },
    external: [/^node:/, 'msw'],
    esbuildPlugins: [withoutComments, importSharedErrors],
  },
  {
    ...common,
    format: ['cjs'],
    entry: { payouts: 'src/payouts/index.ts' },
    splitting: true,
    platform: 'node',
    external: [/^node:/, 'ioredis', 'bullmq'],
    esbuildPlugins: [withoutComments, importSharedErrors],
  },
]);
