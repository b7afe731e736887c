/**
 * The command table: one command per operation of the generated table (src/generated/operations.ts),
 * with its name, positional arguments and flags worked out from the operation itself (its path, its
 * operationId and the JSON Schemas of its parameters, converted from the generated zod schemas of
 * openapi/). A new operation in the document is a new command here with no hand-written code.
 * @module
 */
import { operations, type DocumentOperation, type OperationId } from '../generated/operations';

/** A JSON Schema, as `z.toJSONSchema` writes it (only what the CLI reads is typed). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  [key: string]: unknown;
}

/** One flag of a command: a query parameter or a top-level body field. */
export interface FlagSpec {
  /** `--customer-id`. */
  flag: string;
  /** `customerId`: the field's name on the wire. */
  name: string;
  in: 'query' | 'body';
  /** How the text given is read: numbers and booleans as such, objects and arrays as JSON (arrays also comma-separated). */
  kind: 'string' | 'number' | 'boolean' | 'json' | 'list';
  /** Values the document allows, when it lists them. */
  choices: string[] | undefined;
  required: boolean;
}

/** One operation as a command: what its name and arguments need (the table is built at every start, so it stays cheap). */
export interface CommandSpec {
  op: DocumentOperation;
  /** `['quotes', 'execute']`, `['auth', 'credentials', 'verify']`. */
  words: string[];
  /** Path parameters, in the order of the path: the command's positional arguments. */
  positionals: string[];
}

/** What a command's flags and the MCP tools need: worked out from the document's schemas when used. */
export interface CommandDetails extends CommandSpec {
  flags: FlagSpec[];
  /** Header parameters of the document (`Idempotency-Key`, `Service-Wallet-Signature`, `Request-Id`). */
  headers: string[];
  /** The input as one JSON Schema `{ path params…, query…, body }` (the MCP tools' input schema). */
  inputSchema: JsonSchema;
  /** The JSON Schema of the answer. */
  response: JsonSchema | undefined;
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/_/g, '-').toLowerCase();

type Schemas = { z: typeof import('zod'); schemas: Record<string, unknown> };
let loaded: Promise<Schemas> | undefined;

/** The generated zod schemas (large: loaded only by the commands that need them). */
function loadSchemas(): Promise<Schemas> {
  return (loaded ??= Promise.all([import('zod'), import('../generated/zod.gen')]).then(([z, schemas]) => ({ z, schemas: schemas as Record<string, unknown> })));
}

/** The JSON Schema of a generated zod schema (input side: defaults optional). */
function jsonSchemaOf({ z, schemas }: Schemas, name: string | undefined, io: 'input' | 'output' = 'input'): JsonSchema | undefined {
  if (name === undefined) return undefined;
  const schema = schemas[name];
  if (schema === undefined) return undefined;
  const json = z.toJSONSchema(schema as import('zod').ZodType, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** True when the schema (or one of its variants) has the property `name`. */
export function hasProperty(schema: JsonSchema | undefined, name: string): boolean {
  return propertiesOf(schema).has(name);
}

/** Every property of a schema, across its variants (`oneOf` of customer types, account types…). */
function propertiesOf(schema: JsonSchema | undefined, into = new Map<string, { schema: JsonSchema; required: boolean }>(), variant = false): Map<string, { schema: JsonSchema; required: boolean }> {
  if (!schema) return into;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (!into.has(name)) into.set(name, { schema: prop, required: !variant && (schema.required ?? []).includes(name) });
  }
  for (const part of schema.allOf ?? []) propertiesOf(part, into, variant);
  for (const part of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) propertiesOf(part, into, true);
  return into;
}

function kindOf(schema: JsonSchema): FlagSpec['kind'] {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'array') return schema.items && (schema.items.type === 'string' || schema.items.type === 'number') ? 'list' : 'json';
  if (type === 'object' || schema.oneOf || schema.anyOf || schema.allOf) return 'json';
  return 'string';
}

function choicesOf(schema: JsonSchema): string[] | undefined {
  if (schema.enum) return schema.enum.map(String);
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants && variants.every((v) => v.const !== undefined)) return variants.map((v) => String(v.const));
  return undefined;
}

/**
 * The command's words: the static segments of its path, then the verb of its operationId
 * (`getQuote` → `retrieve`, as the SDK's methods name it). A last segment that is the verb
 * (`/quotes/{id}/execute`) is the verb; a sub-collection listed under another collection
 * (`/customers/internal-accounts`) is a noun of its own.
 */
