/**
 * Cursor pagination for every list envelope (`data`, `hasMore`, `nextCursor`, `totalCount`),
 * with no per-resource code: a list call is awaitable (one page) and `for await`-able (every item).
 * @module
 */
import { APIPromise, type WithResponse } from './api-promise';
import { PaginationError } from './errors';

/** Fetches the page that `cursor` points to, with the original query otherwise unchanged; the page joins `trail`. */
export type PageFetcher<T> = (cursor: string, signal: AbortSignal | undefined, trail: CursorTrail) => Promise<Page<T>>;

/** Most cursor digests kept; a cycle longer than this is still caught by the checkpoint below. */
const TRAIL_WINDOW = 100_000;

/** 53-bit digest of a cursor (two FNV-1a hashes): pages keep this, not the cursor, however long it is. */
function digest(cursor: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ cursor.length;
  for (let i = 0; i < cursor.length; i++) {
    const c = cursor.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 2 ** 21 + ((b >>> 0) & 0x1fffff);
}

/**
 * The cursors a chain of pages has followed, in bounded memory: the digests of the last
 * {@link TRAIL_WINDOW} cursors (about 50 bytes each, whatever the cursor's length), plus one
 * checkpoint moved at powers of two (Brent's method), which catches a cycle longer than the window.
 * Shared by `for await`, `.pages()` and `nextPage()` by hand.
 * @internal
 */
export class CursorTrail {
  readonly #seen = new Set<number>();
  /** The digests in #seen, oldest first from #oldest once full: a ring (Array#shift on 100,000 entries copies them all). */
  readonly #order: number[] = [];
  #oldest = 0;
  #checkpoint: number | undefined;
  #steps = 0;
  #power = 1;

  /** True when following `cursor` would revisit a page of this chain. */
  has(cursor: string): boolean {
    const d = digest(cursor);
    return this.#seen.has(d) || d === this.#checkpoint;
  }

  /** Records a cursor followed (once: a page fetched again for the same step is no new step). */
  add(cursor: string): void {
    const d = digest(cursor);
    if (this.#seen.has(d)) return;
    this.#seen.add(d);
    if (this.#order.length < TRAIL_WINDOW) this.#order.push(d);
    else {
      this.#seen.delete(this.#order[this.#oldest]!);
      this.#order[this.#oldest] = d;
      this.#oldest = (this.#oldest + 1) % TRAIL_WINDOW;
    }
    if (++this.#steps === this.#power) {
      this.#checkpoint = d;
      this.#power *= 2;
      this.#steps = 0;
    }
  }
}

/** The list envelope as the service sends it. */
export interface ListEnvelope<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string | undefined;
  totalCount: number;
}

/** Walks pages from `start` on (defined in Page's body, which it reads the private fields of). */
let chain: <T>(start: Page<T> | PromiseLike<Page<T>>) => AsyncGenerator<Page<T>, void, undefined>;

/** One page of a list, and the way to the next. Iterating a page yields its items and every later page's. */
export class Page<T> implements AsyncIterable<T> {
  /** Items of this page. */
  declare readonly data: T[];
  /** True when more pages follow. */
  declare readonly hasMore: boolean;
  /** Cursor of the next page; present only when `hasMore`. */
  declare readonly nextCursor: string | undefined;
  /** Number of items matching the query, ignoring pagination. */
  declare readonly totalCount: number;
  /** Cursor that fetched this page (undefined for the first). */
  declare readonly cursor: string | undefined;
  /**
   * The list's answer body as the service sent it, fields this SDK does not know yet included
   * (`hasMore`, `nextCursor` and `totalCount` as read above).
   */
  declare readonly body: Readonly<Record<string, unknown>>;
  readonly #fetchPage: PageFetcher<T>;
  readonly #prefetch: boolean;
  /** Made when the chain goes past its first page: a single-page list keeps no trail. */
  #trail: CursorTrail | undefined;
  /** The next page, once asked for with nextPage(): asking twice does not refetch (nor look like a cycle). */
  #next: Promise<Page<T>> | undefined;
  /** This page's next cursor has been followed: fetching it again is the same step, not a cycle. */
  #followed = false;

  /** @internal */
  constructor(envelope: ListEnvelope<T>, fetchPage: PageFetcher<T>, cursor: string | undefined, prefetch = false, trail?: CursorTrail) {
    this.data = envelope.data;
    this.hasMore = envelope.hasMore;
    this.nextCursor = envelope.hasMore ? envelope.nextCursor : undefined;
    this.totalCount = envelope.totalCount;
    this.cursor = cursor;
    this.body = { ...envelope };
    this.#fetchPage = fetchPage;
    this.#prefetch = prefetch;
    this.#trail = trail;
    if (cursor !== undefined) (this.#trail ??= new CursorTrail()).add(cursor);
  }

  /** True when {@link nextPage} will return a page. */
  hasNextPage(): boolean {
    return this.hasMore && this.nextCursor !== undefined;
  }

  /**
   * Fetches the next page (once: a second call returns the same page). Throws {@link PaginationError}
   * when there is none, or when its cursor was already followed in this chain (A → B → A would loop).
   */
  nextPage(signal?: AbortSignal): Promise<Page<T>> {
    if (this.#next) return this.#next;
    const next = this.#follow(signal);
    this.#next = next;
    next.catch(() => {
      if (this.#next === next) this.#next = undefined; // a failed fetch may be tried again
    });
    return next;
  }

  /**
   * The next page, not kept by this page. `for await` and pages() walk with this: a page keeping the
   * next, and so on, would make whoever holds the first page (a list kept in a variable while a loop
   * walks it) hold every page of the list.
   */
  #follow(signal: AbortSignal | undefined): Promise<Page<T>> {
    if (this.#next) return this.#next;
    const problem = this.#followed ? undefined : this.#problem();
    if (problem) return Promise.reject(problem);
    this.#followed = true;
    return this.#fetchPage(this.nextCursor!, signal, (this.#trail ??= new CursorTrail()));
  }

  #problem(): PaginationError | undefined {
    if (!this.hasMore) return new PaginationError('No more pages: hasMore is false');
    const cursor = this.nextCursor;
    if (cursor === undefined || cursor === '') return new PaginationError('The service said hasMore but sent no nextCursor');
    if (cursor === this.cursor || this.#trail?.has(cursor)) {
      return new PaginationError(`The service answered cursor ${cursor.length > 64 ? `${cursor.slice(0, 64)}…` : cursor} again; stopping instead of looping`);
    }
    return undefined;
  }

  /**
   * This page and every later one. Stops with {@link PaginationError} if a cursor repeats; sends
   * nothing more once the loop is left. With `prefetch`, page n+1 is requested while page n is used.
   */
  pages(): AsyncGenerator<Page<T>, void, undefined> {
    return chain(this);
  }

  static {
    /**
     * The walk behind `pages()` and `for await`. A function of its own, not a generator method: a
     * generator keeps its `this`, and each page keeps the next (nextPage() answers the same page
     * twice), so a walk that held its first page would hold every page it has passed. This one holds
     * the page in hand, and the one fetched ahead.
     */
    chain = async function* <T>(start: Page<T> | PromiseLike<Page<T>>): AsyncGenerator<Page<T>, void, undefined> {
      // One await, in the loop: a generator keeps the operands of its awaits in registers that only
      // a later await overwrites, so a first page awaited apart would stay held for the whole walk.
      let pending: Page<T> | PromiseLike<Page<T>> | undefined = start;
      start = undefined as never;
      let ahead: AbortController | undefined;
      try {
        for (;;) {
          const page: Page<T> = await pending;
          pending = undefined;
          ahead = undefined;
          let next: Promise<Page<T>> | undefined;
          if (page.hasMore && page.#prefetch && !page.#problem()) {
            ahead = new AbortController();
            next = page.#follow(ahead.signal);
            next.catch(() => undefined); // surfaced when awaited
          }
          yield page;
          if (!page.hasMore) return;
          pending = next ?? page.#follow(undefined);
        }
      } finally {
        ahead?.abort(); // the caller left the loop: drop the request made ahead
      }
    };
  }

  /** Every item of this page and of the pages after it. */
  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return new ItemIterator(chain(this));
  }
}

/**
 * Items of a page sequence. Hand-written rather than an async generator: an item already in hand
 * costs one resolved promise, not a chain of generator steps (that chain was most of the cost of
 * iterating 100,000 items).
 */
class ItemIterator<T> implements AsyncIterator<T, undefined> {
  #items: readonly T[] = [];
  #index = 0;
  declare private readonly pages: AsyncGenerator<Page<T>, void, undefined>;
  constructor(pages: AsyncGenerator<Page<T>, void, undefined>) {
    this.pages = pages;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#index < this.#items.length) return Promise.resolve({ done: false, value: this.#items[this.#index++]! });
    return this.#advance();
  }

  async #advance(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      const page = await this.pages.next();
      if (page.done) return { done: true, value: undefined };
      this.#items = page.value.data;
      this.#index = 0;
      if (this.#items.length > 0) return { done: false, value: this.#items[this.#index++]! };
    }
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.#items = [];
    await this.pages.return(undefined); // runs the pages' cleanup: drops a request made ahead
    return { done: true, value: undefined };
  }
}

/** What a list method returns: awaitable for the first page, `for await` over every item. */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** @internal */
  constructor(raw: Promise<WithResponse<Page<T>>>) {
    super(raw);
  }

  /** Every page, starting with the first. */
  pages(): AsyncGenerator<Page<T>, void, undefined> {
    // From the first page's promise, not from this object: a loop over a list holds neither the
    // list's promise nor its first page once past it.
    return chain(this.raw.then((r) => r.data));
  }

  /** Every item of every page. */
  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return new ItemIterator(this.pages());
  }
}
