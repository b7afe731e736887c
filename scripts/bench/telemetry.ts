/**
 * What the built-in OpenTelemetry support costs per request (issue 24), on dist/, as ratios within
 * one run (contenders interleaved, same loopback server, same requests as client.ts), tracing on
 * taken apart:
 *
 * - today: the SDK as it was before telemetry (the parent of the commit that added
 *   src/core/telemetry.ts), built from git with the main entry's bundler options;
 * - off: dist/, no provider registered (what every user without OpenTelemetry runs);
 * - disabled: dist/ with `telemetry: false`;
 * - on: dist/ with a real tracer provider (sdk-trace-base), a batch span processor and an exporter
 *   that drops what it is given, so the figure is the SDK's cost, not an exporter's;
 * - no-op tracer: dist/ with a tracer provider whose spans record nothing (but say they do), so that
 *   the SDK does all its own recording work: `no-op ÷ off` is what this SDK adds, `on ÷ no-op`
 *   what OpenTelemetry's span and batch processor add.
 *
 * Each round runs the four contenders request by request, taking turns (`--blocks`: a block of
 * requests each, in turn), so that all four meet the same moments of a machine others share. Each
 * ratio is the median of the per-round ratios, with the lowest and highest round beside it.
 *
 * Issue 33 restated the targets where calls are real (the server answering after 1 ms, against
 * OpenTelemetry's own floor): scripts/bench/telemetry-floor.ts measures those; this script keeps the
 * loopback comparison with the SDK before telemetry.
 *
 *   npx tsx scripts/bench/telemetry.ts [--rounds 20] [--requests 300] [--blocks] [--json]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requestExample } from '../../test/helpers/document';
import { startChildServer } from './child-server';
import { droppingProvider } from './dropping-provider';
import { loadSdk, root } from './dist';
import { arg, compareRequests, loadText, main, median, medianRatio, of, type PerRequest, ratioSpread, REQUESTS, rowsOf } from './rounds';

export interface TelemetryRow {
  name: string;
  /** Median µs per request. */
  todayUs: number;
  offUs: number;
  disabledUs: number;
  onUs: number;
  noopUs: number;
  /** Medians of per-round ratios over `today`. */
  offRatio: number;
  disabledRatio: number;
  onRatio: number;
  /** Tracing on ÷ off: what recording costs, apart from anything else that changed since `today`. */
  onOverOff: number;
  /** With a tracer whose spans do nothing ÷ off: the SDK's own recording (attributes, events, the trace's bookkeeping). */
  noopOverOff: number;
  /** On ÷ that: OpenTelemetry's span (ids, times, attribute checks) and its batch processor. */
  onOverNoop: number;
  /** The same ratios of CPU time (user + system) per request: less sensitive than wall time to a machine others share. */
  offCpuRatio: number;
  disabledCpuRatio: number;
  onCpuRatio: number;
  /** The lowest and highest round of each wall-time ratio: the spread around its median. */
  range: Record<'off' | 'disabled' | 'on' | 'onOverOff' | 'noopOverOff' | 'onOverNoop' | 'onCpu', [number, number]>;
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
    execFileSync(
      join(root, 'node_modules/.bin/esbuild'),
      [
        'src/index.ts',
        '--bundle',
        '--format=esm',
        '--platform=neutral',
        '--target=es2022',
        '--splitting',
        '--outdir=dist',
        '--main-fields=module,main',
        '--minify-whitespace',
        '--minify-syntax',
        '--log-level=warning',
        ...external,
      ],
      { cwd: dir },
    );
  }
  if (!readdirSync(join(dir, 'dist')).includes('index.js')) throw new Error(`no baseline build in ${dir}`);
  return { dir, commit };
}