export function wordsOf(op: DocumentOperation, collections: ReadonlySet<string>): string[] {
  const idWords = op.id.replace(/([A-Z])/g, ' $1').toLowerCase().split(' ');
  let verb = idWords[0] === 'sandbox' ? idWords[1]! : idWords[0]!;
  const statics = op.path.split('/').filter((s) => s !== '' && !s.startsWith('{'));
  if (statics.at(-1) === verb) statics.pop();
  if (statics.length > 1 && collections.has(`/${statics[0]}`) && !op.path.startsWith(`/${statics[0]}/{`)) statics.shift();
  if (verb === 'get') verb = 'retrieve';
  return [...statics, verb];
}

/** The table, built once. */
let table: CommandSpec[] | undefined;

/** Every operation of the document as a command, in the document's order. */
export function commandTable(): CommandSpec[] {
  if (table) return table;
  const all = Object.values(operations) as DocumentOperation[];
  const collections = new Set(all.map((op) => op.path));
  table = all.map((op) => ({
    op,
    words: wordsOf(op, collections),
    positionals: [...op.path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!),
  }));
  return table;
}

/** A command's flags, headers and input schema, from the document's schemas. */
export async function detailsOf(spec: CommandSpec): Promise<CommandDetails> {
  const loaded = await loadSchemas();
  const { op, positionals } = spec;
  const path = jsonSchemaOf(loaded, op.params.path);
  const query = jsonSchemaOf(loaded, op.params.query);
  const body = jsonSchemaOf(loaded, op.params.body);
  const headerSchema = jsonSchemaOf(loaded, `z${op.id[0]!.toUpperCase()}${op.id.slice(1)}Headers`);
  const flags: FlagSpec[] = [];
  for (const [where, schema] of [['query', query], ['body', body]] as const) {
    for (const [name, prop] of propertiesOf(schema)) {
      if (flags.some((f) => f.name === name)) continue;
      flags.push({ flag: `--${kebab(name)}`, name, in: where, kind: kindOf(prop.schema), choices: choicesOf(prop.schema), required: prop.required });
    }
  }
  const properties: Record<string, JsonSchema> = {};
  for (const name of positionals) properties[name] = path?.properties?.[name] ?? { type: 'string' };
  for (const [name, prop] of propertiesOf(query)) properties[name] = prop.schema;
  if (body) properties.body = body;
  const required = [...positionals, ...(op.bodyRequired ? ['body'] : [])];
  return {
    ...spec,
    flags,
    headers: Object.keys(headerSchema?.properties ?? {}),
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    response: jsonSchemaOf(loaded, op.response, 'output'),
  };
}

/** A value given on the command line, read as the flag's kind says. */
export function readFlagValue(spec: FlagSpec, text: string): unknown {
  switch (spec.kind) {
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${spec.flag} needs a number, got '${text}'`);
      return n;
    }
    case 'boolean':
      if (text === 'true' || text === '') return true;
      if (text === 'false') return false;
      throw new UsageError(`${spec.flag} needs true or false, got '${text}'`);
    case 'list':
      return text.trim().startsWith('[') ? parseJson(spec.flag, text) : text.split(',').map((s) => s.trim()).filter(Boolean);
    case 'json':
      return parseJson(spec.flag, text);
    default:
      return text;
  }
}

function parseJson(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} needs JSON (an object or a list), got '${text}'`);
  }
}

/** A mistake in the command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Splits a flat input (path parameters, query fields, `body`) into the call's parts. */
export function splitInput(op: DocumentOperation, input: unknown): { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown } {
  const names = [...op.path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
  const given = (input ?? {}) as Record<string, unknown>;
  if (typeof input !== 'object' || input === null) {
    // A bare value: the one path parameter (`execute: Quote:…`).
    if (names.length === 1) return { path: { [names[0]!]: String(input) } };
    throw new UsageError(`${op.id} needs an object as its input`);
  }
  const path = Object.fromEntries(names.map((n) => [n, String(given[n] ?? '')]));
  const rest = Object.fromEntries(Object.entries(given).filter(([k]) => !names.includes(k)));
  if (op.method === 'GET' || op.method === 'DELETE') return { ...(names.length ? { path } : {}), ...(Object.keys(rest).length ? { query: rest } : {}) };
  const body = 'body' in rest ? rest.body : op.params.body && Object.keys(rest).length ? rest : undefined;
  const query = 'body' in rest ? Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'body')) : {};
  return { ...(names.length ? { path } : {}), ...(Object.keys(query).length ? { query } : {}), ...(body !== undefined ? { body } : {}) };
}
