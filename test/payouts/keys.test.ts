/**
 * The keys and fingerprints of a payout are a stored format: a journal written by one version is resumed
 * by the next, which must derive the very same Idempotency-Keys and fingerprints from it.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instructionFingerprint, payoutKey } from '../../src/payouts/index';

/** The canonical form as first written (keys sorted by code unit, undefined dropped): the reference. */
function canonicalAsFirstWritten(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalAsFirstWritten).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalAsFirstWritten(v)}`).join(',')}}`;
}

describe('payout keys and fingerprints (a stored format)', () => {
  it('derive the pinned values of the first version', () => {
    expect(payoutKey('b-1', 'ref-00003', 'create')).toBe('po1_2b2b28d717dd139c306bcbfbb3693d9fcba1193719661e62');
    expect(payoutKey('b-1', 'ref-é✓', 'execute')).toBe('po1_9d61d2d00166ae54574c46ee22fcbd6d9e06ecf5c20130c5');
    expect(
      instructionFingerprint({ reference: 'r', source: { accountId: 'InternalAccount:a' }, destination: { accountId: 'ExternalAccount:b' }, amount: 100, description: 'café ✓', lockedCurrencySide: undefined }),
    ).toBe('852b8d9f4e72fd992a4f1300df90968394110206c5ac37683cde7d7bfff3292c');
  });

  it('fingerprint any value as SHA-256 of the canonical form first written', () => {
    fc.assert(
      fc.property(fc.anything({ withUndefined: true } as never), (value) => {
        const expected = createHash('sha256').update(canonicalAsFirstWritten(value), 'utf8').digest('hex');
        expect(instructionFingerprint(value as never)).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });
});
