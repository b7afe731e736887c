/**
 * The sandbox's state as a JSON document: everything the world holds (the API objects and the
 * bookkeeping beside them), so a state exported can be imported again, seeded from a fixture file,
 * or saved on exit and reloaded at the next start. Remembered Idempotency-Key answers are kept for their
 * window (24 hours of the sandbox clock): a sandbox restarted with `--state` replays them, and never acts
 * twice on one key; a key past its window is neither exported nor imported.
 * @module
 */
import {
  zBulkCustomerImportJob,
  zBeneficialOwner,
  zCredential,
  zDelegatedKey,
  zApiToken,
  zStablecoin,
  zStablecoinOperation,
  zStablecoinProviderAccount,
  zAgent,
  zAgentAction,
  zAgentDeviceCode,
  zCard,
  zCardTransaction,
  zDocument,
  zCustomer,
  zExternalAccount,
  zInternalAccount,
  zInvitation,
  zPlatformConfig,
  zQuote,
  zTransaction,
  zVerification,
} from '../../generated/zod.gen';
import type { Schema } from '../../core/validation';
import { SANDBOX_CONTROLS } from '../../helpers/sandbox-controls';
import { withinIdempotencyWindow, type World } from './state';
import { problems } from './validation';

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

/** The world's tables: its fields that are maps. */
type Table = { [K in keyof World]: World[K] extends Map<string, unknown> ? K : never }[keyof World];
/** The tables an export leaves out: none (a table added to `World` is persisted, or listed here). */
const NOT_PERSISTED = [] as const satisfies readonly Table[];
/** The tables an export holds: every other one (see RULES). */
type PersistedTable = Exclude<Table, (typeof NOT_PERSISTED)[number]>;

// Byte arrays (key material in a few records) travel as hex.
const replacer = (_key: string, value: unknown) =>
  value instanceof Uint8Array ? { $bytes: Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('') } : value;
const reviver = (_key: string, value: unknown) => {
  const bytes = (value as { $bytes?: unknown } | null)?.$bytes;
  return typeof bytes === 'string' ? Uint8Array.from(bytes.match(/../g) ?? [], (h) => parseInt(h, 16)) : value;
};

/** The world as a document (the records each table's rule keeps at `nowIso`). */
export function exportWorld(world: World, nowIso: string, lastSequence: number, lastWebhookSequence: number): SandboxStateDocument {
  const tables: Record<string, unknown> = { config: world.config };
  const nowMs = Date.parse(nowIso);
  for (const name of TABLES) {
    const keep = RULES[name].keep;
    const entries = [...(world[name] as Map<string, unknown>).entries()];
    tables[name] = keep ? entries.filter(([, record]) => keep(record as Record<string, unknown>, nowMs)) : entries;
  }
  return JSON.parse(
    JSON.stringify({ format: STATE_FORMAT, savedAt: nowIso, lastSequence, lastWebhookSequence, world: tables }, replacer),
  ) as SandboxStateDocument;
}

/** Serializes a document (bytes kept). */
export function stringifyState(document: SandboxStateDocument): string {
  return JSON.stringify(document, replacer, 2);
}

/** A state document that is not one: the table and key of the record at fault, when it is one record. */
export class StateImportError extends Error {
  readonly table: string | undefined;
  readonly key: string | undefined;
  constructor(message: string, table?: string, key?: string) {
    super(message);
    this.name = 'StateImportError';
    this.table = table;
    this.key = key;
  }
}

type Rule = (value: unknown) => boolean;
const isString: Rule = (v) => typeof v === 'string';
const isNumber: Rule = (v) => typeof v === 'number' && Number.isFinite(v);
const isBoolean: Rule = (v) => typeof v === 'boolean';
const optional =
  (rule: Rule): Rule =>
  (v) =>
    v === undefined || v === null || rule(v);
const isObject: Rule = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isList =
  (rule: Rule): Rule =>
  (v) =>
    Array.isArray(v) && v.every(rule);
const oneOf =
  (...values: string[]): Rule =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const shape =
  (fields: Record<string, Rule>): Rule =>
  (v) =>
    isObject(v) && Object.entries(fields).every(([k, rule]) => rule((v as Record<string, unknown>)[k]));

/** What each table's records must be: the API object (by the generated schema) and the bookkeeping fields beside it. */
interface TableRule {
  /** The schema of `record.data`, when the record wraps an API object. */
  data?: Schema;
  /** Fields of the record itself. */
  fields: Record<string, Rule>;
  /** The key the record must be stored under; absent when the record does not hold its key. */
  key?: (record: Record<string, unknown>) => unknown;
  /** Whether a record is still exported, and imported, at `nowMs` (sandbox clock); absent: always. */
  keep?: (record: Record<string, unknown>, nowMs: number) => boolean;
}

const ORDERED = { seq: isNumber, createdMs: isNumber };
const dataId = (r: Record<string, unknown>) => (r.data as { id?: unknown } | undefined)?.id;
const moved = shape({ accountId: isString, amount: isNumber });
/**
 * Every persisted table's rule. Keyed by every table of the world but those in NOT_PERSISTED, so a
 * table added to `World` does not compile until it is given a rule here (or listed as not persisted).
 */
