/**
 * The SDK's own query and path serializers (src/core/serialize.ts) against openapi-fetch 0.17's defaults,
 * which they replace in the bundle (issue 36): the same string, or the same error, for every input.
 */
import { createQuerySerializer, defaultPathSerializer } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { serializePath, serializeQuery } from '../../src/core/serialize';

const theirs = createQuerySerializer();

/** What a serializer gives: its string, or its error's class and message. */
function outcome(run: () => string): { text: string } | { error: string; message: string } {
  try {
    return { text: run() };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

const sparse: unknown[] = ['a'];
sparse[2] = 'c';
const inherited = Object.assign(Object.create({ inheritedKey: 'from proto' }) as Record<string, unknown>, { own: 'x y' });

/** Values of every kind a caller can put in a query or a path. */
const VALUES: unknown[] = [
  'plain',
  'a b&c=d/é?#%',
  '',
  '$&$1$$',
  0,
  -1.5,
  Number.NaN,
  true,
  false,
  10n,
  null,
  undefined,
  [],
  ['a', 'b c'],
  [1, null, undefined, 'x'],
  sparse,
  [sparse],
  [['nested']],
  [{ a: 1 }],
  { a: 1, 'b c': 'd&e' },
  { a: null, b: undefined, c: '' },
  { a: { deep: 1 } },
  { a: [1, 2] },
  {},
  inherited,
  () => 'fn',
  Symbol('s'),
  new Date(0),
  { 2: 'b', 1: 'a', z: 'last' },
];

describe('serializeQuery is openapi-fetch createQuerySerializer()', () => {
  it.each(VALUES.map((value, i) => [i, value] as const))('value #%i alone, and beside others', (_i, value) => {
    for (const query of [{ q: value }, { first: 'a', q: value, last: [1, 2] }, { 'we ird[]': value }]) {
      expect(outcome(() => serializeQuery(query))).toEqual(outcome(() => theirs(query)));
    }
  });

  it('gives byte-exact strings for the common forms', () => {
    expect(serializeQuery({ limit: 20, cursor: 'c/1 2', status: ['A', 'B'], filter: { from: 'x&y' }, none: null, empty: [] })).toBe(
      'limit=20&cursor=c%2F1%202&status=A&status=B&filter[from]=x%26y',
    );
    expect(serializeQuery({})).toBe('');
  });

  it('refuses a nested value with openapi-fetch message', () => {
    expect(() => serializeQuery({ a: [[1]] })).toThrow('Deeply-nested arrays/objects aren’t supported. Provide your own `querySerializer()` to handle these.');
    expect(() => serializeQuery({ a: { b: { c: 1 } } })).toThrow(/^Deeply-nested/);
  });

  it('takes what is not an object as no query', () => {
    for (const query of [null, undefined, 'a=1', 5]) expect(serializeQuery(query as never)).toBe(theirs(query as never));
  });
});

describe('serializePath is openapi-fetch defaultPathSerializer', () => {
  const TEMPLATES = [
    'https://h/v/items/{id}',
    '/a/{id}/b/{id}',
    '/x/{.id}',
    '/x/{;id}',
    '/x/{id*}',
    '/x/{.id*}',
    '/x/{;id*}',
    '/x{id}{.id}{;id}{id*}{.id*}{;id*}/end',
    '/x/{other}/{id}',
    '/x/{*}/{.}/{;}',
    '/x/{}',
    '/none',
  ];
  it.each(TEMPLATES)('%s, every value', (template) => {
    for (const value of VALUES) {
      for (const params of [{ id: value }, { id: value, other: 'o/p', '': 'empty name' }, undefined, {}]) {
        expect(outcome(() => serializePath(template, params as never))).toEqual(outcome(() => defaultPathSerializer(template, params as never)));
      }
    }
  });

  it('gives byte-exact strings for each style', () => {
    const params = { id: ['a b', 'c'], obj: { k: 'v w', n: 1 } };
    expect(serializePath('/{id}/{.id}/{;id}/{id*}/{.id*}/{;id*}', params)).toBe('/a%20b,c/.a%20b,c/;id=a%20b,c/a%20b,c/.a%20b.c/;id=a%20b;id=c');
    expect(serializePath('/{obj}/{.obj}/{;obj}/{obj*}/{.obj*}/{;obj*}', params)).toBe('/k,v%20w,n,1/.k,v%20w,n,1/;obj=k,v%20w,n,1/k=v%20w,n=1/.k=v%20w.n=1/;k=v%20w;n=1');
    expect(serializePath('/{id}', { id: '$&' })).toBe('/%24%26');
    expect(serializePath('/{id}/{missing}', { id: 'x' })).toBe('/x/{missing}');
  });
});
