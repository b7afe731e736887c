/**
 * The sandbox's generations of state: a fresh world with its id and random generators, and what
 * replaces it (reset, import) or writes it out (export). API ids restart from the seed but go on
 * after those already handed out; webhook event ids are random per process and their sequence goes on
 * across resets and imports, so no id is ever handed out twice for two things.
 * @module
 */
import { resumeImports } from './bulk-imports';
import { iso, type Clock } from './clock';
import { defaultConfig } from './config';
import type { Ctx } from './context';
import { resumeOwnership } from './ownership';
import { resume } from './payments';
import { exportWorld, parseState, type SandboxStateDocument } from '../serve/persist';
import { IdFactory, createRandom, createUniqueRandom, type Random } from './random';
import { createWorld, type World } from './state';

/** The part of the context a generation replaces. */
export interface Generation {
  ids: IdFactory;
  random: Random;
  world: World;
}

/** The id factories of one sandbox. */
export interface Generations {
  /** Webhook event ids (random per process: a receiver's dedupe store outlives a sandbox restart). */
  readonly webhookIds: IdFactory;
  /** A new world from the seed; its ids continue after `after` (reset never reuses an id). */
  fresh(after?: number): Generation;
}

/** The generations of a sandbox made with `seed`, worlds configured at `clock`'s time. */
export function createGenerations(seed: number, clock: Clock): Generations {
  return {
    webhookIds: new IdFactory(createUniqueRandom()),
    fresh(after = 0) {
      const ids = new IdFactory(createRandom(seed));
      ids.continueAfter(after);
      return { ids, random: createRandom(seed * 31 + 7), world: createWorld(defaultConfig(ids, clock.now())) };
    },
  };
}

/** Reset, export and import over a running context. */
export interface StateControls {
  reset(): void;
  exportState(): SandboxStateDocument;
  importState(state: SandboxStateDocument | string): void;
}

/**
 * What replaces or writes out `ctx`'s state. Replacing stops the pending work (scheduled tasks,
 * deliveries) first; `rewind` puts the clock back (reset only); `changed` is told after each.
 */
export function stateControls(ctx: Ctx, generations: Generations, rewind: () => void, changed: () => void): StateControls {
  const { webhookIds } = generations;
  const stop = () => {
    ctx.scheduler.clear();
    ctx.webhooks.cancel();
  };
  return {
    reset() {
      stop();
      rewind();
      Object.assign(ctx, generations.fresh(ctx.ids.nextSequence - 1));
      changed();
    },
    exportState: () => exportWorld(ctx.world, iso(ctx.clock.now()), ctx.ids.nextSequence - 1, webhookIds.nextSequence - 1),
    importState(state) {
      const next = generations.fresh(ctx.ids.nextSequence - 1);
      const { world, lastSequence, lastWebhookSequence } = parseState(state, next.world);
      next.ids.continueAfter(lastSequence);
      webhookIds.continueAfter(lastWebhookSequence);
      stop();
      Object.assign(ctx, { ...next, world });
      resume(ctx);
      resumeImports(ctx);
      resumeOwnership(ctx);
      changed();
    },
  };
}
