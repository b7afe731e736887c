/**
 * Types users can read (issue #15.3): a consumer file of the packed package (its published
 * declarations, resolved from node_modules) is type-checked with the compiler, as an editor would. Results hover as their names (`Customer`, not the expansion of an indexed access),
 * a mistake's message names the type and stays short, and the client shows its resources, not its
 * machinery.
 */
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, inject, it } from 'vitest';

const consumer = join(inject('packed').consumer, 'readable.ts');
const SOURCE = `import { Crossborder, type QuoteCreateParams, type WebhookEvent } from 'crossborder-sdk';
declare const cb: Crossborder;
export const customer = await cb.customers.create({ customerType: 'INDIVIDUAL' });
export const quote = await cb.quotes.retrieve('Quote:1');
declare const event: WebhookEvent;
export const seen = event;
export const params: QuoteCreateParams = {
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:2' },
  lockedCurrencySide: 'SENDING',
};
`;

let program: ts.Program;
let checker: ts.TypeChecker;
let file: ts.SourceFile;

beforeAll(() => {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    resolve(name) === consumer ? ts.createSourceFile(name, SOURCE, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === consumer || fileExists(name);
  program = ts.createProgram([consumer], options, host);
  checker = program.getTypeChecker();
  file = program.getSourceFile(consumer)!;
}, 60_000);

/** What an editor shows for an exported const. */
function hover(name: string): string {
  const symbol = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).find((s) => s.name === name)!;
  return checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, file), undefined, ts.TypeFormatFlags.NoTruncation);
}

describe('types users can read', () => {
  it('results hover as their names', () => {
    expect(hover('customer')).toBe('Customer');
    expect(hover('quote')).toBe('Quote');
    expect(hover('seen').length).toBeLessThan(80); // the webhook event union by its name, not 52k characters
    expect(hover('seen')).toContain('WebhookEvent');
  });

  it('a mistake gives one short error that names the type', () => {
    const errors = ts.getPreEmitDiagnostics(program, file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toHaveLength(1);

    console.log(`[types] error (${errors[0]!.length} chars): ${errors[0]}`);
    expect(errors[0]!.length).toBeLessThan(300);
    expect(errors[0]).toContain('lockedCurrencyAmount');
    expect(errors[0]).toContain('QuoteCreateParams');
  });

  it("the client's surface is its resources, request() and its settings", () => {
    const module = checker.getSymbolAtLocation((file.statements[0] as ts.ImportDeclaration).moduleSpecifier)!;
    const crossborder = checker.getExportsOfModule(module).find((s) => s.name === 'Crossborder')!;
    // `#private` fields are not reachable from outside (nor offered by autocompletion).
    const names = checker
      .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(crossborder))
      .map((p) => p.name)
      .filter((n) => !n.startsWith('#'))
      .sort();
    expect(names).toEqual(
      [
        'auth',
        'baseUrl',
        'beneficialOwners',
        'config',
        'customers',
        'environment',
        'externalAccounts',
        'internalAccounts',
        'invitations',
        'maxRetries',
        'platform',
        'quotes',
        'receiver',
        'request',
        'sandbox',
        'telemetry',
        'timeout',
        'transactions',
        'transferIn',
        'umaProviders',
        'verifications',
        'webhookPublicKey',
        'webhooks',
        'transferOut',
        'exchangeRates',
        'crypto',
        'tokens',
        'discoveries',
        'vasps',
        'cards',
        'sca',
        'agents',
        'documents',
        'stablecoins',
        'stablecoinProviderAccounts',
      ].sort(),
    );
  });
});
