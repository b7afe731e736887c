/**
 * Throughput with many requests in flight (batch payouts, reconciliation jobs): N workers share a
 * queue of GET list requests to a loopback server in its own process; requests per second of the
 * SDK as built (dist/), of openapi-fetch alone and of raw `fetch`, all with the same timeout
 * mechanism (undici's headersTimeout/bodyTimeout on Node), interleaved rounds.
 *
 *   npx tsx scripts/bench/concurrency.ts [--rounds 10] [--requests 2000]
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../src/generated/types';
import { startChildServer } from './child-server';
import { loadSdk } from './dist';
import { arg, compareRequests, loadText, main, median, medianRatio, of, type PerRequest, rowsOf } from './rounds';
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

  return rowsOf(
    levels,
    async (inFlight): Promise<ConcurrencyRow> => {
      // Warmed up with a full run each: compiled code, a socket per worker.
      const { results, load } = await compareRequests(contenders, { rounds, requests, inFlight, warmup: requests });
      const [r, o, s] = results as [PerRequest[], PerRequest[], PerRequest[]];
      return {
        inFlight,
        rawRps: median(of(r, 'rps')),
        openapiFetchRps: median(of(o, 'rps')),
        sdkRps: median(of(s, 'rps')),
        sdkRatio: medianRatio(of(r, 'rps'), of(s, 'rps')),
        openapiFetchRatio: medianRatio(of(r, 'rps'), of(o, 'rps')),
        rawCpuUs: median(of(r, 'cpu')),
        sdkCpuUs: median(of(s, 'cpu')),
        requestsPerContender: rounds * requests,
        load,
      };
    },
    stop,
  );
}

await main(
  import.meta.url,
  () => benchConcurrency(),
  (r) =>
    `${String(r.inFlight).padStart(3)} in flight: raw ${r.rawRps.toFixed(0)}/s, openapi-fetch ${r.openapiFetchRps.toFixed(0)}/s, SDK ${r.sdkRps.toFixed(0)}/s; ` +
    `SDK ÷ raw ${r.sdkRatio.toFixed(3)}×, openapi-fetch ÷ raw ${r.openapiFetchRatio.toFixed(3)}×; CPU/request raw ${r.rawCpuUs.toFixed(0)} µs, SDK ${r.sdkCpuUs.toFixed(0)} µs; load ${loadText(r.load)}`,
);
