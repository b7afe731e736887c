/**
 * The list envelope: `limit`, opaque cursors, `hasMore`, `nextCursor` (only when more), `totalCount`
 * (matches ignoring pagination) and `sortOrder` by creation time.
 * @module
 */
import { invalidInput } from './errors';

/** A record that can be paged: ordered by creation time, ties broken by creation sequence. */
export interface Ordered {
  createdMs: number;
  seq: number;
}

/** The paginated list answer. */
export interface Envelope<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** Paging parameters after validation. */
export interface PageParams {
  limit?: number | undefined;
  cursor?: string | undefined;
  sortOrder?: 'asc' | 'desc' | undefined;
}

/** Page size when `limit` is absent. */
export const DEFAULT_LIMIT = 20;

interface CursorKey {
  t: number;
  s: number;
  o: 'asc' | 'desc';
}

function encodeCursor(key: CursorKey): string {
  return btoa(JSON.stringify(key)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(cursor: string, order: 'asc' | 'desc'): CursorKey {
  let key: unknown;
  try {
    key = JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    throw invalidInput('cursor', 'cursor is not a cursor this API returned; pass nextCursor unchanged.');
  }
  const k = key as Partial<CursorKey> | null;
  if (typeof k?.t !== 'number' || typeof k.s !== 'number' || (k.o !== 'asc' && k.o !== 'desc')) {
    throw invalidInput('cursor', 'cursor is not a cursor this API returned; pass nextCursor unchanged.');
  }
  if (k.o !== order) {
    throw invalidInput('cursor', `cursor was made for sortOrder=${k.o}; keep the same sortOrder while paging.`);
  }
  return k as CursorKey;
}

/**
 * Records are stored in creation order, so the list is usually sorted already: check in O(n) and
 * only sort when the clock was set backwards at some point.
 */
function sortByCreation<T extends Ordered>(items: T[], sign: 1 | -1): T[] {
  const ascending = items.every(
    (it, i) => i === 0 || items[i - 1]!.createdMs - it.createdMs < 0 || (items[i - 1]!.createdMs === it.createdMs && items[i - 1]!.seq < it.seq),
  );
  if (!ascending) items.sort((a, b) => a.createdMs - b.createdMs || a.seq - b.seq);
  return sign === 1 ? items : items.reverse();
}

/**
 * Sorts the already-filtered `items`, skips to the cursor and cuts one page.
 * @param defaultOrder lists in this API are newest first unless `sortOrder` says otherwise.
 */
export function paginate<T extends Ordered, R>(
  items: Iterable<T>,
  params: PageParams,
  render: (item: T) => R,
  defaultOrder: 'asc' | 'desc' = 'desc',
): Envelope<R> {
  const order = params.sortOrder ?? defaultOrder;
  const limit = params.limit ?? DEFAULT_LIMIT;
  const sign = order === 'asc' ? 1 : -1;
  const sorted = sortByCreation([...items], sign);
  let start = 0;
  if (params.cursor !== undefined) {
    const after = decodeCursor(params.cursor, order);
    const isAfter = (it: T) => sign * (it.createdMs - after.t || it.seq - after.s) > 0;
    start = sorted.findIndex(isAfter);
    if (start === -1) start = sorted.length;
  }
  const page = sorted.slice(start, start + limit);
  const hasMore = start + limit < sorted.length;
  const envelope: Envelope<R> = { data: page.map(render), hasMore, totalCount: sorted.length };
  if (hasMore) {
    const last = page[page.length - 1]!;
    envelope.nextCursor = encodeCursor({ t: last.createdMs, s: last.seq, o: order });
  }
  return envelope;
}

/**
 * A list's time window (`createdAfter`/`createdBefore`, `startDate`/`endDate`): whether the instant `at` lies within
 * the bounds given, each inclusive; a bound not given is open.
 */
export function within(at: string, after: unknown, before: unknown): boolean {
  return (after === undefined || Date.parse(at) >= Date.parse(String(after))) && (before === undefined || Date.parse(at) <= Date.parse(String(before)));
}
