/**
 * Per-request cost of the SDK as built (dist/) against the physical limit: raw `fetch` to the same
 * loopback node:http server (its own process, answering the document's own example bodies), with
 * the same timeout mechanism as the SDK (undici's headersTimeout/bodyTimeout on Node), from the same
 * process, in interleaved rounds of sequential requests. Also: openapi-fetch alone (the request
 * layer the SDK is built on, same timeout), and raw `fetch` with `AbortSignal.timeout()` (the signal
 * path the SDK keeps for other runtimes and a user's `fetch`).
 *
 *   npx tsx scripts/bench/client.ts [--rounds 40] [--requests 500]
 */
// @ts-nocheck

import createClient from 'openapi-fetch';
import type { paths } from '../../src/generated/types';
import { requestExample } from '../../test/helpers/document';
import { startChildServer } from './child-server';
import { loadSdk } from './dist';
import { arg, interleaved, isMain, load1, median, medianRatio } from './rounds';
import { TIMEOUT_MS, timeoutDispatcher } from './timeouts';

export interface Contender {
  /** Median wall time per request, µs. */
  wallUs: number;
  /** Median CPU time (user + system) of this process per request, µs. */
  cpuUs: number;
}

export interface RequestRow {
  name: string;
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

export async function benchClient(rounds = arg('rounds', 40), requests = arg('requests', 500)): Promise<RequestRow[]> {
  const { Crossborder } = await loadSdk();
  const { base, stop } = await startChildServer('canned-server.ts');
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
        ? await fetch(`${api}/customers?limit=20`, { headers: { authorization, accept: 'application/json' }, ...extra } as RequestInit)
        : await fetch(`${api}/quotes`, {
            method: 'POST',
            headers: { authorization, accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
            body: JSON.stringify(params),
            ...extra,
          } as RequestInit);
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

  async function measure(fn: () => PromiseLike<unknown>): Promise<{ wall: number; cpu: number }> {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < requests; i++) await fn();
    const wall = ((performance.now() - t0) * 1000) / requests;
    const c = process.cpuUsage(cpu0);
    return { wall, cpu: (c.user + c.system) / requests };
  }

  const rows: RequestRow[] = [];
  try {
    for (const [name, kind] of [
      ['GET list, first page (20 customers)', 'get'],
      ['POST quote create', 'post'],
    ] as const) {
      const c = contenders(kind);
      const order = [c.raw, c.rawSignal, c.openapiFetch, c.sdk];
      for (let i = 0; i < 300; i++) for (const fn of order) await fn(); // warm up every path and the socket pool
      const before = load1();
      const [r, s, o, k] = await interleaved(rounds, order.map((fn) => () => measure(fn)));
      const wall = (xs: { wall: number }[]) => xs.map((x) => x.wall);
      const cpu = (xs: { cpu: number }[]) => xs.map((x) => x.cpu);
      const summary = (xs: { wall: number; cpu: number }[]): Contender => ({ wallUs: median(wall(xs)), cpuUs: median(cpu(xs)) });
      rows.push({
        name,
        raw: summary(r!),
        rawSignal: summary(s!),
        openapiFetch: summary(o!),
        sdk: summary(k!),
        sdkRatio: medianRatio(wall(r!), wall(k!)),
        sdkCpuRatio: medianRatio(cpu(r!), cpu(k!)),
        openapiFetchRatio: medianRatio(wall(r!), wall(o!)),
        rawSignalRatio: medianRatio(wall(r!), wall(s!)),
        sdkOverOpenapiFetch: medianRatio(wall(o!), wall(k!)),
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
  const rows = await benchClient();
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else {
    for (const r of rows) {
      console.log(
        `${r.name}: raw ${r.raw.wallUs.toFixed(0)} µs, raw+signal ${r.rawSignal.wallUs.toFixed(0)} µs, openapi-fetch ${r.openapiFetch.wallUs.toFixed(0)} µs, SDK ${r.sdk.wallUs.toFixed(0)} µs; ` +
          `SDK ÷ raw ${r.sdkRatio.toFixed(3)}× (CPU ${r.sdkCpuRatio.toFixed(3)}×), openapi-fetch ÷ raw ${r.openapiFetchRatio.toFixed(3)}×, SDK ÷ openapi-fetch ${r.sdkOverOpenapiFetch.toFixed(3)}×, raw+signal ÷ raw ${r.rawSignalRatio.toFixed(3)}×; load ${r.load.map((l) => l.toFixed(2)).join(' → ')}`,
      );
    }
  }
}
