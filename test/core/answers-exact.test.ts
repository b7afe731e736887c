/**
 * answers.ts read value by value: the scrubber's every layer on its own, the exact error (class, message,
 * fields) a user sees for each answer, and the edges of body parsing, challenges and list envelopes.
 * Written against the mutants the mutation run left alive (issue 22); pure functions, no sockets.
 */
import { describe, expect, it } from 'vitest';
import {
  base64Forms,
  createScrub,
  fieldErrorIssues,
  parseBody,
  readAnswer,
  readEnvelope,
  requestIdOf,
  toAPIError,
  type Exchange,
  type Scrub,
} from '../../src/core/answers';
import { isChallenge, readChallenge } from '../../src/core/signed-retry';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/core/errors';
import { OperationPlan, type Operation } from '../../src/core/plan';
import { op } from '../helpers/client';

const R = '[redacted]';
// Made inside each test, not at import: Stryker's per-test coverage only sees code a test runs.
const none: Scrub = (v) => createScrub([])(v);
const scrub: Scrub = (v) => createScrub(['sk_live_SECRET_42', 'tok_1:sk_live_SECRET_42'])(v);
const plan = (method: Operation['method'], path = '/x', extra: Partial<Operation> = {}) =>
  new OperationPlan(op({ method, path, ...extra }), 'https://api.test.invalid', () => '');
const caught = (f: () => unknown): any => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
};

describe('createScrub: each layer on its own', () => {
  it('literal secrets: every occurrence, longest first, special characters literal, 4 characters at least', () => {
    // Given shortest first: the longer secret that contains the shorter one is still removed whole.
    const s = createScrub(['abcd', 'abcdefgh', 'abc']);
    expect(s('x abcdefgh y abcd z abcd')).toBe(`x ${R} y ${R} z ${R}`);
    expect(s('abc ab')).toBe('abc ab'); // under 4 characters: not a secret worth a pattern
    const special = createScrub(['p(a)ss+w.rd*$1', 'a.b.']);
    expect(special('=p(a)ss+w.rd*$1=')).toBe(`=${R}=`);
    expect(special('pass+w.rd*$1 paasswwrd axbx')).toBe('pass+w.rd*$1 paasswwrd axbx');
    expect(special('a.b.')).toBe(R);
    // Nothing known: text (even the word undefined) untouched, empty strings never a pattern.
    expect(none('undefined value, plain text')).toBe('undefined value, plain text');
    expect(createScrub(['', 'ab'])('abc')).toBe('abc');
    // The same secret twice in the list is one pattern.
    expect(createScrub(['sk_x_1234', 'sk_x_1234'])('sk_x_1234!')).toBe(`${R}!`);
  });

  it('Authorization values: any casing, quoted or not, up to the next delimiter', () => {
    const cases: [string, string][] = [
      ['Authorization: Basic dXNlcjpwYXNz', `Authorization: ${R}`],
      ['proxy-authorization=abc def, next', `proxy-authorization=${R}, next`],
      ['{"authorization":"tok123","b":1}', `{"authorization":"${R}","b":1}`],
      ["{'AUTHORIZATION' :  'v'}", `{'AUTHORIZATION' :  '${R}'}`],
      ['authorization:x;y', `authorization:${R};y`],
      ['authorization: a}b', `authorization: ${R}}b`],
      ['authorization: a<b', `authorization: ${R}<b`],
      ['authorization: a\nb', `authorization: ${R}\nb`],
      ['authorization: a\rb', `authorization: ${R}\rb`],
      ['Authorization: x\nauthorization: y', `Authorization: ${R}\nauthorization: ${R}`],
      ['authorization x', 'authorization x'],
    ];
    for (const [input, output] of cases) expect(none(input), input).toBe(output);
  });

  it('Basic and Bearer credentials: 6 characters at least, after a space, %20 or +, whole', () => {
    const cases: [string, string][] = [
      ['Bearer aZ09+/=._~%-xyz!', `Bearer ${R}!`],
      ['sent bearer%20abcdef.', `sent bearer%20${R}`],
      ['Basic+abc123 and BASIC  qwerty', `Basic+${R} and BASIC  ${R}`],
      ['Bearer abcdef', `Bearer ${R}`],
      ['Bearer abcde', 'Bearer abcde'],
      ['xBearer abcdefgh', 'xBearer abcdefgh'],
      ['Bearerabcdefgh', 'Bearerabcdefgh'],
      ['Bearer\tabcdefgh', `Bearer\t${R}`],
    ];
    for (const [input, output] of cases) expect(none(input), input).toBe(output);
  });

  it('JSON values: strings and keys scrubbed at any depth up to 32; deeper objects replaced; other values kept', () => {
    expect(scrub({ a: ['x sk_live_SECRET_42', 1, true, null, undefined], sk_live_SECRET_42: { k: 'tok_1:sk_live_SECRET_42' } })).toEqual({
      a: [`x ${R}`, 1, true, null, undefined],
      [R]: { k: R },
    });
    const nest = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { n: nest(levels - 1, leaf) });
    // The object at depth 32 is walked; the one at depth 33 is not kept.
    expect(scrub(nest(32, {}))).toEqual(nest(32, {}));
    expect(scrub(nest(33, { a: 1 }))).toEqual(nest(33, R));
    expect(scrub(nest(33, 'sk_live_SECRET_42'))).toEqual(nest(33, R)); // a string there is still scrubbed
    const arrays = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : [arrays(levels - 1, leaf)]);
    expect(scrub(arrays(32, []))).toEqual(arrays(32, []));
    expect(scrub(arrays(33, []))).toEqual(arrays(33, R));
    expect(scrub(7)).toBe(7);
    expect(scrub(null)).toBeNull();
  });
});

