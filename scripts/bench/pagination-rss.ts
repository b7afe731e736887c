/**
 * Child process of the pagination benchmark: iterates all items of the list server at `url` with
 * `for await` and prints the largest heap still in use after a full GC (sampled every 1,000 items)
 * and the process's peak RSS, in bytes. Run with --expose-gc.
 */
import { Crossborder } from '../../src/client';

const [base, expected] = [process.argv[2]!, Number(process.argv[3])];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base });
let count = 0;
let retained = 0;
for await (const _ of cb.customers.list({ limit: 100 })) {
  if (++count % 1_000 === 0) {
    gc();
    retained = Math.max(retained, process.memoryUsage().heapUsed);
  }
}
if (count !== expected) throw new Error(`iterated ${count} of ${expected}`);
console.log(JSON.stringify({ retainedHeap: retained, peakRss: process.resourceUsage().maxRSS * 1024 }));
