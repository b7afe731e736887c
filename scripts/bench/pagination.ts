/**
 * Auto-pagination of the SDK as built (dist/) against a hand-written raw cursor loop with the same
 * timeout mechanism (undici's headersTimeout/bodyTimeout on Node): 100,000 items in pages of 100
 * from a list server in its own process, interleaved rounds. Memory: the largest heap still in use
 * after a full GC (sampled every 1,000 items) of a child process iterating 10,000 and 100,000 items,
 * for the SDK and for the raw loop. Prefetch: with work per item, `prefetch` overlaps the next
 * page's request with the consumer's work.
 *
 *   npx tsx scripts/bench/pagination.ts [--items 100000] [--rounds 9]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startChildServer } from './child-server';
import { loadSdk, root } from './dist';
import { arg, interleaved, isMain, load1, median, medianRatio } from './rounds';
import { TIMEOUT_MS, timeoutDispatcher } from './timeouts';

const PAGE = 100;

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

export interface Memory {
  /** Largest heap in use after a full GC while iterating. */
  retainedHeap: number;
  peakRss: number;
}

export interface PaginationResult {
  items: number;
  rawMs: number;
  sdkMs: number;
  /** SDK items (`for await` over the list) ÷ raw cursor loop, median of per-round ratios. */
  ratio: number;
  /** The raw cursor loop written as an async generator of items: what `for await` over items costs without the SDK. */
  rawAsyncMs: number;
  /** `for await` over `.pages()`, plain loop over each page's data. */
  pagesMs: number;
  pagesRatio: number;
  workUs: number;
  rawWorkMs: number;
  prefetchMs: number;
  prefetchSpeedup: number;
  rawIoMs: number;
  prefetchIoMs: number;
  prefetchIoSpeedup: number;
  memory: { sdk10k: Memory; sdk100k: Memory; raw10k: Memory; raw100k: Memory };
  load: [number, number];
}

type Work = ((us: number) => void | Promise<void>) | undefined;

export async function benchPagination(items = arg('items', 100_000), rounds = arg('rounds', 9)): Promise<PaginationResult> {
  const { Crossborder } = await loadSdk();
  const { base, stop } = await startListServer(items);
  const api = `${base}/2025-10-13`;
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base });
  const headers = { authorization: `Basic ${btoa('tok:sec')}`, accept: 'application/json' };
  const dispatcher = timeoutDispatcher(TIMEOUT_MS);
  const workUs = 10;
  const before = load1();

  /** One page, fetched by hand with the same timeout: the physical limit each contender is measured against. */
  async function rawPage(cursor: string | undefined) {
    const url = `${api}/customers?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await fetch(url, { headers, dispatcher } as RequestInit);
    return (await res.json()) as { data: unknown[]; hasMore: boolean; nextCursor?: string };
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
      let cursor: string | undefined;
      do {
        const page = await rawPage(cursor);
        yield* page.data;
        cursor = page.hasMore ? page.nextCursor : undefined;
      } while (cursor);
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
    return interleaved(
      n,
      contenders.map((fn) => () => time(fn)),
    );
  };

  let result: Omit<PaginationResult, 'memory' | 'load'>;
  try {
    const [rawT, sdkT, asyncT, pagesT] = await race(rounds, [() => raw(), () => sdk(), rawAsyncItems, sdkPages]);
    const [rawWork, pre] = await race(3, [() => raw(work), () => sdk(work, true)]);
    const [rawIo, preIo] = await race(3, [() => raw(ioWork), () => sdk(ioWork, true)]);
    result = {
      items,
      rawMs: median(rawT!),
      sdkMs: median(sdkT!),
      ratio: medianRatio(rawT!, sdkT!),
      rawAsyncMs: median(asyncT!),
      pagesMs: median(pagesT!),
      pagesRatio: medianRatio(rawT!, pagesT!),
      workUs,
      rawWorkMs: median(rawWork!),
      prefetchMs: median(pre!),
      prefetchSpeedup: median(rawWork!) / median(pre!),
      rawIoMs: median(rawIo!),
      prefetchIoMs: median(preIo!),
      prefetchIoSpeedup: median(rawIo!) / median(preIo!),
    };
  } finally {
    stop();
  }

  const memory = async (n: number, mode: 'sdk' | 'raw'): Promise<Memory> => {
    const list = await startListServer(n);
    try {
      // In plain node, as users run the package: see pagination-memory.mjs.
      const out = execFileSync(process.execPath, ['--expose-gc', join(root, 'scripts/bench/pagination-memory.mjs'), list.base, String(n), mode], {
        encoding: 'utf8',
        timeout: 300_000,
      });
      return JSON.parse(out.trim()) as Memory;
    } finally {
      list.stop();
    }
  };
  return {
    ...result,
    memory: {
      sdk10k: await memory(10_000, 'sdk'),
      sdk100k: await memory(100_000, 'sdk'),
      raw10k: await memory(10_000, 'raw'),
      raw100k: await memory(100_000, 'raw'),
    },
    load: [before, load1()],
  };
}

if (isMain(import.meta.url)) {
  const r = await benchPagination();
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : JSON.stringify(r, null, 2));
}
