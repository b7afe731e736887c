/**
 * The examples of the API reference compile against the package's types:
 * - every public method of every resource class (`cb.customers.create`, `cb.auth.sessions.revoke`, …)
 *   has an `@example` with a TypeScript block, so a new method without one fails here;
 * - each such block, set after {@link PRELUDE} (every export of `crossborder-sdk` by name, `cb` and
 *   the ids the examples use), type-checks with the repository's compiler options and zero diagnostics;
 * - so does every TypeScript block of the reference's index page (docs/typedoc/index.md), as it is:
 *   those import `crossborder-sdk` by name.
 * The blocks are read from the source with the TypeScript compiler API; typedoc.test.ts checks that
 * the built reference shows them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from './markdown';

/** What an example may assume besides the package's exports: documented in docs/typedoc/index.md. */
const PRELUDE = `
declare const cb: Crossborder;
declare const customerId: string;
declare const accountId: string;
declare const walletId: string;
declare const externalAccountId: string;
declare const quoteId: string;
declare const transactionId: string;
declare const credentialId: string;
declare const sessionId: string;
declare const requestId: string;
declare const clientPublicKey: string;
declare const signer: Signer;
declare const oidcToken: string;
declare const assertion: PasskeyAssertion;
declare const request: Request;
declare const rawBody: Buffer;
declare const headers: import('node:http').IncomingHttpHeaders;
declare const cardId: string;
declare const cardTransactionId: string;
declare const usdAccountId: string;
declare const iframe: { src: string };
declare function readFileSync(path: string): Uint8Array<ArrayBuffer>;
declare const eurAccountId: string;
declare const sparkAddress: string;
declare const agentId: string;
declare const actionId: string;
declare const deviceCodeValue: string;
declare const resetId: string;
declare const smsResetId: string;
declare const challengeId: string;
declare const secret: string;
declare const endUserIpAddress: string;
`;

interface Example {
  /** `Customers.create`, or `index.md#2` for the index page's blocks. */
  name: string;
  /** Where the block is written, for messages: `src/resources/customers.ts:14`. */
  where: string;
  code: string;
}

interface ResourceMethod {
  className: string;
  method: string;
  file: string;
  examples: Example[];
}

const INDEX = 'docs/typedoc/index.md';
/** Parsed files by path, kept across compilations. */
const parsed = new Map<string, ts.SourceFile | undefined>();
const RESOURCES = 'src/resources';
/** The resource files: the hand-written ones, and the classes generated from the document (scripts/generate.ts). */
const RESOURCE_FILES = [
  ...readdirSync(join(root, RESOURCES))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${RESOURCES}/${f}`),
  'src/generated/resources.ts',
];

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath);
  return { ...parsed.options, noEmit: true, incremental: false };
}

/** TypeScript fenced blocks of an `@example` section of a JSDoc comment (raw text, `*` margins and all). */
function exampleBlocks(jsdoc: string): { code: string; line: number }[] {
  const lines = jsdoc.split('\n').map((l) =>
    l
      .replace(/^\s*\/\*\*\s?/, '')
      .replace(/^\s*\*\/\s*$/, '')
      .replace(/^\s*\* ?/, ''),
  );
  const blocks: { code: string; line: number }[] = [];
  let inExample = false;
  let fence: { start: number; lines: string[] } | undefined;
  lines.forEach((line, i) => {
    if (fence) {
      if (/^```\s*$/.test(line)) {
        if (inExample) blocks.push({ code: fence.lines.join('\n'), line: fence.start });
        fence = undefined;
      } else fence.lines.push(line);
      return;
    }
    if (/^```(ts|typescript)\s*$/.test(line)) fence = { start: i + 1, lines: [] };
    else if (/^```/.test(line))
      fence = { start: i + 1, lines: [] }; // another language: skipped, but its @ are not tags
    else if (/^@\w+/.test(line)) inExample = line.startsWith('@example');
  });
  return blocks;
}

/** Every public method of every resource class in src/resources, with its examples. */
function resourceMethods(program: ts.Program): ResourceMethod[] {
  const methods: ResourceMethod[] = [];
  for (const file of RESOURCE_FILES) {
    const path = join(root, file);
    const source = program.getSourceFile(path);
    if (!source) throw new Error(`${path} is not in the program`);
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const extendsResource = statement.heritageClauses?.some((h) => h.types.some((t) => t.expression.getText(source) === 'APIResource'));
      if (!extendsResource) continue;
      for (const member of statement.members) {
        if (!ts.isMethodDeclaration(member) || !member.name || ts.isPrivateIdentifier(member.name)) continue;
        const modifiers = ts.getModifiers(member) ?? [];
        if (
          modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword || m.kind === ts.SyntaxKind.StaticKeyword)
        )
          continue;
        const method = member.name.getText(source);
        if (method.startsWith('_')) continue;
        // The JSDoc of an overloaded method sits on its first declaration.
        const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
        const examples = docs.flatMap((doc) => {
          const docLine = source.getLineAndCharacterOfPosition(doc.getStart(source)).line;
          return exampleBlocks(doc.getText(source)).map((block, i) => ({
            name: `${statement.name!.text}.${method}${i ? `#${i + 1}` : ''}`,
            where: `${file}:${docLine + block.line + 1}`,
            code: block.code,
          }));
        });
        const existing = methods.find((m) => m.className === statement.name!.text && m.method === method);
        if (existing) existing.examples.push(...examples);
        else methods.push({ className: statement.name.text, method, file, examples });
      }
    }
  }
  return methods;
}