describe('requestIdOf and base64Forms', () => {
  it('the X-Request-Id scrubbed; undefined when absent or without an answer', () => {
    expect(requestIdOf(new Response(null, { headers: { 'x-request-id': 'req sk_live_SECRET_42' } }), scrub)).toBe(`req ${R}`);
    expect(requestIdOf(new Response(null), scrub)).toBeUndefined();
    expect(requestIdOf(undefined, scrub)).toBeUndefined();
  });

  it('standard, unpadded and URL-safe base64 of the UTF-8 text', () => {
    expect(base64Forms('>¿û>é>¿é')).toEqual(['PsK/w7s+w6k+wr/DqQ==', 'PsK/w7s+w6k+wr/DqQ', 'PsK_w7s-w6k-wr_DqQ']);
  });
});

describe('fieldErrorIssues', () => {
  it('one issue per entry naming a field, its rule by constraint, its message or the constraint', () => {
    const issues = fieldErrorIssues({
      errors: [
        null,
        { message: 'no field' },
        { field: 7, message: 'numeric field' },
        { field: 'currency', message: 'unknown currency', constraint: { enum: ['USD'] } },
        { field: 'iban', constraint: { pattern: '^[A-Z]{2}' } },
        { field: 'email', message: '', constraint: { format: 'email' } },
        { field: 'amount', message: 42 },
        { field: 'name', message: 'too long', constraint: { maxLength: 3 } },
      ],
    });
    expect(issues).toEqual([
      { path: 'currency', rule: 'invalid_value', message: 'unknown currency' },
      { path: 'iban', rule: 'invalid_format', message: 'refused: {"pattern":"^[A-Z]{2}"}' },
      { path: 'email', rule: 'invalid_format', message: 'refused: {"format":"email"}' },
      { path: 'amount', rule: 'invalid', message: 'refused: {}' },
      { path: 'name', rule: 'invalid', message: 'too long' },
    ]);
    expect(fieldErrorIssues(undefined)).toEqual([]);
    expect(fieldErrorIssues({ errors: { field: 'x' } })).toEqual([]);
  });
});

describe('parseBody at the edges of 2xx', () => {
  it('300 and 199 are not 2xx: their empty or non-JSON text is kept; 299 flags it', () => {
    expect(parseBody(300, '')).toEqual({ data: '', notJson: undefined });
    expect(parseBody(300, 'moved')).toEqual({ data: 'moved', notJson: undefined });
    expect(parseBody(199, 'x')).toEqual({ data: 'x', notJson: undefined });
    expect(parseBody(199, '')).toEqual({ data: '', notJson: undefined });
    expect(parseBody(299, '')).toEqual({ data: undefined, notJson: undefined });
    const flagged = parseBody(299, 'x');
    expect(flagged.data).toBeUndefined();
    expect(flagged.notJson).toBeInstanceOf(SyntaxError);
    expect(parseBody(204, '')).toEqual({ data: undefined, notJson: undefined });
    expect(parseBody(404, '{"code":"NOT_FOUND"}')).toEqual({ data: { code: 'NOT_FOUND' }, notJson: undefined });
  });
});

