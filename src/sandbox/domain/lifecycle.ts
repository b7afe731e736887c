/**
 * The sandbox's generations of state: a fresh world with its id and random generators, and what
 * replaces it (reset, import) or writes it out (export). API ids restart from the seed but go on
 * after those already handed out; webhook event ids are random per process and their sequence goes on
 * across resets and imports, so no id is ever handed out twice for two things.
 * @module
 */
import { resumeImports } from './bulk-imports';
import { resumeCards } from './cards';
import { iso, type Clock } from './clock';
import { defaultConfig } from './config';
import type { Ctx } from './context';
import { resumeOwnership } from './ownership';
import { openInternalAccount } from './accounts';
import { CURRENCIES } from './currencies';
import { resume } from './payments';
import { resumeStablecoins } from './stablecoins';
import { exportWorld, parseState, type SandboxStateDocument } from './state-document';
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
  /**
   * A new world from the seed; its ids continue after `after` (reset never reuses an id). It holds the
   * platform's internal accounts unless `platformAccounts` is false (a state import brings its own).
   */
  fresh(after?: number, platformAccounts?: boolean): Generation;
}

/**
 * Opens the platform's internal accounts, one per currency the sandbox holds, where `world` has none in
 * that currency yet (production creates them when the platform is configured). Their ids and funding
 * references come from their own generator seeded from `seed`, so the customers' ids and references
 * are the same as without them; their ids carry sequence 0, before everything else.
 */
export function seedPlatformAccounts(world: World, seed: number, clock: Clock): void {
  const random = createRandom(seed * 131 + 17);
  const held = new Set([...world.internalAccounts.values()].filter((a) => !a.data.customerId).map((a) => a.currency));
  const ids = { next: (prefix: string) => ({ id: `${prefix}:00000000-${random.hex(4)}-${random.hex(4)}-${random.hex(4)}-${random.hex(12)}`, seq: 0 }) };
  const seeding = { ids, random, world, clock };
  for (const code of CURRENCIES.keys()) {
    if (held.has(code)) continue;
    const rec = openInternalAccount(seeding, '', code);
    delete rec.data.customerId;
    for (const instruction of rec.data.fundingPaymentInstructions ?? []) instruction.isPlatformAccount = true;
  }
}

/** The generations of a sandbox made with `seed`, worlds configured at `clock`'s time. */
export function createGenerations(seed: number, clock: Clock): Generations {
  return {
    webhookIds: new IdFactory(createUniqueRandom()),
    fresh(after = 0, platformAccounts = true) {
      const ids = new IdFactory(createRandom(seed));
      ids.continueAfter(after);
      const world = createWorld(defaultConfig(ids, clock.now()));
      if (platformAccounts) seedPlatformAccounts(world, seed, clock);
      return { ids, random: createRandom(seed * 31 + 7), world };
    },
  };
}

/** Reset, export and import over a running context. */
export interface StateControls {
  reset(): void;
  exportState(): SandboxStateDocument;
  /** Replaces the state with `state`, a document or its JSON text; throws a StateImportError when it is not one. */
  importState(state: unknown): void;
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
      const next = generations.fresh(ctx.ids.nextSequence - 1, false);
      const { world, lastSequence, lastWebhookSequence } = parseState(state, next.world, ctx.clock.now());
      // A state saved before the platform had internal accounts gets them now.
      seedPlatformAccounts(world, ctx.seed, ctx.clock);
      next.ids.continueAfter(lastSequence);
      webhookIds.continueAfter(lastWebhookSequence);
      stop();
      Object.assign(ctx, { ...next, world });
      resume(ctx);
      resumeImports(ctx);
      resumeOwnership(ctx);
      resumeStablecoins(ctx);
      resumeCards(ctx);
      changed();
    },
  };
}
