// Child process of the pagination benchmark, in plain node: nothing between node and the package (under
// tsx, the loader and the source maps it turns on keep 1.5 MB of heap for the package's modules, which a
// user's `node` does not). Iterates every item of the list server at URL with the package as built
// (dist/index.js, `for await`) or with the raw cursor loop (same timeout mechanism), and prints the
// largest heap still in use after a full GC (sampled every 1,000 items) and the peak RSS, in bytes.
//   node --expose-gc scripts/bench/pagination-memory.mjs URL COUNT sdk|raw
import { TIMEOUT_MS, timeoutDispatcher } from './timeouts.mjs';

const [base, expectedText, mode = 'sdk'] = process.argv.slice(2);
const expected = Number(expectedText);
const gc = globalThis.gc;
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
  const { Crossborder } = await import(new URL('../../dist/index.js', import.meta.url).href);
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base });
  for await (const _ of cb.customers.list({ limit: 100 })) sample();
} else {
  const headers = { authorization: `Basic ${btoa('tok:sec')}`, accept: 'application/json' };
  const dispatcher = timeoutDispatcher(TIMEOUT_MS);
  let cursor;
  do {
    const url = `${base}/2025-10-13/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await (await fetch(url, { headers, dispatcher })).json();
    for (const _ of page.data) sample();
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
}
if (count !== expected) throw new Error(`iterated ${count} of ${expected}`);
console.log(JSON.stringify({ retainedHeap: retained, peakRss: process.resourceUsage().maxRSS * 1024 }));