/** Names `crossborder-sdk` exports, split into values and types (verbatimModuleSyntax needs `import type`). */
function packageExports(program: ts.Program): { values: string[]; types: string[] } {
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(join(root, 'src/index.ts'))!;
  const values: string[] = [];
  const types: string[] = [];
  for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(index)!)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const typeOnly = symbol.declarations?.some(
      (d) => ts.isTypeOnlyExportDeclaration(d) || (ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)),
    );
    (target.flags & ts.SymbolFlags.Value && !typeOnly ? values : types).push(symbol.name);
  }
  return { values: values.sort(), types: types.sort() };
}

/** Resource classes reachable from a client (`cb.customers`, `cb.platform.externalAccounts`, …), by the client's type. */
function resourcesOfClient(program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const client = program.getSourceFile(join(root, 'src/client.ts'))!;
  const declaration = client.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'Crossborder')!;
  const found = new Set<string>();
  const visit = (type: ts.Type, depth: number) => {
    for (const property of checker.getPropertiesOfType(type)) {
      const declared = property.valueDeclaration;
      if (!declared || property.name.startsWith('#') || property.name.startsWith('__#')) continue;
      const propertyType = checker.getTypeOfSymbolAtLocation(property, declared);
      const classDeclaration = propertyType.getSymbol()?.declarations?.find(ts.isClassDeclaration);
      if (!classDeclaration?.name || !RESOURCE_FILES.some((file) => relative(root, classDeclaration.getSourceFile().fileName).startsWith(file))) continue;
      // A class that extends a generated one to hold nested classes (`AgentMe` over `AgentSelf`) has its
      // methods, and their examples, in the class it extends.
      const base = classDeclaration.heritageClauses?.[0]?.types[0]?.expression;
      found.add(base && ts.isIdentifier(base) && base.text !== 'APIResource' ? base.text : classDeclaration.name.text);
      if (depth < 4) visit(propertyType, depth + 1);
    }
  };
  visit(checker.getTypeAtLocation(declaration), 0);
  return [...found].sort();
}

/** Wraps an example into a module: the package's names, then the prelude, then the example. */
function wrap(code: string, names: { values: string[]; types: string[] }): { text: string; offset: number } {
  const head = [
    `import { ${names.values.join(', ')} } from 'crossborder-sdk';`,
    `import type { ${names.types.join(', ')} } from 'crossborder-sdk';`,
    PRELUDE.trim(),
    '',
  ].join('\n');
  return { text: `${head}\n${code}\nexport {};\n`, offset: head.split('\n').length };
}

interface CheckResult {
  methods: ResourceMethod[];
  indexBlocks: Example[];
  clientResources: string[];
  /** Diagnostics by example, as `where: message` lines (empty when the example compiles). */
  diagnostics: Map<string, string[]>;
}

/**
 * Type-checks every resource example and every index block in one program. `edit` may change the
 * examples first (the test below breaks one on purpose).
 */
