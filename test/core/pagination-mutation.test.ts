/**
 * Pages and the cursor trail driven directly, without HTTP (issue 22's mutation run of
 * src/core/pagination.ts): the trail's window and its checkpoint past the window, cursors whose
 * 32-bit hashes collide, the exact PaginationError texts, a failed fetch tried again, the request
 * made ahead dropped when a loop is left, empty pages, and an item iterator after return().
 */
import { describe, expect, it } from 'vitest';
import { PaginationError } from '../../src/core/errors';
import { CursorTrail, Page, type PageFetcher } from '../../src/core/pagination';

type Answer = { data: number[]; next?: string };

/** A list served from `book` (cursor → page); `start` is the first page; a cursor in `failOnce` fails its first fetch. Records each fetch. */
function list(start: Answer, book: Record<string, Answer>, prefetch = false, failOnce = new Set<string>()) {
  const fetched: string[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const envelope = (a: Answer) => ({ data: a.data, hasMore: a.next !== undefined, nextCursor: a.next, totalCount: 99 });
  const fetchPage: PageFetcher<number> = async (cursor, signal, trail) => {
    fetched.push(cursor);
    signals.push(signal);
    const answer = book[cursor];
    if (failOnce.delete(cursor)) throw new Error('ECONNRESET');
    if (answer === undefined) throw new Error(`no page ${cursor}`);
    return new Page(envelope(answer), fetchPage, cursor, prefetch, trail);
  };
  return { first: new Page(envelope(start), fetchPage, undefined, prefetch), fetched, signals };
}

async function failure(promise: Promise<unknown>): Promise<PaginationError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(PaginationError);
    return err as PaginationError;
  }
  throw new Error('expected a PaginationError');
}

