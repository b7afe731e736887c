/**
 * Bundle size of `import { Crossborder }` + one call, as a browser bundler would ship it: esbuild,
 * minified, code-split (chunks loaded only by `import()` — webhook verification, opt-in response
 * validation — are reported apart), gzip level 9. Also the `crossborder-sdk/wallet` entry.
 *
 *   npx tsx scripts/bench/size.ts
 */
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface SizeReport {
  name: string;
  /** min+gzip bytes of `import` alone (entry and its static imports). */
  importGzip: number;
  /** min+gzip bytes a call loads: the import plus the chunk of the generated schemas (params validation). */
  callGzip: number;
  callMin: number;
  /** min+gzip bytes of chunks a call never loads (webhook verification, loaded by `unwrap`). */
  lazyGzip: number;
  /** Largest inputs of what a call loads, minified bytes. */
  top: [string, number][];
}

async function measure(name: string, code: string): Promise<SizeReport> {
  const dir = mkdtempSync(join(tmpdir(), 'crossborder-size-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, code);
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      outdir: join(dir, 'out'),
      write: false,
      metafile: true,
      logLevel: 'silent',
      alias: { 'crossborder-sdk': join(root, 'src/index.ts'), 'crossborder-sdk/wallet': join(root, 'src/wallet/index.ts') },
    });
    const files = new Map(result.outputFiles.map((f) => [f.path, f.contents]));
    const outputs = result.metafile.outputs;
    const key = (p: string) => resolve(process.cwd(), p);
    const entryOut = Object.keys(outputs).find((p) => outputs[p]!.entryPoint !== undefined)!;
    const closure = (start: string[]) => {
      const seen = new Set<string>();
      const visit = (p: string) => {
        if (seen.has(p)) return;
        seen.add(p);
        for (const imp of outputs[p]!.imports) if (imp.kind === 'import-statement') visit(imp.path);
      };
      start.forEach(visit);
      return seen;
    };
    const importSet = closure([entryOut]);
    // The call validates its params: the chunk holding the generated schemas is loaded by it.
    const schemaChunks = Object.keys(outputs).filter((p) => Object.keys(outputs[p]!.inputs).some((i) => i.endsWith('src/generated/zod.gen.ts')));
    const callSet = closure([entryOut, ...schemaChunks]);
    const gzipOf = (set: Set<string>) => [...set].reduce((n, p) => n + gzipSync(files.get(key(p))!, { level: 9 }).length, 0);
    const minOf = (set: Set<string>) => [...set].reduce((n, p) => n + files.get(key(p))!.length, 0);
    const all = new Set(Object.keys(outputs).filter((p) => !p.endsWith('.map')));
    const lazy = new Set([...all].filter((p) => !callSet.has(p)));
    const inputs = new Map<string, number>();
    for (const p of callSet) {
      for (const [input, info] of Object.entries(outputs[p]!.inputs)) inputs.set(input, (inputs.get(input) ?? 0) + info.bytesInOutput);
    }
    const top = [...inputs.entries()]
      .map(([k, v]) => [k.replace(/^.*node_modules\//, '').replace(/^.*?src\//, 'src/'), v] as [string, number])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10);
    return { name, importGzip: gzipOf(importSet), callGzip: gzipOf(callSet), callMin: minOf(callSet), lazyGzip: gzipOf(lazy), top };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchSize(): Promise<SizeReport[]> {
  return [
    await measure(
      "import { Crossborder } + one call",
      "import { Crossborder } from 'crossborder-sdk';\nconst cb = new Crossborder({ tokenId: 't', clientSecret: 's' });\ncb.customers.list({ limit: 5 }).then((p) => console.log(p.data.length));\n",
    ),
    await measure(
      'crossborder-sdk/wallet (browser)',
      "import { generateClientKeyPair, WalletSession } from 'crossborder-sdk/wallet';\nconst kp = await generateClientKeyPair();\nconsole.log(kp.publicKey, WalletSession);\n",
    ),
  ];
}

export const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchSize()) {
    console.log(`${r.name}: ${kB(r.callGzip)} min+gzip for the call (${kB(r.callMin)} min); import alone ${kB(r.importGzip)}; never loaded by a call ${kB(r.lazyGzip)}`);
    for (const [input, bytes] of r.top) console.log(`   ${String(bytes).padStart(6)}  ${input}`);
  }
}
