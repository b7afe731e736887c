/**
 * fast-check arbitraries from the document's schemas (as JSON Schema, via zod's `toJSONSchema` of
 * the generated zod schemas), and the ways to break a valid value: wrong types, out-of-range
 * numbers, ids with a bad prefix, missing required fields, unknown enum values.
 */
import fc from 'fast-check';
import * as z from 'zod';

export type JsonSchema = Record<string, any>;

/** The JSON Schema (input side) of a generated zod schema. */
export function jsonSchemaOf(schema: unknown): JsonSchema {
  return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const regexCache = new Map<string, RegExp>();
const regex = (pattern: string) => {
  let r = regexCache.get(pattern);
  if (!r) regexCache.set(pattern, (r = new RegExp(pattern)));
  return r;
};

/** A small JSON Schema check, enough to tell which `anyOf` branch a value belongs to. */
export function matches(s: JsonSchema, v: unknown): boolean {
  if (s.anyOf) return (s.anyOf as JsonSchema[]).some((b) => matches(b, v));
  if (s.oneOf) return (s.oneOf as JsonSchema[]).some((b) => matches(b, v));
  if (s.allOf) return (s.allOf as JsonSchema[]).every((b) => matches(b, v));
  if ('const' in s && v !== s.const) return false;
  if (s.enum && !(s.enum as unknown[]).includes(v)) return false;
  const types: string[] = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  if (types.length && !types.some((t) => typeOk(t, v))) return false;
  if (typeof v === 'string') {
    if (s.pattern && !regex(s.pattern).test(v)) return false;
    if (s.minLength !== undefined && v.length < s.minLength) return false;
    if (s.maxLength !== undefined && v.length > s.maxLength) return false;
  }
  if (typeof v === 'number') {
    if (s.minimum !== undefined && v < s.minimum) return false;
    if (s.maximum !== undefined && v > s.maximum) return false;
  }
  if (Array.isArray(v) && s.items) return v.every((x) => matches(s.items, x));
  if (isObject(v)) {
    for (const k of (s.required as string[] | undefined) ?? []) if (!(k in v)) return false;
    for (const [k, x] of Object.entries(v)) {
      const p = s.properties?.[k];
      if (p) {
        if (!matches(p, x)) return false;
      } else if (isObject(s.additionalProperties) && !matches(s.additionalProperties, x)) return false;
    }
  }
  return true;
}

function typeOk(t: string, v: unknown): boolean {
  switch (t) {
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    default:
      return true;
  }
}

/** The concrete schema a value is checked against: its `anyOf` branch, `allOf` members merged. */
export function resolve(s: JsonSchema, v: unknown): { schema: JsonSchema; union: boolean } {
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const branch = branches.find((b) => matches(b, v)) ?? branches[0]!;
    return { schema: resolve(branch, v).schema, union: true };
  }
  if (s.allOf) {
    const parts = (s.allOf as JsonSchema[]).map((p) => resolve(p, v));
    const objects = parts.filter((p) => p.schema.type === 'object' || p.schema.properties);
    if (objects.length === 0) return { schema: parts[0]!.schema, union: parts.some((p) => p.union) };
    return {
      schema: {
        type: 'object',
        properties: Object.assign({}, ...objects.map((p) => p.schema.properties ?? {})),
        required: [...new Set(objects.flatMap((p) => (p.schema.required as string[] | undefined) ?? []))],
      },
      union: parts.some((p) => p.union),
    };
  }
  return { schema: s, union: false };
}

/** No lone surrogate (with the `u` flag a surrogate pair is one code point, so only lone halves match). */
export const wellFormed = (s: string) => !/[\ud800-\udfff]/u.test(s);

/** Well-formed Unicode text (lone surrogates are covered by their own test). */
const text = (maxLength = 16) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'café 💸', '<script>', '../..', 'a/b?c#d', '%2F', '&x=1', 'null', '0') },
  );

