/**
 * The sandbox's listeners: the inspector's live stream (requests answered, and changes no request
 * made: timers, deliveries) and whoever keeps the state somewhere (`onChange`, told after anything
 * that may have changed it). A listener that throws never changes an answer.
 * @module
 */
import { sseEvent } from './http';

/** What `/_sandbox/events` streams: `data:` lines for requests, `event: change` for the rest. */
export type LiveEvent =
  { type: 'request'; entry: unknown } | { type: 'change'; change: { source: 'scheduler' | 'delivery'; at: string; [key: string]: unknown } };

/** One live event as a Server-Sent Event. */
export function sse(event: LiveEvent): string {
  return event.type === 'request' ? sseEvent(event.entry) : sseEvent(event.change, 'change');
}

/** Publishes to both kinds of listener. */
export interface Live {
  /** Tells the change listeners that the state may have changed. */
  changed(): void;
  /** Sends `event` to the live stream; a `change` event also tells the change listeners. */
  publish(event: LiveEvent): void;
  /** Subscribes to the live stream; returns the unsubscribe. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /** How many live-stream subscribers there are now. */
  subscribers(): number;
  /** Subscribes to changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

/** Adds a wrapper of `listener` (the same function twice is two subscriptions); returns its removal. */
function add<A extends unknown[]>(set: Set<(...args: A) => void>, listener: (...args: A) => void): () => void {
  const own = (...args: A) => listener(...args);
  set.add(own);
  return () => void set.delete(own);
}

/** The listeners of one sandbox; a change listener's throw goes to `onError`. */
export function createLive(onError: (error: unknown) => void): Live {
  const listeners = new Set<(event: LiveEvent) => void>();
  const changeListeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...changeListeners]) {
      try {
        listener();
      } catch (error) {
        onError(error); // a listener never changes an answer
      }
    }
  };
  return {
    changed,
    publish(event) {
      if (event.type === 'change') changed();
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch {
          // a listener never changes an answer
        }
      }
    },
    subscribe: (listener) => add(listeners, listener),
    subscribers: () => listeners.size,
    onChange: (listener) => add(changeListeners, listener),
  };
}