describe('readAnswer: the result, or the exact error', () => {
  const exchange = (status: number, data: unknown, headers: Record<string, string> = { 'x-request-id': 'req_9' }, notJson?: Error): Exchange => ({
    response: new Response(null, { status: status === 204 ? 204 : status, headers }),
    text: '',
    data,
    notJson,
    attempts: 1,
  });
  const documented = { response: 'Thing' };

  it('a 2xx that is not JSON: an APIConnectionError naming the operation, status, request and a scrubbed cause', () => {
    const notJson = new SyntaxError('Unexpected token < in sk_live_SECRET_42');
    const post = caught(() => readAnswer(plan('POST'), exchange(200, undefined, undefined, notJson), 'key-1', scrub));
    expect(post).toBeInstanceOf(APIConnectionError);
    expect(post.message).toBe("POST /x answered 200 with a body that is not JSON; the outcome is unknown: retry with idempotencyKey 'key-1'");
    expect(post).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'key-1', operation: 'POST /x', status: 200, requestId: 'req_9' });
    expect(post.cause).toBeInstanceOf(Error);
    expect(post.cause.name).toBe('SyntaxError');
    expect(post.cause.message).toBe(`Unexpected token < in ${R}`);
    const get = caught(() => readAnswer(plan('GET'), exchange(200, undefined, {}, notJson), undefined, scrub));
    expect(get.message).toBe('GET /x answered 200 with a body that is not JSON');
    expect(get).toMatchObject({ outcomeUnknown: false, idempotencyKey: undefined, status: 200, requestId: undefined });
  });

  it('a non-2xx: the error of its status', () => {
    const e = caught(() => readAnswer(plan('GET'), exchange(404, { code: 'NOT_FOUND', message: 'gone' }), undefined, scrub));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.message).toBe('404 NOT_FOUND: gone (request req_9)');
  });

  it('a documented operation needs an object; 204 only from a DELETE', () => {
    const ok = readAnswer(plan('POST', '/x', documented), exchange(201, { id: 'T:1' }), 'k', scrub);
    expect(ok).toEqual({ data: { id: 'T:1' }, response: expect.any(Response), idempotencyKey: 'k', requestId: 'req_9' });
    expect(readAnswer(plan('DELETE', '/x', documented), exchange(204, undefined), undefined, scrub).data).toBeUndefined();
    for (const [method, status, data] of [
      ['POST', 200, [{ id: 'T:1' }]],
      ['POST', 200, 'text'],
      ['POST', 200, 5],
      ['POST', 200, null],
      ['POST', 200, undefined],
      ['POST', 204, undefined],
      ['POST', 202, undefined],
      ['DELETE', 200, undefined],
    ] as const) {
      const e = caught(() => readAnswer(plan(method, '/x', documented), exchange(status, data), 'k', scrub));
      expect(e, `${method} ${status} ${JSON.stringify(data)}`).toBeInstanceOf(APIConnectionError);
      expect(e.message).toBe(`${method} /x answered ${status} without the resource; the outcome is unknown: retry with idempotencyKey 'k'`);
      expect(e).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'k', operation: `${method} /x`, status, requestId: 'req_9' });
    }
    const read = caught(() => readAnswer(plan('GET', '/x', documented), exchange(200, null, {}), undefined, scrub));
    expect(read.message).toBe('GET /x answered 200 without the resource');
    expect(read).toMatchObject({ outcomeUnknown: false, status: 200, requestId: undefined });
  });

  it('the escape hatch (no documented answer) takes any JSON, a null, a 202 or 204 without body; not an empty 200', () => {
    for (const [status, data] of [
      [200, [1]],
      [200, 'text'],
      [200, null],
      [202, undefined],
      [204, undefined],
      [201, 0],
    ] as const) {
      expect(readAnswer(plan('POST'), exchange(status, data), undefined, scrub).data, `${status}`).toEqual(data);
    }
    const e = caught(() => readAnswer(plan('POST'), exchange(200, undefined), undefined, scrub));
    expect(e.message).toBe('POST /x answered 200 without the resource; the outcome is unknown: look the resource up before creating it again');
  });
});

