/**
 * Source maps at the grain of lines: what a stack trace and a line breakpoint read, at a seventh of the size.
 *
 * esbuild maps every token of the built JavaScript to its place in the TypeScript: 1.6 MB of maps for the
 * package. A stack frame reads one position: the file and line are what matter (`transport.ts:212`), and a
 * debugger steps and breaks by line. `lineLevel` keeps, for each generated line, one segment per original
 * line it holds (the first, moved to the line's column 0, so every column of that line finds it) and drops
 * the rest: every position still maps to the right file and line; the column is that line's first token.
 * The build (tsup.config.ts) applies it to every map it writes; test/build/line-maps.test.ts checks it
 * against the full maps.
 */

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...B64].map((c, i) => [c, i]));

/** The numbers of one Base64 VLQ segment. */
export function decodeSegment(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = DIGIT.get(ch);
    if (digit === undefined) throw new Error(`line-maps: ${JSON.stringify(ch)} is not a Base64 VLQ digit`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value % 2 === 1 ? -Math.floor(value / 2) : value / 2);
      value = 0;
      shift = 0;
    }
  }
  if (shift !== 0) throw new Error(`line-maps: segment ${JSON.stringify(segment)} ends inside a number`);
  return out;
}

function encode(n: number): string {
  let value = n < 0 ? -n * 2 + 1 : n * 2;
  let out = '';
  do {
    let digit = value % 32;
    value = Math.floor(value / 32);
    if (value > 0) digit |= 32;
    out += B64[digit];
  } while (value > 0);
  return out;
}

/** A segment's absolute values: generated column, source index, original line, original column (0-based). */
export interface Position {
  column: number;
  source: number;
  line: number;
  originalColumn: number;
}

/** The mapped segments of `mappings`, per generated line, with absolute values (segments without a source are left out). */
export function decodeMappings(mappings: string): Position[][] {
  let source = 0;
  let line = 0;
  let originalColumn = 0;
  return mappings.split(';').map((text) => {
    let column = 0;
    const positions: Position[] = [];
    for (const segment of text.split(',')) {
      if (segment === '') continue;
      const fields = decodeSegment(segment);
      column += fields[0]!;
      if (fields.length < 4) continue;
      source += fields[1]!;
      line += fields[2]!;
      originalColumn += fields[3]!;
      positions.push({ column, source, line, originalColumn });
    }
    return positions;
  });
}

/** `mappings` for the positions given, per generated line (the inverse of {@link decodeMappings}). */
export function encodeMappings(lines: Position[][]): string {
  let source = 0;
  let line = 0;
  let originalColumn = 0;
  return lines
    .map((positions) => {
      let column = 0;
      return positions
        .map((p) => {
          const text = encode(p.column - column) + encode(p.source - source) + encode(p.line - line) + encode(p.originalColumn - originalColumn);
          column = p.column;
          source = p.source;
          line = p.line;
          originalColumn = p.originalColumn;
          return text;
        })
        .join(',');
    })
    .join(';');
}

/** The mappings at the grain of lines (see the module's comment). */
export function lineLevel(mappings: string): string {
  return encodeMappings(
    decodeMappings(mappings).map((positions) => {
      const kept: Position[] = [];
      for (const p of positions) {
        const last = kept[kept.length - 1];
        if (last && last.source === p.source && last.line === p.line) continue;
        kept.push(kept.length === 0 ? { ...p, column: 0 } : p);
      }
      return kept;
    }),
  );
}

/**
 * A map that names only the sources `keep` accepts: the positions of the others are dropped (their lines map to
 * nothing) and the sources left are numbered again. `sources` empty means nothing of the file is mapped.
 */
export function keepSources(map: { sources: string[]; mappings: string }, keep: (source: string) => boolean): { sources: string[]; mappings: string } {
  const index = new Map<number, number>();
  const sources: string[] = [];
  map.sources.forEach((source, i) => {
    if (!keep(source)) return;
    index.set(i, sources.length);
    sources.push(source);
  });
  const lines = decodeMappings(map.mappings).map((positions) =>
    positions.filter((p) => index.has(p.source)).map((p) => ({ ...p, source: index.get(p.source)! })),
  );
  return { sources, mappings: encodeMappings(lines) };
}
