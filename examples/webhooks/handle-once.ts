import { dedupe, MemoryDedupeStore, type DedupeStore } from 'crossborder-sdk';

// One store per process; with several instances use a shared store (RedisDedupeStore: one atomic claim per id).
const defaultStore = new MemoryDedupeStore();

/** Runs `onEvent` once per event id, however many times the service delivers it. */
export async function handleOnce<E extends { id: string; timestamp: string }>(
  event: E,
  onEvent: (event: E) => Promise<void>,
  store: DedupeStore = defaultStore,
): Promise<void> {
  const { duplicate, stale } = await dedupe(event, store);
  if (duplicate) return; // already handled: acknowledge again
  if (stale) return; // over 24 h old: a replay, or a retry after a long outage (reconcile via the API)
  try {
    await onEvent(event);
  } catch (err) {
    await store.delete?.(event.id); // forget it, so the service's retry runs it again
    throw err;
  }
}
