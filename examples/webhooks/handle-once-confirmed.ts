import { confirmHandled, dedupe, type DedupeStore, type WebhookEnvelope } from 'crossborder-sdk';

/**
 * Claim → handle → confirm: runs `onEvent` at least once per event id, and once unless this process
 * dies (or loses Redis) after handling and before confirming. Throws when the event must come again:
 * the recipes answer 500, and the service redelivers.
 */
export async function handleOnceConfirmed<E extends WebhookEnvelope<string, unknown>>(
  event: E,
  onEvent: (event: E) => Promise<void>,
  store: DedupeStore, // e.g. new RedisDedupeStore(new Redis(process.env.REDIS_URL))
  lease = 60_000, // longer than onEvent takes, shorter than the service's retry schedule
): Promise<void> {
  const { duplicate, stale, inProgress } = await dedupe(event, store, { lease });
  if (duplicate || stale) return; // handled before (or over 24 h old: reconcile via the API)
  // Claimed by another delivery, still handling or dead: come back once its lease runs out.
  if (inProgress) throw new Error(`event ${event.id} is being handled`);
  try {
    await onEvent(event);
  } catch (err) {
    await store.delete?.(event.id); // release the claim, so the service's retry runs it again
    throw err;
  }
  await confirmHandled(event, store); // handled: later deliveries are duplicates
}