describe('toAPIError: every field of the error a user sees', () => {
  const response = (status: number, headers: Record<string, string> = {}, statusText = '') => new Response(null, { status, headers, statusText });

  it('each status its class; every field filled and scrubbed', () => {
    const classes: [number, new (...a: never[]) => APIError][] = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [409, ConflictError],
      [422, UnprocessableEntityError],
      [429, RateLimitError],
      [500, InternalServerError],
      [503, InternalServerError],
    ];
    for (const [status, cls] of classes) {
      const e = toAPIError(response(status), { code: 'C' }, plan('GET'), undefined, none);
      expect(e, String(status)).toBeInstanceOf(cls);
      expect(e.constructor, String(status)).toBe(cls);
    }
    for (const status of [402, 405, 410, 418, 451, 499])
      expect(toAPIError(response(status), {}, plan('GET'), undefined, none).constructor, String(status)).toBe(APIError);

    const e = toAPIError(
      response(429, { 'x-request-id': 'req sk_live_SECRET_42', 'retry-after': '7', 'x-echo': 'Bearer abcdefgh' }),
      { code: 'RATE_sk_live_SECRET_42', message: 'slow down sk_live_SECRET_42', details: { limit: 5, note: 'sk_live_SECRET_42', email: 'ada@example.com' } },
      plan('POST'),
      'key-2',
      scrub,
    );
    expect(e.message).toBe(`429 RATE_${R}: slow down ${R} (request req ${R})`);
    expect(e).toMatchObject({
      status: 429,
      code: `RATE_${R}`,
      details: { limit: 5, note: R, email: R },
      requestId: `req ${R}`,
      idempotencyKey: 'key-2',
      operation: 'POST /x',
      outcomeUnknown: false,
      retryAfter: 7000,
    });
    expect(e.headers).toEqual({ 'x-request-id': `req ${R}`, 'retry-after': '7', 'x-echo': `Bearer ${R}` });
    expect(toAPIError(response(500), {}, plan('POST'), 'k', none)).toMatchObject({
      outcomeUnknown: true,
      retryAfter: undefined,
      code: 'UNKNOWN',
      details: undefined,
      requestId: undefined,
    });
  });

  it('the message: message, else reason (a 429), else the text stripped to 200 characters, else the status text', () => {
    expect(toAPIError(response(429), { reason: 'daily volume', message: 5 }, plan('GET'), undefined, none).message).toBe('429 UNKNOWN: daily volume');
    expect(toAPIError(response(400), { message: 'm', reason: 'r' }, plan('GET'), undefined, none).message).toBe('400 UNKNOWN: m');
    expect(toAPIError(response(429), { reason: 5 }, plan('GET'), undefined, none).message).toBe('429 UNKNOWN: request failed');
    const long = `<p>${'a'.repeat(150)}   \n\t ${'b'.repeat(100)}</p>`;
    expect(toAPIError(response(502, {}, 'Bad Gateway'), long, plan('GET'), undefined, none).message).toBe(
      `502 UNKNOWN: Bad Gateway: ${'a'.repeat(150)} ${'b'.repeat(49)}`,
    );
    expect(toAPIError(response(502), '<b>x</b>y sk_live_SECRET_42', plan('GET'), undefined, scrub).message).toBe(`502 UNKNOWN: error: x y ${R}`);
    expect(toAPIError(response(502, {}, 'Bad sk_live_SECRET_42'), undefined, plan('GET'), undefined, scrub).message).toBe(`502 UNKNOWN: Bad ${R}`);
    expect(toAPIError(response(502), undefined, plan('GET'), undefined, none).message).toBe('502 UNKNOWN: request failed');
    expect(toAPIError(response(502), '', plan('GET'), undefined, none).message).toBe('502 UNKNOWN: request failed');
    expect(toAPIError(response(404), { code: 7 }, plan('GET'), undefined, none).code).toBe('UNKNOWN');
    expect(toAPIError(response(404), { details: 'text' }, plan('GET'), undefined, none).details).toBeUndefined();
    expect(toAPIError(response(404), { details: [1] }, plan('GET'), undefined, none).details).toEqual([1]);
  });

  it('a redirect: REDIRECT (unless the body has a code), its scrubbed target, and never a message from the body', () => {
    const to = toAPIError(response(303, { location: 'https://elsewhere.example/?t=sk_live_SECRET_42' }), { message: 'see other' }, plan('POST'), 'k', scrub);
    expect(to.message).toBe(
      `303 REDIRECT: the service answered a redirect to https://elsewhere.example/?t=${R}; API calls do not follow redirects (check baseUrl)`,
    );
    expect(to).toMatchObject({ code: 'REDIRECT', outcomeUnknown: true });
    expect(toAPIError(response(302), 'moved', plan('GET'), undefined, none).message).toBe(
      '302 REDIRECT: the service answered a redirect; API calls do not follow redirects (check baseUrl)',
    );
    expect(toAPIError(response(301), { code: 'MOVED' }, plan('GET'), undefined, none).code).toBe('MOVED');
    expect(toAPIError(response(299), {}, plan('GET'), undefined, none).code).toBe('UNKNOWN');
    expect(toAPIError(response(400), {}, plan('GET'), undefined, none).message).toBe('400 UNKNOWN: request failed');
  });

  it('a 400 carries the field issues of its details', () => {
    const e = toAPIError(
      response(400),
      { code: 'INVALID_INPUT', details: { errors: [{ field: 'amount', message: 'must be positive' }] } },
      plan('POST'),
      undefined,
      none,
    ) as BadRequestError;
    expect(e.issues).toEqual([{ path: 'amount', rule: 'invalid', message: 'must be positive' }]);
    expect(e.field).toBe('amount');
  });
});

