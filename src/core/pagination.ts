/**
 * Cursor pagination for every list envelope (`data`, `hasMore`, `nextCursor`, `totalCount`),
 * with no per-resource code: a list call is awaitable (one page) and `for await`-able (every item).
 * @module
 */
import { APIPromise, type WithResponse } from './api-promise';
import { PaginationError } from './errors';

/** Fetches the page that `cursor` points to, with the original query otherwise unchanged. */
export type PageFetcher<T> = (cursor: string, signal?: AbortSignal) => Promise<Page<T>>;

/** The list envelope as the service sends it. */
export interface ListEnvelope<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string | undefined;
  totalCount: number;
}

/** One page of a list, and the way to the next. Iterating a page yields its items and every later page's. */
export class Page<T> implements AsyncIterable<T> {
  /** Items of this page. */
  readonly data: T[];
  /** True when more pages follow. */
  readonly hasMore: boolean;
  /** Cursor of the next page; present only when `hasMore`. */
  readonly nextCursor: string | undefined;
  /** Number of items matching the query, ignoring pagination. */
  readonly totalCount: number;
  /** Cursor that fetched this page (undefined for the first). */
  readonly cursor: string | undefined;
  readonly #fetchPage: PageFetcher<T>;
  readonly #prefetch: boolean;

  /** @internal */
  constructor(envelope: ListEnvelope<T>, fetchPage: PageFetcher<T>, cursor: string | undefined, prefetch = false) {
    this.data = envelope.data;
    this.hasMore = envelope.hasMore;
    this.nextCursor = envelope.hasMore ? envelope.nextCursor : undefined;
    this.totalCount = envelope.totalCount;
    this.cursor = cursor;
    this.#fetchPage = fetchPage;
    this.#prefetch = prefetch;
  }

  /** True when {@link nextPage} will return a page. */
  hasNextPage(): boolean {
    return this.hasMore && this.nextCursor !== undefined;
  }

  /** Fetches the next page. Throws {@link PaginationError} when there is none or the cursor repeats. */
  nextPage(signal?: AbortSignal): Promise<Page<T>> {
    if (!this.hasMore) return Promise.reject(new PaginationError('No more pages: hasMore is false'));
    if (this.nextCursor === undefined || this.nextCursor === '') {
      return Promise.reject(new PaginationError('The service said hasMore but sent no nextCursor'));
    }
    if (this.nextCursor === this.cursor) {
      return Promise.reject(new PaginationError(`The service answered the same cursor again (${this.nextCursor})`));
    }
    return this.#fetchPage(this.nextCursor, signal);
  }

  /**
   * This page and every later one. Stops with {@link PaginationError} if a cursor repeats; sends
   * nothing more once the loop is left. With `prefetch`, page n+1 is requested while page n is used.
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const seen = new Set<string>();
    if (this.cursor !== undefined) seen.add(this.cursor);
    let page: Page<T> = this;
    let ahead: AbortController | undefined;
    try {
      for (;;) {
        const cursor = page.nextCursor;
        let problem: PaginationError | undefined;
        let next: Promise<Page<T>> | undefined;
        if (page.hasMore) {
          if (cursor === undefined || cursor === '') problem = new PaginationError('The service said hasMore but sent no nextCursor');
          else if (seen.has(cursor)) problem = new PaginationError(`The service answered cursor ${cursor} twice; stopping instead of looping`);
          else {
            seen.add(cursor);
            if (this.#prefetch) {
              ahead = new AbortController();
              next = this.#fetchPage(cursor, ahead.signal);
              next.catch(() => undefined); // surfaced when awaited below
            }
          }
        }
        yield page;
        if (!page.hasMore) return;
        if (problem) throw problem;
        page = await (next ?? this.#fetchPage(cursor!));
        ahead = undefined;
      }
    } finally {
      ahead?.abort(); // the caller left the loop: drop the request made ahead
    }
  }

  /** Every item of this page and of the pages after it. */
  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return new ItemIterator(this.pages());
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
  constructor(private readonly pages: AsyncGenerator<Page<T>, void, undefined>) {}

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
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    yield* (await this).pages();
  }

  /** Every item of every page. */
  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return new ItemIterator(this.pages());
  }
}
