/**
 * The sandbox's state as a JSON document: everything the world holds (the API objects and the
 * bookkeeping beside them), so a state exported can be imported again, seeded from a fixture file,
 * or saved on exit and reloaded at the next start. Remembered Idempotency-Key answers are not kept.
 * @module
 */
import type { World } from './state';

/** The format tag of an exported state. */
export const STATE_FORMAT = 'crossborder-sandbox-state/1';

/** An exported state. */
export interface SandboxStateDocument {
  format: typeof STATE_FORMAT;
  /** Sandbox clock when exported (ISO). */
  savedAt: string;
  /** Highest id sequence used: ids made after an import continue from here. */
  lastSequence: number;
  /**
   * Highest webhook event sequence used: event ids after an import (a restart with `--state`) continue
   * from here, so a receiver's dedupe never mistakes a new event for one it has seen.
   */
  lastWebhookSequence?: number;
  /** The world's tables as `[key, record]` entries, and the platform configuration. */
  world: Record<string, unknown>;
}

const TABLES = [
  'customers',
  'internalAccounts',
  'externalAccounts',
  'quotes',
  'transactions',
  'lookups',
  'invitations',
  'verifications',
  'credentials',
  'sessions',
  'signedChallenges',
  'passkeyChallenges',
] as const satisfies readonly (keyof World)[];

// Byte arrays (key material in a few records) travel as hex.
const replacer = (_key: string, value: unknown) => (value instanceof Uint8Array ? { $bytes: Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('') } : value);
const reviver = (_key: string, value: unknown) => {
  const bytes = (value as { $bytes?: unknown } | null)?.$bytes;
  return typeof bytes === 'string' ? Uint8Array.from(bytes.match(/../g) ?? [], (h) => parseInt(h, 16)) : value;
};

/** The world as a document. */
export function exportWorld(world: World, nowIso: string, lastSequence: number, lastWebhookSequence: number): SandboxStateDocument {
  const tables: Record<string, unknown> = { config: world.config };
  for (const name of TABLES) tables[name] = [...(world[name] as Map<string, unknown>).entries()];
  return JSON.parse(JSON.stringify({ format: STATE_FORMAT, savedAt: nowIso, lastSequence, lastWebhookSequence, world: tables }, replacer)) as SandboxStateDocument;
}

/** Serializes a document (bytes kept). */
export function stringifyState(document: SandboxStateDocument): string {
  return JSON.stringify(document, replacer, 2);
}

/** Parses a document; throws with the reason when it is not one. */
export function parseState(text: string | unknown, fresh: World): { world: World; lastSequence: number; lastWebhookSequence: number } {
  const doc = (typeof text === 'string' ? JSON.parse(text, reviver) : JSON.parse(JSON.stringify(text), reviver)) as Partial<SandboxStateDocument>;
  if (doc?.format !== STATE_FORMAT || typeof doc.world !== 'object' || doc.world === null) {
    throw new Error(`not a sandbox state (expected format "${STATE_FORMAT}", as GET /_sandbox/state answers)`);
  }
  const world = fresh;
  const tables = doc.world as Record<string, unknown>;
  if (tables.config && typeof tables.config === 'object') world.config = tables.config as World['config'];
  for (const name of TABLES) {
    const entries = tables[name];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) throw new Error(`world.${name} must be a list of [key, record] entries`);
    const map = world[name] as Map<string, unknown>;
    for (const entry of entries) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') throw new Error(`world.${name} holds an entry that is not [key, record]`);
      map.set(entry[0], entry[1]);
    }
  }
  const sequence = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0);
  return { world, lastSequence: sequence(doc.lastSequence), lastWebhookSequence: sequence(doc.lastWebhookSequence) };
}
