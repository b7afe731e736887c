/**
 * The wire checks, rule by rule: what can be sent as one URL segment, a header name or value, and
 * a well-formed string. Each refusal is a ValidationError before anything is sent (a path that is
 * "..", a header with a line break, a hop-by-hop header undici would refuse after we counted the
 * request as maybe sent). Written against the survivors of the mutation run.
 */
import { describe, expect, it } from 'vitest';
import { headerIn, headerProblems, mergeHeaders, normalizeQuery, wireProblems } from '../../src/core/wire';

const rules = (issues: { path: string; rule: string }[]) => issues.map((i) => `${i.path}:${i.rule}`);

describe('wire checks', () => {
  it('a path parameter is one non-empty segment other than . and .., of well-formed UTF-16', () => {
    for (const bad of ['', '.', '..', 5, undefined, null]) {
      expect(rules(wireProblems({ id: bad }, undefined, [], [])), String(bad)).toEqual(['id:invalid_segment']);
    }
    expect(rules(wireProblems({ id: 'a\ud800b' }, undefined, [], []))).toEqual(['id:invalid_string']);
    expect(rules(wireProblems({ id: 'a\udc00' }, undefined, [], []))).toEqual(['id:invalid_string']);
    for (const ok of ['Customer:1', '...', '.a', 'a/b c:d', '💸', 'x\ud83d\udcb8y']) {
      expect(wireProblems({ id: ok }, undefined, [], []), ok).toEqual([]);
    }
    expect(rules(wireProblems({ a: '..', b: 'ok', c: '' }, undefined, [], []))).toEqual(['a:invalid_segment', 'c:invalid_segment']);
  });

  it('a query string value must be well-formed UTF-16; other values are left to the checks', () => {
    expect(rules(wireProblems(undefined, { q: 'x\ud800', n: 5, ok: '💸' }, [], []))).toEqual(['q:invalid_string']);
    expect(wireProblems(undefined, { n: 5, d: new Date(0), s: 'fine' }, [], [])).toEqual([]);
  });

  it('header values: Latin-1 without line breaks (tab allowed); a header name is a token; hop-by-hop headers are refused', () => {
    expect(rules(wireProblems(undefined, undefined, [['options.requestId', 'r\r\nX: 1']], []))).toEqual(['options.requestId:invalid_header']);
    expect(rules(wireProblems(undefined, undefined, [['options.requestId', 'r\n']], []))).toEqual(['options.requestId:invalid_header']);
    expect(rules(wireProblems(undefined, undefined, [['options.requestId', '\nr']], []))).toEqual(['options.requestId:invalid_header']);
    expect(rules(wireProblems(undefined, undefined, [['options.requestId', 'ré€']], []))).toEqual(['options.requestId:invalid_header']);
    expect(
      wireProblems(
        undefined,
        undefined,
        [
          ['options.requestId', 'r\tré'],
          ['options.signature', undefined],
        ],
        [],
      ),
    ).toEqual([]);
    expect(wireProblems(undefined, undefined, [['options.requestId', '']], [])).toEqual([]);

    const bag = (headers: Record<string, unknown>) => rules(headerProblems(headers, 'options.headers'));
    expect(bag({ 'X-Ok': 'v', 'x-tab': 'a\tb', 'x-undefined': undefined })).toEqual([]);
    expect(bag({ 'bad name': 'v', 'x:y': 'v', '': 'v' })).toEqual([
      'options.headers.bad name:invalid_header',
      'options.headers.x:y:invalid_header',
      'options.headers.:invalid_header',
    ]);
    expect(bag({ 'X-Line': 'a\r\nb', 'X-Num': 5 })).toEqual(['options.headers.X-Line:invalid_header', 'options.headers.X-Num:invalid_header']);
    for (const name of ['connection', 'Keep-Alive', 'proxy-connection', 'Transfer-Encoding', 'te', 'trailer', 'upgrade', 'Expect']) {
      const issues = headerProblems({ [name]: 'x' }, 'options.headers');
      expect(rules(issues), name).toEqual([`options.headers.${name}:invalid_header`]);
      expect(issues[0]!.message).toMatch(/hop-by-hop/);
    }
    expect(headerProblems(undefined, 'h')).toEqual([]);
    expect(headerProblems(null as never, 'h')).toEqual([]);
    expect(rules(headerProblems('x' as never, 'options.headers'))).toEqual(['options.headers:invalid_type']);
    expect(
      rules(
        wireProblems(
          undefined,
          undefined,
          [],
          [
            ['defaultHeaders', { te: 'x' }],
            ['options.headers', { 'a b': '1' }],
          ],
        ),
      ),
    ).toEqual(['defaultHeaders.te:invalid_header', 'options.headers.a b:invalid_header']);
  });

  it('normalizeQuery: dates become ISO strings, undefined entries go, a plain query is used as it is', () => {
    const plain = { a: 1, b: 'x' };
    expect(normalizeQuery(plain)).toBe(plain);
    expect(normalizeQuery({ a: 1, b: undefined })).toEqual({ a: 1 });
    expect(normalizeQuery({ b: undefined, a: 1 })).toEqual({ a: 1 });
    expect(normalizeQuery({ d: new Date(Date.UTC(2026, 0, 2)) })).toEqual({ d: '2026-01-02T00:00:00.000Z' });
    expect(normalizeQuery({ d: new Date(Number.NaN) })).toEqual({ d: 'Invalid Date' });
    const withProto = Object.assign(Object.create({ inherited: 1 }) as object, { a: 1 });
    const copy = normalizeQuery(withProto);
    expect(copy).not.toBe(withProto);
    expect(copy).toEqual({ a: 1 });
  });

  it('mergeHeaders lower-cases names and skips undefined; headerIn finds a name whatever its case', () => {
    expect(mergeHeaders({ a: '1' }, { 'X-Trace': 't', 'X-Skip': undefined })).toEqual({ a: '1', 'x-trace': 't' });
    expect(mergeHeaders({ a: '1' }, null)).toEqual({ a: '1' });
    expect(headerIn({ 'Idempotency-KEY': 'k' }, 'idempotency-key')).toBe('k');
    expect(headerIn({ other: 'k' }, 'idempotency-key')).toBeUndefined();
    expect(headerIn(null, 'idempotency-key')).toBeUndefined();
  });

  it('leaves no undefined entry behind: a dropped query entry or header is gone, not kept as undefined (mutation run, issue 22)', () => {
    expect(Object.keys(normalizeQuery({ a: 1, b: undefined }))).toEqual(['a']);
    expect(Object.keys(normalizeQuery({ b: undefined, d: new Date(0) }))).toEqual(['d']);
    expect(Object.keys(mergeHeaders({}, { 'X-Trace': 't', 'X-Skip': undefined }))).toEqual(['x-trace']);
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(normalizeQuery(bare)).not.toBe(bare);
    expect(Object.getPrototypeOf(normalizeQuery(bare))).toBe(Object.prototype);
    expect(rules(wireProblems({ id: 'ok' }, { q: 'fine' }, [['options.requestId', 5]], [['options.headers', { 'X-A': '\u0100' }]]))).toEqual([
      'options.requestId:invalid_header',
      'options.headers.X-A:invalid_header',
    ]);
  });

  it('each refusal says what is wrong, as the ValidationError shows it (mutation run, issue 22)', () => {
    const messages = (issues: { path: string; message: string }[]) => issues.map((i) => `${i.path}: ${i.message}`);
    expect(messages(wireProblems({ a: '', b: 'x\udc00' }, { q: 'x\ud800' }, [['options.requestId', 'a\nb']], []))).toEqual([
      'a: must be a non-empty string other than "." or ".."',
      'b: contains an unpaired surrogate',
      'q: contains an unpaired surrogate',
      'options.requestId: must be a string of Latin-1 characters without line breaks',
    ]);
    expect(messages(headerProblems({ 'a b': 'x', 'X-A': 'a\nb', te: 'x' }, 'options.headers'))).toEqual([
      'options.headers.a b: is not a valid header name',
      'options.headers.X-A: must be a string of Latin-1 characters without line breaks',
      'options.headers.te: is a hop-by-hop header the HTTP layer manages; it cannot be set per request',
    ]);
    expect(messages(headerProblems(5 as never, 'options.headers'))).toEqual(['options.headers: expected an object of header names to values']);
    // A query value that is not a string is the checks' business (and the URL builder's), not the wire's.
    expect(wireProblems(undefined, { q: ['x\ud800'] }, [], [])).toEqual([]);
  });
});
