/**
 * The OpenAPI document covers the service specification: every endpoint the spec writes as
 * **METHOD `/path`**, every field of every resource table (plus the named subfields of prose lines
 * such as "`supportedCurrencies` item: ..."), and every field of the quotes-create body table.
 */
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deref } from '../helpers/document';

type Json = Record<string, any>;

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The spec, copied into the repository: <repoRoot>/spec/service-api.md (spec/README.md). */
const specPath = resolvePath(repoRoot, 'spec', 'service-api.md');
const documentPath = resolvePath(repoRoot, 'openapi', 'openapi.yaml');

const specText = readFileSync(specPath, 'utf8');
const documentText = readFileSync(documentPath, 'utf8');
const loadDocument = (): Json => parse(documentText) as Json;

/** Resource heading of the spec → component schema(s) holding its fields. */
const HEADING_SCHEMAS: Record<string, string[]> = {
  Customer: ['IndividualCustomer', 'BusinessCustomer'],
  'Internal account': ['InternalAccount'],
  'External account': ['ExternalAccount'],
  Transaction: ['Transaction'],
  Quote: ['Quote'],
  'Platform configuration': ['PlatformConfig'],
  Invitation: ['Invitation'],
  'Verification (KYC/KYB)': ['Verification'],
  'UMA provider': ['UmaProvider'],
  'Credential (AuthMethod)': ['Credential'],
};

/** Subject of a prose subfield line ("`x` item:", "`x` fields seen:", "`x` fields:") → schema. */
const PROSE_SCHEMAS: Record<string, string> = {
  accountInfo: 'ExternalAccountInfo',
  beneficiary: 'Beneficiary',
  supportedCurrencies: 'SupportedCurrency',
};

// ---------------------------------------------------------------------------------------------
// Document helpers

/** Property names of a schema, across `allOf` / `oneOf` / `anyOf` parts, with $refs resolved. */
function propertiesOf(doc: Json, node: Json | undefined, seen = new Set<Json>()): Set<string> {
  const out = new Set<string>();
  const schema = deref(node, doc);
  if (!schema || seen.has(schema)) return out;
  seen.add(schema);
  for (const key of Object.keys(schema.properties ?? {})) out.add(key);
  for (const combinator of ['allOf', 'oneOf', 'anyOf']) {
    for (const part of (schema[combinator] ?? []) as Json[]) {
      for (const key of propertiesOf(doc, part, seen)) out.add(key);
    }
  }
  return out;
}

/** Schemas of property `name` across a schema's parts (array schemas give their items). */
function propertySchemas(doc: Json, node: Json | undefined, name: string, seen = new Set<Json>()): Json[] {
  const schema = deref(node, doc);
  if (!schema || seen.has(schema)) return [];
  seen.add(schema);
  const found: Json[] = [];
  const own = schema.properties?.[name];
  if (own) {
    const resolved = deref(own, doc);
    if (resolved) found.push(resolved.type === 'array' && resolved.items ? resolved.items : resolved);
  }
  for (const combinator of ['allOf', 'oneOf', 'anyOf']) {
    for (const part of (schema[combinator] ?? []) as Json[]) found.push(...propertySchemas(doc, part, name, seen));
  }
  return found;
}

function schemaRef(name: string): Json {
  return { $ref: `#/components/schemas/${name}` };
}

// ---------------------------------------------------------------------------------------------
// Spec extraction

interface Endpoint {
  method: string;
  path: string;
}

interface FieldCheck {
  /** Where the field comes from, for the failure message. */
  source: string;
  field: string;
  /** Component schemas that must (together) hold the field. */
  schemas: string[];
  /** When set: the field must be a property of this property's schema, inside `schemas`. */
  under?: string;
}

