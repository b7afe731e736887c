/**
 * The published declarations indented with tabs (scripts/dist-reach.ts `tabIndent`, run by `npm run build`):
 * only each line's leading four-space levels change, and a file whose line breaks a literal could hold is refused.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tabIndent } from '../../scripts/dist-reach';

/** The declaration's tokens: what a compiler reads of it, whitespace aside. */
function tokens(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const out: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) out.push(scanner.getTokenText());
  return out;
}

describe('declarations indented with tabs', () => {
  const declarations = [
    'interface Customer {',
    '    /**',
    '     * Its id, `Customer:<id>`.',
    '     * @example',
    '     * ```ts',
    '     * const c = await cb.customers.retrieve(id);',
    '     * ```',
    '     */',
    '    id: string;',
    '    address?: {',
    '        line1: string;',
    "        note: 'two  spaces    inside';",
    '    };',
    '}',
    '',
  ].join('\n');

  it('writes each leading level as a tab and keeps the rest of the line', () => {
    const out = tabIndent(declarations);
    expect(out.split('\n')).toEqual([
      'interface Customer {',
      '\t/**',
      '\t * Its id, `Customer:<id>`.',
      '\t * @example',
      '\t * ```ts',
      '\t * const c = await cb.customers.retrieve(id);',
      '\t * ```',
      '\t */',
      '\tid: string;',
      '\taddress?: {',
      '\t\tline1: string;',
      "\t\tnote: 'two  spaces    inside';",
      '\t};',
      '}',
      '',
    ]);
    expect(tokens(out)).toEqual(tokens(declarations));
    expect(out.length).toBe(declarations.length - 10 * 3 - 2 * 6); // ten lines one level deep, two lines two
  });

  it('refuses a file whose literal could hold a line break', () => {
    expect(() => tabIndent('type Id = `Customer:${string}`;\n', 'template.d.ts')).toThrow(/template\.d\.ts has a literal over a line break/);
    expect(() => tabIndent("declare const note = 'one\\\n    two';\n", 'string.d.ts')).toThrow(/string\.d\.ts has a literal/);
    // A backtick in a comment or a string is not a literal of its own.
    expect(tabIndent("/** Use `x`. */\ndeclare const a = 'run `npm i`';\n")).toBe("/** Use `x`. */\ndeclare const a = 'run `npm i`';\n");
  });
});
