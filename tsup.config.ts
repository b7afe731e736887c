import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import type { Plugin } from 'esbuild';

const src = resolve(dirname(fileURLToPath(import.meta.url)), 'src');

/**
 * Error classes the other entries share with the main one. `instanceof` must hold across entries
 * (a `WalletCryptoError` thrown by `crossborder-sdk/wallet` is the class `crossborder-sdk` exports),
 * so the `sandbox` and `wallet` builds import these modules from the main entry instead of
 * bundling copies. Each name they import is exported by src/index.ts.
 */
const SHARED_WITH_MAIN = new Set([resolve(src, 'core/errors.ts'), resolve(src, 'wallet/errors.ts')]);

const importSharedFromMain: Plugin = {
  name: 'import-shared-from-main',
  setup(build) {
    build.onResolve({ filter: /\/errors$/ }, (args) => {
      const target = resolve(args.resolveDir, `${args.path}.ts`);
      return SHARED_WITH_MAIN.has(target) ? { path: 'crossborder-sdk', external: true } : undefined;
    });
  },
};

const common: Options = {
  format: ['esm', 'cjs'],
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  external: [/^node:/],
  treeshake: true,
  // Comments and blank space are dropped (the docs live in the .d.ts): less for Node to parse at import.
  minifyWhitespace: true,
  minifySyntax: true,
};

export default defineConfig([
  // Types of the three entries in one build, so each declaration exists once.
  {
    entry: { index: 'src/index.ts', sandbox: 'src/sandbox/index.ts', wallet: 'src/wallet/index.ts' },
    dts: { only: true },
    format: ['esm', 'cjs'],
  },
  // The main entry alone: one module for Node to load at import; what it loads later (the
  // generated schemas, webhook verification) is split into chunks of its own.
  { ...common, entry: { index: 'src/index.ts' }, splitting: true },
  // sandbox and wallet, on top of the main entry.
  { ...common, entry: { sandbox: 'src/sandbox/index.ts', wallet: 'src/wallet/index.ts' }, splitting: true, esbuildPlugins: [importSharedFromMain] },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: [/^node:/],
  },
]);
