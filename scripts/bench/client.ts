/**
 * Per-request cost of the SDK against the physical limit: raw `fetch` to the same loopback
 * node:http server, in the same process, in interleaved rounds (so machine noise hits both alike).
 * Canned bodies are the document's own examples.
 *
 *   npx tsx scripts/bench/client.ts [--rounds 12] [--requests 400]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Crossborder } from '../../src/client';
import { requestExample, responseExample } from '../../test/helpers/document';

export interface Row {
  name: string;
  rawUs: number;
  sdkUs: number;
  ratio: number;
  rawCpuUs: number;
  sdkCpuUs: number;
  cpuRatio: number;
  target: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchClient(rounds = arg('rounds', 12), requests = arg('requests', 400)): Promise<Row[]> {
  const listPage = JSON.stringify({ ...responseExample('listCustomers', '200'), data: Array.from({ length: 20 }, () => responseExample('listCustomers', '200').data[0]) });
  const quote = JSON.stringify(responseExample('createQuote', '200'));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = req.method === 'GET' ? listPage : quote;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': 'req_bench' });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = `${base}/2025-10-13`;
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' });
  const auth = `Basic ${btoa('tok:sec')}`;
  const params = requestExample('createQuote');

  const raw = {
    get: async () => {
      const r = await fetch(`${api}/customers?limit=20`, { headers: { authorization: auth, accept: 'application/json' } });
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    },
    post: async () => {
      const r = await fetch(`${api}/quotes`, {
        method: 'POST',
        headers: { authorization: auth, accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify(params),
      });
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    },
  };
  const sdk = {
    get: () => cb.customers.list({ limit: 20 }),
    post: () => cb.quotes.create(params),
  };

  async function measure(fn: () => PromiseLike<unknown>): Promise<{ wall: number; cpu: number }> {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < requests; i++) await fn();
    const wall = ((performance.now() - t0) * 1000) / requests;
    const c = process.cpuUsage(cpu0);
    return { wall, cpu: (c.user + c.system) / requests };
  }

  const rows: Row[] = [];
  for (const [name, kind, target] of [
    ['GET list, first page (20 customers)', 'get', 1.1],
    ['POST quote create', 'post', 1.25],
  ] as const) {
    for (let i = 0; i < 200; i++) await raw[kind](), await sdk[kind](); // warm up both paths and the socket pool
    const r: { wall: number; cpu: number }[] = [];
    const s: { wall: number; cpu: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate who goes first so neither always runs on a warmer machine.
      if (round % 2 === 0) r.push(await measure(raw[kind])), s.push(await measure(sdk[kind]));
      else s.push(await measure(sdk[kind])), r.push(await measure(raw[kind]));
    }
    const ratios = r.map((x, i) => s[i]!.wall / x.wall);
    const cpuRatios = r.map((x, i) => s[i]!.cpu / x.cpu);
    rows.push({
      name,
      rawUs: median(r.map((x) => x.wall)),
      sdkUs: median(s.map((x) => x.wall)),
      ratio: median(ratios),
      rawCpuUs: median(r.map((x) => x.cpu)),
      sdkCpuUs: median(s.map((x) => x.cpu)),
      cpuRatio: median(cpuRatios),
      target,
    });
  }
  await new Promise<void>((r) => server.close(() => r()));
  return rows;
}

export function formatRows(rows: Row[]): string {
  const lines = [
    '| request | raw fetch (µs) | SDK (µs) | wall ratio | CPU raw (µs) | CPU SDK (µs) | CPU ratio | target (wall) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.rawUs.toFixed(0)} | ${r.sdkUs.toFixed(0)} | ${r.ratio.toFixed(3)}× | ${r.rawCpuUs.toFixed(0)} | ${r.sdkCpuUs.toFixed(0)} | ${r.cpuRatio.toFixed(3)}× | ≤ ${r.target.toFixed(2)}× ${r.ratio <= r.target ? '✓' : '✗'} |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchClient();
  console.log(formatRows(rows));
}
