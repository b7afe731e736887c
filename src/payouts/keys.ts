/**
 * The Idempotency-Keys of a payout, derived from (batch id, reference, step) alone: any rerun, on any
 * machine, sends the same keys, so a replay can never pay twice.
 * @module
 */
import * as nodeCrypto from 'node:crypto';
import type { PayoutInstruction } from './types';

/** The requests of a payout that carry an Idempotency-Key. */
export type PayoutStep = 'create' | 'execute' | 'job';

/** SHA-256 of `text`'s UTF-8 bytes, in hex (node:crypto: the payouts entry runs on Node, Bun and Deno). */
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const sha256Hex = (text: string): string => (oneShot ? oneShot('sha256', text, 'hex') : nodeCrypto.createHash('sha256').update(text, 'utf8').digest('hex'));

/** Length-prefixed parts, so that no two different (batch, reference, step) give the same text. */
function joined(parts: readonly string[]): string {
  return parts.map((p) => `${p.length}:${p}`).join('|');
}

/**
 * The Idempotency-Key of `step` of payout `reference` in batch `batchId`: `po1_` and 48 hex digits of
 * SHA-256 (visible ASCII, 52 characters: within the service's 255).
 */
export function payoutKey(batchId: string, reference: string, step: PayoutStep): string {
  return `po1_${sha256Hex(joined(['crossborder-payout', batchId, reference, step])).slice(0, 48)}`;
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

/** SHA-256 (hex) of an instruction, to notice a rerun that changed what a reference pays. */
export function instructionFingerprint(instruction: PayoutInstruction): string {
  return sha256Hex(canonical(instruction));
}
