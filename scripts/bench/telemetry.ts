/**
 * What the built-in OpenTelemetry support costs per request (issue 24), on dist/, as ratios within
 * one run (contenders interleaved, same loopback server, same requests as client.ts):
 *
 * - today: the SDK as it was before telemetry (the parent of the commit that added
 *   src/core/telemetry.ts), built from git with the main entry's bundler options;
 * - off: dist/, no provider registered (what every user without OpenTelemetry runs);
 * - disabled: dist/ with `telemetry: false`;
 * - on: dist/ with a real tracer provider (sdk-trace-base), a batch span processor and an exporter
 *   that drops what it is given, so the figure is the SDK's cost, not an exporter's.
 *
 *   npx tsx scripts/bench/telemetry.ts [--rounds 20] [--requests 300]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { requestExample } from '../../test/helpers/document';
import { startChildServer } from './child-server';
import { loadSdk, root } from './dist';
import { arg, interleaved, isMain, load1, median, medianRatio } from './rounds';

export interface TelemetryRow {
  name: string;
  /** Median µs per request. */
  todayUs: number;
  offUs: number;
  disabledUs: number;
  onUs: number;
  /** Medians of per-round ratios over `today`. */
  offRatio: number;
  disabledRatio: number;
  onRatio: number;
  /** The same ratios of CPU time (user + system) per request: less sensitive than wall time to a machine others share. */
  offCpuRatio: number;
  disabledCpuRatio: number;
  onCpuRatio: number;
  spansExported: number;
  baseline: string;
  requestsPerContender: number;
  load: [number, number];
}

/** The commit before telemetry, built as dist/'s main entry is (esbuild, split, es2022, neutral). */
function buildToday(): { dir: string; commit: string } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const added = git('log', '--diff-filter=A', '--format=%H', '--', 'src/core/telemetry.ts').split('\n').pop();
  const commit = added ? git('rev-parse', '--short', `${added}^`) : git('rev-parse', '--short', 'HEAD');
  // One build per checkout: it resolves its dependencies through a link to this checkout's node_modules.
  const dir = join(tmpdir(), `crossborder-bench-today-${commit}-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`);
  if (!existsSync(join(dir, 'dist/index.js')) || !existsSync(join(dir, 'node_modules/openapi-fetch'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${commit} src | tar -x -C ${JSON.stringify(dir)}`], { cwd: root });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    const external = ['node:*', 'openapi-fetch', 'zod', '@noble/*', '@scure/*'].map((e) => `--external:${e}`);
    execFileSync(join(root, 'node_modules/.bin/esbuild'), ['src/index.ts', '--bundle', '--format=esm', '--platform=neutral', '--target=es2022', '--splitting', '--outdir=dist', '--main-fields=module,main', '--minify-whitespace', '--minify-syntax', '--log-level=warning', ...external], { cwd: dir });
  }
  if (!readdirSync(join(dir, 'dist')).includes('index.js')) throw new Error(`no baseline build in ${dir}`);
  return { dir, commit };
}

export async function benchTelemetry(rounds = arg('rounds', 20), requests = arg('requests', 300)): Promise<TelemetryRow[]> {
  const { Crossborder } = await loadSdk();
  const today = buildToday();
  const { Crossborder: TodaysCrossborder } = (await import(pathToFileURL(join(today.dir, 'dist/index.js')).href)) as typeof import('../../src/index');
  const { base, stop } = await startChildServer('canned-server.ts');
  let exported = 0;
  const drop: SpanExporter = {
    export(spans: ReadableSpan[], done) {
      exported += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(drop)] });
  const options = { tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' as const };
  const clients = {
    today: new TodaysCrossborder(options),
    off: new Crossborder(options),
    disabled: new Crossborder({ ...options, telemetry: false }),
    on: new Crossborder({ ...options, tracerProvider: provider }),
  };
  const params = requestExample('createQuote');

  async function measure(fn: () => PromiseLike<unknown>): Promise<{ wall: number; cpu: number }> {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < requests; i++) await fn();
    const c = process.cpuUsage(cpu0);
    return { wall: ((performance.now() - t0) * 1000) / requests, cpu: (c.user + c.system) / requests };
  }
  const wall = (xs: { wall: number }[]) => xs.map((x) => x.wall);
  const cpu = (xs: { cpu: number }[]) => xs.map((x) => x.cpu);

  const rows: TelemetryRow[] = [];
  try {
    for (const [name, kind] of [
      ['GET list, first page (20 customers)', 'get'],
      ['POST quote create', 'post'],
    ] as const) {
      const call = (cb: (typeof clients)['off']) => (kind === 'get' ? () => cb.customers.list({ limit: 20 }) : () => cb.quotes.create(params));
      const order = [call(clients.today as never), call(clients.off), call(clients.disabled), call(clients.on)];
      for (let i = 0; i < 300; i++) for (const fn of order) await fn(); // warm up every path and the socket pool
      const before = load1();
      const [t, o, d, n] = await interleaved(rounds, order.map((fn) => () => measure(fn)));
      await provider.forceFlush();
      rows.push({
        name,
        todayUs: median(wall(t!)),
        offUs: median(wall(o!)),
        disabledUs: median(wall(d!)),
        onUs: median(wall(n!)),
        offRatio: medianRatio(wall(t!), wall(o!)),
        disabledRatio: medianRatio(wall(t!), wall(d!)),
        onRatio: medianRatio(wall(t!), wall(n!)),
        offCpuRatio: medianRatio(cpu(t!), cpu(o!)),
        disabledCpuRatio: medianRatio(cpu(t!), cpu(d!)),
        onCpuRatio: medianRatio(cpu(t!), cpu(n!)),
        spansExported: exported,
        baseline: today.commit,
        requestsPerContender: rounds * requests,
        load: [before, load1()],
      });
    }
  } finally {
    stop();
    await provider.shutdown();
  }
  return rows;
}

if (isMain(import.meta.url)) {
  const rows = await benchTelemetry();
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else {
    for (const r of rows) {
      console.log(
        `${r.name}: today (${r.baseline}) ${r.todayUs.toFixed(0)} µs, off ${r.offUs.toFixed(0)} µs, telemetry:false ${r.disabledUs.toFixed(0)} µs, on ${r.onUs.toFixed(0)} µs; ` +
          `off ÷ today ${r.offRatio.toFixed(3)}× (CPU ${r.offCpuRatio.toFixed(3)}×), telemetry:false ÷ today ${r.disabledRatio.toFixed(3)}× (CPU ${r.disabledCpuRatio.toFixed(3)}×), ` +
          `on ÷ today ${r.onRatio.toFixed(3)}× (CPU ${r.onCpuRatio.toFixed(3)}×); ${r.spansExported} spans exported; ` +
          `${r.requestsPerContender} requests per contender; load ${r.load.map((l) => l.toFixed(2)).join(' → ')}`,
      );
    }
  }
}
