/**
 * Bundle size of `import { Crossborder }` + one call, as a browser bundler ships it: esbuild,
 * minified, gzip level 9. Code-split: the initial chunk (what loads at import), what the first
 * call adds (its operation's checks, loaded with it), and what no call loads (webhook
 * verification, response checks). One file: the same program bundled without splitting, so
 * everything the package can load is in it. Also the `crossborder-sdk/wallet` entry.
 *
 *   npx tsx scripts/bench/size.ts
 *   npx tsx scripts/bench/size.ts --tarball   the package as npm installs it: files and bytes (builds dist/ when missing)
 */
import { execFileSync } from 'node:child_process';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LIST_WORKER_BEFORE_RECEIVER, RECEIVER_TARGET, SIZE_BEFORE_ISSUE_36, WORKER_BEFORE_CUTS, WORKER_BEFORE_THIRD_PASS, WORKER_TARGET } from './budget';
import { entriesOf, walk } from '../dist-reach';
import { ensureBuilt, root } from './dist';
import { isMain } from './rounds';

export interface SizeReport {
  name: string;
  /** min+gzip bytes loaded at import: the entry and its static imports. */
  initialGzip: number;
  /** min+gzip bytes loaded by import and the first call: the initial chunk plus the call's checks. */
  firstCallGzip: number;
  /** min+gzip bytes of chunks a call never loads (webhook verification, response checks). */
  lazyGzip: number;
  /** min+gzip bytes of the program bundled as one file (no splitting): everything reachable. */
  oneFileGzip: number;
  /** Largest inputs of the initial chunk, minified bytes. */
  initialTop: [string, number][];
  /** Largest inputs of the one-file bundle, minified bytes. */
  oneFileTop: [string, number][];
}

