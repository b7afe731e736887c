/**
 * The built JavaScript without the TypeScript's comments: they ship once, in `src/` (where the source maps
 * lead) and in the declarations (where an editor shows them), not twice more in `dist/` (esbuild keeps a
 * comment above each statement and class member: the resource classes' TSDoc alone was 160 kB of the ES
 * and CommonJS files).
 *
 * `blankComments` writes a space over each character of every comment but its line breaks, so every line
 * and column of the code stays where it was and the maps still name the line of the shipped source. What a
 * tool reads in a comment stays: esbuild's and other bundlers' annotations (`@__PURE__`, `#__PURE__`,
 * `@__NO_SIDE_EFFECTS__`, `webpackIgnore`, `@vite-ignore`) and legal comments (`/*!`, `@license`,
 * `@preserve`). Comments are found by TypeScript's own parser, so a `//` or `/*` inside a string, a
 * template or a regular expression is never taken for one.
 */
import ts from 'typescript';

const KEEP = /@__PURE__|#__PURE__|@__NO_SIDE_EFFECTS__|webpackIgnore|webpackChunkName|@vite-ignore|@license|@preserve|^\/\*!/;

/** Every comment of a TypeScript source, as [start, end) offsets, each once. */
export function commentRanges(text: string, fileName = 'module.ts'): [number, number][] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Map<number, number>();
  const collect = (pos: number) => {
    for (const range of [...(ts.getLeadingCommentRanges(text, pos) ?? []), ...(ts.getTrailingCommentRanges(text, pos) ?? [])]) seen.set(range.pos, range.end);
  };
  // Every comment lies in the trivia before some token: walk the tokens (a node's children include them).
  const visit = (node: ts.Node) => {
    const children = node.getChildren(file);
    if (children.length === 0) collect(node.getFullStart());
    else children.forEach(visit);
  };
  visit(file);
  collect(file.endOfFileToken.getFullStart());
  return [...seen.entries()].sort((a, b) => a[0] - b[0]);
}

/** `text` with each comment but those a tool reads written over with spaces, line breaks kept. */
export function blankComments(text: string, fileName?: string): string {
  let out = '';
  let at = 0;
  for (const [start, end] of commentRanges(text, fileName)) {
    if (start < at) throw new Error(`blank-comments: overlapping comments at ${start} in ${fileName ?? 'a module'}`);
    const comment = text.slice(start, end);
    if (KEEP.test(comment)) continue;
    out += text.slice(at, start) + comment.replace(/[^\r\n\u2028\u2029]/g, ' ');
    at = end;
  }
  return out + text.slice(at);
}
