/**
 * Per-request cost of the SDK as built (dist/) against the physical limit: raw `fetch` to the same
 * loopback node:http server (its own process, answering the document's own example bodies), with
 * the same timeout mechanism as the SDK (undici's headersTimeout/bodyTimeout on Node), from the same
 * process, in interleaved rounds of sequential requests. Also: openapi-fetch alone (the request
 * layer the SDK is built on, same timeout), and raw `fetch` with `AbortSignal.timeout()` (the signal
 * path the SDK keeps for other runtimes and a user's `fetch`).
 *
 * `--delay 1`: the server answers 1 ms after each request arrives, as a real service answers after some
 * work; the ratios bound there are those (issue 50 §10). On bare loopback (the default, 0) the SDK's own
 * few tens of µs are ~10 % of a ~290 µs request: that figure is reported, not bound.
 *
 *   npx tsx scripts/bench/client.ts [--rounds 40] [--requests 500] [--delay 0]
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../src/generated/types';
import { requestExample } from '../../test/helpers/document';
import { startChildServer } from './child-server';
import { loadSdk } from './dist';
import { arg, compareRequests, loadText, main, median, medianRatio, of, type PerRequest, REQUESTS, rowsOf } from './rounds';
import { TIMEOUT_MS, timeoutDispatcher } from './timeouts';

export interface Contender {
  /** Median wall time per request, µs. */
  wallUs: number;
  /** Median CPU time (user + system) of this process per request, µs. */
  cpuUs: number;
}

export interface RequestRow {
  name: string;
  /** How long the server waited before answering each request (ms; 0 on bare loopback). Absent in older results: 0. */
  delayMs?: number;
  raw: Contender;
  rawSignal: Contender;
  openapiFetch: Contender;
  sdk: Contender;
  /** Medians of the per-round ratios (each round: the contenders back to back). */
  sdkRatio: number;
  sdkCpuRatio: number;
  openapiFetchRatio: number;
  rawSignalRatio: number;
  /** SDK ÷ openapi-fetch alone: what the SDK adds over its request layer. */
  sdkOverOpenapiFetch: number;
  requestsPerContender: number;
  load: [number, number];
}

export async function benchClient(rounds = arg('rounds', 40), requests = arg('requests', 500), delay = arg('delay', 0)): Promise<RequestRow[]> {
  const { Crossborder } = await loadSdk();
  const { base, stop } = await startChildServer('canned-server.ts', ['--delay', String(delay)]);
  const api = `${base}/2025-10-13`;
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' });
  const authorization = `Basic ${btoa('tok:sec')}`;
  const params = requestExample('createQuote');
  const dispatcher = timeoutDispatcher(TIMEOUT_MS);
  const http = createClient<paths>({ baseUrl: api, requestInitExt: { dispatcher } });

  const raw = (kind: 'get' | 'post', timeout: { dispatcher: unknown } | (() => { signal: AbortSignal })) => async () => {
    const extra = typeof timeout === 'function' ? timeout() : timeout;
    const r =
      kind === 'get'
        ? await fetch(`${api}/customers?limit=20`, { headers: { authorization, accept: 'application/json' }, ...extra })
        : await fetch(`${api}/quotes`, {
            method: 'POST',
            headers: { authorization, accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
            body: JSON.stringify(params),
            ...extra,
          });
    if (!r.ok) throw new Error(String(r.status));
    return r.json();
  };
  const contenders = (kind: 'get' | 'post') => ({
    raw: raw(kind, { dispatcher }),
    rawSignal: raw(kind, () => ({ signal: AbortSignal.timeout(TIMEOUT_MS) })),
    openapiFetch:
      kind === 'get'
        ? async () => (await http.GET('/customers', { params: { query: { limit: 20 } }, headers: { authorization } })).data
        : async () => (await http.POST('/quotes', { body: params, headers: { authorization, 'idempotency-key': crypto.randomUUID() } })).data,
    sdk: kind === 'get' ? () => cb.customers.list({ limit: 20 }) : () => cb.quotes.create(params),
  });

  return rowsOf(
    REQUESTS,
    async ([name, kind]): Promise<RequestRow> => {
      const c = contenders(kind);
      const { results, load } = await compareRequests([c.raw, c.rawSignal, c.openapiFetch, c.sdk], { rounds, requests });
      const [r, s, o, k] = results as [PerRequest[], PerRequest[], PerRequest[], PerRequest[]];
      const summary = (xs: PerRequest[]): Contender => ({ wallUs: median(of(xs, 'wall')), cpuUs: median(of(xs, 'cpu')) });
      return {
        name: delay > 0 ? `${name}, server +${delay} ms` : name,
        delayMs: delay,
        raw: summary(r),
        rawSignal: summary(s),
        openapiFetch: summary(o),
        sdk: summary(k),
        sdkRatio: medianRatio(of(r, 'wall'), of(k, 'wall')),
        sdkCpuRatio: medianRatio(of(r, 'cpu'), of(k, 'cpu')),
        openapiFetchRatio: medianRatio(of(r, 'wall'), of(o, 'wall')),
        rawSignalRatio: medianRatio(of(r, 'wall'), of(s, 'wall')),
        sdkOverOpenapiFetch: medianRatio(of(o, 'wall'), of(k, 'wall')),
        requestsPerContender: rounds * requests,
        load,
      };
    },
    stop,
  );
}

await main(
  import.meta.url,
  () => benchClient(),
  (r) =>
    `${r.name}: raw ${r.raw.wallUs.toFixed(0)} µs, raw+signal ${r.rawSignal.wallUs.toFixed(0)} µs, openapi-fetch ${r.openapiFetch.wallUs.toFixed(0)} µs, SDK ${r.sdk.wallUs.toFixed(0)} µs; ` +
    `SDK ÷ raw ${r.sdkRatio.toFixed(3)}× (CPU ${r.sdkCpuRatio.toFixed(3)}×), openapi-fetch ÷ raw ${r.openapiFetchRatio.toFixed(3)}×, SDK ÷ openapi-fetch ${r.sdkOverOpenapiFetch.toFixed(3)}×, raw+signal ÷ raw ${r.rawSignalRatio.toFixed(3)}×; load ${loadText(r.load)}`,
);