const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const short = (input: string) => input.replace(/^.*node_modules\//, '').replace(/^.*?src\//, 'src/');
const alias = {
  'crossborder-sdk': join(root, 'src/index.ts'),
  'crossborder-sdk/functions': join(root, 'src/functions.ts'),
  'crossborder-sdk/wallet': join(root, 'src/wallet/index.ts'),
  'crossborder-sdk/webhooks': join(root, 'src/webhooks/receiver.ts'),
};

function top(inputs: Record<string, { bytesInOutput: number }>[], n = 12): [string, number][] {
  const sum = new Map<string, number>();
  for (const set of inputs) for (const [input, info] of Object.entries(set)) sum.set(short(input), (sum.get(short(input)) ?? 0) + info.bytesInOutput);
  return [...sum.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** `checks`: the source modules the program's first call loads (its operation's checks, the table of their loaders): their chunks count towards the first call. */
async function measure(name: string, code: string, checks: string[] = []): Promise<SizeReport> {
  const dir = mkdtempSync(join(tmpdir(), 'crossborder-size-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, code);
    const options = {
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      alias,
    } satisfies BuildOptions;
    const split = await build({ ...options, splitting: true, outdir: join(dir, 'split') });
    const files = new Map(split.outputFiles.map((f) => [f.path, f.contents]));
    const outputs: Metafile['outputs'] = split.metafile.outputs;
    const bytes = (p: string) => files.get(resolve(process.cwd(), p))!;
    const entryOut = Object.keys(outputs).find((p) => outputs[p]!.entryPoint?.endsWith('entry.ts'))!;
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
    const initial = closure([entryOut]);
    const callChunks = checks.flatMap((source) => {
      const chunks = Object.keys(outputs).filter((p) => Object.keys(outputs[p]!.inputs).some((i) => i.endsWith(source)));
      if (chunks.length === 0) throw new Error(`no chunk holds ${source}`);
      return chunks;
    });
    const firstCall = closure([entryOut, ...callChunks]);
    const all = Object.keys(outputs).filter((p) => !p.endsWith('.map'));
    const gzipOf = (set: Iterable<string>) => [...set].reduce((n, p) => n + gz(bytes(p)), 0);

    const one = await build({ ...options, splitting: false, outfile: join(dir, 'one.js') });
    return {
      name,
      initialGzip: gzipOf(initial),
      firstCallGzip: gzipOf(firstCall),
      lazyGzip: gzipOf(all.filter((p) => !firstCall.has(p))),
      oneFileGzip: gz(one.outputFiles.find((f) => f.path.endsWith('one.js'))!.contents),
      initialTop: top([...initial].map((p) => outputs[p]!.inputs)),
      oneFileTop: top(Object.values(one.metafile.outputs).map((o) => o.inputs)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Parts of the initial chunk: what the package must ship at import, then each module of the pipeline. */
export const PARTS: [label: string, files: RegExp][] = [
  ['openapi-fetch (the request layer)', /node_modules\/openapi-fetch\//],
  ['resource classes (src/resources)', /src\/resources\/[^/]+\.ts$/],
  ['error classes (src/core/errors.ts, exported)', /src\/core\/errors\.ts$/],
  ['operation table (src/generated/operations.ts)', /src\/generated\/operations\.ts$/],
  ...[
    'transport',
    'answers',
    'settings',
    'plan',
    'pagination',
    'logger',
    'wire',
    'retry',
    'call-options',
    'validation',
    'signed-retry',
    'dispatcher',
    'api-promise',
  ].map((m) => [`src/core/${m}.ts`, new RegExp(`src/core/${m}\\.ts$`)] as [string, RegExp]),
];

/** The same module, exporting empty stand-ins for every name it exports (what it costs is what goes). */
function stub(path: string): string {
  const source = readFileSync(path, 'utf8');
  const names = new Set<string>();
  for (const m of source.matchAll(/^export (?:abstract |async )?(?:class|function\*?|const|let) (\w+)/gm)) names.add(m[1]!);
  if (/export default/.test(source)) names.add('default');
  for (const m of source.matchAll(/^export \{([^}]*)\}/gm))
    for (const n of m[1]!.split(','))
      if (!/^\s*type\s/.test(n) && n.trim())
        names.add(
          n
            .trim()
            .split(/\s+as\s+/)
            .pop()!,
        );
  return [...names].map((n) => (n === 'default' ? 'export default function () { return {}; }' : `export class ${n} { constructor() {} }`)).join('\n');
}

/** min+gzip bytes of the initial chunk that each part accounts for: the chunk with it, less the chunk with it stubbed out. */
export async function composition(parts_: [string, RegExp][] = PARTS): Promise<{ total: number; parts: [string, number][] }> {
  const code =
    "import { Crossborder } from 'crossborder-sdk';\nconst cb = new Crossborder({ tokenId: 't', clientSecret: 's' });\ncb.customers.list({ limit: 5 }).then((p) => console.log(p.data.length));\n";
  const initial = async (without?: RegExp) => {
    const plugin: Plugin = {
      name: 'stub',
      setup(b) {
        if (without) b.onLoad({ filter: without }, (args) => ({ contents: stub(args.path), loader: 'ts' }));
      },
    };
    const r = await build({
      stdin: { contents: code, resolveDir: root, loader: 'ts' },
      bundle: true,
      minify: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      alias,
      outdir: '/out',
      plugins: [plugin],
    });
    const outputs = r.metafile.outputs;
    const entry = Object.keys(outputs).find((p) => outputs[p]!.entryPoint === '<stdin>')!;
    const seen = new Set<string>();
    const visit = (p: string) => {
      if (seen.has(p)) return;
      seen.add(p);
      for (const imp of outputs[p]!.imports) if (imp.kind === 'import-statement') visit(imp.path);
    };
    visit(entry);
    return [...seen].reduce((n, p) => n + gz(r.outputFiles.find((f) => f.path === resolve('/', p))!.contents), 0);
  };
  const total = await initial();
  const parts: [string, number][] = [];
  for (const [label, files] of parts_) parts.push([label, total - (await initial(files))]);
  return { total, parts };
}

/**
 * Parts of the worker's one-file bundle (issue 36): what each behaviour it still holds costs, min+gzip, by
 * stubbing its modules out of the bundle (as {@link composition} does for the initial chunk; a stub takes
 * code only it used with it, so the parts overlap a little and do not add up to the total).
 */
export const WORKER_PARTS: [label: string, files: RegExp][] = [
  [
    'webhook signature verification (key import: PEM, hex, compressed points; DER; node:crypto or WebCrypto)',
    /src\/(webhooks\/(verify|verifier|encoding)|core\/encoding)\.ts$/,
  ],
  ['webhook envelope, age and event typing (src/webhooks/events.ts, time.ts)', /src\/webhooks\/(events|time)\.ts$/],
  ['answers: the typed error of each status, envelopes, challenges, scrubbing', /src\/core\/answers\.ts$/],
  ['error classes', /src\/core\/errors\.ts$/],
  ['client options, checked once (settings, the unknown-option suggestion)', /src\/core\/(settings|suggest)\.ts$/],
  ['call options and wire checks (header and path values)', /src\/core\/(call-options|wire)\.ts$/],
  ['the attempt loop, retries and undici timeouts', /src\/core\/(transport|retry|dispatcher)\.ts$/],
  ['pagination and APIPromise', /src\/core\/(pagination|api-promise)\.ts$/],
  ['masking of personal data in error details', /src\/core\/logger\.ts$/],
  ['query serialization (openapi-fetch)', /node_modules\/openapi-fetch\//],
  ['signed retry', /src\/core\/signed-retry\.ts$/],
];

/** min+gzip bytes of `program` bundled as one file, and what each part accounts for (the bundle less the bundle with it stubbed out). */
export async function oneFileComposition(program: string, parts_: [string, RegExp][] = WORKER_PARTS): Promise<{ total: number; parts: [string, number][] }> {
  const oneFile = async (without?: RegExp) => {
    const plugin: Plugin = {
      name: 'stub',
      setup(b) {
        if (without) b.onLoad({ filter: without }, (args) => ({ contents: stub(args.path), loader: 'ts' }));
      },
    };
    const r = await build({
      stdin: { contents: program, resolveDir: root, loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
      alias,
      outfile: '/out/one.js',
      plugins: [plugin],
    });
    return gz(r.outputFiles.find((f) => f.path.endsWith('one.js'))!.contents);
  };
  const total = await oneFile();
  const parts: [string, number][] = [];
  for (const [label, files] of parts_) parts.push([label, total - (await oneFile(files))]);
  return { total, parts };
}

/** One source module's share of a one-file bundle: minified bytes (from the source map) and min+gzip bytes. */
export interface ModuleShare {
  /** The module (`src/core/client.ts`, `openapi-fetch/dist/index.mjs`), or `(runtime)` for what no source maps to (esbuild's helpers, the gzip header). */
  module: string;
  minified: number;
  gzip: number;
}

const VLQ = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));

/** The fields of each segment of a source map's `mappings`, line by line (version 3: generated column, source, line, column, name; relative). */
function decodeMappings(mappings: string): number[][][] {
  const lines: number[][][] = [];
  const state = [0, 0, 0, 0, 0];
  for (const line of mappings.split(';')) {
    state[0] = 0;
    const segments: number[][] = [];
    for (const text of line.split(',')) {
      if (!text) continue;
      const fields: number[] = [];
      for (let i = 0, value = 0, shift = 0; i < text.length; i++) {
        const digit = VLQ.get(text[i]!)!;
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      const segment = fields.map((delta, k) => (state[k] = state[k]! + delta));
      segments.push(segment);
    }
    lines.push(segments);
  }
  return lines;
}

/**
 * Which source modules the one-file bundle of `program` is made of, through its source map: every byte of
 * the minified output is the source module of the mapping that covers it. The gzip column is each module's
 * marginal cost in bundle order (the gzip size of the output up to the end of each run of one module's bytes,
 * less the size up to its start): the columns add up to the bundle's min+gzip size exactly; a module late in
 * the bundle costs less than it would alone, as it refers back to what came before.
 */
export async function attribution(program: string): Promise<{ total: number; minified: number; modules: ModuleShare[]; code: string }> {
  const r = await build({
    stdin: { contents: program, resolveDir: root, loader: 'ts', sourcefile: 'worker-entry.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    alias,
    outfile: '/out/one.js',
    sourcemap: 'external',
    charset: 'ascii',
  });
  const code = r.outputFiles.find((f) => f.path.endsWith('one.js'))!.contents;
  const map = JSON.parse(r.outputFiles.find((f) => f.path.endsWith('one.js.map'))!.text) as { sources: string[]; mappings: string };
  // The source of each output byte (ASCII output: a column is a byte); -1 where nothing maps.
  const owner = new Int32Array(code.length).fill(-1);
  const lines = decodeMappings(map.mappings);
  for (let line = 0, at = 0; line < lines.length && at <= code.length; line++) {
    let end = code.indexOf(10, at);
    if (end < 0) end = code.length;
    const segments = lines[line]!;
    for (let k = 0; k < segments.length; k++) {
      const [column, source] = segments[k]!;
      const to = k + 1 < segments.length ? segments[k + 1]![0]! : end - at;
      if (source !== undefined) owner.fill(source, at + column!, Math.min(at + to, end));
    }
    at = end + 1;
  }
  // A package's own source map names its sources relative to itself (openapi-fetch's `../src/index.js`): by package.
  const name = (i: number) => {
    if (i < 0) return '(runtime)';
    const source = map.sources[i]!;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
    if (pkg) return pkg;
    return source.endsWith('worker-entry.ts') ? '(the worker itself)' : short(source);
  };
  const shares = new Map<string, ModuleShare>();
  const share = (i: number) => {
    const key = name(i);
    let s = shares.get(key);
    if (!s) shares.set(key, (s = { module: key, minified: 0, gzip: 0 }));
    return s;
  };
  let previous = gz(new Uint8Array(0));
  share(-1).gzip += previous;
  for (let start = 0; start < code.length;) {
    let end = start + 1;
    while (end < code.length && owner[end] === owner[start]) end++;
    const size = gz(code.subarray(0, end));
    const s = share(owner[start]!);
    s.minified += end - start;
    s.gzip += size - previous;
    previous = size;
    start = end;
  }
  return { total: previous, minified: code.length, modules: [...shares.values()].sort((a, b) => b.gzip - a.gzip), code: new TextDecoder().decode(code) };
}

/** The attribution as a Markdown table (docs/benchmark-notes.md). */
export function attributionTable({ total, minified, modules }: Awaited<ReturnType<typeof attribution>>): string {
  const rows = modules.map(
    (m) => `| \`${m.module}\` | ${m.minified.toLocaleString('en')} | ${m.gzip.toLocaleString('en')} | ${((100 * m.gzip) / total).toFixed(1)} % |`,
  );
  return [
    '| module | minified B | min+gzip B (in bundle order) | share |',
    '|---|---:|---:|---:|',
    ...rows,
    `| **total** | **${minified.toLocaleString('en')}** | **${total.toLocaleString('en')}** | 100 % |`,
  ].join('\n');
}

/**
 * The worker of issue 26, as docs/performance.md shows it (examples/guides/performance/worker.ts): a
 * Fetch handler that lists customers and verifies webhooks, importing only what it uses
 * (`CrossborderCore` and two resource classes, no OpenTelemetry recorder). Its one-file figure is what a
 * worker bundler (wrangler, esbuild) ships.
 */
export const WORKER_PROGRAM = `${readFileSync(join(root, 'examples/guides/performance/worker.ts'), 'utf8')}
export default customerWorker({ tokenId: 't', clientSecret: 's', webhookPublicKey: 'k' });
`;

/** The device side of a wallet session, in the end user's browser: the four things such a page imports (issue 36). */
export const WALLET_PROGRAM =
  "import { generateClientKeyPair, importSessionKey, stamp, WalletSession } from 'crossborder-sdk/wallet';\n" +
  'const kp = await generateClientKeyPair();\nconsole.log(kp.publicKey, importSessionKey, stamp, WalletSession);\n';

/**
 * A worker that only receives webhooks (issue 50 §6): `crossborder-sdk/webhooks`'s `unwrap` with the public key,
 * no client. Target ≤ 6,000 B min+gzip, one file.
 */
export const RECEIVER_PROGRAM = `import { unwrap, WebhookVerificationError } from 'crossborder-sdk/webhooks';
export default {
  async fetch(request: Request, env: { CROSSBORDER_WEBHOOK_PUBLIC_KEY: string }): Promise<Response> {
    try {
      const event = await unwrap(request, undefined, { publicKey: env.CROSSBORDER_WEBHOOK_PUBLIC_KEY });
      return Response.json({ received: event.type });
    } catch (error) {
      if (error instanceof WebhookVerificationError) return new Response(error.reason, { status: 400 });
      throw error;
    }
  },
};
`;

/**
 * The worker that only lists (issue 50 §6): the worker above without its webhooks, `CrossborderCore` without
 * optional parts and `listCustomers(core)`. It stays at or under its 14.3 kB when the receiver entry came.
 */
export const LIST_WORKER_PROGRAM = `import { CrossborderCore } from 'crossborder-sdk';
import { listCustomers } from 'crossborder-sdk/functions';
const core = new CrossborderCore({ tokenId: 't', clientSecret: 's' });
export default {
  async fetch(): Promise<Response> {
    const ids: string[] = [];
    for await (const customer of listCustomers(core, { limit: 20 })) ids.push(customer.id);
    return Response.json(ids);
  },
};
`;

export async function benchSize(): Promise<[client: SizeReport, wallet: SizeReport, worker: SizeReport, receiver: SizeReport, listWorker: SizeReport]> {
  return [
    await measure(
      'import { Crossborder } + one call',
      "import { Crossborder } from 'crossborder-sdk';\nconst cb = new Crossborder({ tokenId: 't', clientSecret: 's' });\ncb.customers.list({ limit: 5 }).then((p) => console.log(p.data.length));\n",
      ['src/generated/checks/listCustomers.ts', 'src/generated/request-checks.ts'],
    ),
    await measure('crossborder-sdk/wallet (browser: generateClientKeyPair, importSessionKey, stamp, WalletSession)', WALLET_PROGRAM),
    // No local checks in it (a core without the requestChecks part): its first call loads nothing more.
    await measure('worker: listCustomers(core) + webhooks.unwrap (CrossborderCore, no optional parts)', WORKER_PROGRAM),
    await measure('webhook receiver: unwrap from crossborder-sdk/webhooks (no client)', RECEIVER_PROGRAM),
    await measure('list-only worker: listCustomers(core) (CrossborderCore, no optional parts)', LIST_WORKER_PROGRAM),
  ];
}

export const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

/** One line: the receiver against its target, the list-only worker against its figure before the receiver entry. */
export function formatReceiver(receiver: SizeReport, listWorker: SizeReport): string {
  return (
    `webhook receiver (crossborder-sdk/webhooks), one file: ${receiver.oneFileGzip} B; target ≤ ${RECEIVER_TARGET} B: ${receiver.oneFileGzip <= RECEIVER_TARGET ? 'met' : `not met (${receiver.oneFileGzip - RECEIVER_TARGET} B over)`}; ` +
    `list-only worker, one file: ${listWorker.oneFileGzip} B; ≤ ${LIST_WORKER_BEFORE_RECEIVER} B before the receiver entry: ${listWorker.oneFileGzip <= LIST_WORKER_BEFORE_RECEIVER ? 'met' : `not met (${listWorker.oneFileGzip - LIST_WORKER_BEFORE_RECEIVER} B over)`}`
  );
}

/** The package as `npm install` unpacks it into node_modules/crossborder-sdk. */
export interface TarballReport {
  /** Files in the tarball. */
  files: number;
  /** Of them, in dist/. */
  distFiles: number;
  /** Bytes unpacked. */
  unpackedBytes: number;
  /** Of them, source maps (dist/*.map). */
  mapBytes: number;
  /** Bytes of the .tgz. */
  packedBytes: number;
  /** What the files are, by kind (issue 50 §8; absent in older results): see {@link TARBALL_PARTS}. */
  parts?: { part: TarballPart; files: number; bytes: number }[];
}

/** The kinds of file in the package, in the order docs/performance.md lists them. */
export type TarballPart = 'esm' | 'cjs' | 'cli' | 'maps' | 'types' | 'src' | 'other';

/** Each kind of file: what it is and why it ships (the rows of docs/performance.md's table). */
export const TARBALL_PARTS: Record<TarballPart, [what: string, why: string]> = {
  esm: [
    '`dist/*.js`, ES modules: the entries (`index`, `errors`, `functions`, `webhooks`, `sandbox`, `sandbox-msw`, `wallet`, `payouts`) and the chunks they load',
    "what `import` loads: each operation's checks, the response checks and webhook verification are chunks of their own, loaded with the first call that needs them",
  ],
  cjs: ['`dist/*.cjs`, the same for `require`', 'CommonJS consumers'],
  cli: [
    '`dist/cli.js` and the chunks only it loads',
    '`npx crossborder-sdk` (every operation as a command, MCP, payouts): an entry of the same ES build, so what it shares with the library (the client, the resources, the sandbox, the runner) is the chunks above, not a copy; no source maps (`src/cli/` is not shipped)',
  ],
  maps: [
    '`dist/*.map`',
    "one per ES module and CommonJS file of code above, at the grain of lines (each position maps to its TypeScript file and line): mappings to `src/`, without a copy of it (`sourcesContent`); a file of the document's data alone (each operation's checks) has none",
  ],
  types: [
    '`dist/*.d.cts`, and a one-line `dist/*.d.ts` per entry',
    "the types, once: each ES entry's `.d.ts` re-exports its CommonJS twin's (`export * from './index.cjs'`); each schema declared once, by its name; indented with tabs",
  ],
  src: [
    '`src/`: the TypeScript the maps name',
    "once, for stack traces (`node --enable-source-maps`) and debuggers: the maps point here instead of each carrying a copy. Its TSDoc is here and in the types, not in `dist/`'s JavaScript; of `src/generated/`, the code a call runs through (the resource classes, the functions), not the document's data",
  ],
  other: [
    '`docs/`, `examples/`, `openapi/production-map.json`, `README.md`, `LICENSE`, `package.json`',
    "the guides, the runnable examples they embed and the production map (the API document is the repository's: what the CLI says of each operation is generated into its code)",
  ],
};

/** The kind of one file of the package, by its path (`cliOnly`: only the CLI's entry, `bin`, loads it). */
export function tarballPart(path: string, cliOnly: boolean): TarballPart {
  if (path.startsWith('src/')) return 'src';
  if (!path.startsWith('dist/')) return 'other';
  if (path.endsWith('.map')) return 'maps';
  if (/\.d\.c?ts$/.test(path)) return 'types';
  if (path.endsWith('.cjs')) return 'cjs';
  return cliOnly ? 'cli' : 'esm';
}

/** Before issue 33 (minified dist/, chunks no entry loaded): 797 files, 728 in dist/, 7.0 MB unpacked. */
export const TARBALL_BEFORE = { files: 797, distFiles: 728, unpackedBytes: 7.0e6 } as const;

/** When issue 50 was filed (`npm pack`: 683 files, 9.4 MB unpacked, 2.3 MB packed; docs/benchmarks.json then). */
export const TARBALL_BEFORE_ISSUE_50 = { files: 683, unpackedBytes: 9_323_484, packedBytes: 2_238_846 } as const;

/** Issue 50 §8's target: the package unpacked, source maps included, in bytes. */
export const TARBALL_TARGET = 6_000_000;

/** What `npm pack` would put in the tarball of the built dist/ (`npm pack --dry-run --json`, no scripts: build first). */
export function benchTarball(): TarballReport {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [info] = JSON.parse(out) as { entryCount: number; unpackedSize: number; size: number; files: { path: string; size: number }[] }[];
  if (!info || !info.files.some((f) => f.path === 'dist/index.js')) throw new Error('npm pack lists no dist/index.js: build dist/ first (npm run build)');
  // The CLI's own files: what its entry loads and no entry of the library does.
  const { bin, library } = entriesOf(root);
  const { reached: forLibrary } = walk(root, library);
  const cliOnly = new Set([...walk(root, bin).reached].filter((file) => !forLibrary.has(file)));
  return tarballReport(info, cliOnly);
}

/** The report of `npm pack --json`'s answer; `cliOnly`: the files only the CLI's entry loads. */
export function tarballReport(
  info: { entryCount: number; unpackedSize: number; size: number; files: { path: string; size: number }[] },
  cliOnly: ReadonlySet<string>,
): TarballReport {
  const parts = new Map<TarballPart, { part: TarballPart; files: number; bytes: number }>(
    (Object.keys(TARBALL_PARTS) as TarballPart[]).map((part) => [part, { part, files: 0, bytes: 0 }]),
  );
  for (const f of info.files) {
    const row = parts.get(tarballPart(f.path, cliOnly.has(f.path)))!;
    row.files++;
    row.bytes += f.size;
  }
  return {
    files: info.entryCount,
    distFiles: info.files.filter((f) => f.path.startsWith('dist/')).length,
    unpackedBytes: info.unpackedSize,
    mapBytes: info.files.filter((f) => f.path.endsWith('.map')).reduce((n, f) => n + f.size, 0),
    packedBytes: info.size,
    parts: [...parts.values()].filter((p) => p.files > 0),
  };
}

const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

/** One line: the tarball against the figures before issue 33 and issue 50, and issue 50's target. */
export function formatTarball(t: TarballReport): string {
  return (
    `tarball: ${t.files} files (${t.distFiles} in dist/), ${mb(t.unpackedBytes)} unpacked (source maps ${mb(t.mapBytes)}), ${mb(t.packedBytes)} packed; ` +
    `target ≤ ${mb(TARBALL_TARGET)} unpacked with the source maps: ${t.unpackedBytes <= TARBALL_TARGET ? 'met' : `not met (${mb(t.unpackedBytes - TARBALL_TARGET)} over)`}; ` +
    `before the package was slimmed: ${TARBALL_BEFORE_ISSUE_50.files} files, ${mb(TARBALL_BEFORE_ISSUE_50.unpackedBytes)} unpacked, ${mb(TARBALL_BEFORE_ISSUE_50.packedBytes)} packed; ` +
    `before unloaded chunks were dropped: ${TARBALL_BEFORE.files} files (${TARBALL_BEFORE.distFiles} in dist/), ${mb(TARBALL_BEFORE.unpackedBytes)} unpacked`
  );
}

/** Markers around the part of docs/performance.md that `npm run bench` writes (never edited by hand). */
export const TARBALL_SECTION_MARKERS = [
  '<!-- npm run bench: the package (scripts/bench/size.ts tarballSection) -->',
  '<!-- end of what npm run bench writes -->',
] as const;

/** docs/performance.md's figures of the package, from a measured report (`npm run bench` renders them there from docs/benchmarks.json). */
export function tarballSection(t: TarballReport, date: string): string {
  const rows = (t.parts ?? []).map(({ part, files, bytes }) => `| ${TARBALL_PARTS[part][0]} | ${files} | ${mb(bytes)} | ${TARBALL_PARTS[part][1]} |`);
  return [
    TARBALL_SECTION_MARKERS[0],
    `\`npm install crossborder-sdk\` unpacks **${t.files} files, ${mb(t.unpackedBytes)}** (${mb(t.packedBytes)} as the \`.tgz\`), source maps included`,
    `(${mb(t.mapBytes)}): ${t.unpackedBytes <= TARBALL_TARGET ? 'within' : 'over'} its target of ${mb(TARBALL_TARGET)}. Before the package was slimmed: ${TARBALL_BEFORE_ISSUE_50.files} files,`,
    `${mb(TARBALL_BEFORE_ISSUE_50.unpackedBytes)} (${mb(TARBALL_BEFORE_ISSUE_50.packedBytes)} packed); before unloaded chunks were dropped: ${TARBALL_BEFORE.files} files, ${mb(TARBALL_BEFORE.unpackedBytes)}. Measured ${date} by`,
    '`npm run bench` (its size part alone: `npm run bench -- --size`), which writes this paragraph and the table from',
    '[benchmarks.json](benchmarks.json); `npx tsx scripts/bench/size.ts --tarball` counts them in the repository.',
    '',
    '| what | files | bytes | why |',
    '|---|---:|---:|---|',
    ...rows,
    TARBALL_SECTION_MARKERS[1],
  ].join('\n');
}

/** `page` with its marked section replaced by `section` (an error when the markers are missing). */
export function withTarballSection(page: string, section: string): string {
  return withMarkedSection(page, section, TARBALL_SECTION_MARKERS);
}

/** Replaces the part of a page between two markers (markers included) by `section`, which carries them. */
export function withMarkedSection(page: string, section: string, [open, close]: readonly [string, string]): string {
  const start = page.indexOf(open);
  const end = page.indexOf(close, start);
  if (start < 0 || end < start) throw new Error(`docs/performance.md has no section marked ${open} … ${close}`);
  return page.slice(0, start) + section + page.slice(end + close.length);
}

/** Markers around docs/performance.md's paragraphs of the worker's figures, which `npm run bench` writes. */
export const WORKER_SECTION_MARKERS = [
  '<!-- npm run bench: the worker (scripts/bench/size.ts workerSection) -->',
  '<!-- end of what npm run bench writes about the worker -->',
] as const;

const kBAndBytes = (n: number) => `${kB(n)} (${n.toLocaleString('en')} B)`;

/** docs/performance.md's figures of the worker, the full client beside it, the receiver and the list-only worker, from measured reports. */
export function workerSection(r: { size: SizeReport; worker: SizeReport; receiver: SizeReport; listWorker: SizeReport }, date: string): string {
  const listMet = r.listWorker.oneFileGzip <= LIST_WORKER_BEFORE_RECEIVER;
  return [
    WORKER_SECTION_MARKERS[0],
    `Bundled by esbuild into one file, minified and gzipped, it is **${kBAndBytes(r.worker.oneFileGzip)}**; before the bundle cuts, when the`,
    `same worker went through \`CrossborderCore\` and the \`Customers\` class, which always ran the checks, it was ${kBAndBytes(SIZE_BEFORE_ISSUE_36.worker)}.`,
    `\`import { Crossborder }\` with the same calls is ${kBAndBytes(r.size.oneFileGzip)} one file and its initial chunk ${kBAndBytes(r.size.initialGzip)}.`,
    `A core without parts holds none of the compiled checks and their messages, the logger and its redaction, or the other`,
    `operations (what each cut saved: benchmark notes, maintainers/benchmark-notes.md in the repository).`,
    '',
    `That worker has no size target of its own: a worker that only receives webhooks needs none of the pipeline, and takes`,
    `\`crossborder-sdk/webhooks\` instead (\`unwrap(body, headers, { publicKey })\`, the same code as \`webhooks.unwrap\`,`,
    `[webhooks](webhooks.md#a-receiver-without-the-client-crossborder-sdkwebhooks)): that receiver bundles to **${kBAndBytes(r.receiver.oneFileGzip)}** one file,`,
    `min+gzip, against a target of ${RECEIVER_TARGET.toLocaleString('en')} B (${r.receiver.oneFileGzip <= RECEIVER_TARGET ? 'met' : 'not met'}); a worker that only lists is **${kBAndBytes(r.listWorker.oneFileGzip)}**,`,
    `against the ${kBAndBytes(LIST_WORKER_BEFORE_RECEIVER)} it was before the receiver entry (${listMet ? 'met' : 'not met'}). Measured ${date} by \`npm run bench\``,
    `(its size part alone: \`npm run bench -- --size\`), which writes these paragraphs from [benchmarks.json](benchmarks.json);`,
    `\`npx tsx scripts/bench/size.ts\` prints the bundles, \`npm test\` holds each to a ceiling (scripts/bench/budget.ts), and`,
    `\`test/package/modular.test.ts\` bundles this file from the packed package and runs it against the sandbox.`,
    WORKER_SECTION_MARKERS[1],
  ].join('\n');
}

if (isMain(import.meta.url)) {
  if (process.argv.includes('--tarball')) {
    ensureBuilt();
    console.log(formatTarball(benchTarball()));
    process.exit(0);
  }
  const reports = await benchSize();
  if (process.argv.includes('--attribution')) {
    console.log(attributionTable(await attribution(WORKER_PROGRAM)));
    process.exit(0);
  }
  if (process.argv.includes('--composition')) {
    const { total, parts } = await composition();
    console.log(`initial chunk ${kB(total)}: ${parts.map(([l, b]) => `${l} ${kB(b)}`).join('; ')}`);
    const worker = await oneFileComposition(WORKER_PROGRAM);
    console.log(`worker, one file ${kB(worker.total)}: ${worker.parts.map(([l, b]) => `${l} ${kB(b)}`).join('; ')}`);
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(reports));
  else {
    const worker = reports[2];
    console.log(
      `worker, one file: ${worker.oneFileGzip} B; ${WORKER_BEFORE_THIRD_PASS} B before issue 36 §3's third pass (9aef1de); baseline ${WORKER_BEFORE_CUTS} B (9117846, before issue 36 §3's cuts), ${SIZE_BEFORE_ISSUE_36.worker} B before issue 36; ` +
        `its ${WORKER_TARGET} B target retired by issue 50 §10 (a receiver takes crossborder-sdk/webhooks; what the worker holds: --attribution)`,
    );
    console.log(formatReceiver(reports[3], reports[4]));
    for (const r of reports) {
      console.log(
        `${r.name}: initial chunk ${kB(r.initialGzip)}, with the first call ${kB(r.firstCallGzip)}, never loaded by the call ${kB(r.lazyGzip)}; one file ${kB(r.oneFileGzip)} (min+gzip)`,
      );
      console.log(`  initial chunk: ${r.initialTop.map(([i, b]) => `${i} ${b}`).join(', ')}`);
      console.log(`  one file: ${r.oneFileTop.map(([i, b]) => `${i} ${b}`).join(', ')}`);
    }
  }
}
