/**
 * Throughput with many requests in flight (batch payouts, reconciliation jobs): N workers share a
 * queue of GET list requests to a loopback server in its own process; requests per second of the
 * SDK as built (dist/), of openapi-fetch alone and of raw `fetch`, all with the same timeout
 * mechanism (undici's headersTimeout/bodyTimeout on Node), interleaved rounds.
 *
 *   npx tsx scripts/bench/concurrency.ts [--rounds 10] [--requests 2000]
 */
// @ts-nocheck

import createClient from 'openapi-fetch';
import type { paths } from '../../src/generated/types';
import { startChildServer } from './child-server';
import { loadSdk } from './dist';
import { arg, interleaved, isMain, load1, median, medianRatio } from './rounds';
import { TIMEOUT_MS, timeoutDispatcher } from './timeouts';

export interface ConcurrencyRow {
  inFlight: number;
  /** Median requests per second. */
  rawRps: number;
  openapiFetchRps: number;
  sdkRps: number;
  /** Medians of the per-round ratios: SDK ÷ raw and openapi-fetch ÷ raw throughput. */
  sdkRatio: number;
  openapiFetchRatio: number;
  /** CPU time of this process per request, µs (the client side: what limits throughput here). */
  rawCpuUs: number;
  sdkCpuUs: number;
  requestsPerContender: number;
  load: [number, number];
}

export async function benchConcurrency(levels = [16, 64, 256], rounds = arg('rounds', 10), requests = arg('requests', 2000)): Promise<ConcurrencyRow[]> {
  const { Crossborder } = await loadSdk();
  const { base, stop } = await startChildServer('canned-server.ts');
  const api = `${base}/2025-10-13`;
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' });
  const authorization = `Basic ${btoa('tok:sec')}`;
  const dispatcher = timeoutDispatcher(TIMEOUT_MS);
  const http = createClient<paths>({ baseUrl: api, requestInitExt: { dispatcher } });
  const contenders: (() => PromiseLike<unknown>)[] = [
    async () => {
      const r = await fetch(`${api}/customers?limit=20`, { headers: { authorization, accept: 'application/json' }, dispatcher } as RequestInit);
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    },
    async () => (await http.GET('/customers', { params: { query: { limit: 20 } }, headers: { authorization } })).data,
    () => cb.customers.list({ limit: 20 }),
  ];

  /** `requests` calls by `inFlight` workers; requests per second and CPU per request. */
  async function run(fn: () => PromiseLike<unknown>, inFlight: number): Promise<{ rps: number; cpu: number }> {
    let next = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next++ < requests) await fn();
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(cpu0);
    return { rps: requests / seconds, cpu: (c.user + c.system) / requests };
  }

  const rows: ConcurrencyRow[] = [];
  try {
    for (const inFlight of levels) {
      for (const fn of contenders) await run(fn, inFlight); // warm up: compiled code, a socket per worker
      const before = load1();
      const [r, o, s] = await interleaved(rounds, contenders.map((fn) => () => run(fn, inFlight)));
      const rps = (xs: { rps: number }[]) => xs.map((x) => x.rps);
      rows.push({
        inFlight,
        rawRps: median(rps(r!)),
        openapiFetchRps: median(rps(o!)),
        sdkRps: median(rps(s!)),
        sdkRatio: medianRatio(rps(r!), rps(s!)),
        openapiFetchRatio: medianRatio(rps(r!), rps(o!)),
        rawCpuUs: median(r!.map((x) => x.cpu)),
        sdkCpuUs: median(s!.map((x) => x.cpu)),
        requestsPerContender: rounds * requests,
        load: [before, load1()],
      });
    }
  } finally {
    stop();
  }
  return rows;
}

if (isMain(import.meta.url)) {
  const rows = await benchConcurrency();
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else {
    for (const r of rows) {
      console.log(
        `${String(r.inFlight).padStart(3)} in flight: raw ${r.rawRps.toFixed(0)}/s, openapi-fetch ${r.openapiFetchRps.toFixed(0)}/s, SDK ${r.sdkRps.toFixed(0)}/s; ` +
          `SDK ÷ raw ${r.sdkRatio.toFixed(3)}×, openapi-fetch ÷ raw ${r.openapiFetchRatio.toFixed(3)}×; CPU/request raw ${r.rawCpuUs.toFixed(0)} µs, SDK ${r.sdkCpuUs.toFixed(0)} µs; load ${r.load.map((l) => l.toFixed(2)).join(' → ')}`,
      );
    }
  }
}