describe('CursorTrail', () => {
  it('keeps the last 100,000 cursors, and a checkpoint at powers of two catches a cycle longer than that', () => {
    const trail = new CursorTrail();
    trail.add('c0');
    trail.add('c0'); // the same step fetched again: no new step, no second entry
    for (let i = 1; i <= 100_000; i++) trail.add(`c${i}`);
    expect(trail.has('c0')).toBe(false); // the 100,001st cursor pushed the first out
    expect(trail.has('c1')).toBe(true);
    expect(trail.has('c100000')).toBe(true);
    expect(trail.has('c100001')).toBe(false);
    for (let i = 100_001; i <= 231_100; i++) trail.add(`c${i}`);
    // Steps 1, 2, 4, …, 2^17 after each checkpoint: the checkpoint is the cursor of index 2^17 − 2.
    expect(trail.has('c131070')).toBe(true);
    expect(trail.has('c131069')).toBe(false);
    expect(trail.has('c131071')).toBe(false);
    // and the window is still the last 100,000: c131101 … c231100
    expect([trail.has('c131100'), trail.has('c131101'), trail.has('c200000'), trail.has('c231099'), trail.has('c231100'), trail.has('c1')]).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('tells apart cursors whose 32-bit FNV-1a hashes collide', () => {
    const trail = new CursorTrail();
    trail.add('costarring');
    expect(trail.has('costarring')).toBe(true);
    expect(trail.has('liquid')).toBe(false);
  });
});

describe('Page, without HTTP', () => {
  it('hasNextPage and the exact PaginationError of each end', async () => {
    const last = list({ data: [1] }, {}).first;
    expect(last.hasNextPage()).toBe(false);
    expect((await failure(last.nextPage())).message).toBe('No more pages: hasMore is false');
    for (const next of ['', undefined]) {
      const page = new Page({ data: [1], hasMore: true, nextCursor: next, totalCount: 1 }, async () => last, undefined);
      expect(page.hasNextPage()).toBe(next === '');
      expect((await failure(page.nextPage())).message).toBe('The service said hasMore but sent no nextCursor');
    }
    expect(list({ data: [1], next: 'a' }, {}).first.hasNextPage()).toBe(true);
  });

  it('a cursor seen before stops the walk, naming the cursor (cut at 64 characters)', async () => {
    const long = 'L'.repeat(65);
    const exact = 'E'.repeat(64);
    for (const [cursor, shown] of [
      ['A', 'A'],
      [exact, exact],
      [long, `${'L'.repeat(64)}…`],
    ] as [string, string][]) {
      const { first, fetched } = list({ data: [0], next: cursor }, { [cursor]: { data: [1], next: cursor } });
      const second = await first.nextPage();
      expect((await failure(second.nextPage())).message).toBe(`The service answered cursor ${shown} again; stopping instead of looping`);
      expect(fetched).toEqual([cursor]);
    }
    // and through a third page: A → B → A
    const { first } = list({ data: [0], next: 'A' }, { A: { data: [1], next: 'B' }, B: { data: [2], next: 'A' } });
    const items: number[] = [];
    const err = await failure(
      (async () => {
        for await (const n of first) if (items.push(n) > 50) break; // bounded if the guard fails
      })(),
    );
    expect(items).toEqual([0, 1, 2]);
    expect(err.message).toBe('The service answered cursor A again; stopping instead of looping');
  });

  it('a failed fetch of the next page may be tried again, by nextPage() or by a walk', async () => {
    const { first, fetched } = list({ data: [0], next: 'a' }, { a: { data: [1] } }, false, new Set(['a']));
    await expect(first.nextPage()).rejects.toThrow('ECONNRESET');
    expect((await first.nextPage()).data).toEqual([1]);
    expect(fetched).toEqual(['a', 'a']);
    const walk = list({ data: [0], next: 'a' }, { a: { data: [1] } }, false, new Set(['a']));
    const items: number[] = [];
    await expect(
      (async () => {
        for await (const n of walk.first) if (items.push(n) > 50) break;
      })(),
    ).rejects.toThrow('ECONNRESET');
    for await (const n of walk.first) if (items.push(n) > 50) break;
    expect(items).toEqual([0, 0, 1]);
  });

  it('a page asked for its next page after a walk passed it fetches that page again (the same step, not a cycle); a walk after nextPage() does not refetch', async () => {
    const book = { a: { data: [1], next: 'b' }, b: { data: [2] } };
    const walked = list({ data: [0], next: 'a' }, { ...book });
    const pages: number[][] = [];
    for await (const page of walked.first.pages()) if (pages.push(page.data) > 50) break;
    expect(pages).toEqual([[0], [1], [2]]);
    expect((await walked.first.nextPage()).data).toEqual([1]);
    expect(walked.fetched).toEqual(['a', 'b', 'a']);

    const byHand = list({ data: [0], next: 'a' }, { ...book });
    await byHand.first.nextPage();
    const items: number[] = [];
    for await (const n of byHand.first) if (items.push(n) > 50) break;
    expect(items).toEqual([0, 1, 2]);
    expect(byHand.fetched).toEqual(['a', 'b']);
  });

  it('with prefetch, leaving the loop aborts the request made ahead', async () => {
    const { first, signals, fetched } = list({ data: [0, 1], next: 'a' }, { a: { data: [2], next: 'b' }, b: { data: [3] } }, true);
    for await (const n of first) if (n === 1) break;
    expect(fetched).toEqual(['a']);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('empty pages are passed over; after return() the item iterator is done', async () => {
    const { first } = list({ data: [1], next: 'a' }, { a: { data: [], next: 'b' }, b: { data: [2, 3] } });
    const items: number[] = [];
    for await (const n of first) if (items.push(n) > 50) break;
    expect(items).toEqual([1, 2, 3]);

    const iterator = list({ data: [1, 2, 3] }, {}).first[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 1 });
    expect(await iterator.return!()).toEqual({ done: true, value: undefined });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    const unused = list({ data: [1] }, {}).first[Symbol.asyncIterator]();
    await unused.return!();
    expect(await unused.next()).toEqual({ done: true, value: undefined });
  });
});
