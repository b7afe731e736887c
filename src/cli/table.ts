/**
 * The command table: one command per operation of the generated table (src/generated/operations.ts),
 * with its name, positional arguments and flags worked out from the operation itself (its path, its
 * operationId and the JSON Schemas of its parameters, converted from the generated zod schemas of
 * openapi/). A new operation in the document is a new command here with no hand-written code.
 * @module
 */
import { ValidationError } from './sdk';
import { OPEN_SETS } from '../generated/cli-docs';
import { operationNames } from '../generated/names';
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
  /**
   * How the text given is read: numbers and booleans as such, objects and arrays as JSON (arrays also
   * comma-separated); `file`, a file part of a multipart body (the CSV of `customers import-csv`): the
   * text is a path, and the file's content is sent.
   */
  kind: 'string' | 'number' | 'boolean' | 'json' | 'list' | 'file';
  /** A file part the document types as text (the CSV of `customers import-csv`): its content is sent as text, not bytes. */
  fileAsText?: boolean;
  /** Values the document allows, when it lists them (a closed set: another value is refused). */
  choices: string[] | undefined;
  /** The values known of an open set (`x-extensible-enum`): another value is sent as given, with a warning. */
  known: string[] | undefined;
  /** The unit of a number, when it has one (`minor units of the currency`). */
  unit: string | undefined;
  required: boolean;
  /** A JSON value's shape, for its help ({@link jsonShape}): its fields one level deep, a union's variants by discriminator. */
  shape?: string | undefined;
}

