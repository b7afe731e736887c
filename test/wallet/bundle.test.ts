import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { generateSessionKeyPair, sealSessionKey } from '../../src/sandbox/domain/wallet-crypto';
import { nodeCheckStamp } from './node-reference';

const entry = fileURLToPath(new URL('../../src/wallet/index.ts', import.meta.url));
const BUDGET_BYTES = 40 * 1024;

describe('crossborder-sdk/wallet browser bundle', () => {
  it('bundles for the browser with no Node import at all (workerd refuses even a dead import("crypto")) and stays small', async () => {
    const result = await esbuild.build({
      entryPoints: [entry],
      platform: 'browser',
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]!.text;

    const externals = Object.entries(result.metafile.inputs).flatMap(([importer, input]) =>
      input.imports.filter((imp) => imp.external).map((imp) => ({ importer, ...imp })),
    );
    expect(externals).toEqual([]);
    expect(code).not.toMatch(/["'`]node:/);
    expect(code).not.toMatch(/\bBuffer\b/);
    expect(code).not.toMatch(/\brequire\(/);
    const builtins = new Set(builtinModules.filter((m) => !m.startsWith('_')));
    const imported = [...code.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!);
    expect(imported.filter((m) => builtins.has(m))).toEqual([]);
    expect(code).not.toMatch(/import\(\s*["'](node:)?crypto["']\s*\)/);
    expect(Object.keys(result.metafile.inputs).some((p) => p.startsWith('src/') && p.includes('sandbox'))).toBe(false);

    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(`crossborder-sdk/wallet: ${(code.length / 1024).toFixed(1)} kB min, ${(gzipped / 1024).toFixed(1)} kB min+gzip`);
    expect(gzipped).toBeLessThan(BUDGET_BYTES);

    // The bundle works on its own: open a sealed key and stamp with it.
    const dir = mkdtempSync(join(tmpdir(), 'wallet-bundle-'));
    try {
      const file = join(dir, 'wallet.mjs');
      writeFileSync(file, code);
      const wallet = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof import('../../src/wallet');
      const keyPair = await wallet.generateClientKeyPair();
      const session = generateSessionKeyPair();
      const sessionKey = await keyPair.decryptSessionKey(await sealSessionKey(keyPair.publicKey, session.privateKey));
      expect(nodeCheckStamp(await wallet.stamp('bundled', sessionKey), 'bundled').verified).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
