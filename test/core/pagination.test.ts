import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { useMswServer } from '../helpers/msw';
import { PaginationError, ResponseValidationError } from '../../src/core/errors';
import { op, rejected, testClient } from '../helpers/client';

const BASE = 'https://api.test.invalid/2025-10-13';
const listThings = op({ method: 'GET', path: '/things', paginated: true });
const mswServer = useMswServer();

/** Serves `total` numbered items in pages of `size`; records each query string. */
function serve(total: number, size: number, seen: URLSearchParams[] = []) {
  mswServer.use(
    http.get(`${BASE}/things`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      seen.push(q);
      const start = Number(q.get('cursor') ?? '0');
      const data = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => ({ n: start + i }));
      const hasMore = start + size < total;
      return HttpResponse.json({ data, hasMore, ...(hasMore ? { nextCursor: String(start + size) } : {}), totalCount: total });
    }),
  );
  return seen;
}

describe('pagination', () => {
  it('awaiting a list gives the first page; nextPage() gives the next', async () => {
    serve(5, 2);
    const { client } = testClient();
    const page = await client.list<{ n: number }>(listThings, { query: { limit: 2 } });
    expect(page.data.map((x) => x.n)).toEqual([0, 1]);
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toBe('2');
    expect(page.totalCount).toBe(5);
    const next = await page.nextPage();
    expect(next.data.map((x) => x.n)).toEqual([2, 3]);
    const last = await next.nextPage();
    expect(last.hasMore).toBe(false);
    expect(last.nextCursor).toBeUndefined();
    await expect(last.nextPage()).rejects.toBeInstanceOf(PaginationError);
  });

  it('for await iterates every item of every page, reusing the query with only the cursor changed', async () => {
    const seen = serve(7, 3);
    const { client } = testClient();
    const items: number[] = [];
    for await (const item of client.list<{ n: number }>(listThings, { query: { limit: 3, status: 'COMPLETED' } })) items.push(item.n);
    expect(items).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(seen.map((q) => q.toString())).toEqual(['limit=3&status=COMPLETED', 'limit=3&status=COMPLETED&cursor=3', 'limit=3&status=COMPLETED&cursor=6']);
  });

  it('breaking out of for await sends nothing more', async () => {
    const seen = serve(100, 10);
    const { client } = testClient();
    const items: number[] = [];
    for await (const item of client.list<{ n: number }>(listThings, { query: { limit: 10 } })) {
      items.push(item.n);
      if (item.n === 12) break;
    }
    expect(items).toHaveLength(13);
    expect(seen).toHaveLength(2);
  });

  it('.pages() iterates pages', async () => {
    serve(5, 2);
    const { client } = testClient();
    const sizes: number[] = [];
    for await (const page of client.list<{ n: number }>(listThings).pages()) sizes.push(page.data.length);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('a cursor answered twice stops with PaginationError instead of looping', async () => {
    let calls = 0;
    mswServer.use(
      http.get(`${BASE}/things`, ({ request }) => {
        calls++;
        const cursor = new URL(request.url).searchParams.get('cursor');
        // A → B → A → … a service bug that would loop forever
        return HttpResponse.json({ data: [{ n: calls }], hasMore: true, nextCursor: cursor === 'A' ? 'B' : 'A', totalCount: 99 });
      }),
    );
    const { client } = testClient();
    const items: number[] = [];
    const err = await rejected(
      (async () => {
        for await (const item of client.list<{ n: number }>(listThings)) {
          items.push(item.n);
          if (items.length > 50) break; // bound: the test must not hang if the guard fails
        }
      })(),
    );
    expect(err).toBeInstanceOf(PaginationError);
    expect(items).toEqual([1, 2, 3]);
    expect(calls).toBe(3);
  });

  it('hasMore without nextCursor stops with PaginationError after yielding what came', async () => {
    mswServer.use(http.get(`${BASE}/things`, () => HttpResponse.json({ data: [{ n: 1 }], hasMore: true, totalCount: 2 })));
    const { client } = testClient();
    const items: number[] = [];
    const err = await rejected(
      (async () => {
        for await (const item of client.list<{ n: number }>(listThings)) items.push(item.n);
      })(),
    );
    expect(items).toEqual([1]);
    expect(err).toBeInstanceOf(PaginationError);
  });

  it('a malformed envelope is a ResponseValidationError, not a TypeError', async () => {
    mswServer.use(http.get(`${BASE}/things`, () => HttpResponse.json({ data: 'nope', hasMore: 'x' })));
    const { client } = testClient();
    const err = await rejected(client.list(listThings));
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.issues.map((i: { path: string }) => i.path)).toEqual(['data']);
  });

  it('a missing hasMore is worked out from nextCursor and reported, not thrown', async () => {
    mswServer.use(
      http.get(`${BASE}/things`, ({ request }) =>
        HttpResponse.json(new URL(request.url).searchParams.get('cursor') ? { data: [2] } : { data: [1], nextCursor: 'c2' }),
      ),
    );
    const reports: unknown[] = [];
    const { client } = testClient({ onValidationIssue: (r) => reports.push(r) });
    const items: unknown[] = [];
    for await (const item of client.list(listThings)) items.push(item);
    expect(items).toEqual([1, 2]);
    expect(reports).toMatchObject([{ operation: 'GET /things', status: 200, issues: [{ path: 'hasMore' }] }, { issues: [{ path: 'hasMore' }] }]);
  });

  it('with prefetch, page n+1 is requested before page n is consumed', async () => {
    const order: string[] = [];
    mswServer.use(
      http.get(`${BASE}/things`, ({ request }) => {
        const start = Number(new URL(request.url).searchParams.get('cursor') ?? '0');
        order.push(`fetch ${start}`);
        const hasMore = start < 4;
        return HttpResponse.json({ data: [{ n: start }, { n: start + 1 }], hasMore, ...(hasMore ? { nextCursor: String(start + 2) } : {}), totalCount: 6 });
      }),
    );
    const { client } = testClient();
    for await (const item of client.list<{ n: number }>(listThings, {}, { prefetch: true })) {
      order.push(`item ${item.n}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(order.indexOf('fetch 2')).toBeLessThan(order.indexOf('item 1'));
    expect(order.indexOf('fetch 4')).toBeLessThan(order.indexOf('item 3'));
    expect(order.filter((o) => o.startsWith('item'))).toHaveLength(6);
  });

  it('fields of the list body the SDK does not know are kept on page.body, checked or not', async () => {
    mswServer.use(
      http.get(`${BASE}/things`, () =>
        HttpResponse.json({ data: [{ n: 1 }], hasMore: false, totalCount: 1, nextPageUrl: null, summary: { currency: 'USD', sum: 7 } }),
      ),
    );
    for (const validateResponses of [false, true]) {
      const { client } = testClient({ validateResponses });
      const page = await client.list<{ n: number }>(listThings);
      expect(page.body).toMatchObject({ hasMore: false, totalCount: 1, nextPageUrl: null, summary: { currency: 'USD', sum: 7 } });
      expect(page.body.data).toBe(page.data);
    }
  });

  it('not-paginated lists ({ data }) resolve as one page', async () => {
    mswServer.use(http.get(`${BASE}/plain`, () => HttpResponse.json({ data: [{ n: 1 }, { n: 2 }] })));
    const { client } = testClient();
    const page = await client.list<{ n: number }>(op({ method: 'GET', path: '/plain' }));
    expect(page.data).toHaveLength(2);
    expect(page.hasMore).toBe(false);
    expect(page.totalCount).toBe(2);
  });

  it('Date query values are sent as ISO strings', async () => {
    const seen = serve(1, 10);
    const { client } = testClient();
    await client.list(listThings, { query: { createdAfter: new Date('2025-01-02T03:04:05.000Z'), skip: undefined } });
    expect(seen[0]!.get('createdAfter')).toBe('2025-01-02T03:04:05.000Z');
    expect(seen[0]!.has('skip')).toBe(false);
  });
});

describe('cursor cycles (issue #16, defect 12)', () => {
  it('nextPage() by hand stops an A → B → A cycle with a PaginationError, in a bounded number of calls', async () => {
    const next: Record<string, string> = { start: 'A', A: 'B', B: 'A' };
    let requests = 0;
    mswServer.use(
      http.get(`${BASE}/things`, ({ request }) => {
        requests++;
        const cursor = new URL(request.url).searchParams.get('cursor') ?? 'start';
        return HttpResponse.json({ data: [cursor], hasMore: true, nextCursor: next[cursor] });
      }),
    );
    const { client } = testClient();
    let page = await client.list<string>(listThings);
    let error: unknown;
    for (let i = 0; i < 10 && !error; i++) {
      try {
        page = await page.nextPage();
      } catch (e) {
        error = e;
      }
    }
    expect(error).toBeInstanceOf(PaginationError);
    expect(requests).toBe(3); // start, A, B: the repeat of A is never requested
  });

  it('asking the same page for its next page twice fetches it once (no false cycle)', async () => {
    let requests = 0;
    mswServer.use(
      http.get(`${BASE}/things`, ({ request }) => {
        requests++;
        const cursor = new URL(request.url).searchParams.get('cursor');
        return HttpResponse.json(cursor ? { data: [2], hasMore: false } : { data: [1], hasMore: true, nextCursor: 'c2' });
      }),
    );
    const { client } = testClient();
    const first = await client.list<number>(listThings);
    const [a, b] = await Promise.all([first.nextPage(), first.nextPage()]);
    expect(a).toBe(b);
    expect(await first.nextPage()).toBe(a);
    expect(requests).toBe(2);
  });

  it('for await keeps a bounded trail: 8,000 pages of 16 kB cursors retain kilobytes, not the cursors', async () => {
    const { CursorTrail } = await import('../../src/core/pagination');
    const v8 = await import('node:v8');
    const vm = await import('node:vm');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void; // a real collection before each reading
    const trail = new CursorTrail();
    gc();
    const before = process.memoryUsage().heapUsed;
    const filler = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 8_000; i++) {
      const cursor = `${i}:${filler}`; // a fresh 16 kB string each time, collectable once digested
      expect(trail.has(cursor)).toBe(false);
      trail.add(cursor);
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // The cursors themselves would be 8,000 × 16 kB = 128 MB (x2 as UTF-16); the trail keeps ~50 bytes per page.
    expect(grown).toBeLessThan(4 * 1024 * 1024);
    expect(trail.has(`0:${filler}`)).toBe(true);
    expect(trail.has(`8000:${filler}`)).toBe(false);
  });

  it('for await and .pages() over 8,000 pages of 16 kB cursors retain the page in hand, not every page seen (issue 16 #12)', { timeout: 120_000 }, async () => {
    const v8 = await import('node:v8');
    const vm = await import('node:vm');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const filler = 'x'.repeat(16 * 1024);
    const PAGES = 8_000;
    // A service answering page n with one item and a fresh 16 kB cursor to page n + 1.
    const fetch = async (input: RequestInfo | URL) => {
      const cursor = new URL(String(input)).searchParams.get('cursor');
      const n = cursor === null ? 0 : Number(cursor.slice(0, cursor.indexOf(':')));
      const more = n + 1 < PAGES;
      return new Response(JSON.stringify({ data: [{ n }], hasMore: more, totalCount: PAGES, ...(more ? { nextCursor: `${n + 1}:${filler}` } : {}) }), {
        headers: { 'content-type': 'application/json' },
      });
    };
    const { client } = testClient({ fetch });
    for (const walk of ['items', 'pages'] as const) {
      const list = client.list<{ n: number }>(listThings);
      gc();
      const before = process.memoryUsage().heapUsed;
      let seen = 0;
      let grownAtEnd = 0;
      if (walk === 'items') {
        for await (const item of list) {
          expect(item.n).toBe(seen++);
          if (seen === PAGES) {
            gc();
            grownAtEnd = process.memoryUsage().heapUsed - before;
          }
        }
      } else {
        for await (const page of (await list).pages()) {
          expect(page.data[0]!.n).toBe(seen++);
          if (seen === PAGES) {
            gc();
            grownAtEnd = process.memoryUsage().heapUsed - before;
          }
        }
      }
      expect(seen, walk).toBe(PAGES);
      console.log(
        `[pagination] ${walk === 'items' ? 'for await' : '.pages()'}: heap +${(grownAtEnd / 1048576).toFixed(1)} MB after ${PAGES} pages of 16 kB cursors`,
      );
      // Every page kept would be 8,000 × 16 kB × 2 (UTF-16) ≈ 256 MB; the trail alone keeps ~50 bytes a page.
      expect(grownAtEnd, walk).toBeLessThan(16 * 1024 * 1024);
    }
  });
});
