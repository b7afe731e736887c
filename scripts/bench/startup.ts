/**
 * Costs a user pays before the first call, measured on the built package (dist/):
 * - cold import: `node -e "await import('crossborder-sdk')"` over `node -e ""`, interleaved runs;
 * - consumer type-check: `tsc --noEmit` on a file calling 10 methods, over the same file's baseline
 *   without the SDK, interleaved runs.
 *
 *   npx tsx scripts/bench/startup.ts   (builds dist/ first when it is missing)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './rounds';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function timed(cmd: string, args: string[], cwd: string): number {
  const t0 = performance.now();
  execFileSync(cmd, args, { cwd, stdio: 'ignore', timeout: 120_000 });
  return performance.now() - t0;
}

export interface StartupResult {
  importBaselineMs: number;
  importEsmMs: number;
  importCjsMs: number;
  importDeltaMs: number;
  importCjsDeltaMs: number;
  /** A one-line ES module over `node -e ""`: the ESM loader's own start-up, paid by any ESM import. */
  esmFloorDeltaMs: number;
  tscBaselineS: number;
  tscSdkS: number;
  tscDeltaS: number;
}

export function benchStartup(runs = 25, tscRuns = 7): StartupResult {
  if (!existsSync(join(root, 'dist/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'crossborder-startup-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'crossborder-sdk'), 'dir');
    const node = process.execPath;
    const base: number[] = [];
    const esm: number[] = [];
    const cjs: number[] = [];
    const floor: number[] = [];
    // What any ES module costs: Node starts its ESM loader for the first one (not the SDK's cost).
    writeFileSync(join(dir, 'one-line.mjs'), 'export const one = 1;\n');
    for (let i = 0; i < runs + 2; i++) {
      const b = timed(node, ['-e', ''], dir);
      const e = timed(node, ['--input-type=module', '-e', "await import('crossborder-sdk')"], dir);
      const c = timed(node, ['-e', "require('crossborder-sdk')"], dir);
      const f = timed(node, ['--input-type=module', '-e', "await import('./one-line.mjs')"], dir);
      if (i >= 2) base.push(b), esm.push(e), cjs.push(c), floor.push(f); // the first runs warm the file cache
    }

    const calls = `
      const cb = new Crossborder({ tokenId: 't', clientSecret: 's' });
      export async function run() {
        const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada' });
        await cb.customers.retrieve(customer.id);
        await cb.customers.update(customer.id, { fullName: 'Ada L.' });
        for await (const c of cb.customers.list({ limit: 10 })) console.log(c.id);
        const q = await cb.quotes.create({ source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' }, destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 });
        await cb.quotes.execute(q.id);
        const tx = await cb.transactions.retrieve(q.transactionId);
        console.log(tx.status);
        await cb.transactions.list({ status: 'COMPLETED' });
        await cb.externalAccounts.list({ customerId: customer.id });
        await cb.config.retrieve();
      }`;
    const tsconfig = { compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, skipLibCheck: true, types: [], lib: ['ES2023', 'DOM'] } };
    const write = (name: string, code: string) => {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['main.ts'] }));
      writeFileSync(join(dir, name, 'main.ts'), code);
      writeFileSync(join(dir, name, 'package.json'), '{"type":"module"}');
      symlinkSync(join(dir, 'node_modules'), join(dir, name, 'node_modules'), 'dir');
    };
    // The baseline declares a client of the same shape by hand: the difference is what the SDK's types cost.
    write('baseline', `declare class Crossborder { constructor(o: { tokenId: string; clientSecret: string }); [k: string]: any }\n${calls}`);
    write('sdk', `import { Crossborder } from 'crossborder-sdk';\n${calls}`);
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const tb: number[] = [];
    const ts: number[] = [];
    for (let i = 0; i < tscRuns + 1; i++) {
      const b = timed(node, [tsc, '-p', join(dir, 'baseline')], dir);
      const s = timed(node, [tsc, '-p', join(dir, 'sdk')], dir);
      if (i >= 1) tb.push(b), ts.push(s);
    }
    return {
      importBaselineMs: median(base),
      importEsmMs: median(esm),
      importCjsMs: median(cjs),
      importDeltaMs: median(esm.map((x, i) => x - base[i]!)),
      importCjsDeltaMs: median(cjs.map((x, i) => x - base[i]!)),
      esmFloorDeltaMs: median(floor.map((x, i) => x - base[i]!)),
      tscBaselineS: median(tb) / 1000,
      tscSdkS: median(ts) / 1000,
      tscDeltaS: median(ts.map((x, i) => x - tb[i]!)) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(benchStartup(), null, 2));
}
