/**
 * OperationPlan on its own: the URL a template gives (the compiled path serializer and openapi-fetch's
 * for the other styles), and the parameter checks (inline schemas, named ones, a required body, the
 * loader of compiled checks, synchronous when they pass). Written against the survivors of the mutation
 * run (issue 22).
 */
import { createQuerySerializer, defaultPathSerializer } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { OperationPlan, type Operation } from '../../src/core/plan';
import type { OperationChecks } from '../../src/core/validation';
import { requestChecks, responseChecks, type RequestChecks } from '../../src/core/parts';
import { op } from '../helpers/client';
import { responseExample } from '../helpers/document';

const BASE = 'https://b.test/2025-10-13';
const plan = (partial: Partial<Operation> & Pick<Operation, 'method' | 'path'>, serializer = createQuerySerializer(), checks: RequestChecks = requestChecks) =>
  new OperationPlan(op(partial), BASE, serializer, checks);

describe('plan.url', () => {
  it('fills every {name} of a template, encoded; a null or missing value keeps its placeholder', () => {
    const p = plan({ method: 'GET', path: '/a/{x}/b/{y}/c' });
    expect(p.url({ x: 'p q', y: 'Quote:1/2' }, undefined)).toBe(`${BASE}/a/p%20q/b/Quote%3A1%2F2/c`);
    expect(p.url({ x: 'p', y: null as never }, undefined)).toBe(`${BASE}/a/p/b/{y}/c`);
    expect(p.url({ y: 'q' }, undefined)).toBe(`${BASE}/a/{x}/b/q/c`);
    expect(plan({ method: 'GET', path: '/plain' }).url({ x: 'unused' }, undefined)).toBe(`${BASE}/plain`);
    // Names of any length, each filled.
    expect(plan({ method: 'GET', path: '/a/{x}/b/{long_name-2}' }).url({ x: '1', 'long_name-2': '2' }, undefined)).toBe(`${BASE}/a/1/b/2`);
  });

  it("a label, matrix or exploded parameter is filled by openapi-fetch's serializer of that style", () => {
    expect(plan({ method: 'GET', path: '/x/{ids*}' }).url({ ids: ['a', 'b'] } as never, undefined)).toBe(`${BASE}/x/a,b`);
    expect(plan({ method: 'GET', path: '/x/{a*}' }).url({ a: ['a', 'b'] } as never, undefined)).toBe(`${BASE}/x/a,b`);
    expect(plan({ method: 'GET', path: '/x/{.ids}' }).url({ ids: ['a', 'b'] } as never, undefined)).toBe(`${BASE}/x/.a,b`);
    expect(plan({ method: 'GET', path: '/x/{id}/{.ids*}' }).url({ id: 'q r', ids: ['a', 'b'] } as never, undefined)).toBe(`${BASE}/x/q%20r/.a.b`);
  });

  it("every template and value is filled as openapi-fetch's defaultPathSerializer fills it", () => {
    const templates = [
      '/a/{x}',
      '/a/{x}/b/{x}',
      '/a/{.x}',
      '/a/{;x}',
      '/a/{x*}',
      '/a/{.x*}',
      '/a/{;x*}',
      '/a/{x**}',
      '/a/{.;x}',
      '/a/{.}/{;}/{*}',
      '/a/{}/{x}',
      '/a/{x y}/{long_name-2}',
      '/a/{x}{y}.json',
      '/plain',
    ];
    const values: Record<string, unknown>[] = [
      { x: 'p q', y: 'Quote:1/2', 'x y': 'a&b', 'long_name-2': 'é' },
      { x: '$&$1', y: 7 },
      { x: ['a', 'b c'], y: { k: 'v w', l: '1' } },
      { x: { k: 'v', m: 'n' } },
      { y: 'only y' },
      { x: null, y: undefined },
      { '': 'empty', ';x': 'named with a semicolon', 'x*': 'starred' },
    ];
    for (const path of templates) {
      const p = plan({ method: 'GET', path });
      for (const given of values)
        expect(p.url(given as never, undefined), `${path} ${JSON.stringify(given)}`).toBe(defaultPathSerializer(`${BASE}${path}`, given));
    }
  });

  it('the query: one "?" whatever the serializer returns, none for an empty query', () => {
    const withMark = plan({ method: 'GET', path: '/x' }, (q) => `?${new URLSearchParams(q as Record<string, string>)}`);
    expect(withMark.url(undefined, { a: '1', b: '2' })).toBe(`${BASE}/x?a=1&b=2`);
    expect(withMark.url(undefined, {})).toBe(`${BASE}/x`);
    const p = plan({ method: 'GET', path: '/x' });
    expect(p.url(undefined, { limit: 2, tags: ['a', 'b'], none: undefined })).toBe(`${BASE}/x?limit=2&tags=a&tags=b`);
    expect(p.url(undefined, { none: undefined })).toBe(`${BASE}/x`);
  });
});

describe('plan.outcomeUnknownAfter, at the edges of 2xx', () => {
  it('a write answered 199 or 300 did not act; 200 and 299 did', () => {
    const p = plan({ method: 'POST', path: '/w' });
    expect([199, 200, 299, 300].map((s) => p.outcomeUnknownAfter(s))).toEqual([false, true, true, false]);
  });
});