describe('isChallenge, readChallenge, readEnvelope: the edges', () => {
  it('a challenge: any payloadToSign, or requestId with expiresAt; a resource id wins over the flag; arrays are no resource', () => {
    expect(isChallenge({ payloadToSign: 'p', id: 'T:1' }, false)).toBe(true);
    expect(isChallenge({ requestId: 'r', expiresAt: 'e', id: 'T:1' }, false)).toBe(true);
    expect(isChallenge({ id: 'T:1' }, true)).toBe(false);
    expect(isChallenge({ id: 5 }, true)).toBe(true);
    expect(isChallenge(Object.assign(['x'], { id: 'T:1' }), true)).toBe(true);
    expect(isChallenge(undefined, true)).toBe(true);
    expect(isChallenge(null, true)).toBe(true);
    expect(isChallenge(undefined, false)).toBe(false);
  });

  it('readChallenge: each refusal with its rule and message, in one ResponseValidationError', () => {
    const res = new Response(null, { status: 202, headers: { 'x-request-id': 'req_3' } });
    const e = caught(() => readChallenge(undefined, res, 'PATCH /customers/{id}', none));
    expect(e).toBeInstanceOf(ResponseValidationError);
    expect(e.issues).toEqual([
      { path: 'payloadToSign', rule: 'invalid_type', message: 'expected string' },
      { path: 'requestId', rule: 'invalid_type', message: 'expected a string that can be sent as the Request-Id header' },
      { path: 'expiresAt', rule: 'invalid_format', message: 'expected an ISO date-time (an unreadable expiry is never signed)' },
    ]);
    expect(e).toMatchObject({ status: 202, operation: 'PATCH /customers/{id}', requestId: 'req_3' });
    expect(e.message).toBe('PATCH /customers/{id} answered 202 with an unexpected body: payloadToSign: expected string (request req_3)');
    expect(readChallenge({ payloadToSign: '', requestId: 'r', expiresAt: '2030-01-01T00:00:00Z' }, res, 'P', none)).toEqual({
      payloadToSign: '',
      requestId: 'r',
      expiresAt: '2030-01-01T00:00:00Z',
      type: undefined,
    });
  });

  it('readEnvelope: the exact refusal; hasMore and totalCount kept or worked out on the same object', () => {
    const res = new Response(null, { status: 206, headers: { 'x-request-id': 'req_4' } });
    const reports: unknown[] = [];
    const read = (data: unknown, paginated = true) => readEnvelope(data, res, 'GET /things', paginated, (i) => reports.push(i), none);
    const notObject = caught(() => read('x'));
    expect(notObject).toBeInstanceOf(ResponseValidationError);
    expect(notObject.issues).toEqual([{ path: '', rule: 'invalid_type', message: 'expected object' }]);
    expect(notObject).toMatchObject({ status: 206, operation: 'GET /things', requestId: 'req_4' });
    expect(notObject.message).toBe('GET /things answered 206 with an unexpected body: (root): expected object (request req_4)');
    expect(caught(() => read(null)).issues).toEqual([{ path: '', rule: 'invalid_type', message: 'expected object' }]);
    expect(caught(() => read({ data: {} })).issues).toEqual([{ path: 'data', rule: 'invalid_type', message: 'expected array' }]);
    const body = { data: [1, 2, 3], hasMore: false, totalCount: 40 };
    const env = read(body);
    expect(env).toBe(body);
    expect(env).toEqual({ data: [1, 2, 3], hasMore: false, nextCursor: undefined, totalCount: 40 });
    expect(read({ data: [1], hasMore: true, totalCount: 0 })).toEqual({ data: [1], hasMore: true, nextCursor: undefined, totalCount: 0 });
    expect(read({ data: [1, 2], hasMore: 'yes', totalCount: '9' })).toEqual({ data: [1, 2], hasMore: false, nextCursor: undefined, totalCount: 2 });
    expect(reports).toEqual([[{ path: 'hasMore', rule: 'invalid_type', message: 'expected boolean (taken as false)' }]]);
    // Unpaginated: no hasMore needed, a bad cursor still reported.
    expect(read({ data: [], nextCursor: 9 }, false)).toEqual({ data: [], hasMore: false, nextCursor: undefined, totalCount: 0 });
    expect(reports[1]).toEqual([{ path: 'nextCursor', rule: 'invalid_type', message: 'expected string' }]);
    expect(reports).toHaveLength(2);
  });
});
