/**
 * The Idempotency-Keys of a payout, derived from (batch id, reference, step) alone: any rerun, on any
 * machine, sends the same keys, so a replay can never pay twice.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { PayoutInstruction } from './types';

/** The requests of a payout that carry an Idempotency-Key. */
export type PayoutStep = 'create' | 'execute' | 'job';

const hex = (bytes: Uint8Array): string => {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
};

/** Length-prefixed parts, so that no two different (batch, reference, step) give the same text. */
function joined(parts: readonly string[]): Uint8Array {
  return new TextEncoder().encode(parts.map((p) => `${p.length}:${p}`).join('|'));
}

/**
 * The Idempotency-Key of `step` of payout `reference` in batch `batchId`: `po1_` and 48 hex digits of
 * SHA-256 (visible ASCII, 52 characters: within the service's 255).
 */
export function payoutKey(batchId: string, reference: string, step: PayoutStep): string {
  return `po1_${hex(sha256(joined(['crossborder-payout', batchId, reference, step]))).slice(0, 48)}`;
}

/** Canonical JSON (keys sorted, undefined dropped): the same instruction gives the same text. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** SHA-256 (hex) of an instruction, to notice a rerun that changed what a reference pays. */
export function instructionFingerprint(instruction: PayoutInstruction): string {
  return hex(sha256(new TextEncoder().encode(canonical(instruction))));
}