describe('plan.paramIssues', () => {
  it('inline schemas check only what is given; a missing required body is its own issue', async () => {
    const p = plan({
      method: 'POST',
      path: '/t/{id}',
      params: { path: z.object({ id: z.string() }), query: z.object({ n: z.number() }), body: z.object({ a: z.number() }) },
    });
    // Nothing given: the path schema sees {} (its field is then missing), the query and body schemas nothing.
    expect(await p.paramIssues(undefined, undefined, undefined)).toEqual([{ path: 'id', rule: 'invalid_type', message: 'expected string' }]);
    expect(p.paramIssues({ id: 'x' }, undefined, undefined)).toEqual([]);
    expect(await p.paramIssues({ id: 'x' }, { n: 'one' }, { a: 'two' })).toEqual([
      { path: 'n', rule: 'invalid_type', message: 'expected number' },
      { path: 'a', rule: 'invalid_type', message: 'expected number' },
    ]);
    const required = plan({ method: 'POST', path: '/r', bodyRequired: true });
    expect(await required.paramIssues(undefined, undefined, undefined)).toEqual([{ path: '', rule: 'required', message: 'a request body is required' }]);
    expect(required.paramIssues(undefined, undefined, {})).toEqual([]);
    expect(plan({ method: 'POST', path: '/r', bodyRequired: false }).paramIssues(undefined, undefined, undefined)).toEqual([]);
  });

  it('an operation with only a path schema, or only a query schema, runs it', async () => {
    const pathOnly = plan({ method: 'GET', path: '/t/{id}', params: { path: z.object({ id: z.string().check(z.minLength(3)) }) } });
    expect(await pathOnly.paramIssues({ id: 'ab' }, undefined, undefined)).toEqual([
      { path: 'id', rule: 'too_small', message: 'must have at least 3 characters' },
    ]);
    const queryOnly = plan({ method: 'GET', path: '/t', params: { query: z.object({ limit: z.number() }) } });
    expect(await queryOnly.paramIssues(undefined, { limit: 'x' }, undefined)).toEqual([{ path: 'limit', rule: 'invalid_type', message: 'expected number' }]);
  });

  it('passing checks answer synchronously (an array, not a promise); a failure after one does not leak into the next call', async () => {
    const p = plan({ method: 'POST', path: '/t', params: { body: z.object({ a: z.number() }) } });
    expect(await p.paramIssues(undefined, undefined, { a: 'x' })).toHaveLength(1);
    const ok = p.paramIssues(undefined, undefined, { a: 1 });
    expect(Array.isArray(ok)).toBe(true);
    expect(ok).toEqual([]);
  });

  it('names of generated schemas are not checked inline: any value passes', () => {
    const p = plan({ method: 'POST', path: '/t', params: { path: 'PathParams', query: 'Query', body: 'QuoteRequest' } });
    expect(p.paramIssues({ id: '' }, { q: 5 }, 'not an object')).toEqual([]);
  });

  it('compiled checks are loaded once, on the first call; a failed load is tried again on the next', async () => {
    let loads = 0;
    const checks: OperationChecks = {
      body: (value, issues) => void (typeof value === 'object' || issues.push({ code: 'invalid_type', expected: 'object', path: [], message: '' })),
    };
    const loader = async () => {
      loads++;
      if (loads === 1) throw new Error('chunk lost');
      return checks;
    };
    const p = plan({ method: 'POST', path: '/t', checked: true }, undefined, { ...requestChecks, load: (id) => (id === '/t' ? loader : undefined) });
    await expect(p.paramIssues(undefined, undefined, {})).rejects.toThrow('chunk lost');
    const [a, b] = await Promise.all([p.paramIssues(undefined, undefined, {}), p.paramIssues(undefined, undefined, {})]);
    expect([a, b]).toEqual([[], []]);
    expect(loads).toBe(2);
    expect(p.paramIssues(undefined, undefined, {})).toEqual([]); // loaded: synchronous
    expect(await p.paramIssues(undefined, undefined, 5)).toEqual([{ path: '', rule: 'invalid_type', message: 'expected object' }]);
    expect(loads).toBe(2);
  });
});

describe('the responseChecks part', () => {
  it("loads an operation's response check by its id, and names the drifting field", async () => {
    const issuesOf = (value: unknown) => responseChecks.response('getCustomer', value);
    // A customer without its customerType: the union of individual and business cannot tell which it is.
    expect(await issuesOf({ id: 'Customer:1' })).toEqual([{ path: 'customerType', rule: 'invalid_value', message: 'must be one of "INDIVIDUAL", "BUSINESS"' }]);
    expect(await issuesOf(responseExample('getCustomer', '200'))).toEqual([]); // the document's own example
    // An operation without a documented body, or unknown: nothing to report.
    expect(await responseChecks.response('noSuchOperation', { id: 'Customer:1' })).toEqual([]);
    expect(await responseChecks.response('getConfig', { umaDomain: 5 })).not.toEqual([]);
  });
});

describe('a plan without the requestChecks part', () => {
  it('checks nothing locally, not even a required body: the service answers', () => {
    const p = new OperationPlan(
      op({ method: 'POST', path: '/t', bodyRequired: true, params: { body: z.object({ a: z.number() }) } }),
      BASE,
      createQuerySerializer(),
    );
    expect(p.paramIssues(undefined, undefined, undefined)).toEqual([]);
    expect(p.paramIssues(undefined, undefined, { a: 'x' })).toEqual([]);
  });

  it("answers a fresh array each call (the client adds the options' and the wire's issues to it)", () => {
    const p = new OperationPlan(op({ method: 'GET', path: '/t' }), BASE, createQuerySerializer());
    const first = p.paramIssues(undefined, undefined, undefined) as unknown[];
    first.push('added by the caller');
    expect(p.paramIssues(undefined, undefined, undefined)).toEqual([]);
  });
});
