/**
 * What of a package's `dist/` its entries load: from package.json's exports, bin, main, module, types
 * and typesVersions, follow relative imports (static, `import()`, `require()`, declarations'
 * `import … from`) and each file's `sourceMappingURL`.
 *
 * esbuild writes the chunk of every dynamic `import()` it meets, even one in code that tree-shaking
 * then drops (the CLI's build holds the OpenTelemetry recorder's and the event checks' chunks that
 * nothing it keeps imports). `tsx scripts/dist-reach.ts --prune DIR` removes such files after a
 * build (`npm run build`, and the test build of test/setup/packed.ts); test/package/pack.test.ts
 * asserts, with the same walk, that the packed package holds nothing unreached and misses nothing.
 *
 * Before the walk, `--prune` makes each ES entry's declarations (`exports[…].import.types`) one line that
 * re-exports its CommonJS twin (`export * from './index.cjs'`, whose types are `index.d.cts`): tsup writes
 * the same declarations twice, once per format, and an ES module may import CommonJS declarations (the
 * reverse is refused), so the declarations ship once and the walk then drops the ES copies' chunks. An
 * entry whose declarations import another package (`sandbox/msw` imports msw's) keeps its ES copy.
 * TypeScript and `attw` resolve both ways (test/package/pack.test.ts runs the consumers).
 *
 * Last, `--prune` indents the declarations that ship with tabs (TypeScript prints four spaces a level: a
 * seventh of their bytes); {@link tabIndent} refuses a file where a line's leading blanks could belong to a
 * literal.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import ts from 'typescript';

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

/** The files of `pkg`'s dist/ that `entries` (paths in the package) load, following imports and maps, and those named but missing. */
export function walk(pkg: string, entries: string[]): { reached: Set<string>; missing: string[] } {
  const reached = new Set<string>();
  const missing: string[] = [];
  const queue = entries.filter((entry) => entry.startsWith('dist/'));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    if (!existsSync(join(pkg, file))) {
      missing.push(file);
      continue;
    }
    if (file.endsWith('.map')) continue;
    const text = readFileSync(join(pkg, file), 'utf8');
    const declaration = /\.d\.c?ts$/.test(file);
    for (const [, path] of text.matchAll(SPECIFIER)) {
      const target = posix.join(posix.dirname(file), path!);
      queue.push(declaration ? target.replace(/\.js$/, '.d.ts').replace(/\.cjs$/, '.d.cts') : target);
    }
    const map = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text);
    if (map) queue.push(posix.join(posix.dirname(file), map[1]!));
  }
  return { reached, missing };
}

/** The package's entries in package.json: `bin` (the CLI's) and the library's (exports, main, module, types, typesVersions). */
export function entriesOf(pkg: string): { bin: string[]; library: string[] } {
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
  const collect = (value: unknown, into: string[] = []): string[] => {
    if (typeof value === 'string') into.push(posix.normalize(value));
    else if (value && typeof value === 'object') Object.values(value).forEach((v) => collect(v, into));
    return into;
  };
  return { bin: collect(manifest.bin), library: collect([manifest.exports, manifest.main, manifest.module, manifest.types, manifest.typesVersions]) };
}

/** What the entries of the package in `pkg` (holding package.json and dist/) load, what they name but is missing, and every file of its dist/. */
export function reachable(pkg: string): { reached: Set<string>; missing: string[]; files: string[]; unreached: string[] } {
  const { bin, library } = entriesOf(pkg);
  const { reached, missing } = walk(pkg, [...library, ...bin]);
  const files = (readdirSync(join(pkg, 'dist'), { recursive: true }) as string[])
    .filter((f) => statSync(join(pkg, 'dist', f)).isFile())
    .map((f) => `dist/${f.split(sep).join('/')}`);
  return { reached, missing, files, unreached: files.filter((f) => !reached.has(f)) };
}