export async function benchTelemetry(rounds = arg('rounds', 20), requests = arg('requests', 300)): Promise<TelemetryRow[]> {
  const { Crossborder } = await loadSdk();
  const today = buildToday();
  const { Crossborder: TodaysCrossborder } = (await import(pathToFileURL(join(today.dir, 'dist/index.js')).href)) as typeof import('../../src/index');
  const { base, stop } = await startChildServer('canned-server.ts');
  const { provider, exported } = droppingProvider();
  const options = { tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' as const };
  const context = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
  const noopSpan = {
    spanContext: () => context,
    setAttribute: () => noopSpan,
    setAttributes: () => noopSpan,
    addEvent: () => noopSpan,
    setStatus: () => noopSpan,
    isRecording: () => true,
    end() {},
  };
  const noopTracer = { startSpan: () => noopSpan };
  const clients = {
    today: new TodaysCrossborder(options),
    off: new Crossborder(options),
    disabled: new Crossborder({ ...options, telemetry: false }),
    on: new Crossborder({ ...options, tracerProvider: provider }),
    noop: new Crossborder({ ...options, tracerProvider: { getTracer: () => noopTracer } }),
  };
  const params = requestExample('createQuote');

  return rowsOf(
    REQUESTS,
    async ([name, kind]): Promise<TelemetryRow> => {
      const call = (cb: (typeof clients)['off']) => (kind === 'get' ? () => cb.customers.list({ limit: 20 }) : () => cb.quotes.create(params));
      const contenders = [call(clients.today), call(clients.off), call(clients.disabled), call(clients.on), call(clients.noop)];
      const { results, load } = await compareRequests(contenders, { rounds, requests, turns: process.argv.includes('--blocks') ? 'block' : 'request' });
      const [t, o, d, n, z] = results as [PerRequest[], PerRequest[], PerRequest[], PerRequest[], PerRequest[]];
      await provider.forceFlush();
      const ratios = {
        off: ratioSpread(of(t, 'wall'), of(o, 'wall')),
        disabled: ratioSpread(of(t, 'wall'), of(d, 'wall')),
        on: ratioSpread(of(t, 'wall'), of(n, 'wall')),
        onOverOff: ratioSpread(of(o, 'wall'), of(n, 'wall')),
        noopOverOff: ratioSpread(of(o, 'wall'), of(z, 'wall')),
        onOverNoop: ratioSpread(of(z, 'wall'), of(n, 'wall')),
        onCpu: ratioSpread(of(t, 'cpu'), of(n, 'cpu')),
      };
      return {
        name,
        todayUs: median(of(t, 'wall')),
        offUs: median(of(o, 'wall')),
        disabledUs: median(of(d, 'wall')),
        onUs: median(of(n, 'wall')),
        noopUs: median(of(z, 'wall')),
        offRatio: ratios.off.median,
        disabledRatio: ratios.disabled.median,
        onRatio: ratios.on.median,
        onOverOff: ratios.onOverOff.median,
        noopOverOff: ratios.noopOverOff.median,
        onOverNoop: ratios.onOverNoop.median,
        offCpuRatio: medianRatio(of(t, 'cpu'), of(o, 'cpu')),
        disabledCpuRatio: medianRatio(of(t, 'cpu'), of(d, 'cpu')),
        onCpuRatio: ratios.onCpu.median,
        range: {
          off: [ratios.off.min, ratios.off.max],
          disabled: [ratios.disabled.min, ratios.disabled.max],
          on: [ratios.on.min, ratios.on.max],
          onOverOff: [ratios.onOverOff.min, ratios.onOverOff.max],
          noopOverOff: [ratios.noopOverOff.min, ratios.noopOverOff.max],
          onOverNoop: [ratios.onOverNoop.min, ratios.onOverNoop.max],
          onCpu: [ratios.onCpu.min, ratios.onCpu.max],
        },
        spansExported: exported(),
        baseline: today.commit,
        requestsPerContender: rounds * requests,
        load,
      };
    },
    async () => {
      stop();
      await provider.shutdown();
    },
  );
}

/** `1.012× [0.981–1.090]`: the median over the rounds, then the lowest and highest round. */
const spread = (median: number, [min, max]: [number, number]) => `${median.toFixed(3)}× [${min.toFixed(3)}–${max.toFixed(3)}]`;

await main(
  import.meta.url,
  () => benchTelemetry(),
  (r) =>
    `${r.name}: today (${r.baseline}) ${r.todayUs.toFixed(0)} µs, off ${r.offUs.toFixed(0)} µs, telemetry:false ${r.disabledUs.toFixed(0)} µs, on ${r.onUs.toFixed(0)} µs, no-op tracer ${r.noopUs.toFixed(0)} µs; ` +
    `off ÷ today ${spread(r.offRatio, r.range.off)} (CPU ${r.offCpuRatio.toFixed(3)}×), telemetry:false ÷ today ${spread(r.disabledRatio, r.range.disabled)} (CPU ${r.disabledCpuRatio.toFixed(3)}×), ` +
    `on ÷ today ${spread(r.onRatio, r.range.on)} (CPU ${spread(r.onCpuRatio, r.range.onCpu)}), on ÷ off ${spread(r.onOverOff, r.range.onOverOff)} (no-op tracer ÷ off ${spread(r.noopOverOff, r.range.noopOverOff)}, on ÷ no-op tracer ${spread(r.onOverNoop, r.range.onOverNoop)}); ${r.spansExported} spans exported; ` +
    `${r.requestsPerContender} requests per contender; load ${loadText(r.load)}`,
);