/** One operation as a command: what its name and arguments need (the table is built at every start, so it stays cheap). */
export interface CommandSpec {
  op: DocumentOperation;
  /** `['quotes', 'execute']`, `['auth', 'credentials', 'verify']`: the SDK's name of the operation ({@link nameWords}). */
  words: string[];
  /**
   * The command's earlier words, where they differ (`['exchange-rates', 'retrieve']` before `exchange-rates list`): still
   * accepted, with a deprecation note on stderr and in `--help`.
   */
  deprecatedWords?: string[] | undefined;
  /** The SDK's method of the operation (`exchangeRates.list`: `cb.exchangeRates.list()`), when the document names one. */
  sdkName?: string | undefined;
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

const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();

/**
 * Flags every API command may have for itself (./resources.ts): a field of the same name is given as
 * `--body-<name>` (`--query-<name>`) instead, so that `verifyExternalAccountOwnership`'s body `signature`
 * does not collide with the relayed wallet `--signature`.
 */
const RESERVED_FLAGS: ReadonlySet<string> = new Set([
  '--data',
  '--all',
  '--idempotency-key',
  '--session-key',
  '--signature',
  '--request-id',
  '--save-session',
  '--profile',
  '--base-url',
  '--environment',
  '--max-retries',
  '--timeout',
  '--json',
  '--help',
]);

/** The flag of a query or body field: `--<kebab-name>`, or `--<where>-<kebab-name>` when that is a command's own. */
function flagOf(where: 'query' | 'body', name: string): string {
  const flag = `--${kebab(name)}`;
  return RESERVED_FLAGS.has(flag) ? `--${where}-${kebab(name)}` : flag;
}

type Schemas = { z: typeof import('zod'); schemas: Record<string, unknown> };
let loaded: Promise<Schemas> | undefined;

/** The generated zod schemas (large: loaded only by the commands that need them). */
function loadSchemas(): Promise<Schemas> {
  return (loaded ??= Promise.all([import('zod'), import('../generated/zod.gen')]).then(([z, schemas]) => ({ z, schemas: schemas })));
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

/** A property found in a schema: its first schema, whether it is required, and its schema in every variant that has it. */
interface Found {
  schema: JsonSchema;
  required: boolean;
  alternatives: JsonSchema[];
}

/** Every property of a schema, across its variants (`oneOf` of customer types, account types…). */
function propertiesOf(schema: JsonSchema | undefined, into = new Map<string, Found>(), variant = false): Map<string, Found> {
  if (!schema) return into;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const found = into.get(name);
    if (!found) into.set(name, { schema: prop, required: !variant && (schema.required ?? []).includes(name), alternatives: [prop] });
    else found.alternatives.push(prop);
  }
  for (const part of schema.allOf ?? []) propertiesOf(part, into, variant);
  const variants = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  for (const part of variants) propertiesOf(part, into, true);
  // A field every variant requires (the discriminator: `customerType`) is required.
  if (variants.length > 1) {
    for (const [name, found] of into) {
      if (variants.every((v) => requires(v, name))) found.required = true;
    }
  }
  return into;
}

/** True when `schema` (or each of its parts) requires `name`. */
function requires(schema: JsonSchema, name: string): boolean {
  return (schema.required ?? []).includes(name) || (schema.allOf ?? []).some((part) => requires(part, name));
}

/** The values of a closed set: the schema's enum, or the values of a field that differs by variant (a discriminator). */
function closedChoices(found: Found): string[] | undefined {
  const each = found.alternatives.map((alt) => choicesOf(alt) ?? (alt.const !== undefined ? [String(alt.const)] : undefined));
  if (each.some((c) => c === undefined)) return undefined;
  return [...new Set(each.flat() as string[])];
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
 * The command's words from its path (what an operation the document names no method for is called, and the
 * earlier name of one it does): the static segments of its path, then the verb of its operationId
 * (`getQuote` → `retrieve`, as the SDK's methods name it). A last segment that is the verb
 * (`/quotes/{id}/execute`) is the verb; a sub-collection listed under another collection
 * (`/customers/internal-accounts`) is a noun of its own.
 */
export function wordsOf(op: DocumentOperation, collections: ReadonlySet<string>): string[] {
  const idWords = op.id
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .split(' ');
  let verb = idWords[0] === 'sandbox' ? idWords[1]! : idWords[0]!;
  const statics = op.path.split('/').filter((s) => s !== '' && !s.startsWith('{'));
  if (statics.at(-1) === verb) statics.pop();
  if (statics.length > 1 && collections.has(`/${statics[0]}`) && !op.path.startsWith(`/${statics[0]}/{`)) statics.shift();
  if (verb === 'get') verb = 'retrieve';
  return [...statics, verb];
}

/**
 * The command's words from the operation's one name (src/generated/names.ts, from the document's `x-sdk`): where the
 * client holds its method, then the method, each in kebab case (`platform.externalAccounts` `challenge` →
 * `platform external-accounts challenge`), as `cb.platform.externalAccounts.challenge()` names it. An operation the
 * document gives no name falls back to the words of its path ({@link wordsOf}).
 */
export function nameWords(op: DocumentOperation): string[] | undefined {
  const name = operationNames[op.id as OperationId];
  return name ? [...name[0].split('.'), name[1]].map(kebab) : undefined;
}

/**
 * The operations whose command was released under the words of their path before the CLI took the SDK's names:
 * they keep those words as a deprecated command. An operation added since has one name only.
 */
const RELEASED_UNDER_PATH_WORDS: ReadonlySet<string> = new Set([
  'getExchangeRates',
  'getEndUserTerms',
  'uploadCustomersCsv',
  'getBulkCustomerImportJob',
  'createCustomerKycLink',
  'createExternalAccountOwnershipChallenge',
  'createPlatformExternalAccountOwnershipChallenge',
  'estimateCryptoWithdrawalFee',
  'sendTestWebhook',
  'lookupUmaReceiver',
  'lookupExternalAccountReceiver',
  'sandboxReceiveUmaPayment',
  'sandboxFundInternalAccount',
]);

/** The table, built once. */
let table: CommandSpec[] | undefined;

/** Every operation of the document as a command, in the document's order. */
export function commandTable(): CommandSpec[] {
  if (table) return table;
  const all = Object.values(operations) as DocumentOperation[];
  const collections = new Set(all.map((op) => op.path));
  table = all.map((op) => {
    const fromPath = wordsOf(op, collections);
    const words = nameWords(op) ?? fromPath;
    const name = operationNames[op.id as OperationId];
    return {
      op,
      words,
      ...(name ? { sdkName: name.join('.') } : {}),
      ...(words.join(' ') === fromPath.join(' ') || !RELEASED_UNDER_PATH_WORDS.has(op.id) ? {} : { deprecatedWords: fromPath }),
      positionals: [...op.path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!),
    };
  });
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
  for (const [where, schema] of [
    ['query', query],
    ['body', body],
  ] as const) {
    for (const [name, prop] of propertiesOf(schema)) {
      if (flags.some((f) => f.name === name)) continue;
      const kind = where === 'body' && op.multipart?.[name] !== undefined ? 'file' : kindOf(prop.schema);
      const choices = closedChoices(prop);
      flags.push({
        flag: flagOf(where, name),
        name,
        in: where,
        kind,
        choices,
        known: kind === 'string' && !choices ? openSets().get(name) : undefined,
        unit: kind === 'number' && /amount/i.test(name) ? 'minor units of the currency: cents for USD, 1050 = 10.50' : undefined,
        required: prop.required,
        ...(kind === 'json' ? { shape: jsonShape(prop.schema) } : {}),
        ...(kind === 'file' && prop.schema.type === 'string' ? { fileAsText: true } : {}),
      });
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

/** The schema without a `null` alternative (`T | null` is written `anyOf: [T, { type: 'null' }]`). */
function nonNull(schema: JsonSchema): JsonSchema {
  const parts = schema.anyOf ?? schema.oneOf;
  if (parts) {
    const rest = parts.filter((p) => p.type !== 'null');
    if (rest.length === 1 && rest.length < parts.length) return nonNull(rest[0]!);
  }
  return schema;
}

/** A union's variants, nested unions flattened (an open union is the known variants or any other discriminator). */
function variantsOf(schema: JsonSchema): JsonSchema[] | undefined {
  const parts = schema.oneOf ?? schema.anyOf;
  if (!parts) return undefined;
  return parts.filter((p) => p.type !== 'null').flatMap((p) => variantsOf(p) ?? [p]);
}

/** A field's type in a shape, one level deep: `string`, `number`, `'ACCOUNT'`, `A|B`, `object`, `list of object`. */
function typeName(schema: JsonSchema): string {
  const s = nonNull(schema);
  if (s.const !== undefined) return `'${String(s.const)}'`;
  if (s.enum) return s.enum.length <= 6 ? s.enum.map(String).join('|') : 'string';
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'array') return `list of ${s.items ? typeName(s.items) : 'values'}`;
  if (type === 'integer') return 'number';
  if (type === 'object' || s.properties || s.allOf) return 'object';
  const variants = variantsOf(s);
  if (variants) {
    const names = [...new Set(variants.map(typeName))];
    return names.length === 1 ? names[0]! : names.join('|');
  }
  return typeof type === 'string' ? type : 'any';
}

/** An object's fields, `name*: type` when required: `{accountId*: string, currency: string}`. */
function fieldsShape(schema: JsonSchema, leave?: string): string {
  const fields = [...propertiesOf(schema)].filter(([name]) => name !== leave);
  return `{${fields.map(([name, found]) => `${name}${found.required ? '*' : ''}: ${typeName(found.schema)}`).join(', ')}}`;
}

/**
 * The shape of a JSON-valued flag, for its help, from the operation's schema: an object's fields one level deep
 * (`*` marks a required one), a list's items, a union's variants by their discriminator (the field whose value
 * names the variant: `ACCOUNT {…} | UMA_ADDRESS {…}`), an open union's other values with the fields they share.
 */
export function jsonShape(schema: JsonSchema): string | undefined {
  const s = nonNull(schema);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'array' && s.items) {
    const items = jsonShape(s.items);
    return `a list of ${items ?? typeName(s.items)}`;
  }
  const variants = variantsOf(s);
  if (variants && variants.length > 1) {
    const first = variants.find((v) => v.properties);
    const key = Object.keys(first?.properties ?? {}).find(
      (name) =>
        variants.every((v) => v.properties?.[name] !== undefined) &&
        variants.filter((v) => v.properties?.[name]?.const !== undefined).length >= variants.length - 1,
    );
    if (key) {
      const shown = variants.map((v) => {
        const value = v.properties![key]!.const;
        return `${value === undefined ? `other ${key} values` : String(value)} ${fieldsShape(v, key)}`;
      });
      return `one of, by ${key}: ${shown.join(' | ')}`;
    }
    return `one of: ${variants.map((v) => (v.properties ? fieldsShape(v) : typeName(v))).join(' | ')}`;
  }
  if (type === 'object' || s.properties || s.allOf) return propertiesOf(s).size ? fieldsShape(s) : 'an object';
  // A value or null (`null` clears it): a JSON flag only because null is a JSON value.
  if (s !== schema) return `one of: ${typeName(s)} | null`;
  return undefined;
}

/** A flag's line in `--help`: where it goes, whether it is required, its unit, its values and a JSON value's shape. */
export function flagDescription(flag: FlagSpec): string {
  return [
    `${flag.in === 'query' ? 'query' : 'body'} field ${flag.name}`,
    flag.kind === 'file' ? ': the path of the file to send' : '',
    flag.required ? ' (required)' : '',
    flag.unit ? `, in ${flag.unit}` : '',
    flag.choices ? `: one of ${flag.choices.join(', ')}` : '',
    flag.known ? `: known values ${flag.known.join(', ')} (others are sent as given)` : '',
    flag.shape ? `; JSON, ${flag.shape}${flag.shape.includes('*:') ? ' (* required)' : ''}` : '',
  ].join('');
}

/** A value given on the command line, read as the flag's kind says; an open set's unknown value is sent, with a warning (`warn`). */
export function readFlagValue(spec: FlagSpec, text: string, warn: (line: string) => void = (line) => process.stderr.write(line)): unknown {
  switch (spec.kind) {
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${spec.flag} needs a number${spec.unit ? ` (in ${spec.unit})` : ''}, got '${text}'`);
      return n;
    }
    case 'boolean':
      if (text === 'true' || text === '') return true;
      if (text === 'false') return false;
      throw new UsageError(`${spec.flag} needs true or false, got '${text}'`);
    case 'list':
      return text.trim().startsWith('[')
        ? parseJson(spec.flag, text)
        : text
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
    case 'json':
      return parseJson(spec.flag, text);
    default:
      if (spec.choices && !spec.choices.includes(text)) throw new UsageError(`${spec.flag} must be one of ${spec.choices.join(', ')}; got '${text}'`);
      if (spec.known && !spec.known.includes(text)) {
        warn(
          `crossborder-sdk: warning: ${spec.flag} '${text}' is not one of the values known to this version (${spec.known.join(', ')}); it is sent as given, and the service decides\n`,
        );
      }
      return text;
  }
}

/**
 * Refuses a call that leaves out a field the document requires, in the shell's words: the flags to
 * give (`--client-public-key is required`), not the body's path. The same fields the SDK's own
 * checks require; nothing stricter.
 */
export function refuseMissing(spec: CommandDetails, input: { query?: Record<string, unknown>; body?: unknown }): void {
  const body = input.body !== null && typeof input.body === 'object' && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : undefined;
  const missing = spec.flags.filter(
    (f) => f.required && (f.in === 'query' ? input.query?.[f.name] === undefined : body === undefined || body[f.name] === undefined),
  );
  if (missing.length > 0) {
    const names = missing.map((f) => f.flag);
    throw new UsageError(
      `${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} required (${missing.map((f) => `${f.in} field ${f.name}`).join(', ')}; or give the body with --data)`,
    );
  }
  if (spec.op.bodyRequired && body === undefined && input.body === undefined) {
    const flags = spec.flags.filter((f) => f.in === 'body').map((f) => f.flag);
    throw new UsageError(`a body is required: give ${flags.length ? `its fields (${flags.join(', ')}) or ` : ''}--data`);
  }
}

/**
 * The SDK's refusal of fields that were not given (`encryptedOtpBundle: expected string`, a field one
 * variant of the body requires) in the shell's words: `--encrypted-otp-bundle is required`. Any
 * other error, or a refusal of a value that was given, is answered unchanged.
 */
export function inShellWords(error: unknown, spec: CommandDetails, input: { query?: Record<string, unknown>; body?: unknown } | undefined): unknown {
  if (!(error instanceof ValidationError) || input === undefined || error.issues.length === 0) return error;
  const sourceOf = (path: string) => (spec.flags.find((f) => f.name === path.split('.')[0])?.in === 'query' ? input.query : input.body);
  const absent = (path: string) => {
    let current: unknown = sourceOf(path);
    for (const part of path.split('.')) {
      if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return true;
      current = (current as Record<string, unknown>)[part];
    }
    return current === undefined;
  };
  if (!error.issues.every((issue) => issue.path !== '' && issue.rule === 'invalid_type' && absent(issue.path))) return error;
  const names = [
    ...new Set(
      error.issues.map((issue) => {
        const [top, ...rest] = issue.path.split('.');
        const flag = spec.flags.find((f) => f.name === top);
        return rest.length === 0 && flag ? flag.flag : `${issue.path}${flag ? ` (in ${flag.flag})` : ''}`;
      }),
    ),
  ];
  return new UsageError(`${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} required`);
}

/**
 * The known values of the document's open sets (`x-extensible-enum`), by the name of the field that
 * holds one (`purposeOfPayment`, `type` of a credential): generated from the document (scripts/open-sets.ts);
 * a field whose name holds different open sets in different places, or is a plain string elsewhere, is left out.
 */
export function openSets(): Map<string, string[]> {
  return (open ??= new Map(Object.entries(OPEN_SETS).map(([name, values]) => [name, [...values]])));
}

let open: Map<string, string[]> | undefined;

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
  // An operation the document gives no body takes its other fields in its query (what the row says, not its method).
  if (!op.params.body) return { ...(names.length ? { path } : {}), ...(Object.keys(rest).length ? { query: rest } : {}) };
  const body = 'body' in rest ? rest.body : op.params.body && Object.keys(rest).length ? rest : undefined;
  const query = 'body' in rest ? Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'body')) : {};
  return { ...(names.length ? { path } : {}), ...(Object.keys(query).length ? { query } : {}), ...(body !== undefined ? { body } : {}) };
}
