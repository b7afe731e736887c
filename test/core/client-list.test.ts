/**
 * client.list(): the signal of a page fetched ahead (prefetch) is the walk's and the caller's at once;
 * a page's query is the list's with the cursor added. Written against the survivors of the mutation run
 * of client.ts (issue 22); a scripted fetch stands for the service, each wait bounded.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { op, rejected, testClient } from '../helpers/client';

const listThings = op({ method: 'GET', path: '/things', paginated: true });

/** Answers the first page at once; a later page only when `release` is called, or fails when its request is aborted. */
function stalling() {
  const urls: string[] = [];
  const aborted: string[] = [];
  let release: (() => void) | undefined;
  const fetch = async (url: string, init: RequestInit) => {
    urls.push(url);
    if (!url.includes('cursor=')) return Response.json({ data: [{ n: 0 }], hasMore: true, nextCursor: 'c1' });
    return new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('test: never released nor aborted')), 5_000);
      release = () => (clearTimeout(timer), resolve(Response.json({ data: [{ n: 1 }], hasMore: false })));
      init.signal!.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(url);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  };
  return { urls, aborted, fetch, release: () => release?.() };
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

describe('client.list and the signal of a page fetched ahead', () => {
  it("leaving the loop aborts the page fetched ahead, with or without the caller's signal", async () => {
    for (const withSignal of [false, true]) {
      const s = stalling();
      const { client } = testClient({ fetch: s.fetch, maxRetries: 0 });
      const options = withSignal ? { prefetch: true, signal: new AbortController().signal } : { prefetch: true };
      for await (const item of client.list<{ n: number }>(listThings, { query: { limit: 1 } }, options)) {
        expect(item).toEqual({ n: 0 });
        await until(() => s.urls.length === 2);
        break;
      }
      await until(() => s.aborted.length === 1);
      expect(s.aborted, String(withSignal)).toEqual(['https://api.test.invalid/2025-10-13/things?limit=1&cursor=c1']);
    }
  });

  it("the caller's signal aborts a page fetched ahead; without prefetch the next page takes the caller's signal", async () => {
    const s = stalling();
    const { client } = testClient({ fetch: s.fetch, maxRetries: 0 });
    const caller = new AbortController();
    const walk = (async () => {
      const items: unknown[] = [];
      for await (const item of client.list(listThings, {}, { prefetch: true, signal: caller.signal })) items.push(item);
      return items;
    })();
    await until(() => s.urls.length === 2);
    caller.abort();
    expect((await rejected(walk)).name).toBe('APIUserAbortError');
    expect(s.aborted).toHaveLength(1);

    const plain = stalling();
    const c2 = testClient({ fetch: plain.fetch, maxRetries: 0 }).client;
    const second = new AbortController();
    const first = await c2.list(listThings, {}, { signal: second.signal });
    const next = first.nextPage();
    await until(() => plain.urls.length === 2);
    second.abort();
    expect((await rejected(next)).name).toBe('APIUserAbortError');
    expect(plain.urls).toEqual(['https://api.test.invalid/2025-10-13/things', 'https://api.test.invalid/2025-10-13/things?cursor=c1']);
  });

  it('a page fetched ahead that is released is the next page of the walk', async () => {
    const s = stalling();
    const { client } = testClient({ fetch: s.fetch, maxRetries: 0 });
    const items: unknown[] = [];
    const walk = (async () => {
      for await (const item of client.list(listThings, {}, { prefetch: true })) items.push(item);
    })();
    await until(() => s.urls.length === 2);
    s.release();
    await walk;
    expect(items).toEqual([{ n: 0 }, { n: 1 }]);
    expect(s.aborted).toEqual([]);
  });
});

describe('a repaired list envelope without a hook or a logger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('goes to the console only when validateResponses asks for reports', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetch = async () => Response.json({ data: [{ n: 0 }], nextCursor: 'c1' }); // hasMore missing: taken as true, reported
    for (const validateResponses of [false, true]) {
      const { client } = testClient({ fetch, maxRetries: 0, validateResponses, logLevel: 'off' });
      expect((await client.list(listThings)).hasMore).toBe(true);
    }
    expect(warn.mock.calls).toEqual([
      ['[crossborder-sdk] GET /things answered 200 with a body that differs from the document: hasMore: expected boolean (taken as true)'],
    ]);
  });
});