const RULES: Record<PersistedTable, TableRule> = {
  customers: { data: zCustomer, fields: ORDERED, key: dataId },
  internalAccounts: { data: zInternalAccount, fields: { ...ORDERED, suffix: isString, currency: isString }, key: dataId },
  externalAccounts: { data: zExternalAccount, fields: { ...ORDERED, identifier: optional(isString) }, key: dataId },
  quotes: {
    data: zQuote,
    fields: {
      ...ORDERED,
      expiresMs: isNumber,
      debitAccountId: optional(isString),
      target: (v) => isObject(v) && oneOf('internal', 'external', 'uma')((v as { kind?: unknown }).kind),
      outcome: isString,
    },
    key: dataId,
  },
  transactions: {
    data: zTransaction,
    fields: {
      ...ORDERED,
      quoteId: optional(isString),
      debited: optional(moved),
      credit: optional(moved),
      timeline: optional(isList(shape({ status: isString, at: isString }))),
      approval: optional(oneOf('AWAITING_WEBHOOK', 'DEFERRED', 'MANUAL')),
      outcome: optional(isString),
    },
    key: dataId,
  },
  lookups: { fields: { id: isString, createdMs: isNumber, currencies: isList(isString), requiredPayerDataFields: Array.isArray }, key: (r) => r.id },
  invitations: { data: zInvitation, fields: ORDERED, key: (r) => (r.data as { code?: unknown } | undefined)?.code },
  verifications: { data: zVerification, fields: ORDERED, key: dataId },
  beneficialOwners: { data: zBeneficialOwner, fields: ORDERED, key: dataId },
  credentials: { data: zCredential, fields: { ...ORDERED, walletSuffix: isString }, key: dataId },
  sessions: {
    fields: {
      ...ORDERED,
      id: isString,
      walletSuffix: isString,
      credentialId: isString,
      type: isString,
      publicKey: isString,
      expiresMs: isNumber,
      revoked: isBoolean,
    },
    key: (r) => r.id,
  },
  signedChallenges: {
    fields: {
      requestId: isString,
      payloadToSign: isString,
      expiresMs: isNumber,
      walletSuffix: isString,
      method: isString,
      path: isString,
      body: isString,
      used: isBoolean,
      boundPublicKey: optional(isString),
      carry: optional((v) => isObject(v) && Object.values(v as object).every(isString)),
      sessionId: optional(isString),
    },
    key: (r) => r.requestId,
  },
  passkeyChallenges: {
    fields: { requestId: isString, credentialId: isString, clientPublicKey: isString, challenge: isString, expiresMs: isNumber, used: isBoolean },
    key: (r) => r.requestId,
  },
  bulkImports: {
    data: zBulkCustomerImportJob,
    fields: {
      ...ORDERED,
      rows: isList(shape({ correlationId: isString, cells: (v) => isObject(v) && Object.values(v as object).every((c) => typeof c === 'string') })),
      fileProblem: optional(shape({ column: isString, message: isString })),
    },
    key: dataId,
  },
  ownershipChallenges: {
    fields: {
      accountId: isString,
      method: isString,
      nonce: isString,
      messageToSign: optional(isString),
      verificationLink: optional(isString),
      issuedMs: isNumber,
      expiresMs: isNumber,
    },
    key: (r) => r.accountId,
  },
  // Delegated signing keys (production's `/auth/delegated-keys`).
  delegatedKeys: { data: zDelegatedKey, fields: { ...ORDERED, walletSuffix: isString }, key: dataId },
  // API tokens: the secret's SHA-256 only, never the secret.
  tokens: { data: zApiToken, fields: { ...ORDERED, secretSha256: isString, deleted: optional(isBoolean) }, key: dataId },
  // Stablecoins: provider account links (the API client id, never its secret), stablecoins, mints and burns.
  stablecoinProviderAccounts: { data: zStablecoinProviderAccount, fields: { ...ORDERED, apiClientId: isString }, key: dataId },
  stablecoins: { data: zStablecoin, fields: ORDERED, key: dataId },
  stablecoinOperations: { data: zStablecoinOperation, fields: { ...ORDERED, dueMs: optional(isNumber), debited: optional(moved) }, key: dataId },
  // Cards and their transactions (never a reveal URL: none is kept).
  cards: { data: zCard, fields: ORDERED, key: dataId },
  cardTransactions: { data: zCardTransaction, fields: { ...ORDERED, pullConfirmMs: optional(isNumber) }, key: dataId },
  // Agents (the credential's SHA-256, never the credential), their device codes and their actions.
  agents: {
    data: zAgent,
    fields: { ...ORDERED, tokenSha256: optional(isString), quoteIds: isList(isString), deleted: optional(isBoolean) },
    key: dataId,
  },
  agentDeviceCodes: {
    data: zAgentDeviceCode,
    fields: { ...ORDERED, expiresMs: isNumber, invalidated: optional(isBoolean) },
    key: (r) => (r.data as { code?: unknown } | undefined)?.code,
  },
  agentActions: {
    data: zAgentAction,
    fields: { ...ORDERED, request: isObject, spend: isNumber, transactionId: optional(isString) },
    key: dataId,
  },
  // Verification documents: the answer and the file's size, type and SHA-256 (never the file).
  documents: {
    data: zDocument,
    fields: { ...ORDERED, file: shape({ size: isNumber, contentType: isString, sha256: isString }), uploadSeq: isNumber, deleted: optional(isBoolean) },
    key: dataId,
  },
  // Strong Customer Authentication per customer (a started TOTP enrollment as its secret's SHA-256 only).
  sca: {
    fields: {
      customerId: isString,
      factors: isList(shape({ factor: isString, credentialId: optional(isString), name: optional(isString) })),
      pendingTotp: isList(isString),
      pendingPasskey: isBoolean,
      contactCodes: isList(isString),
      login: optional(shape({ factor: isString, challengeId: optional(isString), expiresMs: isNumber })),
      sessionExpiresMs: optional(isNumber),
      failedAttempts: isNumber,
      lockedUntilMs: optional(isNumber),
      suspended: isBoolean,
      resets: isList(shape({ resetId: isString, factor: isString, startedMs: isNumber, expiresMs: isNumber, completedMs: optional(isNumber) })),
      trusted: isList(isString),
      trustChallenge: optional(shape({ accountId: isString, action: isString, challengeId: isString, expiresMs: isNumber })),
    },
    key: (r) => r.customerId,
  },
  // Idempotency-Key answers, by key: the settled ones within their window (an answer still being made is
  // not exported: its request has not been answered yet).
  idempotency: {
    fields: {
      fingerprint: isString,
      storedMs: isNumber,
      response: shape({ status: isNumber, headers: (v) => isObject(v) && Object.values(v as object).every(isString), body: optional(isString) }),
    },
    keep: (record, nowMs) => !(record.response instanceof Promise) && withinIdempotencyWindow(record.storedMs as number, nowMs),
  },
};

