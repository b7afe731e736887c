/**
 * The compiled checks (src/generated/checks/, built on src/core/checks.ts) against the zod schemas
 * they come from: for every operation's path, query and body, every documented 2xx body and the
 * webhook event, the same values give the same ValidationIssues (paths, rules, messages, order):
 * valid values, each way to break them, random replacements anywhere in them, and edge cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Check } from '../../src/core/checks';
import { issuesOf } from '../../src/core/validation';
import { toValidationIssues, type RawIssue } from '../../src/core/issues';
import * as events from '../../src/generated/checks/events';
import * as responses from '../../src/generated/checks/responses';
import { operations, type OperationId } from '../../src/generated/operations';
import { requestCheckLoaders } from '../../src/generated/request-checks';
import * as zod from '../../src/generated/zod.gen';
import { applyBreakage, arbitraryOf, breakages, jsonSchemaOf } from '../reliability/schema-arbitrary';

interface Zod {
  safeParse(v: unknown): { success: true } | { success: false; error: { issues: readonly RawIssue[] } };
}

const viaZod = (schema: Zod, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : toValidationIssues(result.error.issues);
};
const compiled = (check: Check, value: unknown) => toValidationIssues(issuesOf(check, value));
const named = (name: string) => (zod as Record<string, unknown>)[name] as Zod;

/** Every pair (zod schema, compiled check) the client uses. */
async function pairs(): Promise<{ label: string; zod: Zod; check: Check }[]> {
  const out: { label: string; zod: Zod; check: Check }[] = [];
  for (const id of Object.keys(operations) as OperationId[]) {
    const op = operations[id];
    const load = requestCheckLoaders[id];
    const module: Partial<Record<'path' | 'query' | 'body', Check>> = load ? await load() : {};
    for (const part of ['path', 'query', 'body'] as const) {
      const name = op.params[part];
      expect(module[part] === undefined, `${id} ${part}: compiled check present exactly when a schema is`).toBe(name === undefined);
      if (name) out.push({ label: `${id} ${part}`, zod: named(name), check: module[part]! });
    }
    const response = (responses as Record<string, Check | undefined>)[id];
    expect(response === undefined, `${id} response`).toBe(op.response === undefined);
    if (op.response && response) out.push({ label: `${id} response`, zod: named(op.response), check: response });
  }
  out.push({ label: 'webhook event', zod: named('zWebhookEvent'), check: events.WebhookEvent });
  return out;
}

/** Values that reach every rule: wrong types, bounds, code points around length limits, odd objects. */
const odd = fc.oneof(
  fc.constantFrom<unknown>(
    undefined,
    null,
    0,
    -0,
    1.5,
    -1,
    2 ** 53,
    -(2 ** 53),
    Number.MAX_SAFE_INTEGER,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    ' ',
    'x',
    '💸💸',
    '\ud800',
    'https://example.com',
    ' http://a.b ',
    'not a url',
    '2025-10-13',
    '2025-10-13T12:00:00Z',
    '2025-10-13T12:00:00.123Z',
    '2025-02-30',
    'US',
    'us',
    'USD',
    'INDIVIDUAL',
    'BUSINESS',
    'ACCOUNT',
    'UNKNOWN_KIND',
    true,
    false,
    [],
    [1],
    {},
    { a: 1 },
    new Date(0),
    Object.create(null),
    Object.create({ inherited: 'x' }),
  ),
  fc.anything({ maxDepth: 2 }),
);

/** A copy of `value` with the node at a random path replaced. */
function replaceSomewhere(value: unknown, choice: number, replacement: unknown): unknown {
  const paths: (string | number)[][] = [[]];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (Array.isArray(v)) v.forEach((x, i) => (paths.push([...path, i]), walk(x, [...path, i])));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) (paths.push([...path, k]), walk(x, [...path, k]));
  };
  walk(value, []);
  const path = paths[choice % paths.length]!;
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = replacement;
  return copy;
}

