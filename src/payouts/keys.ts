/**
 * The Idempotency-Keys of a payout, derived from (batch id, reference, step) alone: any rerun, on any
 * machine, sends the same keys, so a replay can never pay twice.
 * @module
 */
import * as nodeCrypto from 'node:crypto';
import type { PayoutInstruction } from './types';

/** The requests of a payout that carry an Idempotency-Key. */
export type PayoutStep = 'create' | 'execute' | 'job';

/** SHA-256 of `text`'s UTF-8 bytes, in hex (node:crypto: the payouts entry runs on Node, Bun and Deno); one call where `crypto.hash` exists. */
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
export const sha256Hex = (text: string): string =>
  oneShot ? oneShot('sha256', text, 'hex') : nodeCrypto.createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The index of the first lone UTF-16 surrogate of `text` (one not part of a pair: UTF-8 has no bytes for
 * it, and encodes it as U+FFFD), or -1. The one check of it: the key derivation below and the runner's
 * input check (`instructionProblem`) both ask it.
 */
export function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/** Whether `text` is well-formed Unicode (no lone surrogate): `String.prototype.isWellFormed`, which Node 20 lacks. */
export function isWellFormed(text: string): boolean {
  return loneSurrogateAt(text) < 0;
}

/** `text`'s UTF-16 code units, four hex digits each: one text per string, whatever it holds. */
const codeUnits = (text: string): string => {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
};

/**
 * The Idempotency-Key of `step` of payout `reference` in batch `batchId`: `po1_` and 48 hex digits of
 * SHA-256 (visible ASCII, 52 characters: within the service's 255). Distinct (batch, reference, step)
 * never share a key: a batch id or reference with a lone UTF-16 surrogate (which UTF-8 cannot carry: it
 * became U+FFFD, so `a\uD800`, `a\uD801` and `a\uFFFD` shared one key) is hashed as its code units, in a
 * text of its own kind; a well-formed one gives the key it always gave (journals resume with their keys).
 */
export function payoutKey(batchId: string, reference: string, step: PayoutStep): string {
  if (!isWellFormed(batchId) || !isWellFormed(reference)) {
    // Hex code units (no `|` in them), under a tag no well-formed text starts with.
    return `po1_${sha256Hex(`u16:crossborder-payout|${codeUnits(batchId)}|${codeUnits(reference)}|${step.length}:${step}`).slice(0, 48)}`;
  }
  // Length-prefixed parts ('crossborder-payout' is 18 long), so that no two different (batch, reference, step) give the same text.
  const text = `18:crossborder-payout|${batchId.length}:${batchId}|${reference.length}:${reference}|${step.length}:${step}`;
  return `po1_${sha256Hex(text).slice(0, 48)}`;
}

/** Canonical JSON (keys sorted, undefined dropped): the same instruction gives the same text. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonical(value[i]);
    return `${out}]`;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o).sort(); // by UTF-16 code units
  let out = '{';
  for (const key of keys) {
    const v = o[key];
    if (v === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonical(v)}`;
  }
  return `${out}}`;
}

/**
 * The first version of the fingerprint: SHA-256 (hex, 64 digits) of the instruction's canonical JSON.
 * Records journaled before the second version hold it; it stays what they are compared with.
 */
export function instructionFingerprint(instruction: PayoutInstruction): string {
  return sha256Hex(canonical(instruction));
}

/** What the second version's fingerprints start with (the first version's are 64 hex digits alone). */
const V2 = 'f2:';

/** The fields of an instruction, of its source and of its destination, each with a one-letter code, in the order hashed. */
const TOP = ['reference', 'source', 'destination', 'amount', 'lockedCurrencySide', 'description', 'purposeOfPayment', 'senderCustomerInfo'] as const;
const SOURCE = ['accountId', 'sourceType', 'currency', 'customerId', 'cryptoNetwork'] as const;
const DESTINATION = ['accountId', 'umaAddress', 'currency', 'paymentRail'] as const;
const CODES = 'abcdefgh';

/** A UTF-16 surrogate: such strings go through JSON (which escapes a lone one; UTF-8 would make every lone one U+FFFD). */
const SURROGATE = /[\uD800-\uDFFF]/;

/** `value` as one self-delimiting token: `s` a string without surrogates as is, `o` a plain object of known fields, `j` anything else as canonical JSON. */
function token(value: unknown, fields: readonly string[] | undefined): string {
  if (typeof value === 'string' && !SURROGATE.test(value)) return `s${value.length}:${value}`;
  if (fields !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const text = encoded(value as Record<string, unknown>, fields);
    return `o${text.length}:${text}`;
  }
  const text = canonical(value);
  return `j${text.length}:${text}`;
}

/**
 * An object's own enumerable fields that are not undefined (what canonical JSON keeps): the known ones
 * as `code + token` in `fields`' order, then any others as canonical JSON (sorted, as there).
 */
function encoded(o: Record<string, unknown>, fields: readonly string[]): string {
  const keys = Object.keys(o);
  let out = '';
  let others: string[] | undefined;
  // Known fields in their fixed order; a field counts only when it is an own enumerable key (as in canonical JSON).
  let own = 0;
  for (let f = 0; f < fields.length; f++) {
    const key = fields[f]!;
    const v = o[key];
    if (v === undefined || !Object.prototype.propertyIsEnumerable.call(o, key)) continue;
    own++;
    out += CODES[f]! + token(v, key === 'source' && fields === TOP ? SOURCE : key === 'destination' && fields === TOP ? DESTINATION : undefined);
  }
  if (keys.length > own) {
    for (const key of keys) if (o[key] !== undefined && !fields.includes(key)) (others ??= []).push(key);
    if (others) {
      others.sort();
      let rest = '{';
      for (const key of others) rest += `${rest.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonical(o[key])}`;
      rest += '}';
      out += `z${rest.length}:${rest}`;
    }
  }
  return out;
}

/**
 * The fingerprint of an instruction, to notice a rerun that changed what a reference pays: `f2:` and the
 * SHA-256 (hex) of its fields hashed in a fixed order (no canonical JSON to build). Two instructions have
 * the same fingerprint exactly when their canonical JSON is the same (whatever their key order).
 */
export function instructionFingerprintV2(instruction: PayoutInstruction): string {
  const value = instruction as unknown;
  const text = typeof value === 'object' && value !== null && !Array.isArray(value) ? encoded(value as Record<string, unknown>, TOP) : token(value, undefined);
  return V2 + sha256Hex(text);
}

/**
 * Whether `instruction` is the one `fingerprint` was taken of, whichever version the fingerprint is (a
 * journal written before the second version holds the first's).
 */
export function sameInstruction(instruction: PayoutInstruction, fingerprint: string): boolean {
  return fingerprint.startsWith(V2) ? instructionFingerprintV2(instruction) === fingerprint : instructionFingerprint(instruction) === fingerprint;
}
