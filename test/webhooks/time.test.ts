/**
 * parseIsoDateTime (src/webhooks/time.ts) checks the ranges in its pattern and the month's length with one
 * `Date.UTC`: every verdict must be the one of the field-by-field check it replaced (kept here as the reference).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIsoDateTime } from '../../src/webhooks/time';

const REFERENCE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function reference(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = REFERENCE_PATTERN.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHour = m[7] === undefined ? 0 : Number(m[7]);
  const offsetMinute = m[8] === undefined ? 0 : Number(m[8]);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHour > 23 || offsetMinute > 59) return undefined;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

/** Two digits, mostly near the range `max` allows (and now and then anything up to 99). */
const two = (max: number) =>
  fc
    .oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: max + 1 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 99 }) })
    .map((n) => String(n).padStart(2, '0'));

describe('parseIsoDateTime', () => {
  it('gives the field-by-field check’s answer for any date-time shaped text', () => {
    const text = fc
      .tuple(
        fc.constantFrom('2024', '2023', '2000', '1900', '0000', '0050', '9999', '1970'),
        two(12),
        two(31),
        fc.constantFrom('T', 't', 'T', ' '),
        two(23),
        two(59),
        two(59),
        fc.constantFrom('', '.5', '.123456789', '.'),
        fc.oneof(
          fc.constantFrom('Z', 'z', ''),
          fc.tuple(fc.constantFrom('+', '-'), two(23), two(59)).map(([s, h, m]) => `${s}${h}:${m}`),
        ),
      )
      .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);
    fc.assert(
      fc.property(text, (value) => {
        expect(parseIsoDateTime(value), value).toBe(reference(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts what the service sends and refuses calendar impossibilities', () => {
    const cases: [unknown, boolean][] = [
      ['2024-02-29T12:00:00Z', true],
      ['2023-02-29T12:00:00Z', false],
      ['2024-04-31T00:00:00Z', false],
      ['2024-12-31T23:59:59.999+23:59', true],
      ['2024-01-01T24:00:00Z', false],
      ['2024-01-01T00:60:00Z', false],
      ['2024-01-01T00:00:00+24:00', false],
      ['2024-00-10T00:00:00Z', false],
      ['2024-01-01T00:00:00', false],
      [1_700_000_000_000, false],
      [undefined, false],
    ];
    for (const [value, ok] of cases) {
      expect(parseIsoDateTime(value) !== undefined, String(value)).toBe(ok);
      expect(parseIsoDateTime(value)).toBe(reference(value));
    }
    expect(parseIsoDateTime('2024-02-29T12:00:00z')).toBe(Date.UTC(2024, 1, 29, 12));
  });
});
