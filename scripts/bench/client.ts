/**
 * Per-request cost of the SDK against the physical limit: raw `fetch` to the same loopback
 * node:http server (its own process, answering the document's own example bodies), from the same
 * process, in interleaved rounds (so machine noise hits both alike). A third contender, raw `fetch`
 * with `AbortSignal.timeout()`, shows what any client that enforces a timeout pays over the bare call.
 *
 *   npx tsx scripts/bench/client.ts [--rounds 14] [--requests 400]
 */
import { Crossborder } from '../../src/client';
import { requestExample } from '../../test/helpers/document';
import { startChildServer } from './child-server';
import { interleaved, median } from './rounds';

export interface Row {
  name: string;
  rawUs: number;
  /** Raw fetch given a timeout signal, as the SDK gives every attempt. */
  rawTimeoutUs: number;
  sdkUs: number;
  ratio: number;
  /** SDK ÷ raw fetch with a timeout signal. */
  timeoutRatio: number;
  rawCpuUs: number;
  sdkCpuUs: number;
  cpuRatio: number;
  target: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

export async function benchClient(rounds = arg('rounds', 14), requests = arg('requests', 400)): Promise<Row[]> {
  const { base, stop } = await startChildServer('canned-server.ts');
  const api = `${base}/2025-10-13`;
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' });
  const auth = `Basic ${btoa('tok:sec')}`;
  const params = requestExample('createQuote');
  const TIMEOUT = 60_000; // the SDK's default per-attempt timeout

  const rawCall = (kind: 'get' | 'post', signal?: AbortSignal) => async () => {
    const r =
      kind === 'get'
        ? await fetch(`${api}/customers?limit=20`, { headers: { authorization: auth, accept: 'application/json' }, signal })
        : await fetch(`${api}/quotes`, {
            method: 'POST',
            headers: { authorization: auth, accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
            body: JSON.stringify(params),
            signal,
          });
    if (!r.ok) throw new Error(String(r.status));
    return r.json();
  };
  const contenders = (kind: 'get' | 'post') => ({
    raw: rawCall(kind),
    rawTimeout: () => rawCall(kind, AbortSignal.timeout(TIMEOUT))(),
    sdk: kind === 'get' ? () => cb.customers.list({ limit: 20 }) : () => cb.quotes.create(params),
  });

  async function measure(fn: () => PromiseLike<unknown>): Promise<{ wall: number; cpu: number }> {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < requests; i++) await fn();
    const wall = ((performance.now() - t0) * 1000) / requests;
    const c = process.cpuUsage(cpu0);
    return { wall, cpu: (c.user + c.system) / requests };
  }

  const rows: Row[] = [];
  try {
    for (const [name, kind, target] of [
      ['GET list, first page (20 customers)', 'get', 1.1],
      ['POST quote create', 'post', 1.25],
    ] as const) {
      const c = contenders(kind);
      for (let i = 0; i < 200; i++) await c.raw(), await c.rawTimeout(), await c.sdk(); // warm up every path and the socket pool
      const [r, t, s] = (await interleaved(rounds, [() => measure(c.raw), () => measure(c.rawTimeout), () => measure(c.sdk)])) as [
        { wall: number; cpu: number }[],
        { wall: number; cpu: number }[],
        { wall: number; cpu: number }[],
      ];
      rows.push({
        name,
        rawUs: median(r.map((x) => x.wall)),
        rawTimeoutUs: median(t.map((x) => x.wall)),
        sdkUs: median(s.map((x) => x.wall)),
        ratio: median(r.map((x, i) => s[i]!.wall / x.wall)),
        timeoutRatio: median(t.map((x, i) => s[i]!.wall / x.wall)),
        rawCpuUs: median(r.map((x) => x.cpu)),
        sdkCpuUs: median(s.map((x) => x.cpu)),
        cpuRatio: median(r.map((x, i) => s[i]!.cpu / x.cpu)),
        target,
      });
    }
  } finally {
    stop();
  }
  return rows;
}

export function formatRows(rows: Row[]): string {
  const lines = [
    '| request | raw fetch (µs) | raw fetch + timeout signal (µs) | SDK (µs) | SDK ÷ raw | target | SDK ÷ raw with timeout | CPU raw (µs) | CPU SDK (µs) | CPU ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.rawUs.toFixed(0)} | ${r.rawTimeoutUs.toFixed(0)} | ${r.sdkUs.toFixed(0)} | ${r.ratio.toFixed(3)}× | ≤ ${r.target.toFixed(2)}× ${r.ratio <= r.target ? '✓' : '✗'} | ${r.timeoutRatio.toFixed(3)}× | ${r.rawCpuUs.toFixed(0)} | ${r.sdkCpuUs.toFixed(0)} | ${r.cpuRatio.toFixed(3)}× |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchClient();
  console.log(formatRows(rows));
}