function extractEndpoints(text: string): Endpoint[] {
  return [...text.matchAll(/\*\*(GET|POST|PUT|PATCH|DELETE) `([^`]+)`\*\*/g)].map((m) => ({
    method: m[1]!.toLowerCase(),
    path: m[2]!,
  }));
}

/** Removes parenthesized text, nesting included, so that only top-level `names` remain. */
function stripParentheses(text: string): string {
  let depth = 0;
  let out = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

const FIELD_NAME = /^[a-z][A-Za-z0-9]*$/;

function backtickNames(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((name) => FIELD_NAME.test(name));
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

function resourceSections(text: string): Array<{ heading: string; body: string }> {
  const start = text.indexOf('## Resources and their fields');
  if (start < 0) throw new Error('spec has no "## Resources and their fields" section');
  const rest = text.slice(start + 1);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return section
    .split(/^### /m)
    .slice(1)
    .map((chunk) => {
      const newline = chunk.indexOf('\n');
      return { heading: chunk.slice(0, newline).trim(), body: chunk.slice(newline + 1) };
    });
}

function extractFieldChecks(text: string): FieldCheck[] {
  const checks: FieldCheck[] = [];
  for (const { heading, body } of resourceSections(text)) {
    const schemas = HEADING_SCHEMAS[heading];
    if (!schemas) throw new Error(`spec resource "${heading}" has no schema mapping in coverage.test.ts`);
    const lines = body.split('\n');
    let tableRows = 0;
    for (const line of lines) {
      if (!line.trim().startsWith('| `')) continue;
      tableRows++;
      const [fieldCell = '', typeCell = '', notesCell = ''] = splitRow(line);
      const fields = backtickNames(fieldCell);
      for (const field of fields) checks.push({ source: `${heading} table`, field, schemas });
      // Object / array rows name their subfields at top level of the notes ("`line1`, `city`, ...").
      if (fields.length === 1 && (typeCell === 'object' || typeCell === 'array')) {
        for (const sub of backtickNames(stripParentheses(notesCell))) {
          checks.push({ source: `${heading} table, \`${fields[0]}\` notes`, field: sub, schemas, under: fields[0]! });
        }
      }
    }
    for (const line of lines) {
      const prose = /^`(\w+)` (?:item|fields seen|fields):(.*)$/.exec(line.trim());
      if (!prose) continue;
      const subject = prose[1]!;
      const target = PROSE_SCHEMAS[subject];
      if (!target) throw new Error(`spec prose line about \`${subject}\` has no schema mapping in coverage.test.ts`);
      for (const field of backtickNames(stripParentheses(prose[2]!))) {
        checks.push({ source: `${heading}, \`${subject}\` prose`, field, schemas: [target] });
      }
    }
    if (tableRows === 0) {
      // A resource given as a prose list of fields (UMA provider).
      const list = lines.find((line) => line.trim().startsWith('`'));
      if (!list) throw new Error(`spec resource "${heading}" has neither a table nor a field list`);
      for (const field of backtickNames(stripParentheses(list))) checks.push({ source: `${heading} list`, field, schemas });
    }
  }
  return checks;
}

