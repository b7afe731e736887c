/**
 * The build reads the package's TypeScript with its comments written over (scripts/blank-comments.ts): the
 * code is the same code (esbuild, minifying, prints the same program for both), every line and column stays
 * where it was (the maps name the shipped source's lines), and what bundlers read in a comment stays.
 */
import { transform } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blankComments, commentRanges } from '../../scripts/blank-comments';

const src = join(import.meta.dirname, '..', '..', 'src');
const modules = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(src, f));

/** Where each line break is: the same offsets mean the same lines and columns. */
const breaks = (text: string) => [...text.matchAll(/\r\n|\n|\r|\u2028|\u2029/g)].map((m) => m.index);

describe('comments written over before the build', () => {
  it('blanks line and block comments and TSDoc, nothing in a string, a template or a regular expression', () => {
    const source = [
      '/** The doc. */',
      "const url = 'https://example.com/*not a comment*/'; // trailing",
      'const t = `a // b ${/* inside */ 1} /* c */`;',
      'const r = /\\/\\/[*]/g; /* block',
      'over lines */ const n = 2 / 1; // last',
    ].join('\n');
    const out = blankComments(source);
    expect(out.length).toBe(source.length);
    expect(breaks(out)).toEqual(breaks(source));
    expect(out).toContain("const url = 'https://example.com/*not a comment*/';");
    expect(out).toContain('const t = `a // b ${');
    expect(out).toContain('1} /* c */`;');
    expect(out).toContain('const r = /\\/\\/[*]/g;');
    expect(out).toContain('const n = 2 / 1;');
    for (const gone of ['The doc', 'trailing', 'inside', 'block', 'over lines', 'last']) expect(out).not.toContain(gone);
    // Each comment found exactly once, in order.
    expect(commentRanges(source).map(([a, b]) => source.slice(a, b))).toEqual([
      '/** The doc. */',
      '// trailing',
      '/* inside */',
      '/* block\nover lines */',
      '// last',
    ]);
  });

  it('keeps what a bundler reads: pure annotations, import hints, legal comments', () => {
    const source = [
      'export const a = /* @__PURE__ */ make();',
      'export const b = /* #__PURE__ */ make();',
      '/* @__NO_SIDE_EFFECTS__ */ export function make() { return {}; }',
      "export const c = () => import(/* webpackIgnore: true */ 'x');",
      "export const d = () => import(/* @vite-ignore */ 'y');",
      '/*! legal */',
      '/** @license MIT */',
      '// drop me',
    ].join('\n');
    const out = blankComments(source);
    for (const kept of [
      '/* @__PURE__ */',
      '/* #__PURE__ */',
      '/* @__NO_SIDE_EFFECTS__ */',
      '/* webpackIgnore: true */',
      '/* @vite-ignore */',
      '/*! legal */',
      '/** @license MIT */',
    ])
      expect(out).toContain(kept);
    expect(out).not.toContain('drop me');
  });

  it('leaves every module of src/ the same program, line for line', async () => {
    expect(modules.length).toBeGreaterThan(200);
    let blanked = 0;
    for (const file of modules) {
      const source = readFileSync(file, 'utf8');
      const out = blankComments(source, file);
      expect(out.length, file).toBe(source.length);
      expect(breaks(out), file).toEqual(breaks(source));
      if (out !== source) blanked++;
      // Minified, esbuild drops comments (but the annotations it reads): the same output means the same code.
      const minified = (code: string) => transform(code, { loader: 'ts', minify: true, legalComments: 'none' }).then((result) => result.code);
      expect(await minified(out), file).toBe(await minified(source));
    }
    expect(blanked).toBeGreaterThan(modules.length / 2);
  });
});
