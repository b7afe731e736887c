/**
 * Child process of the pagination benchmark: iterates every item of the list server at `url` with
 * the SDK as built (`for await`) or with the raw cursor loop (same timeout mechanism), and prints the
 * largest heap still in use after a full GC (sampled every 1,000 items) and the peak RSS, in bytes.
 * Run with --expose-gc:  node --expose-gc --import tsx scripts/bench/pagination-memory.ts URL COUNT sdk|raw
 */
// @ts-nocheck

import { loadSdk } from './dist';
import { TIMEOUT_MS, timeoutDispatcher } from './timeouts';

const [base, expected, mode] = [process.argv[2]!, Number(process.argv[3]), process.argv[4] ?? 'sdk'];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
let count = 0;
let retained = 0;
const sample = () => {
  if (++count % 1_000 === 0) {
    gc();
    retained = Math.max(retained, process.memoryUsage().heapUsed);
  }
};
if (mode === 'sdk') {
  const { Crossborder } = await loadSdk();
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base });
  for await (const _ of cb.customers.list({ limit: 100 })) sample();
} else {
  const headers = { authorization: `Basic ${btoa('tok:sec')}`, accept: 'application/json' };
  const dispatcher = timeoutDispatcher(TIMEOUT_MS);
  let cursor: string | undefined;
  do {
    const url = `${base}/2025-10-13/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await (await fetch(url, { headers, dispatcher } as RequestInit)).json()) as { data: unknown[]; hasMore: boolean; nextCursor?: string };
    for (const _ of page.data) sample();
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
}
if (count !== expected) throw new Error(`iterated ${count} of ${expected}`);
console.log(JSON.stringify({ retainedHeap: retained, peakRss: process.resourceUsage().maxRSS * 1024 }));
