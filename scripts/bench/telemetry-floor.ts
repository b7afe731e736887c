/**
 * The telemetry targets of issue 33, in one run, side by side, where calls are real: the server
 * (canned-server.ts with `--delay`, its own process) answers each request 1 ms after it arrives. On a loopback
 * call with no server latency, OpenTelemetry's own span costs 1.05–1.12× and the round-to-round
 * spread is wider than the SDK's effect, so the targets are taken here:
 *
 * - tracing on ÷ floor ≤ 1.02×: the SDK with a real tracer provider (sdk-trace-base, a batch span
 *   processor, an exporter that drops) against the floor, raw `fetch` + `json()` with one CLIENT span
 *   from the same provider carrying the attributes the SDK sets (five at creation, three at the end);
 * - tracing off ÷ without telemetry ≤ 1.01×: `Crossborder` with no provider registered against a
 *   `CrossborderCore` built without the recorder (no telemetry code at all), same resources;
 * - on ÷ off ≤ 1.03×.
 *
 * Also raw `fetch` alone, so the floor's own cost (floor ÷ raw) shows beside. The five contenders take
 * turns request by request; each ratio is the median of per-round ratios, [lowest–highest round].
 *
 *   npx tsx scripts/bench/telemetry-floor.ts [--rounds 20] [--requests 200] [--delay 1] [--json]
 */
import { requestExample } from '../../test/helpers/document';
import { startChildServer } from './child-server';
import { loadSdk } from './dist';
import { droppingProvider } from './dropping-provider';
import { arg, compareRequests, loadText, main, median, of, type PerRequest, ratioSpread, REQUESTS, rowsOf } from './rounds';

type Spread = { median: number; min: number; max: number };

export interface TelemetryTargetRow {
  name: string;
  /** Server delay per request, ms. */
  delayMs: number;
  /** Median µs per request of each contender. */
  us: { raw: number; floor: number; without: number; off: number; on: number };
  /** SDK tracing on ÷ (raw fetch + one span): target ≤ 1.02. */
  onOverFloor: Spread;
  /** SDK tracing off (no provider) ÷ SDK without the recorder: target ≤ 1.01. */
  offOverWithout: Spread;
  /** SDK tracing on ÷ tracing off: target ≤ 1.03. */
  onOverOff: Spread;
  /** (raw fetch + one span) ÷ raw fetch: OpenTelemetry's own cost at this latency. */
  floorOverRaw: Spread;
  /** CPU time (user + system) of on ÷ floor: less sensitive than wall time to a shared machine. */
  onOverFloorCpu: Spread;
  spansExported: number;
  requestsPerContender: number;
  load: [number, number];
}

/** The targets, for the summary of `npm run bench`. */
export const TELEMETRY_TARGETS = { onOverFloor: 1.02, offOverWithout: 1.01, onOverOff: 1.03 } as const;

