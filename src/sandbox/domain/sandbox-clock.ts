/**
 * The clock a sandbox hands out: its base clock, where `advance` and `set` also run the work that
 * became due (quote expiry, settlement: tests never wait) and tell the change listeners, and
 * `rewind` puts it back where it stood when the sandbox was made (what `reset()` does to time).
 * @module
 */
import { checkAdvance, type Clock } from './clock';

/** A sandbox's clock and its rewind. */
export interface SandboxClock {
  clock: Clock;
  /** Back to where the clock stood at creation: the same instant when frozen, else the same offset from real time. */
  rewind(): void;
}

/** Wraps `base`: `runDue` and `changed` run after every `advance` and `set`. */
export function createSandboxClock(base: Clock, runDue: () => void, changed: () => void): SandboxClock {
  const startedAt = base.now();
  const startOffset = startedAt - Date.now();
  const clock: Clock = {
    frozen: base.frozen ?? false,
    now: () => base.now(),
    advance(ms) {
      checkAdvance(base.now(), ms); // a custom clock may not check: past the last valid date every answer would fail
      base.advance(ms);
      runDue();
      changed();
    },
    set(date) {
      base.set(date);
      runDue();
      changed();
    },
  };
  return { clock, rewind: () => base.set(base.frozen ? startedAt : Date.now() + startOffset) };
}
