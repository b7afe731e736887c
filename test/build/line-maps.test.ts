/**
 * The build's source maps at the grain of lines (scripts/line-maps.ts): the encoding round-trips, and every
 * position of the full map finds, in the reduced one, the same file and original line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMappings, decodeSegment, encodeMappings, keepSources, lineLevel, type Position } from '../../scripts/line-maps';

/** The segment a lookup finds: the last one of the generated line at or before `column` (how Node's SourceMap.findEntry reads a map). */
function lookup(lines: Position[][], line: number, column: number): Position | undefined {
  let found: Position | undefined;
  for (const p of lines[line] ?? []) if (p.column <= column) found = p;
  return found;
}

/** Generated lines of segments: increasing columns, any source, line and column. */
const mapped = fc
  .array(
    fc.array(
      fc.record({
        step: fc.integer({ min: 1, max: 40 }),
        source: fc.integer({ min: 0, max: 3 }),
        line: fc.integer({ min: 0, max: 5000 }),
        originalColumn: fc.integer({ min: 0, max: 300 }),
      }),
      { maxLength: 12 },
    ),
    { minLength: 1, maxLength: 40 }, // "" is one empty generated line
  )
  .map((lines) =>
    lines.map((segments) => {
      let column = 0;
      return segments.map(({ step, source, line, originalColumn }) => ({ column: (column += step), source, line, originalColumn }));
    }),
  );

describe('source maps at the grain of lines', () => {
  it('decodes Base64 VLQ as the format defines it', () => {
    expect(decodeSegment('AAAA')).toEqual([0, 0, 0, 0]);
    expect(decodeSegment('AACA')).toEqual([0, 0, 1, 0]);
    expect(decodeSegment('D')).toEqual([-1]);
    expect(decodeSegment('gB')).toEqual([16]);
    expect(decodeSegment('6rC')).toEqual([1213]); // 1213 → 2426 → digits 26|32, 11|32, 2
    expect(() => decodeSegment('g')).toThrow(/ends inside a number/);
    expect(() => decodeSegment('A*')).toThrow(/not a Base64 VLQ digit/);
  });

  it('encodes and decodes the same positions', () => {
    fc.assert(
      fc.property(mapped, (lines) => {
        expect(decodeMappings(encodeMappings(lines))).toEqual(lines);
      }),
    );
  });

  it('every position of the full map finds the same source and original line in the reduced one', () => {
    fc.assert(
      fc.property(mapped, (lines) => {
        const reduced = decodeMappings(lineLevel(encodeMappings(lines)));
        lines.forEach((segments, line) => {
          for (const p of segments) {
            const found = lookup(reduced, line, p.column);
            expect(found && { source: found.source, line: found.line }).toEqual({ source: p.source, line: p.line });
          }
          // Column 0 of a mapped line, before its first token, finds that line too (not the previous generated line's).
          if (segments.length > 0) expect(lookup(reduced, line, 0)?.line).toBe(segments[0]!.line);
        });
      }),
    );
  });

  it('keeps one segment per original line a generated line holds, dropping the columns within it', () => {
    // Generated line 0: three tokens of original line 7, then two of line 8, then one of line 7 again.
    const full = [
      [
        { column: 4, source: 0, line: 7, originalColumn: 2 },
        { column: 9, source: 0, line: 7, originalColumn: 7 },
        { column: 15, source: 0, line: 7, originalColumn: 13 },
        { column: 20, source: 0, line: 8, originalColumn: 4 },
        { column: 26, source: 0, line: 8, originalColumn: 10 },
        { column: 30, source: 0, line: 7, originalColumn: 20 },
      ],
      [],
      [{ column: 2, source: 1, line: 0, originalColumn: 0 }],
    ];
    expect(decodeMappings(lineLevel(encodeMappings(full)))).toEqual([
      [
        { column: 0, source: 0, line: 7, originalColumn: 2 },
        { column: 20, source: 0, line: 8, originalColumn: 4 },
        { column: 30, source: 0, line: 7, originalColumn: 20 },
      ],
      [],
      [{ column: 0, source: 1, line: 0, originalColumn: 0 }],
    ]);
  });

  it('keeps the positions of the sources asked for, numbered again, and drops the others', () => {
    const names = ['../src/a.ts', '../src/generated/zod.gen.ts', '../src/b.ts', '../src/generated/operations.ts'];
    fc.assert(
      fc.property(mapped, fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), (lines, keeps) => {
        const kept = names.filter((_, i) => keeps[i]);
        const { sources, mappings } = keepSources({ sources: names, mappings: encodeMappings(lines) }, (s) => kept.includes(s));
        expect(sources).toEqual(kept);
        const expected = lines.map((segments) => segments.filter((p) => keeps[p.source]).map((p) => ({ ...p, source: kept.indexOf(names[p.source]!) })));
        expect(decodeMappings(mappings)).toEqual(expected);
      }),
    );
    // Line by line: generated line 1 held only a dropped source, and maps to nothing.
    const { sources, mappings } = keepSources(
      {
        sources: names.slice(0, 2),
        mappings: encodeMappings([
          [{ column: 0, source: 0, line: 3, originalColumn: 0 }],
          [{ column: 0, source: 1, line: 9, originalColumn: 0 }],
          [{ column: 2, source: 0, line: 4, originalColumn: 2 }],
        ]),
      },
      (s) => !s.includes('/generated/'),
    );
    expect(sources).toEqual(['../src/a.ts']);
    expect(decodeMappings(mappings)).toEqual([
      [{ column: 0, source: 0, line: 3, originalColumn: 0 }],
      [],
      [{ column: 2, source: 0, line: 4, originalColumn: 2 }],
    ]);
  });
});