export async function benchTelemetryTargets(
  rounds = arg('rounds', 20),
  requests = arg('requests', 200),
  delay = arg('delay', 1),
): Promise<TelemetryTargetRow[]> {
  const { Crossborder, CrossborderCore, Customers, Quotes } = await loadSdk();
  const { base, stop } = await startChildServer('canned-server.ts', ['--delay', String(delay)]);
  const { provider, exported } = droppingProvider();
  const options = { tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' as const };
  const on = new Crossborder({ ...options, tracerProvider: provider });
  const off = new Crossborder(options);
  const core = new CrossborderCore(options); // no recorder: none of the telemetry code
  const without = { customers: new Customers(core), quotes: new Quotes(core) };
  const tracer = provider.getTracer('floor');
  const versioned = `${base}/2025-10-13`;
  const port = Number(new URL(base).port);
  const params = requestExample('createQuote');
  const authorization = `Basic ${btoa('tok:sec')}`;

  return rowsOf(
    REQUESTS,
    async ([name, kind]): Promise<TelemetryTargetRow> => {
      const get = kind === 'get';
      const url = get ? `${versioned}/customers?limit=20` : `${versioned}/quotes`;
      const method = get ? 'GET' : 'POST';
      const template = get ? '/customers' : '/quotes';
      const attributes = {
        'http.request.method': method,
        'url.template': template,
        'server.address': '127.0.0.1',
        'server.port': port,
        'crossborder.operation.id': get ? 'listCustomers' : 'createQuote',
      };
      const init = (): RequestInit =>
        get
          ? { headers: { authorization, accept: 'application/json' } }
          : {
              method,
              headers: { authorization, accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
              body: JSON.stringify(params),
            };
      const raw = async () => (await fetch(url, init())).json();
      const floor = async () => {
        const span = tracer.startSpan(`${method} ${template}`, { kind: 2, attributes });
        const response = await fetch(url, init());
        const body: unknown = await response.json();
        span.setAttribute('http.response.status_code', response.status);
        span.setAttribute('crossborder.request_id', response.headers.get('x-request-id') ?? '');
        span.setAttribute('crossborder.idempotency_key.sent', !get);
        span.end();
        return body;
      };
      const sdk = (cb: { customers: { list(q: { limit: number }): PromiseLike<unknown> }; quotes: { create(p: typeof params): PromiseLike<unknown> } }) =>
        get ? () => cb.customers.list({ limit: 20 }) : () => cb.quotes.create(params);
      const { results, load } = await compareRequests([raw, floor, sdk(without), sdk(off), sdk(on)], { rounds, requests, turns: 'request' });
      const [r, f, w, o, n] = results as [PerRequest[], PerRequest[], PerRequest[], PerRequest[], PerRequest[]];
      await provider.forceFlush();
      return {
        name,
        delayMs: delay,
        us: { raw: median(of(r, 'wall')), floor: median(of(f, 'wall')), without: median(of(w, 'wall')), off: median(of(o, 'wall')), on: median(of(n, 'wall')) },
        onOverFloor: ratioSpread(of(f, 'wall'), of(n, 'wall')),
        offOverWithout: ratioSpread(of(w, 'wall'), of(o, 'wall')),
        onOverOff: ratioSpread(of(o, 'wall'), of(n, 'wall')),
        floorOverRaw: ratioSpread(of(r, 'wall'), of(f, 'wall')),
        onOverFloorCpu: ratioSpread(of(f, 'cpu'), of(n, 'cpu')),
        spansExported: exported(),
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
export const spread = (s: Spread) => `${s.median.toFixed(3)}× [${s.min.toFixed(3)}–${s.max.toFixed(3)}]`;
const verdict = (s: Spread, target: number) => `${spread(s)} ${s.median <= target ? '✓' : '✗'} (≤ ${target.toFixed(2)})`;

await main(
  import.meta.url,
  () => benchTelemetryTargets(),
  (r) =>
    `${r.name}, server answering after ${r.delayMs} ms: on ÷ (raw fetch + one span) ${verdict(r.onOverFloor, TELEMETRY_TARGETS.onOverFloor)}, ` +
    `off ÷ without telemetry ${verdict(r.offOverWithout, TELEMETRY_TARGETS.offOverWithout)}, on ÷ off ${verdict(r.onOverOff, TELEMETRY_TARGETS.onOverOff)}; ` +
    `(raw fetch + one span) ÷ raw ${spread(r.floorOverRaw)}, CPU on ÷ floor ${spread(r.onOverFloorCpu)}; ` +
    `µs raw ${r.us.raw.toFixed(0)}, floor ${r.us.floor.toFixed(0)}, without ${r.us.without.toFixed(0)}, off ${r.us.off.toFixed(0)}, on ${r.us.on.toFixed(0)}; ` +
    `${r.spansExported} spans exported; ${r.requestsPerContender} requests per contender; load ${loadText(r.load)}`,
);
