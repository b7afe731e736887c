/**
 * Request validation with the schemas generated from openapi/openapi.yaml (the same ones the SDK
 * checks parameters with), turned into the 400 error body: INVALID_INPUT naming each field, or
 * AMOUNT_OUT_OF_RANGE when only an amount limit was broken.
 * @module
 */
import type { RawIssue, Schema } from '../../core/validation';
import { SandboxError } from './errors';

/** Body fields whose range violations answer AMOUNT_OUT_OF_RANGE rather than INVALID_INPUT. */
const AMOUNT_FIELDS = new Set(['amount', 'lockedCurrencyAmount', 'receivingCurrencyAmount', 'amountToSend', 'minAmount', 'maxAmount']);

/** Where a value came from, for the error details. */
export type Location = 'path' | 'query' | 'body';

type Issue = RawIssue & { received?: unknown };

/** One problem, as the error details list it. */
export interface FieldIssue {
  location: Location;
  /** Dotted path of the field (`address.country`); empty for the whole value. */
  field: string;
  rule: string;
  message: string;
}

/**
 * The union schemas (`oneOf` by a discriminator) report one `invalid_union` for the whole object.
 * Descend into the branch the discriminator picked so the details name the real field; when no
 * branch matches, report the discriminator itself.
 */
function flatten(issues: readonly Issue[], prefix: PropertyKey[] = []): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const branches = issue.code === 'invalid_union' ? (issue.errors ?? []) : [];
    const isDiscriminatorMiss = (i: Issue) => i.code === 'invalid_value' && i.path.length === 1;
    const picked = branches.filter((branch) => !branch.some(isDiscriminatorMiss));
    if (picked.length === 1) {
      out.push(...flatten(picked[0]!, path));
      continue;
    }
    if (branches.length > 0 && picked.length === 0) {
      const misses = branches.map((branch) => branch.find(isDiscriminatorMiss)!);
      const key = misses[0]!.path[0]!;
      if (misses.every((m) => m.path[0] === key)) {
        out.push({ code: 'invalid_value', path: [...path, key], values: misses.flatMap((m) => [...(m.values ?? [])]), message: '' });
        continue;
      }
    }
    out.push({ ...issue, path });
  }
  return out;
}

