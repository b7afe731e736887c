/**
 * The keys and fingerprints of a payout are a stored format: a journal written by one version is resumed
 * by the next, which must derive the very same Idempotency-Keys and fingerprints from it.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instructionFingerprint, instructionFingerprintV2, payoutKey, sameInstruction, type PayoutInstruction } from '../../src/payouts/index';

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
      instructionFingerprint({
        reference: 'r',
        source: { accountId: 'InternalAccount:a' },
        destination: { accountId: 'ExternalAccount:b' },
        amount: 100,
        description: 'café ✓',
        lockedCurrencySide: undefined,
      }),
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

  it('the second version is pinned, starts with f2:, and does not depend on key order', () => {
    const a = {
      reference: 'r',
      source: { accountId: 'InternalAccount:a' },
      destination: { accountId: 'ExternalAccount:b' },
      amount: 100,
      description: 'café ✓',
      lockedCurrencySide: undefined,
    };
    const b = {
      description: 'café ✓',
      amount: 100,
      destination: { accountId: 'ExternalAccount:b' },
      source: { accountId: 'InternalAccount:a' },
      reference: 'r',
    };
    // Each known field as its code (a…h) and a length-prefixed token (s: a string, o: source/destination's own fields, j: JSON), in a fixed order.
    const text = 'as1:r' + 'bo22:as17:InternalAccount:a' + 'co22:as17:ExternalAccount:b' + 'dj3:100' + 'fs6:café ✓';
    expect(instructionFingerprintV2(a)).toBe(`f2:${createHash('sha256').update(text, 'utf8').digest('hex')}`);
    expect(instructionFingerprintV2(a)).toBe('f2:9786f66a643a5b2203d776885ec5c1e9257d53542f34773a900c55698669bc84');
    expect(instructionFingerprintV2(b)).toBe(instructionFingerprintV2(a));
    expect(instructionFingerprintV2({ ...a, amount: 101 })).not.toBe(instructionFingerprintV2(a));
    expect(instructionFingerprintV2({ ...a, extra: 1 } as never)).not.toBe(instructionFingerprintV2(a)); // a field the runner does not know counts too
    // Either version is recognised: a record journaled before the second one keeps its first-version fingerprint.
    expect(sameInstruction(b, instructionFingerprint(a))).toBe(true);
    expect(sameInstruction(b, instructionFingerprintV2(a))).toBe(true);
    expect(sameInstruction({ ...b, amount: 1 }, instructionFingerprint(a))).toBe(false);
    expect(sameInstruction({ ...b, amount: 1 }, instructionFingerprintV2(a))).toBe(false);
  });

  /** Instruction-shaped values (known fields, odd values, unknown fields, surrogates), and a second one: an equal one in another key order, or one changed a little. */
  const text = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.constantFrom('', 'a', '\uD800', '\uDFFF', '\uD83D\uDE00', '"', '1'),
  );
  const value = fc.oneof(
    text,
    fc.integer({ min: -3, max: 3 }),
    fc.constantFrom(null, undefined, true, false, Number.NaN, Infinity, -0, 0),
    fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom('a', 'b'), fc.integer({ min: 0, max: 2 }), { maxKeys: 2 }),
  );
  const part = (names: string[]) => fc.oneof(fc.dictionary(fc.constantFrom(...names, 'x', '__proto__'), value, { maxKeys: 4 }), value);
  const instruction = fc.dictionary(
    fc.constantFrom(
      'reference',
      'amount',
      'lockedCurrencySide',
      'description',
      'purposeOfPayment',
      'senderCustomerInfo',
      'source',
      'destination',
      'extra',
      'z',
    ),
    fc.oneof(value, part(['accountId', 'sourceType', 'currency', 'customerId', 'cryptoNetwork']), part(['accountId', 'umaAddress', 'currency', 'paymentRail'])),
    { maxKeys: 6 },
  );
  /** A deep copy with each object's keys in reverse order (the same canonical JSON). */
  const reordered = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).reverse())
      Object.defineProperty(out, k, { value: reordered((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
    return out;
  };
  const pairs = fc.oneof(
    instruction.map((a) => [a, reordered(a)] as const),
    fc.tuple(instruction, instruction),
    fc
      .tuple(instruction, fc.constantFrom('reference', 'amount', 'source', 'destination', 'description', 'extra'), value)
      .map(([a, key, v]) => [a, reordered({ ...a, [key]: v })] as const),
    fc.tuple(instruction, fc.constantFrom('reference', 'description', 'extra'), text, text).map(
      ([a, key, t1, t2]) =>
        [
          { ...a, [key]: t1 },
          { ...a, [key]: t2 },
        ] as const,
    ),
    fc.tuple(instruction, fc.constantFrom('source', 'destination'), fc.constantFrom('accountId', 'currency', 'x'), value).map(([a, key, inner, v]) => {
      const o = a[key];
      return [a, { ...a, [key]: typeof o === 'object' && o !== null && !Array.isArray(o) ? { ...o, [inner]: v } : { [inner]: v } }] as const;
    }),
  );

  it('the second version has the first one’s equality relation: equal exactly when the canonical JSON is equal', () => {
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const sameCanonical = canonicalAsFirstWritten(a) === canonicalAsFirstWritten(b);
        expect(instructionFingerprintV2(a as unknown as PayoutInstruction) === instructionFingerprintV2(b as PayoutInstruction)).toBe(sameCanonical);
        expect(sameInstruction(b as PayoutInstruction, instructionFingerprintV2(a as unknown as PayoutInstruction))).toBe(sameCanonical);
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.anything({ withUndefined: true } as never), fc.anything({ withUndefined: true } as never), (a, b) => {
        expect(instructionFingerprintV2(a as never) === instructionFingerprintV2(b as never)).toBe(canonicalAsFirstWritten(a) === canonicalAsFirstWritten(b));
        expect(instructionFingerprintV2(a as never)).toBe(instructionFingerprintV2(reordered(a) as never));
      }),
      { numRuns: 2_000 },
    );
  });

  describe('references that differ only in a lone UTF-16 surrogate (issue 47: one payout silently never made)', () => {
    /** The key as every version before derived it: what a well-formed reference must keep. */
    const keyAsFirstWritten = (batchId: string, reference: string, step: string) =>
      `po1_${createHash('sha256').update(`18:crossborder-payout|${batchId.length}:${batchId}|${reference.length}:${reference}|${step.length}:${step}`, 'utf8').digest('hex').slice(0, 48)}`;
    const instructionOf = (reference: string): PayoutInstruction => ({
      reference,
      source: { accountId: 'InternalAccount:a' },
      destination: { accountId: 'ExternalAccount:b' },
      amount: 100,
    });

    it('get distinct keys, as their fingerprints are distinct', () => {
      const references = ['a\uD800', 'a\uD801', 'a\uDC00', 'a\uFFFD', 'a', '\uD800a', '\uDC00\uD800', 'a\uD83D\uDE00', 'a\uD83D'];
      for (const step of ['create', 'execute', 'job'] as const) {
        const keys = references.map((r) => payoutKey('b', r, step));
        expect(new Set(keys).size, step).toBe(references.length);
        for (const key of keys) expect(key).toMatch(/^po1_[0-9a-f]{48}$/);
      }
      const fingerprints = references.map((r) => instructionFingerprintV2(instructionOf(r)));
      expect(new Set(fingerprints).size).toBe(references.length);
      // A batch id with a lone surrogate too.
      expect(payoutKey('b\uD800', 'r', 'create')).not.toBe(payoutKey('b\uD801', 'r', 'create'));
      expect(payoutKey('b\uD800', 'r', 'create')).not.toBe(payoutKey('b\uFFFD', 'r', 'create'));
    });

    it('keys and fingerprints agree for any two references: the same key exactly when the same fingerprint, exactly when the same string; well-formed keys as first written', () => {
      const reference = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 5 }),
        fc.string({ maxLength: 5 }),
        fc.constantFrom('\uD800', '\uDFFF', '\uFFFD', '\uD83D\uDE00', 'a'),
      );
      const pair = fc.oneof(
        fc.tuple(reference, reference),
        // One code unit changed for another surrogate or U+FFFD: the collisions of UTF-8.
        fc.tuple(reference, fc.nat(), fc.constantFrom(0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd)).map(([r, at, unit]) => {
          const s = `${r}x`;
          const i = at % s.length;
          return [s, s.slice(0, i) + String.fromCharCode(unit) + s.slice(i + 1)] as const;
        }),
      );
      fc.assert(
        fc.property(pair, ([a, b]) => {
          const sameKey = payoutKey('batch', a, 'create') === payoutKey('batch', b, 'create');
          const sameFingerprint = instructionFingerprintV2(instructionOf(a)) === instructionFingerprintV2(instructionOf(b));
          expect(sameKey).toBe(a === b);
          expect(sameFingerprint).toBe(a === b);
          expect(instructionFingerprint(instructionOf(a)) === instructionFingerprint(instructionOf(b))).toBe(a === b);
          for (const r of [a, b])
            if (!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(r))
              expect(payoutKey('batch', r, 'execute')).toBe(keyAsFirstWritten('batch', r, 'execute'));
        }),
        { numRuns: 5_000 },
      );
    });
  });
});