function checkExamples(edit: (examples: Example[]) => Example[] = (e) => e): CheckResult {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options, true);
  // Parsed files are shared between calls (the source, lib and @types files do not change meanwhile).
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (path, language, onError, shouldCreate) => {
    let file = parsed.get(path);
    if (!file) parsed.set(path, (file = parse(path, language, onError, shouldCreate)));
    return file;
  };
  const base = ts.createProgram({ rootNames: [join(root, 'src/index.ts'), ...RESOURCE_FILES.map((f) => join(root, f))], options, host });
  const methods = resourceMethods(base);
  const names = packageExports(base);
  const clientResources = resourcesOfClient(base);

  const markdown = readFileSync(join(root, INDEX), 'utf8');
  const indexBlocks: Example[] = [...markdown.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)].map((m, i) => ({
    name: `index.md#${i + 1}`,
    where: `${INDEX}:${markdown.slice(0, m.index).split('\n').length + 1}`,
    code: m[1]!,
  }));

  const examples = edit(methods.flatMap((m) => m.examples));
  const virtual = new Map<string, { example: Example; text: string; offset: number }>();
  const dir = join(root, '.reference-examples');
  examples.forEach((example, i) => {
    const { text, offset } = wrap(example.code, names);
    virtual.set(join(dir, `example-${i}.ts`), { example, text, offset });
  });
  indexBlocks.forEach((example, i) => virtual.set(join(dir, `index-${i}.ts`), { example, text: example.code, offset: 0 }));

  const getSourceFile = host.getSourceFile.bind(host);
  const checkingHost: ts.CompilerHost = {
    ...host,
    fileExists: (path) => virtual.has(path) || host.fileExists(path),
    readFile: (path) => virtual.get(path)?.text ?? host.readFile(path),
    getSourceFile: (path, language, onError, shouldCreate) => {
      const file = virtual.get(path);
      return file ? ts.createSourceFile(path, file.text, language, true, ts.ScriptKind.TS) : getSourceFile(path, language, onError, shouldCreate);
    },
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host: checkingHost, oldProgram: base });
  const diagnostics = new Map<string, string[]>();
  for (const [path, { example, offset }] of virtual) {
    const source = program.getSourceFile(path)!;
    const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line - offset;
      return `${example.name} (${example.where}, line ${line + 1} of the block): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    diagnostics.set(example.name, found);
  }
  return { methods, indexBlocks, clientResources, diagnostics };
}

let result: CheckResult;

beforeAll(() => {
  result = checkExamples();
}, 120_000);

describe('examples of the API reference', () => {
  it('finds the resource methods users call', () => {
    const names = result.methods.map((m) => `${m.className}.${m.method}`);
    for (const name of [
      'Customers.create',
      'Customers.retrieve',
      'Customers.update',
      'Customers.delete',
      'Customers.list',
      'Quotes.create',
      'Quotes.retrieve',
      'Quotes.execute',
      'Quotes.createAndExecute',
      'Transactions.waitFor',
      'Credentials.verify',
      'Sessions.revoke',
      'Webhooks.unwrap',
      'Webhooks.verify',
      'PlatformExternalAccounts.list',
      'Sandbox.fundInternalAccount',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(names.length).toBeGreaterThanOrEqual(36);
    // Every resource class of the client is one this test reads.
    const classes = new Set(result.methods.map((m) => m.className));
    for (const name of result.clientResources) {
      if (name === 'Platform' || name === 'Auth' || name === 'Sca') continue; // namespaces without methods of their own
      expect(classes, name).toContain(name);
    }
    expect(result.clientResources).toEqual(expect.arrayContaining(['Customers', 'Credentials', 'Sessions', 'PlatformExternalAccounts', 'Webhooks']));
  });

  it('has an @example with a TypeScript block on every public resource method', () => {
    const missing = result.methods.filter((m) => m.examples.length === 0).map((m) => `${m.className}.${m.method} (${m.file})`);
    expect(missing).toEqual([]);
  });

  it('shows each method called on `cb` in its own example', () => {
    // Where the client holds each generated class: its accessor in the document (`sca.factors`, `agents.me.quotes`).
    const resources = parse(readFileSync(join(root, 'openapi/openapi.yaml'), 'utf8'))['x-sdk-resources'] as Record<string, { accessor?: string }>;
    const path: Record<string, string> = {};
    for (const [name, resource] of Object.entries(resources)) if (typeof resource === 'object' && resource.accessor) path[name] = resource.accessor;
    for (const m of result.methods) {
      const resource = path[m.className] ?? m.className[0]!.toLowerCase() + m.className.slice(1);
      expect(m.examples.map((e) => e.code).join('\n'), `${m.className}.${m.method}`).toContain(`cb.${resource}.${m.method}(`);
    }
  });

  it('type-checks every example against the package types', () => {
    const failing = result.methods.flatMap((m) => m.examples).flatMap((e) => result.diagnostics.get(e.name) ?? ['not checked']);
    expect(failing).toEqual([]);
    expect(result.methods.flatMap((m) => m.examples).every((e) => result.diagnostics.has(e.name))).toBe(true);
  });

  it('type-checks the index page, whose blocks import crossborder-sdk by name', () => {
    expect(result.indexBlocks.length).toBeGreaterThanOrEqual(3);
    for (const block of result.indexBlocks) expect(block.code, block.where).toMatch(/from 'crossborder-sdk(\/[a-z/]+)?'/);
    expect(result.indexBlocks.flatMap((b) => result.diagnostics.get(b.name) ?? ['not checked'])).toEqual([]);
  });

  it('fails on a broken example (a wrong argument order)', () => {
    // Only these two examples, to keep the second compilation short.
    const broken = checkExamples((examples) =>
      examples
        .filter((e) => e.name === 'Customers.update' || e.name === 'Customers.create')
        .map((e) => (e.name === 'Customers.update' ? { ...e, code: e.code.replace('cb.customers.update(customerId, {', 'cb.customers.update({') } : e)),
    );
    expect(broken.diagnostics.get('Customers.update')).not.toBeUndefined();
    const messages = broken.diagnostics.get('Customers.update') ?? [];
    expect(messages.length).toBeGreaterThan(0);
    // Customers is generated: its examples are written in the document's x-sdk and land in src/generated/resources.ts.
    expect(messages[0]).toMatch(/src\/generated\/resources\.ts:\d+/);
    expect(broken.diagnostics.get('Customers.create')).toEqual([]);
  }, 120_000);
});
