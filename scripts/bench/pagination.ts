/**
 * Auto-pagination against a hand-written raw cursor loop: 100,000 items in pages of 100 from a
 * loopback node:http server, same process, interleaved rounds. Memory: peak RSS of a child process
 * iterating 10,000 vs 100,000 items (flat = independent of item count). Prefetch: with work per
 * item, `prefetch` overlaps the next page's request with the consumer's work.
 *
 *   npx tsx scripts/bench/pagination.ts [--items 100000] [--rounds 5]
 */
import { execFileSync, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Crossborder } from '../../src/client';

const PAGE = 100;
const here = dirname(fileURLToPath(import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

/** Starts scripts/bench/list-server.ts in its own process; resolves its base URL and a stop function. */
export async function startListServer(total: number): Promise<{ base: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(here, 'list-server.ts'), String(total)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((ok, fail) => {
    child.stdout.once('data', (d: Buffer) => ok(d.toString().trim()));
    child.once('exit', (code) => fail(new Error(`list server exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.stdin.end() };
}

/** Simulated per-item work (e.g. writing to a ledger): a busy loop of ~`us` microseconds. */
function work(us: number) {
  const end = performance.now() + us / 1000;
  while (performance.now() < end);
}

export interface PaginationResult {
  items: number;
  rawMs: number;
  sdkMs: number;
  ratio: number;
  workUs: number;
  rawWorkMs: number;
  prefetchMs: number;
  prefetchSpeedup: number;
  /** Largest heap in use after a full GC while iterating, for 10k and 100k items. */
  heap10k: number;
  heap100k: number;
  /** Peak RSS of the iterating process. */
  rss10k: number;
  rss100k: number;
}

export async function benchPagination(items = arg('items', 100_000), rounds = arg('rounds', 5)): Promise<PaginationResult> {
  const { base, stop } = await startListServer(items);
  const api = `${base}/2025-10-13`;
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base });
  const auth = `Basic ${btoa('tok:sec')}`;

  async function raw(perItem = 0): Promise<number> {
    let count = 0;
    let cursor: string | undefined;
    do {
      const url = `${api}/customers?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await fetch(url, { headers: { authorization: auth, accept: 'application/json' } });
      const page = (await res.json()) as { data: unknown[]; hasMore: boolean; nextCursor?: string };
      for (const _ of page.data) {
        if (perItem) work(perItem);
        count++;
      }
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
    return count;
  }
  async function sdk(perItem = 0, prefetch = false): Promise<number> {
    let count = 0;
    for await (const _ of cb.customers.list({ limit: PAGE }, { prefetch })) {
      if (perItem) work(perItem);
      count++;
    }
    return count;
  }
  const time = async (fn: () => Promise<number>) => {
    const t0 = performance.now();
    const n = await fn();
    if (n !== items) throw new Error(`iterated ${n} of ${items}`);
    return performance.now() - t0;
  };

  await raw();
  await sdk();
  const rawT: number[] = [];
  const sdkT: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2) sdkT.push(await time(() => sdk())), rawT.push(await time(() => raw()));
    else rawT.push(await time(() => raw())), sdkT.push(await time(() => sdk()));
  }
  // Work per item comparable to a page fetch: 100 items × 10 µs ≈ 1 ms per page.
  const workUs = 10;
  const rawWork: number[] = [];
  const pre: number[] = [];
  for (let r = 0; r < 3; r++) {
    let t0 = performance.now();
    await raw(workUs);
    rawWork.push(performance.now() - t0);
    t0 = performance.now();
    await sdk(workUs, true);
    pre.push(performance.now() - t0);
  }
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
  return {
    items,
    rawMs: median(rawT),
    sdkMs: median(sdkT),
    ratio: median(rawT.map((x, i) => sdkT[i]! / x)),
    workUs,
    rawWorkMs: median(rawWork),
    prefetchMs: median(pre),
    prefetchSpeedup: median(rawWork) / median(pre),
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
