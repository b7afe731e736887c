import { dedupe, MemoryDedupeStore, type WebhookEnvelope } from '../../../src/webhooks/index';

// One store per process; with several instances use a shared DedupeStore (e.g. Redis SET NX PX).
const store = new MemoryDedupeStore();

/** Runs `onEvent` once per event id, however many times the service delivers it. */
export async function handleOnce(
  event: WebhookEnvelope,
  onEvent: (event: WebhookEnvelope) => Promise<void>,
): Promise<void> {
  const { duplicate, stale } = await dedupe(event, store);
  if (duplicate) return; // already handled: acknowledge again
  if (stale) return; // over 24 h old: a replay, or a retry after a long outage (reconcile via the API)
  try {
    await onEvent(event);
  } catch (err) {
    store.delete(event.id); // forget it, so the service's retry runs it again
    throw err;
  }
}
