/**
 * Auto-pagination against a hand-written raw cursor loop: 100,000 items in pages of 100 from a
 * loopback node:http server, same process, interleaved rounds. Memory: peak RSS of a child process
 * iterating 10,000 vs 100,000 items (flat = independent of item count). Prefetch: with work per
 * item, `prefetch` overlaps the next page's request with the consumer's work.
 *
 *   npx tsx scripts/bench/pagination.ts [--items 100000] [--rounds 5]
 */
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Crossborder } from '../../src/client';
import { startChildServer } from './child-server';
import { interleaved, median } from './rounds';

const PAGE = 100;
const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

/** Starts scripts/bench/list-server.ts in its own process; resolves its base URL and a stop function. */
export const startListServer = (total: number) => startChildServer('list-server.ts', [String(total)]);

/** Simulated CPU-bound per-item work (e.g. computing a ledger entry): a busy loop of ~`us` microseconds. */
function work(us: number) {
  const end = performance.now() + us / 1000;
  while (performance.now() < end);
}

/** Simulated I/O-bound per-item work (e.g. a write to a database): `us` of CPU, then one turn of the event loop. */
async function ioWork(us: number) {
  work(us);
  await new Promise((resolve) => setImmediate(resolve));
}

export interface PaginationResult {
  items: number;
  rawMs: number;
  sdkMs: number;
  /** SDK items (`for await` over the list) ÷ raw cursor loop. */
  ratio: number;
  /** The raw cursor loop written as an async generator of items: what `for await` over items costs without the SDK. */
  rawAsyncMs: number;
  /** SDK items ÷ that async-generator loop. */
  asyncRatio: number;
  /** `for await` over `.pages()`, plain loop over each page's data. */
  pagesMs: number;
  pagesRatio: number;
  workUs: number;
  /** CPU-bound work per item: raw loop, and the SDK with prefetch. */
  rawWorkMs: number;
  prefetchMs: number;
  prefetchSpeedup: number;
  /** Share of the raw loop's wall time its process spends waiting rather than on the CPU. */
  rawWaitShare: number;
  /** I/O-bound work per item (yields to the event loop): raw loop, and the SDK with prefetch. */
  rawIoMs: number;
  prefetchIoMs: number;
  prefetchIoSpeedup: number;
  /** Largest heap in use after a full GC while iterating, for 10k and 100k items. */
  heap10k: number;
  heap100k: number;
  /** Peak RSS of the iterating process. */
  rss10k: number;
  rss100k: number;
}

type Work = ((us: number) => void | Promise<void>) | undefined;

export async function benchPagination(items = arg('items', 100_000), rounds = arg('rounds', 9)): Promise<PaginationResult> {
  const { base, stop } = await startListServer(items);
  const api = `${base}/2025-10-13`;
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base });
  const auth = `Basic ${btoa('tok:sec')}`;
  const workUs = 10;

  /** One page, fetched by hand: the physical limit each contender is measured against. */
  async function rawPage(cursor: string | undefined) {
    const url = `${api}/customers?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await fetch(url, { headers: { authorization: auth, accept: 'application/json' } });
    return (await res.json()) as { data: unknown[]; hasMore: boolean; nextCursor?: string };
  }
  async function* rawPages() {
    let cursor: string | undefined;
    do {
      const page = await rawPage(cursor);
      yield page.data;
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
  }
  async function raw(each?: Work): Promise<number> {
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await rawPage(cursor);
      for (const _ of page.data) {
        const pending = each?.(workUs);
        if (pending) await pending; // only I/O-bound work waits
        count++;
      }
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
    return count;
  }
  async function rawAsyncItems(): Promise<number> {
    async function* itemsOf() {
      for await (const data of rawPages()) yield* data;
    }
    let count = 0;
    for await (const _ of itemsOf()) count++;
    return count;
  }
  async function sdk(each?: Work, prefetch = false): Promise<number> {
    let count = 0;
    for await (const _ of cb.customers.list({ limit: PAGE }, { prefetch })) {
      const pending = each?.(workUs);
      if (pending) await pending;
      count++;
    }
    return count;
  }
  async function sdkPages(): Promise<number> {
    let count = 0;
    for await (const page of cb.customers.list({ limit: PAGE }).pages()) {
      for (const _ of page.data) count++;
    }
    return count;
  }
  const time = async (fn: () => Promise<number>) => {
    const t0 = performance.now();
    const n = await fn();
    if (n !== items) throw new Error(`iterated ${n} of ${items}`);
    return performance.now() - t0;
  };
  /** Each contender's times over interleaved rounds, after one warm-up run each. */
  const race = async (n: number, contenders: (() => Promise<number>)[]) => {
    for (const fn of contenders) await fn();
    return interleaved(n, contenders.map((fn) => () => time(fn)));
  };

  const [rawT, sdkT, asyncT, pagesT] = await race(rounds, [() => raw(), () => sdk(), rawAsyncItems, sdkPages]);
  // How much of the raw loop is spent waiting (wall − CPU of this process): all that a page fetched
  // ahead can overlap with CPU-bound work on the same thread.
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await raw();
  const cpu = process.cpuUsage(cpu0);
  const rawWaitShare = Math.max(0, 1 - (cpu.user + cpu.system) / 1000 / (performance.now() - wall0));
  const [rawWork, pre] = await race(3, [() => raw(work), () => sdk(work, true)]);
  const [rawIo, preIo] = await race(3, [() => raw(ioWork), () => sdk(ioWork, true)]);
  stop();

  const memory = async (n: number) => {
    const list = await startListServer(n);
    try {
      const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', resolve(here, 'pagination-rss.ts'), list.base, String(n)], { encoding: 'utf8', timeout: 300_000 });
      return JSON.parse(out.trim()) as { retainedHeap: number; peakRss: number };
    } finally {
      list.stop();
    }
  };
  const m10k = await memory(10_000);
  const m100k = await memory(100_000);
  const ratioTo = (base: number[], other: number[]) => median(base.map((x, i) => other[i]! / x));
  return {
    items,
    rawMs: median(rawT!),
    sdkMs: median(sdkT!),
    ratio: ratioTo(rawT!, sdkT!),
    rawAsyncMs: median(asyncT!),
    asyncRatio: ratioTo(asyncT!, sdkT!),
    pagesMs: median(pagesT!),
    pagesRatio: ratioTo(rawT!, pagesT!),
    workUs,
    rawWorkMs: median(rawWork!),
    prefetchMs: median(pre!),
    prefetchSpeedup: median(rawWork!) / median(pre!),
    rawWaitShare,
    rawIoMs: median(rawIo!),
    prefetchIoMs: median(preIo!),
    prefetchIoSpeedup: median(rawIo!) / median(preIo!),
    heap10k: m10k.retainedHeap,
    heap100k: m100k.retainedHeap,
    rss10k: m10k.peakRss,
    rss100k: m100k.peakRss,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchPagination();
  console.log(JSON.stringify(r, null, 2));
}
