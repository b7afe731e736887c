/**
 * Costs a user pays before and at the first call, measured on the built package (dist/), imported by
 * its name from a consumer directory, in fresh processes, interleaved runs:
 * - cold import: `node -e "await import('crossborder-sdk')"` (and `require`) over `node -e ""`;
 * - first call in a cold process: import, construct, one `customers.list()` to a loopback server in
 *   its own process, against one raw `fetch` GET (same timeout mechanism) in a cold process;
 * - consumer type-check: `tsc --noEmit` on a file calling 10 methods, over the same file's baseline
 *   without the SDK.
 *
 *   npx tsx scripts/bench/startup.ts   (builds dist/ first when it is missing)
 *   npx tsx scripts/bench/startup.ts --compare <consumer A> <consumer B>
 *     the import's own CPU and wall time, measured inside cold processes, in two consumer projects
 *     (each with crossborder-sdk in its node_modules, e.g. two builds of the package unpacked from their
 *     tarballs), interleaved: what a build change costs at import, steadier than process wall times on
 *     a loaded machine.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from './child-server';
import { ensureBuilt, root } from './dist';
import { isMain, load1, median } from './rounds';

function timed(cmd: string, args: string[], cwd: string): number {
  const t0 = performance.now();
  execFileSync(cmd, args, { cwd, stdio: 'ignore', timeout: 120_000 });
  return performance.now() - t0;
}

interface FirstCall {
  importMs: number;
  callMs: number;
  totalMs: number;
}

export interface StartupResult {
  /** The SDK's first call (after import and construction) in a cold process. */
  firstCallMs: number;
  /** One raw fetch GET in a cold process (its own first call: undici loads then). */
  rawFirstCallMs: number;
  /** Median of per-run differences: SDK first call − raw first call. */
  firstCallDeltaMs: number;
  /** Import and construction, then the first call, over the raw first call. */
  importAndFirstCallDeltaMs: number;
  load: [number, number];
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

export async function benchStartup(runs = 25, tscRuns = 7): Promise<StartupResult> {
  ensureBuilt();
  const before = load1();
  const dir = mkdtempSync(join(tmpdir(), 'crossborder-startup-'));
  const server = await startChildServer('canned-server.ts');
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
      if (i >= 2) (base.push(b), esm.push(e), cjs.push(c), floor.push(f)); // the first runs warm the file cache
    }

    copyFileSync(join(root, 'scripts/bench/first-call.mjs'), join(dir, 'first-call.mjs'));
    const first = (mode: 'sdk' | 'raw') =>
      JSON.parse(execFileSync(node, [join(dir, 'first-call.mjs'), server.base, mode], { cwd: dir, encoding: 'utf8', timeout: 60_000 }).trim()) as FirstCall;
    const sdkFirst: FirstCall[] = [];
    const rawFirst: FirstCall[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const s = first('sdk');
      const r = first('raw');
      if (i >= 2) (sdkFirst.push(s), rawFirst.push(r));
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
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        noEmit: true,
        skipLibCheck: true,
        types: [],
        lib: ['ES2023', 'DOM'],
      },
    };
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
      if (i >= 1) (tb.push(b), ts.push(s));
    }
    return {
      firstCallMs: median(sdkFirst.map((x) => x.callMs)),
      rawFirstCallMs: median(rawFirst.map((x) => x.callMs)),
      firstCallDeltaMs: median(sdkFirst.map((x, i) => x.callMs - rawFirst[i]!.callMs)),
      importAndFirstCallDeltaMs: median(sdkFirst.map((x, i) => x.totalMs - rawFirst[i]!.totalMs)),
      load: [before, load1()],
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
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ImportCost {
  /** Median wall time of the import, measured inside the process (ms). */
  wallMs: number;
  /** Median CPU time (user + system) of the import, measured inside the process (ms). */
  cpuMs: number;
}

/** `import` and `require` of crossborder-sdk in cold processes, in each consumer directory, interleaved. */
export function compareImport(consumers: string[], runs = 30): { consumer: string; esm: ImportCost; cjs: ImportCost }[] {
  const probe = (load: string) =>
    `const c = process.cpuUsage(); const t = performance.now(); ${load}; const u = process.cpuUsage(c); console.log(JSON.stringify([performance.now() - t, (u.user + u.system) / 1000]));`;
  const kinds = [
    ['esm', ['--input-type=module', '-e', probe("await import('crossborder-sdk')")]],
    ['cjs', ['-e', probe("require('crossborder-sdk')")]],
  ] as const;
  const samples = consumers.map(() => ({ esm: [] as [number, number][], cjs: [] as [number, number][] }));
  for (let i = 0; i < runs + 2; i++) {
    consumers.forEach((cwd, c) => {
      for (const [kind, args] of kinds) {
        const sample = JSON.parse(execFileSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 60_000 }).trim()) as [number, number];
        if (i >= 2) samples[c]![kind].push(sample); // the first runs warm the file cache
      }
    });
  }
  const cost = (xs: [number, number][]): ImportCost => ({ wallMs: median(xs.map((x) => x[0])), cpuMs: median(xs.map((x) => x[1])) });
  return consumers.map((consumer, c) => ({ consumer, esm: cost(samples[c]!.esm), cjs: cost(samples[c]!.cjs) }));
}

if (isMain(import.meta.url) && process.argv.includes('--compare')) {
  const consumers = process.argv.slice(process.argv.indexOf('--compare') + 1).filter((a) => !a.startsWith('--'));
  if (consumers.length < 2) throw new Error('--compare needs two consumer directories, each with node_modules/crossborder-sdk');
  const before = load1();
  for (const { consumer, esm, cjs } of compareImport(consumers)) {
    console.log(
      `${consumer}: import ${esm.cpuMs.toFixed(1)} ms CPU (${esm.wallMs.toFixed(1)} ms wall), require ${cjs.cpuMs.toFixed(1)} ms CPU (${cjs.wallMs.toFixed(1)} ms wall)`,
    );
  }
  console.log(`load ${before.toFixed(2)} → ${load1().toFixed(2)}, medians of 30 cold processes each`);
} else if (isMain(import.meta.url)) {
  const r = await benchStartup();
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : JSON.stringify(r, null, 2));
}