/** A short message naming the rule (zod/mini ships no messages). */
function describe(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.received === 'Infinity' ? 'is too large a number' : issue.received === 'undefined' ? 'is required' : `must be ${String(issue.expected)}`;
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be at least ${String(issue.minimum)}`;
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern ? `must match ${issue.pattern}` : `must be a valid ${issue.format ?? 'value'}`;
    case 'invalid_value':
      return `must be ${(issue.values ?? []).length > 1 ? 'one of ' : ''}${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown fields ${(issue.keys ?? []).join(', ')}`;
    case 'invalid_union':
      return 'does not match any accepted shape';
    default:
      return issue.code.replace(/_/g, ' ');
  }
}

/**
 * Parses `value` with `schema`; returns the parsed data (defaults applied, unknown keys dropped) or
 * throws the 400 answer.
 */
export function validate(location: Location, schema: Schema | undefined, value: unknown): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) {
    if (location === 'body') checkAmounts(result.data);
    return result.data;
  }
  const raw = rawIssues(result.error.issues, value);
  const issues: FieldIssue[] = raw.map((i) => ({ location, field: i.path.map(String).join('.'), rule: i.code, message: describe(i) }));
  // Out of range includes past the safe-integer range (origin `int`) and JSON numbers too big to be finite.
  const outOfRange = (i: Issue) =>
    ((i.code === 'too_big' || i.code === 'too_small') && (i.origin === 'number' || i.origin === 'int')) ||
    (i.code === 'invalid_type' && i.received === 'Infinity');
  const amountOnly = raw.every((i) => outOfRange(i) && AMOUNT_FIELDS.has(String(i.path[i.path.length - 1])));
  refuseFields(location, issues, {}, amountOnly ? 'AMOUNT_OUT_OF_RANGE' : 'INVALID_INPUT');
}

/**
 * Throws the 400 that refuses `issues` (at least one), in both forms: the spec's `details.field` and
 * `details.issues`, and production's Error400 `details.errors[]` (`field`, `message`, one per field), which
 * the client reads as `BadRequestError.issues`. `extra` adds details.
 */
export function refuseFields(location: Location, issues: readonly FieldIssue[], extra: Record<string, unknown> = {}, code = 'INVALID_INPUT'): never {
  const summary = issues.map((i) => `${i.field || location} ${i.message}`).join('; ');
  throw new SandboxError(400, code, `Invalid ${location === 'body' ? 'request body' : `${location} parameter`}: ${summary}.`, {
    field: issues[0]?.field || location,
    issues,
    errors: issues.map((i) => ({ field: i.field || location, message: i.message })),
    ...extra,
  });
}

/**
 * The service's own rule, not the document's (the SDK leaves it to the service): money moves in
 * positive amounts, and a currency's limits are not negative.
 */
function checkAmounts(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  const problems: FieldIssue[] = [];
  const visit = (value: unknown, path: string[]) => {
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, String(i)]));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
    else if (typeof value === 'number' && AMOUNT_FIELDS.has(path[path.length - 1]!)) {
      const floor = LIMIT_FIELDS.has(path[path.length - 1]!) ? 0 : 1;
      if (value < floor) problems.push({ location: 'body', field: path.join('.'), rule: 'too_small', message: `must be at least ${floor}` });
    }
  };
  visit(body, []);
  if (problems.length) {
    throw new SandboxError(400, 'AMOUNT_OUT_OF_RANGE', `Invalid request body: ${problems.map((i) => `${i.field} ${i.message}`).join('; ')}.`, {
      field: problems[0]!.field,
      issues: problems,
    });
  }
}

/** Amount fields that are limits (0 allowed), not sums of money that move. */
const LIMIT_FIELDS = new Set(['minAmount', 'maxAmount']);

function rawIssues(issues: readonly Issue[], value: unknown): Issue[] {
  const raw = flatten(issues);
  // zod reports a missing field as invalid_type; say "is required" for it.
  for (const i of raw) if (i.code === 'invalid_type' && i.received === undefined && fieldMissing(value, i.path)) i.received = 'undefined';
  return raw;
}

/** What is wrong with `value` by `schema`, one `field message` per problem (empty when valid). */
export function problems(schema: Schema, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return rawIssues(result.error.issues as readonly Issue[], value).map((i) => `${i.path.map(String).join('.') || 'the value'} ${describe(i)}`);
}

function fieldMissing(value: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return false;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current === undefined;
}

interface ZodDef {
  type?: string;
  innerType?: { _zod?: { def?: ZodDef } };
  in?: { _zod?: { def?: ZodDef } };
  shape?: Record<string, { _zod?: { def?: ZodDef } }>;
}

/** The base kind of a (zod 4 / zod mini) schema under optional/default/nullable wrappers. */
function kindOf(def: ZodDef | undefined): string | undefined {
  for (let i = 0; def && i < 10; i++) {
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault' || def.type === 'readonly') {
      def = def.innerType?._zod?.def;
    } else if (def.type === 'pipe') {
      def = def.in?._zod?.def;
    } else {
      return def.type;
    }
  }
  return undefined;
}

/**
 * Query strings carry text only; types the query schema expects (integers, booleans, arrays) are
 * coerced first by looking at the schema, so `limit=abc` still fails as "must be number".
 */
export function coerceQuery(schema: Schema | undefined, search: URLSearchParams): Record<string, unknown> {
  const shape = (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def?.shape;
  const out: Record<string, unknown> = {};
  // A filter the operation does not have is refused, naming it: a misspelled filter would otherwise
  // be ignored silently and answer unrelated rows.
  const unknown = [...new Set(search.keys())].filter((key) => !shape || !Object.prototype.hasOwnProperty.call(shape, key));
  if (unknown.length > 0) {
    const known = shape ? Object.keys(shape).sort() : [];
    throw new SandboxError(
      400,
      'INVALID_INPUT',
      `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}${known.length ? ` (this operation takes ${known.join(', ')})` : ' (this operation takes none)'}.`,
      {
        field: unknown[0],
        issues: unknown.map((field) => ({ location: 'query', field, rule: 'unrecognized_keys', message: 'is not a parameter of this operation' })),
      },
    );
  }
  for (const key of new Set(search.keys())) {
    const kind = kindOf(shape?.[key]?._zod?.def);
    const values = search.getAll(key);
    const value = values[values.length - 1]!;
    if (kind === 'array') out[key] = values;
    else if (kind === 'number' || kind === 'int') out[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    else if (kind === 'boolean') out[key] = value === 'true' ? true : value === 'false' ? false : value;
    else out[key] = value;
  }
  return out;
}
