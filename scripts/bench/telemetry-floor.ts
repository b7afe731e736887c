/**
 * The floor under issue 24's "tracing on ≤ 1.05×": what OpenTelemetry's own span costs on the same
 * loopback request, with no SDK around it. Two contenders take turns request by request against the
 * canned server of the other telemetry bench: raw `fetch` + `json()`, and the same with one CLIENT span
 * from a real tracer provider (sdk-trace-base, a batch span processor, an exporter that drops) carrying
 * the attributes the SDK sets on a GET list (five at creation, three at the end).
 * Ratio: the median of per-round ratios, [lowest–highest round], wall then CPU.
 *
 *   npx tsx scripts/bench/telemetry-floor.ts [--rounds 20] [--requests 300]
 */
import { startChildServer } from './child-server';
import { droppingProvider } from './dropping-provider';
import { arg, compareRequests, isMain, loadText, of, ratioSpread } from './rounds';

export async function benchTelemetryFloor(rounds = arg('rounds', 20), requests = arg('requests', 300)) {
  const { base, stop } = await startChildServer('canned-server.ts');
  const { provider, exported } = droppingProvider();
  try {
    const tracer = provider.getTracer('floor');
    const url = `${base}/customers?limit=20`;
    const headers = { authorization: 'Basic dG9rOnNlYw==', accept: 'application/json' };
    const attributes = { 'http.request.method': 'GET', 'url.template': '/customers', 'server.address': '127.0.0.1', 'server.port': Number(new URL(base).port), 'crossborder.operation.id': 'listCustomers' };
    const raw = async () => (await fetch(url, { headers })).json();
    const spanned = async () => {
      const span = tracer.startSpan('GET /customers', { kind: 2, attributes });
      const response = await fetch(url, { headers });
      const body: unknown = await response.json();
      span.setAttribute('http.response.status_code', response.status);
      span.setAttribute('crossborder.request_id', response.headers.get('x-request-id') ?? '');
      span.setAttribute('crossborder.idempotency_key.sent', false);
      span.end();
      return body;
    };
    const { results, load } = await compareRequests([raw, spanned], { rounds, requests, turns: 'request' });
    await provider.forceFlush();
    return { wall: ratioSpread(of(results[0]!, 'wall'), of(results[1]!, 'wall')), cpu: ratioSpread(of(results[0]!, 'cpu'), of(results[1]!, 'cpu')), exported: exported(), load };
  } finally {
    stop();
    await provider.shutdown();
  }
}

if (isMain(import.meta.url)) {
  const r = await benchTelemetryFloor();
  const f = (s: { median: number; min: number; max: number }) => `${s.median.toFixed(3)}× [${s.min.toFixed(3)}–${s.max.toFixed(3)}]`;
  console.log(`raw fetch + one OpenTelemetry span ÷ raw fetch: wall ${f(r.wall)}, CPU ${f(r.cpu)}; ${r.exported} spans exported; load ${loadText(r.load)}`);
}