const DATE_MIN = new Date('1900-01-01T00:00:00Z');
const DATE_MAX = new Date('2100-12-31T23:59:59Z');
const date = () => fc.date({ min: DATE_MIN, max: DATE_MAX, noInvalidDate: true });
const email = () =>
  fc
    .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,10}[a-z0-9]$/), fc.stringMatching(/^[a-z0-9]{1,10}$/), fc.constantFrom('com', 'example', 'io', 'co.uk'))
    .map(([local, domain, tld]) => `${local.replace(/\.\.+/g, '.')}@${domain}.${tld}`);

const url = () =>
  fc
    .tuple(
      fc.constantFrom('https', 'http'),
      fc.array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/), { minLength: 1, maxLength: 3 }),
      fc.constantFrom('com', 'example', 'io'),
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{0,8}$/), { maxLength: 3 }),
      fc.option(fc.stringMatching(/^[a-z]{1,5}=[A-Za-z0-9%]{0,6}$/), { nil: undefined }),
    )
    .map(
      ([scheme, labels, tld, port, path, query]) =>
        `${scheme}://${labels.join('.')}.${tld}${port ? `:${port}` : ''}/${path.join('/')}${query ? `?${query}` : ''}`,
    );

function integer(s: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(s.minimum ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
  const max = Math.min(s.maximum ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const small = fc.integer({ min: Math.max(min, -1_000_000), max: Math.min(max, 1_000_000) });
  return fc.oneof(
    { weight: 3, arbitrary: small },
    { weight: 1, arbitrary: fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  );
}

const shared = new Map<string, fc.Arbitrary<string>>();
/** Arbitraries are immutable: one per format or pattern is enough (building them is the slow part). */
const once = (key: string, make: () => fc.Arbitrary<string>) => {
  let arb = shared.get(key);
  if (!arb) shared.set(key, (arb = make()));
  return arb;
};

function stringOf(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'date') return once('date', () => date().map((d) => d.toISOString().slice(0, 10)));
  if (s.format === 'date-time') return once('date-time', () => date().map((d) => d.toISOString()));
  if (s.format === 'email') return once('email', email);
  // fc.webUrl() takes seconds to build; this covers what the document's URLs (webhook endpoints, websites) look like.
  if (s.format === 'uri') return once('uri', url);
  if (s.pattern) return once(`pattern:${s.pattern}`, () => fc.stringMatching(regex(s.pattern)).filter(wellFormed));
  if (s.minLength !== undefined || s.maxLength !== undefined) return fc.string({ minLength: s.minLength, maxLength: s.maxLength ?? (s.minLength ?? 0) + 16 });
  return once('text', () => text());
}

/** Values the schema accepts (the caller filters with the zod schema itself to be sure). */
export function arbitraryOf(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => arbitraryOf(b, depth)));
  if (s.allOf) {
    return fc.tuple(...(s.allOf as JsonSchema[]).map((p) => arbitraryOf(p, depth))).map((parts) => Object.assign({}, ...parts.filter(isObject)));
  }
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.type)) return fc.oneof(...(s.type as string[]).map((t) => arbitraryOf({ ...s, type: t }, depth)));
  switch (s.type) {
    case 'object': {
      if (s.properties) {
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, p] of Object.entries<JsonSchema>(s.properties)) model[k] = arbitraryOf(p, depth + 1);
        return fc.record(model, { requiredKeys: (s.required as string[] | undefined) ?? [] });
      }
      const values = isObject(s.additionalProperties) ? arbitraryOf(s.additionalProperties, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values, { maxKeys: 3 });
    }
    case 'array':
      return fc.array(s.items ? arbitraryOf(s.items, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)),
      });
    case 'string':
      return stringOf(s);
    case 'integer':
      return integer(s);
    case 'number':
      return fc.double({ min: s.minimum ?? -1e12, max: s.maximum ?? 1e12, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A way to make a valid value invalid at one place. */
export interface Breakage {
  /** Property path of the broken field (`source.accountId`). */
  path: string[];
  kind: 'wrong-type' | 'out-of-range' | 'not-an-integer' | 'bad-id-prefix' | 'bad-format' | 'unknown-enum' | 'missing-required';
  /** True when the field sits under an `anyOf`: the broken value might fit another branch. */
  union: boolean;
  /** The broken value, or `undefined` with `kind: 'missing-required'` (the key is removed). */
  value: unknown;
}

const WRONG_TYPES: Record<string, unknown[]> = {
  string: [42, true, null, { a: 1 }, ['x']],
  integer: ['12', true, null, {}, [1]],
  number: ['1.5', false, null, {}],
  boolean: ['true', 1, 0, null, 'yes'],
  object: ['{}', 7, true, [], null],
  array: ['[]', 3, {}, null],
};

/** Every breakage of `v` (valid for `s`) under `path`. The root itself is never broken: a field is always named. */
export function breakages(s: JsonSchema, v: unknown, path: string[] = [], underUnion = false): Breakage[] {
  const { schema, union: u } = resolve(s, v);
  const union = underUnion || u;
  const out: Breakage[] = [];
  const type = Array.isArray(schema.type) ? undefined : (schema.type as string | undefined);
  const at = (kind: Breakage['kind'], value: unknown): Breakage => ({ path, kind, union, value });
  if (path.length > 0) {
    if ('const' in schema && typeof schema.const === 'string') out.push(at('unknown-enum', `${schema.const}_NOT_A_KIND`));
    if (schema.enum) out.push(at('unknown-enum', typeof v === 'string' ? `${v}_UNKNOWN` : 'UNKNOWN_VALUE'));
    if (type && WRONG_TYPES[type]) for (const w of WRONG_TYPES[type]) out.push(at('wrong-type', w));
    if (type === 'integer' || type === 'number') {
      if (schema.minimum !== undefined) out.push(at('out-of-range', schema.minimum - 1), at('out-of-range', schema.minimum - 1_000_000));
      if (schema.maximum !== undefined) out.push(at('out-of-range', schema.maximum + 1), at('out-of-range', schema.maximum * 10));
      // Past 2^52 a double has no halves: break a small value instead.
      if (type === 'integer')
        out.push(
          at('not-an-integer', (Math.abs(v as number) < 2 ** 51 ? (v as number) : 1) + 0.5),
          at('not-an-integer', Number.NaN),
          at('not-an-integer', Number.POSITIVE_INFINITY),
        );
    }
    if (type === 'string' && schema.pattern) {
      const m = /^\^\(?([A-Za-z|]+)\)?:\.\+\$$/.exec(schema.pattern);
      if (m) {
        const rest = String(v).slice(String(v).indexOf(':') + 1) || 'x';
        out.push(at('bad-id-prefix', `Bogus:${rest}`), at('bad-id-prefix', rest), at('bad-id-prefix', `${m[1]!.split('|')[0]!.toLowerCase()}:${rest}`));
      } else if (schema.format === 'date' || schema.format === 'date-time') {
        out.push(at('bad-format', '2025-13-45'), at('bad-format', 'yesterday'), at('bad-format', schema.format === 'date' ? '2025-02-30' : '2025-01-01 10:00'));
      } else if (schema.format === 'email') {
        out.push(at('bad-format', 'not-an-email'), at('bad-format', 'a@b'));
      } else {
        out.push(at('bad-format', ' '), at('bad-format', '!!'));
      }
    }
  }
  if (type === 'object' && isObject(v)) {
    for (const k of (schema.required as string[] | undefined) ?? [])
      if (k in v) out.push({ path: [...path, k], kind: 'missing-required', union, value: undefined });
    for (const [k, x] of Object.entries(v)) {
      const p = schema.properties?.[k] ?? (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
      if (p && x !== undefined) out.push(...breakages(p, x, [...path, k], union));
    }
  }
  if (type === 'array' && Array.isArray(v) && schema.items) v.forEach((x, i) => out.push(...breakages(schema.items, x, [...path, String(i)], union)));
  return out;
}

/** A copy of `v` with the breakage applied. */
export function applyBreakage(v: unknown, b: Breakage): unknown {
  if (b.path.length === 0) return b.value;
  const copy = structuredClone(v) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const k of b.path.slice(0, -1)) node = node[k] as Record<string, unknown>;
  const last = b.path[b.path.length - 1]!;
  if (b.kind === 'missing-required') delete node[last];
  else node[last] = b.value;
  return copy;
}