/** Whether the declarations at `types` (and the declaration chunks they import) import a package other than `self`. */
function importsOtherPackages(pkg: string, types: string, self: string | undefined): boolean {
  const seen = new Set<string>();
  const queue = [posix.normalize(types)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(join(pkg, file))) continue;
    seen.add(file);
    // The code only: TSDoc examples name packages (`import Redis from 'ioredis'`) the declarations do not import.
    const text = readFileSync(join(pkg, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["']([^"']+)["']/g)) {
      if (specifier!.startsWith('.'))
        queue.push(
          posix
            .join(posix.dirname(file), specifier!)
            .replace(/\.cjs$/, '.d.cts')
            .replace(/\.js$/, '.d.ts'),
        );
      else if (specifier !== self && !specifier!.startsWith(`${self}/`)) return true;
    }
  }
  return false;
}

/** Each ES entry's declaration file becomes a re-export of its CommonJS twin's (see above); returns the files rewritten. */
export function shareDeclarations(pkg: string): string[] {
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { name?: string; exports?: Record<string, unknown> };
  const rewritten: string[] = [];
  for (const target of Object.values(manifest.exports ?? {})) {
    if (!target || typeof target !== 'object') continue;
    const { import: esm, require: cjs } = target as { import?: { types?: string; default?: string }; require?: { types?: string; default?: string } };
    if (!esm?.types || !cjs?.types || !cjs.default || !/\.d\.ts$/.test(esm.types) || !/\.d\.cts$/.test(cjs.types)) continue;
    if (posix.dirname(esm.types) !== posix.dirname(cjs.default)) continue;
    const file = join(pkg, esm.types);
    if (!existsSync(join(pkg, cjs.types))) throw new Error(`dist-reach: ${cjs.types} (the CommonJS declarations ${esm.types} would re-export) was not built`);
    // Declarations that import another package keep their own ES copy: that package's CommonJS types may be
    // other declarations than its ES ones (msw ships both), and a user's ES import of it must meet the same classes.
    if (importsOtherPackages(pkg, cjs.types, manifest.name)) continue;
    writeFileSync(file, `export * from './${posix.basename(cjs.default)}';\n`);
    rewritten.push(esm.types);
  }
  return rewritten;
}

/**
 * A declaration file with each line's leading four-space levels written as tabs (the spaces after them, such
 * as the one before a TSDoc line's `*`, stay). Only whitespace between tokens or inside comments changes: a
 * template literal, or a string continued over a line break, would hold a line's leading blanks, so a file
 * with either is refused.
 */
export function tabIndent(text: string, fileName = 'declarations.d.ts'): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    const literal = token === ts.SyntaxKind.NoSubstitutionTemplateLiteral || token === ts.SyntaxKind.TemplateHead;
    if (literal || (token === ts.SyntaxKind.StringLiteral && /[\r\n]/.test(scanner.getTokenText())))
      throw new Error(
        `dist-reach: ${fileName} has a literal over a line break (${scanner.getTokenText().slice(0, 40)}): its indentation is left to TypeScript`,
      );
  }
  return text.replace(/^(?: {4})+/gm, (spaces) => '\t'.repeat(spaces.length / 4));
}

/** Every declaration file of `pkg`'s dist/ indented with tabs ({@link tabIndent}); returns the bytes saved. */
export function tabIndentDeclarations(pkg: string): number {
  let saved = 0;
  for (const file of readdirSync(join(pkg, 'dist'))) {
    if (!/\.d\.c?ts$/.test(file)) continue;
    const path = join(pkg, 'dist', file);
    const text = readFileSync(path, 'utf8');
    const tabbed = tabIndent(text, file);
    saved += text.length - tabbed.length;
    if (tabbed !== text) writeFileSync(path, tabbed);
  }
  return saved;
}

if (process.argv[2] === '--prune') {
  const pkg = process.argv[3] ?? '.';
  const shared = shareDeclarations(pkg);
  if (shared.length > 0) console.log(`dist-reach: ${shared.length} ES declaration entries re-export their CommonJS twins`);
  const { missing, unreached } = reachable(pkg);
  if (missing.length > 0) {
    console.error(`dist-reach: named by an entry or an import, but not built: ${missing.join(', ')}`);
    process.exit(1);
  }
  for (const file of unreached) rmSync(join(pkg, file));
  if (unreached.length > 0) console.log(`dist-reach: removed ${unreached.length} file(s) no entry loads: ${unreached.join(', ')}`);
  const saved = tabIndentDeclarations(pkg);
  if (saved > 0) console.log(`dist-reach: declarations indented with tabs (${saved} B fewer)`);
}