/** The tables exported and imported, in the order of RULES. */
const TABLES = Object.keys(RULES) as PersistedTable[];

/** Why `record` cannot be stored in `table` under `key`, or undefined when it can. */
function recordProblem(table: PersistedTable, key: string, record: unknown): string | undefined {
  if (!isObject(record)) return 'is not an object';
  const rule = RULES[table];
  const rec = record as Record<string, unknown>;
  const bad = Object.entries(rule.fields)
    .filter(([field, check]) => !check(rec[field]))
    .map(([field]) => field);
  if (bad.length > 0) return `has a missing or malformed ${bad.join(', ')}`;
  if (rule.data) {
    const found = problems(rule.data, rec.data);
    if (found.length > 0) return `data: ${found.slice(0, 3).join('; ')}${found.length > 3 ? ` (and ${found.length - 3} more)` : ''}`;
  }
  if (rule.key && rule.key(rec) !== key) return `is stored under a key that is not its id (${JSON.stringify(rule.key(rec))})`;
  return undefined;
}

/**
 * Parses a document; throws a {@link StateImportError} naming the table and key of a record that is not
 * valid. A valid record its table's rule no longer keeps at `nowMs` (an Idempotency-Key past its window)
 * is left out.
 */
export function parseState(text: string | unknown, fresh: World, nowMs: number): { world: World; lastSequence: number; lastWebhookSequence: number } {
  const doc = (typeof text === 'string' ? JSON.parse(text, reviver) : JSON.parse(JSON.stringify(text), reviver)) as Partial<SandboxStateDocument>;
  if (doc?.format !== STATE_FORMAT || typeof doc.world !== 'object' || doc.world === null) {
    throw new StateImportError(
      `not a sandbox state (expected format "${STATE_FORMAT}", as ${SANDBOX_CONTROLS.exportState.method} ${SANDBOX_CONTROLS.exportState.path} answers)`,
    );
  }
  const world = fresh;
  const tables = doc.world;
  if (tables.config !== undefined) {
    const found = problems(zPlatformConfig, tables.config);
    if (found.length > 0) throw new StateImportError(`world.config: ${found.slice(0, 3).join('; ')}`, 'config');
    world.config = tables.config as World['config'];
  }
  for (const name of TABLES) {
    const entries = tables[name];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) throw new StateImportError(`world.${name} must be a list of [key, record] entries`, name);
    const map = world[name] as Map<string, unknown>;
    for (const entry of entries) {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string')
        throw new StateImportError(`world.${name} holds an entry that is not [key, record]`, name);
      const [key, record] = entry as [string, unknown];
      if (map.has(key)) throw new StateImportError(`world.${name}[${JSON.stringify(key)}] appears twice`, name, key);
      const problem = recordProblem(name, key, record);
      if (problem) throw new StateImportError(`world.${name}[${JSON.stringify(key)}] ${problem}`, name, key);
      const keep = RULES[name].keep;
      if (keep && !keep(record as Record<string, unknown>, nowMs)) continue;
      map.set(key, record);
    }
  }
  const sequence = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0);
  return { world, lastSequence: sequence(doc.lastSequence), lastWebhookSequence: sequence(doc.lastWebhookSequence) };
}
