/**
 * A walk over a list holds the page in hand (and one fetched ahead), not the pages it has passed:
 * each page keeps the next one (nextPage() answers the same page twice), so a walk that held its
 * first page would hold every page of the list until it ends (100,000 items: +50 MB).
 */
// @ts-nocheck

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { op, testClient } from '../helpers/client';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PAGES = 60;
const listThings = op({ method: 'GET', path: '/things', paginated: true });

/** A list of PAGES pages of 100 items, answered in-process. */
function pagedClient(prefetch = false) {
  const { client } = testClient({
    fetch: async (input) => {
      const cursor = Number(new URL(input).searchParams.get('cursor') ?? 0);
      const hasMore = cursor + 1 < PAGES;
      const data = Array.from({ length: 100 }, (_, i) => ({ id: `Thing:${cursor}-${i}`, payload: 'x'.repeat(200) }));
      return new Response(JSON.stringify({ data, hasMore, ...(hasMore ? { nextCursor: String(cursor + 1) } : {}), totalCount: PAGES * 100 }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return client.list<{ id: string }>(listThings, {}, { prefetch });
}

/** Collects what can be collected (WeakRef targets live until the job that made them ends). */
async function collect() {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    gc();
  }
}

describe('memory of a walk over a list', () => {
  for (const prefetch of [false, true]) {
    it(`for await over items lets go of the items and pages it has passed${prefetch ? ' (with prefetch)' : ''}`, async () => {
      let first: WeakRef<object> | undefined;
      let count = 0;
      let collectedAt: number | undefined;
      for await (const item of pagedClient(prefetch)) {
        first ??= new WeakRef(item);
        if (++count === 30 * 100) {
          await collect();
          if (first.deref() === undefined) collectedAt = count;
        }
      }
      expect(count).toBe(PAGES * 100);
      expect(collectedAt).toBe(30 * 100);
    });
  }

  it('a list kept in a variable while for await walks it holds its first page only', async () => {
    const list = pagedClient();
    let second: WeakRef<object> | undefined;
    let count = 0;
    let gone = false;
    for await (const item of list) {
      if (++count === 101) second = new WeakRef(item); // the first item of the second page
      if (count === 30 * 100) {
        await collect();
        gone = second!.deref() === undefined;
      }
    }
    expect(count).toBe(PAGES * 100);
    expect(gone).toBe(true);
    expect((await list).data).toHaveLength(100); // the list still answers its first page
  });

  it('.pages() on the list, and on a page, let go of the pages they have passed', async () => {
    for (const start of ['list', 'page'] as const) {
      const list = pagedClient();
      const pages = start === 'list' ? list.pages() : (await list).pages();
      let second: WeakRef<object> | undefined;
      let count = 0;
      let gone = false;
      for await (const page of pages) {
        if (++count === 2) second = new WeakRef(page.data); // the first page is the caller's to hold (here: \`list\`)
        if (count === 30) {
          await collect();
          gone = second!.deref() === undefined;
        }
      }
      expect(count).toBe(PAGES);
      expect(gone, start).toBe(true);
    }
  });
});