/** Fields of the quotes-create body table (the first table after **POST `/quotes`**). */
function extractQuoteBodyFields(text: string): string[] {
  const start = text.indexOf('**POST `/quotes`**');
  if (start < 0) throw new Error('spec has no **POST `/quotes`** section');
  const after = text.slice(start).split('\n').slice(1);
  const fields: string[] = [];
  let inTable = false;
  for (const line of after) {
    if (line.trim().startsWith('|')) {
      inTable = true;
      if (line.trim().startsWith('| `')) fields.push(...backtickNames(splitRow(line)[0] ?? ''));
    } else if (inTable) {
      break;
    }
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------
// The check

function findMissing(text: string, doc: Json): string[] {
  const missing: string[] = [];
  for (const { method, path } of extractEndpoints(text)) {
    if (!doc.paths?.[path]?.[method]) missing.push(`endpoint ${method.toUpperCase()} ${path}`);
  }
  for (const check of extractFieldChecks(text)) {
    for (const name of check.schemas) {
      if (!doc.components?.schemas?.[name]) missing.push(`schema ${name} (for ${check.source})`);
    }
    const roots = check.schemas.map(schemaRef);
    let present: boolean;
    if (check.under) {
      const holders = roots.flatMap((root) => propertySchemas(doc, root, check.under!));
      present = holders.some((holder) => propertiesOf(doc, holder).has(check.field));
    } else {
      present = roots.some((root) => propertiesOf(doc, root).has(check.field));
    }
    if (!present) {
      const where = check.under ? `${check.schemas.join('/')}.${check.under}` : check.schemas.join('/');
      missing.push(`field \`${check.field}\` (${check.source}) not in ${where}`);
    }
  }
  const quoteBody = propertiesOf(doc, schemaRef('QuoteCreateParams'));
  for (const field of extractQuoteBodyFields(text)) {
    if (!quoteBody.has(field)) missing.push(`field \`${field}\` (POST /quotes body table) not in QuoteCreateParams`);
  }
  return [...new Set(missing)];
}

// ---------------------------------------------------------------------------------------------

describe('OpenAPI document covers service-api.md', () => {
  it('extracts a plausible amount from the spec (guards against a silently broken parser)', () => {
    const endpoints = extractEndpoints(specText);
    expect(endpoints.length).toBeGreaterThanOrEqual(20);
    const checks = extractFieldChecks(specText);
    const tableFields = new Set(checks.filter((c) => !c.under).map((c) => c.field));
    for (const field of ['umaAddress', 'updatedAt', 'fundingPaymentInstructions', 'cryptoNetwork', 'failureReason', 'feesIncluded']) {
      expect(tableFields).toContain(field);
    }
    // Prose subfields, the comma-separated first column and the UMA provider list are picked up.
    expect(checks).toContainEqual({ source: 'External account, `beneficiary` prose', field: 'countryOfResidence', schemas: ['Beneficiary'] });
    expect(checks).toContainEqual({ source: 'External account, `accountInfo` prose', field: 'pixKeyType', schemas: ['ExternalAccountInfo'] });
    expect(checks).toContainEqual({
      source: 'Platform configuration, `supportedCurrencies` prose',
      field: 'providerRequiredCounterpartyCustomerFields',
      schemas: ['SupportedCurrency'],
    });
    expect(checks.filter((c) => c.source === 'Quote table').map((c) => c.field)).toEqual(
      expect.arrayContaining(['sendingCurrency', 'receivingCurrency', 'createdAt', 'expiresAt']),
    );
    expect(checks.filter((c) => c.source === 'UMA provider list').map((c) => c.field)).toEqual(expect.arrayContaining(['lei', 'allowListStatus', 'logoUrl']));
    expect(extractQuoteBodyFields(specText)).toEqual([
      'source',
      'destination',
      'lockedCurrencySide',
      'lockedCurrencyAmount',
      'lookupId',
      'immediatelyExecute',
      'description',
      'purposeOfPayment',
      'senderCustomerInfo',
    ]);
  });

  it('has every endpoint and every resource field of the spec', () => {
    expect(findMissing(specText, loadDocument())).toEqual([]);
  });

  describe('self-check: the check can fail', () => {
    it('reports an endpoint the document lacks', () => {
      const fabricated = `${specText}\n\n**POST \`/widgets/{widgetId}/polish\`** polishes a widget.\n`;
      expect(findMissing(fabricated, loadDocument())).toContain('endpoint POST /widgets/{widgetId}/polish');
    });

    it('reports a table field the document lacks', () => {
      const fabricated = specText.replace(
        '| `isDeleted` | boolean | Marks a deleted customer. |',
        '| `isDeleted` | boolean | Marks a deleted customer. |\n| `loyaltyTier` | string | Fabricated. |',
      );
      expect(fabricated).not.toBe(specText);
      expect(findMissing(fabricated, loadDocument())).toContain('field `loyaltyTier` (Customer table) not in IndividualCustomer/BusinessCustomer');
    });

    it('reports a prose subfield and a quote body field the document lacks', () => {
      const fabricated = specText
        .replace('`beneficiary` fields: `beneficiaryType`', '`beneficiary` fields: `shoeSize`, `beneficiaryType`')
        .replace('| `description` | string | no | Memo. |', '| `description` | string | no | Memo. |\n| `tipAmount` | int64 | no | Fabricated. |');
      const missing = findMissing(fabricated, loadDocument());
      expect(missing).toContain('field `shoeSize` (External account, `beneficiary` prose) not in Beneficiary');
      expect(missing).toContain('field `tipAmount` (POST /quotes body table) not in QuoteCreateParams');
    });

    it('reports fields removed from the document, including from one variant of a union', () => {
      const doc = loadDocument();
      delete doc.components.schemas.OutgoingTransaction.properties.settledAt;
      delete doc.components.schemas.IncomingTransaction.properties.settledAt;
      delete doc.components.schemas.Address.properties.postalCode;
      delete doc.paths['/quotes/{quoteId}'].get;
      const missing = findMissing(specText, doc);
      expect(missing).toContain('field `settledAt` (Transaction table) not in Transaction');
      expect(missing).toContain('field `postalCode` (Customer table, `address` notes) not in IndividualCustomer/BusinessCustomer.address');
      expect(missing).toContain('endpoint GET /quotes/{quoteId}');
    });
  });
});