describe('compiled checks report what zod reports', async () => {
  const all = await pairs();

  it('covers every operation part, every documented answer and the webhook event', () => {
    expect(all.length).toBeGreaterThan(60);
  });

  it.each(all.map((p) => [p.label, p] as const))('%s', (_label, { zod: schema, check }) => {
    const json = jsonSchemaOf(schema);
    const valid = arbitraryOf(json);
    // Valid values, and every single breakage of them.
    fc.assert(
      fc.property(valid, (value) => {
        expect(compiled(check, value)).toEqual(viaZod(schema, value));
        for (const b of breakages(json, value).slice(0, 40)) {
          const broken = applyBreakage(value, b);
          expect(compiled(check, broken), `${b.kind} at ${b.path.join('.')}`).toEqual(viaZod(schema, broken));
        }
      }),
      { numRuns: 25 },
    );
    // Any value anywhere.
    fc.assert(
      fc.property(valid, fc.nat(), odd, (value, choice, replacement) => {
        const mutated = replaceSomewhere(value, choice, replacement);
        expect(compiled(check, mutated)).toEqual(viaZod(schema, mutated));
      }),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(odd, (value) => {
        expect(compiled(check, value)).toEqual(viaZod(schema, value));
      }),
      { numRuns: 30 },
    );
  });
});

describe('each block against its zod counterpart', async () => {
  const c = await import('../../src/core/checks');
  const cases: [string, Zod, Check][] = [
    [
      'string with a pattern and lengths',
      z.string().check(z.regex(/^[a-z]+$/), z.minLength(2), z.maxLength(3)),
      c.str(c.matches(/^[a-z]+$/), c.minLength(2), c.maxLength(3)),
    ],
    ['array with lengths', z.array(z.int()).check(z.minLength(1), z.maxLength(2)), c.array(c.num(c.int), c.minLength(1), c.maxLength(2))],
    ['bounded int', z.int().check(z.gte(1), z.lte(100)), c.num(c.int, c.gte(1), c.lte(100))],
    ['exclusive number', z.number().check(z.gt(0), z.lt(1)), c.num(c.gt(0), c.lt(1))],
    ['url', z.url(), c.str(c.url)],
    [
      'nullable optional',
      z.object({ a: z.nullish(z.string()), b: z.nullable(z.string()), d: z._default(z.optional(z.boolean()), false) }),
      c.object({ a: c.optional(c.nullable(c.string)), b: c.nullable(c.string), d: c.defaulted(c.optional(c.boolean)) }),
    ],
    ['record', z.record(z.string(), z.int()), c.record(c.num(c.int))],
    [
      'unknown, never, void',
      z.object({ u: z.unknown(), n: z.optional(z.never()), v: z.void() }),
      c.object({ u: c.unknown, n: c.optional(c.never), v: c.nothing }),
    ],
    ['union with a void option', z.union([z.object({ a: z.string() }), z.void()]), c.union([c.object({ a: c.string }), c.nothing])],
    ['union whose one option only fails a pattern', z.union([z.string().check(z.regex(/^a$/)), z.number()]), c.union([c.str(c.matches(/^a$/)), c.number])],
    ['intersection', z.intersection(z.object({ a: z.int() }), z.object({ b: z.string() })), c.both(c.object({ a: c.num(c.int) }), c.object({ b: c.string }))],
  ];
  it.each(cases)('%s', (_label, schema, check) => {
    fc.assert(
      fc.property(odd, (value) => {
        expect(compiled(check, value)).toEqual(viaZod(schema, value));
      }),
      { numRuns: 300 },
    );
    for (const value of [
      'ab',
      'abcd',
      'a💸',
      '💸💸💸💸',
      [1],
      [1, 2, 3],
      [1.5],
      0,
      1,
      101,
      0.5,
      { a: '1' },
      { a: 1, b: 'x' },
      { a: null, b: null },
      { u: 1 },
      { u: 1, n: 1 },
      { [Symbol('s')]: 1 },
    ]) {
      expect(compiled(check, value), JSON.stringify(value)).toEqual(viaZod(schema, value));
    }
  });
});
