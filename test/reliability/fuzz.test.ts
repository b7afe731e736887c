/**
 * Fuzzing every method of the client with fast-check.
 *
 * - Valid params (generated from the document's schemas) send exactly one well-formed request.
 * - Invalid params (wrong types, out-of-range amounts, bad id prefixes, missing required fields,
 *   unknown enum values) throw `ValidationError` and send nothing.
 * - Malformed responses (wrong types, missing fields, huge numbers, non-JSON, empty, HTML,
 *   truncated) give a resolved value or a `CrossborderError`, never a `TypeError`/`SyntaxError`
 *   or an unhandled rejection.
 * - Webhook bodies and signatures give only `WebhookVerificationError`.
 * - Every method through every fault of the proxy gives a resolved value or a `CrossborderError`.
 *
 * CI runs a seeded subset; `RELIABILITY_FULL=1` runs ≥ 10,000 cases per property.
 */
import fc from 'fast-check';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import { CrossborderError, ValidationError, WebhookVerificationError } from '../../src/core/errors';
import { operations, type OperationId } from '../../src/generated/operations';
import * as zod from '../../src/generated/zod.gen';
import { generateWebhookKeyPair, signWebhook, type WebhookKeyPair } from '../../src/sandbox/index';
import { testCrossborder } from '../helpers/client';
import { doc, documentOperations, responseExample } from '../helpers/document';
import { useMswServer } from '../helpers/msw';
import { anyValidCase, IDS, METHODS, schemas, validInput, type Input, type Op, type Part, type Zod } from './methods';
import { applyBreakage, arbitraryOf, breakages, jsonSchemaOf, type Breakage } from './schema-arbitrary';
import { command, count, FULL, report, reported, SEED } from './support';

/**
 * 1,000 seeded cases per property in CI (the whole reliability suite must stay well under a minute), 10,000 in the full
 * run: with 106 operations drawn at random, 1,000 draws reach every one (500 left one or two out).
 */
const RUNS = count(1500, 10_000);
const BASE = 'https://fuzz.test.invalid';
const mswServer = useMswServer();

// ---------------------------------------------------------------------------------------------
// The wire, as msw sees it.

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}
let seen: Seen[] = [];
let answer: () => Response = () => HttpResponse.json({});
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});
afterEach(() => {
  expect(unhandled, 'unhandled rejections').toEqual([]);
});

function recordWire() {
  mswServer.use(
    http.all(`${BASE}/*`, async ({ request }) => {
      seen.push({ method: request.method, url: new URL(request.url), headers: request.headers, body: await request.text() });
      return answer();
    }),
  );
}

/** The documented success answer of an operation. */
function successAnswer(id: OperationId): { status: number; body: unknown } {
  const o = documentOperations().find((x) => x.id === id)!;
  const responses = doc.paths[o.path][o.method.toLowerCase()].responses as Record<string, unknown>;
  // A 202 is the success answer only where it is the operation's result (the CSV import's job), not a challenge.
  const status = Object.keys(responses).find((c) => c.startsWith('2') && c !== '202') ?? '202';
  return { status: Number(status), body: status === '204' ? undefined : responseExample(id, status) };
}
const SUCCESS = Object.fromEntries(IDS.map((id) => [id, successAnswer(id)])) as Record<OperationId, { status: number; body: unknown }>;

const client = (options: Partial<ConstructorParameters<typeof Crossborder>[0]> = {}) =>
  testCrossborder({ tokenId: 'tok_fuzz', clientSecret: 'sk_fuzz', baseUrl: BASE, maxRetries: 0, ...options }).cb;

/** Awaits a call; lists are awaited for their first page only. */
async function run(id: OperationId, cb: Crossborder, input: Input): Promise<unknown> {
  return await METHODS[id](cb, input);
}

const stringify = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

/** Checks the one request a valid call made; returns what is wrong with it. */
function wellFormed(id: OperationId, input: Input, req: Seen): string[] {
  const op = operations[id];
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => ok || problems.push(what);
  expect(req.method === op.method, `method ${req.method}`);
  // Path: the template with each parameter as exactly one segment.
  const template = `/2025-10-13${op.path}`.split('/');
  const segments = req.url.pathname.split('/');
  expect(segments.length === template.length, `path ${req.url.pathname} has ${segments.length} segments, ${op.path} has ${template.length}`);
  template.forEach((t, i) => {
    const got = segments[i] === undefined ? undefined : decodeURIComponent(segments[i]);
    const want = t.startsWith('{') ? String(input.path![t.slice(1, -1)]) : t;
    expect(got === want, `path segment ${i}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
  });
  // Query: every given parameter, nothing else; an array (form, explode) as one entry per item, none when empty.
  const wantQuery = Object.entries(input.query ?? {})
    .filter(([, v]) => v !== undefined)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => [k, stringify(item)]));
  const gotQuery = [...req.url.searchParams.entries()];
  expect(JSON.stringify(gotQuery.sort()) === JSON.stringify(wantQuery.sort()), `query ${JSON.stringify(gotQuery)} ≠ ${JSON.stringify(wantQuery)}`);
  // Body: the params serialized once, as JSON.
  const body = input.body ?? (['rejectTransaction', 'approveTransaction', 'confirmReceiptDelivery', 'cancelTransaction'].includes(id) ? {} : undefined);
  if (op.multipart) {
    // A multipart/form-data body (the CSV import): each field a part of its name, holding its text.
    const type = req.headers.get('content-type') ?? '';
    expect(/^multipart\/form-data; boundary=/.test(type), `content-type ${type}`);
    for (const [name, value] of Object.entries(body as Record<string, string>)) {
      expect(req.body.includes(`name="${name}"`) && req.body.includes(`\r\n\r\n${value}\r\n--`), `part ${name} ${req.body.slice(0, 200)}`);
    }
  } else {
    expect(req.body === (body === undefined ? '' : JSON.stringify(body)), `body ${req.body.slice(0, 200)}`);
    expect(req.headers.get('content-type') === (body === undefined ? null : 'application/json'), `content-type ${req.headers.get('content-type')}`);
  }
  // Headers.
  // None on an operation the document marks `security: []` (redeeming a device code).
  expect(req.headers.get('authorization') === (op.anonymous ? null : `Basic ${btoa('tok_fuzz:sk_fuzz')}`), 'authorization');
  expect(req.headers.get('accept') === 'application/json', 'accept');
  const key = req.headers.get('idempotency-key');
  if (op.idempotent) expect(key === (input.options.idempotencyKey ?? key) && key !== null && key.length > 0, `idempotency-key ${key}`);
  else expect(key === null, 'idempotency-key on an operation that does not honour it');
  expect(req.headers.get('service-wallet-signature') === ((input.options.signature as string | undefined) ?? null), 'service-wallet-signature');
  expect(req.headers.get('request-id') === ((input.options.requestId as string | undefined) ?? null), 'request-id');
  expect(req.headers.get('x-fuzz') === ((input.options.headers as Record<string, string> | undefined)?.['X-Fuzz'] ?? null), 'x-fuzz');
  return problems;
}

describe('fuzz: valid params send exactly one well-formed request', () => {
  it(`every method, generated params (${RUNS} cases, seed ${SEED})`, async () => {
    recordWire();
    const perOp = new Map<OperationId, number>();
    await reported(
      {
        scenario: 'Fuzz: valid params → exactly one well-formed request (every method)',
        unit: 'generated calls',
        cases: RUNS,
        command: command('fuzz.test.ts', 'valid params'),
      },
      () =>
        fc.assert(
          fc.asyncProperty(anyValidCase, async ({ id, input }) => {
            const { status, body } = SUCCESS[id];
            answer = () => (body === undefined ? new HttpResponse(null, { status }) : HttpResponse.json(body as object, { status }));
            seen = [];
            perOp.set(id, (perOp.get(id) ?? 0) + 1);
            await run(id, client(), input);
            expect(seen).toHaveLength(1);
            expect(wellFormed(id, input, seen[0]!)).toEqual([]);
          }),
          { numRuns: RUNS, seed: SEED },
        ),
    );
    expect([...perOp.keys()].sort()).toEqual([...IDS].sort());
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// Invalid params.

interface BrokenCase {
  id: OperationId;
  input: Input;
  part: Part | 'missing-body';
  breakage: Breakage | undefined;
}

/** A valid input with one field broken (or the required body left out). */
const anyBrokenCase: fc.Arbitrary<BrokenCase> = anyValidCase
  .chain(({ id, input }) => {
    const op = operations[id];
    const plain = {
      ...input,
      query: input.query && Object.fromEntries(Object.entries(input.query).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])),
    };
    const sites: { part: Part | 'missing-body'; breakage: Breakage | undefined }[] = [];
    for (const part of ['path', 'query', 'body'] as Part[]) {
      const s = schemas[id][part];
      const value = plain[part];
      if (s && value !== undefined) for (const br of breakages(s.json, value)) sites.push({ part, breakage: br });
    }
    if (op.bodyRequired) sites.push({ part: 'missing-body', breakage: undefined });
    if (sites.length === 0) return fc.constant(undefined as unknown as BrokenCase);
    // Kind first, then a site of that kind: rare kinds (unknown enum values) get their share.
    const byKind = new Map<string, typeof sites>();
    for (const site of sites) {
      const kind = site.breakage?.kind ?? 'missing-body';
      byKind.set(kind, [...(byKind.get(kind) ?? []), site]);
    }
    return fc
      .constantFrom(...byKind.values())
      .chain((group) => fc.constantFrom(...group))
      .map(({ part, breakage }) => {
        const broken: Input = { ...plain, options: { ...plain.options } };
        if (part === 'missing-body') broken.body = undefined;
        else (broken as unknown as Record<Part, unknown>)[part] = applyBreakage(plain[part], breakage!);
        return { id, input: broken, part, breakage };
      });
  })
  .filter((c) => c !== undefined);

const related = (issuePath: string, broken: string[]) => {
  const field = broken.join('.');
  return issuePath === field || field.startsWith(`${issuePath}.`) || issuePath.startsWith(`${field}.`) || issuePath === '';
};

/**
 * `quotes.execute(quote)` also takes the quote object, so a non-string quoteId is not checked as a
 * path parameter: that known bug has its own test ("quotes.execute with no quote id"), and the
 * broad property leaves those cases out so that it keeps checking everything else.
 */
const nonStringQuote = (c: BrokenCase) => c.id === 'executeQuote' && c.part === 'path' && typeof c.input.path?.quoteId !== 'string';

/** The broken part is invalid for the document's schema (a field under an anyOf may fit another branch). */
function reallyInvalid(c: BrokenCase): boolean {
  if (c.part === 'missing-body') return true;
  return !schemas[c.id][c.part]!.zod.safeParse((c.input as unknown as Record<Part, unknown>)[c.part]).success;
}

describe('fuzz: invalid params throw ValidationError and send nothing', () => {
  it(`every method, one field broken: wrong type, out of range, missing, unknown closed enum (${RUNS} cases, seed ${SEED})`, async () => {
    recordWire();
    answer = () => HttpResponse.json({});
    const kinds = new Map<string, number>();
    let skipped = 0;
    await reported(
      {
        scenario: 'Fuzz: invalid params → ValidationError, nothing sent (every method)',
        unit: 'generated calls',
        cases: RUNS,
        command: command('fuzz.test.ts', 'invalid params'),
      },
      () =>
        fc.assert(
          fc.asyncProperty(
            anyBrokenCase.filter((c) => !nonStringQuote(c)),
            async (c) => {
              // Only a field under an anyOf may turn out to fit another branch once broken; anything else must be refused.
              if (c.breakage?.union && !reallyInvalid(c)) {
                skipped++;
                return;
              }
              const kind = c.breakage?.kind ?? 'missing-body';
              kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
              seen = [];
              const error = await Promise.resolve(run(c.id, client(), c.input)).then(
                () => undefined,
                (e: unknown) => e,
              );
              expect(error, `${c.id} ${kind} ${c.breakage?.path.join('.')}: expected a ValidationError`).toBeInstanceOf(ValidationError);
              expect(seen).toEqual([]);
              const v = error as ValidationError;
              expect(v.issues.length).toBeGreaterThan(0);
              expect(v.message).toContain(v.field || '(root)');
              if (c.breakage)
                expect(
                  v.issues.some((i) => related(i.path, c.breakage!.path)),
                  `${JSON.stringify(v.issues)} vs ${c.breakage.path.join('.')}`,
                ).toBe(true);
            },
          ),
          { numRuns: RUNS, seed: SEED },
        ),
    );

    console.log(`[reliability] invalid params: ${JSON.stringify(Object.fromEntries(kinds))}; ${skipped} union breakages fit another branch`);
    // No 'bad-id-prefix': identifiers are never checked by shape (the service decides).
    for (const kind of ['wrong-type', 'out-of-range', 'missing-required', 'unknown-enum']) expect(kinds.get(kind) ?? 0).toBeGreaterThan(0);
    expect(skipped).toBeLessThan(RUNS / 5);
  }, 600_000);

  it(`the ValidationError names the broken field itself, also inside a union (${count(100, 10_000)} cases)`, async () => {
    recordWire();
    answer = () => HttpResponse.json({});
    const runs = count(100, 10_000);
    await reported(
      {
        scenario: 'Fuzz: ValidationError names the broken field (inside unions too)',
        unit: 'generated calls',
        cases: runs,
        command: command('fuzz.test.ts', 'names the broken field'),
      },
      () =>
        fc.assert(
          fc.asyncProperty(
            anyBrokenCase.filter((c) => c.breakage !== undefined && reallyInvalid(c) && !nonStringQuote(c)),
            async (c) => {
              const error = (await Promise.resolve(run(c.id, client(), c.input)).then(
                () => undefined,
                (e: unknown) => e,
              )) as ValidationError;
              const field = c.breakage!.path.join('.');
              expect(error).toBeInstanceOf(ValidationError);
              expect(
                error.issues.map((i) => i.path).filter((path) => path === field || path.startsWith(`${field}.`)),
                `${c.id}: ${field} (${c.breakage!.kind}) → ${error.message}`,
              ).not.toEqual([]);
            },
          ),
          { numRuns: runs, seed: SEED },
        ),
    );
  }, 600_000);

  it('quotes.execute with no quote id (undefined, null, a number, an object without id) is a ValidationError naming quoteId', async () => {
    recordWire();
    answer = () => HttpResponse.json({});
    const wrong: string[] = [];
    for (const quote of [undefined, null, 42, {}, { id: 7, expiresAt: new Date(Date.now() + 60_000).toISOString() }]) {
      seen = [];
      let sync = '';
      const error = await (async () => {
        let pending: PromiseLike<unknown>;
        try {
          pending = client().quotes.execute(quote as never);
        } catch (e) {
          sync = ' (thrown synchronously, not a rejected promise)';
          return e;
        }
        return Promise.resolve(pending).then(
          () => undefined,
          (e: unknown) => e,
        );
      })();
      if (!(error instanceof ValidationError) || error.field !== 'quoteId' || seen.length) {
        wrong.push(`execute(${JSON.stringify(quote)}) → ${(error as Error)?.name}: ${(error as Error)?.message}${sync}; ${seen.length} sent`);
      }
    }
    report({
      scenario: 'quotes.execute without a quote id → ValidationError',
      unit: 'inputs',
      cases: 5,
      failures: wrong.length,
      command: command('fuzz.test.ts', 'no quote id'),
    });
    expect(wrong).toEqual([]);
  });

  it('path parameters that cannot be one URL segment ("", ".", "..") are refused, not sent to another path', async () => {
    recordWire();
    answer = () => HttpResponse.json(SUCCESS.lookupUmaReceiver.body as object);
    const sent: string[] = [];
    for (const address of ['', '.', '..']) {
      seen = [];
      const error = await Promise.resolve(client().receiver.lookupUma(address)).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!(error instanceof ValidationError) || seen.length)
        sent.push(`lookupUma(${JSON.stringify(address)}) → ${seen.map((s) => `${s.method} ${s.url.pathname}`).join(', ') || String(error)}`);
    }
    report({
      scenario: 'Path parameters "", ".", ".." → ValidationError, nothing sent',
      unit: 'inputs',
      cases: 3,
      failures: sent.length,
      command: command('fuzz.test.ts', 'one URL segment'),
    });
    expect(sent).toEqual([]);
  });

  it('a parameter that cannot be put on the wire is refused before sending, never reported as an unknown outcome', async () => {
    recordWire();
    answer = () => HttpResponse.json({});
    const cb = client();
    const cases: [string, () => PromiseLike<unknown>][] = [
      ['lone surrogate in a path id (POST)', () => cb.quotes.execute('Quote:\ud800')],
      ['lone surrogate in a path id (GET)', () => cb.customers.retrieve('Customer:\udfff')],
      ['lone surrogate in a query value', () => cb.customers.list({ platformCustomerId: 'a\ud800' })],
      ['newline in idempotencyKey', () => cb.quotes.execute('Quote:1', { idempotencyKey: 'key\nInjected: 1' })],
      [
        'non-Latin-1 idempotencyKey',
        () =>
          cb.transferIn.create(
            { source: { accountId: 'ExternalAccount:1' }, destination: { accountId: 'InternalAccount:1' }, amount: 1 },
            { idempotencyKey: 'ключ' },
          ),
      ],
      ['newline in a custom header', () => cb.customers.create({ customerType: 'INDIVIDUAL' }, { headers: { 'X-Trace': 'a\r\nb' } })],
      ['newline in a relayed signature', () => cb.auth.sessions.revoke('Session:1', { signature: 'sig\nx', requestId: 'r-1' })],
    ];
    const wrong: string[] = [];
    for (const [name, call] of cases) {
      seen = [];
      const error = await Promise.resolve(call()).then(
        () => undefined,
        (e: unknown) => e,
      );
      const e = error as { name?: string; outcomeUnknown?: boolean; message?: string };
      if (!(error instanceof ValidationError) || seen.length)
        wrong.push(`${name}: ${e?.name} outcomeUnknown=${e?.outcomeUnknown} "${e?.message}", ${seen.length} sent`);
    }
    report({
      scenario: 'Params that cannot go on the wire (lone surrogates, header-unsafe key / header / signature) → ValidationError',
      unit: 'inputs',
      cases: cases.length,
      failures: wrong.length,
      command: command('fuzz.test.ts', 'cannot be put on the wire'),
    });
    expect(wrong).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Malformed responses.

/** One fixed valid input per operation, drawn with the seed. */
const FIXED: Record<OperationId, Input> = Object.fromEntries(IDS.map((id) => [id, fc.sample(validInput(id), { numRuns: 1, seed: SEED })[0]!])) as Record<
  OperationId,
  Input
>;

const STATUSES = [200, 200, 200, 201, 202, 202, 203, 204, 206, 299, 300, 304, 400, 401, 403, 404, 409, 410, 418, 422, 429, 500, 501, 502, 503, 504, 599];
const NULL_BODY = new Set([204, 205, 304]);
const HTML = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>upstream <b>timed out</b></p></body></html>';

/** A random change somewhere in a JSON value: a field removed, or replaced by any JSON. */
function mutateJson(value: unknown, picks: number[], replacement: unknown): unknown {
  if (value === null || typeof value !== 'object') return replacement;
  const copy = structuredClone(value) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const pick of picks) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const k = keys[pick % keys.length]!;
    const child = node[k];
    if (child !== null && typeof child === 'object' && pick % 3 !== 0) {
      node = child as Record<string, unknown>;
      continue;
    }
    if (pick % 5 === 0) delete node[k];
    else node[k] = replacement;
    break;
  }
  return copy;
}

const hugeNumber = fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '1e-400', '9007199254740993', '-0', '0.1e999999');

function bodyFor(id: OperationId): fc.Arbitrary<string> {
  const example = SUCCESS[id].body ?? { data: [], hasMore: false };
  const text = JSON.stringify(example);
  return fc.oneof(
    // Wrong types and missing fields in the documented answer.
    fc
      .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }))
      .map(([picks, r]) => JSON.stringify(mutateJson(example, picks, r))),
    // Any JSON at all.
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    // Huge or odd numbers written into the documented answer.
    fc.tuple(hugeNumber, fc.nat()).map(([n, at]) => {
      const numbers = [...text.matchAll(/-?\d+(\.\d+)?([eE][+-]?\d+)?/g)];
      if (numbers.length === 0) return text.replace(/\}$/, `,"x":${n}}`);
      const m = numbers[at % numbers.length]!;
      return text.slice(0, m.index) + n + text.slice(m.index + m[0].length);
    }),
    fc.constant(text.replace(/"(data|hasMore|nextCursor|id|status)":/, '"$1":1e400,"_":')),
    // Not JSON: empty, HTML, truncated, text, BOM, deep nesting.
    fc.constantFrom(
      '',
      ' ',
      'null',
      'true',
      '[]',
      '"ok"',
      '{}',
      HTML,
      'OK',
      '{"data":[',
      '\ufeff{}',
      `${'['.repeat(3000)}${']'.repeat(3000)}`,
      `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2001)}`,
    ),
    fc.nat().map((n) => text.slice(0, n % Math.max(1, text.length))),
    fc.string({ unit: 'binary', maxLength: 60 }),
  );
}

const malformedResponse = (id: OperationId) =>
  fc.record({
    status: fc.constantFrom(...STATUSES),
    body: bodyFor(id),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/html', 'text/plain', undefined),
    retryAfter: fc.option(
      fc.constantFrom('0', '1', 'abc', '-5', '1.5', '', '99999999999999999999', new Date(Date.now() + 2000).toUTCString(), 'Wed, 21 Oct 2015 07:28:00 GMT'),
      { nil: undefined },
    ),
    requestId: fc.option(fc.string({ unit: fc.constantFrom(...'abcxyz0123_- '), maxLength: 20 }), { nil: undefined }),
    validateResponses: fc.boolean(),
    maxRetries: fc.integer({ min: 0, max: 2 }),
    signer: fc.boolean(),
    iterate: fc.boolean(),
    prefetch: fc.boolean(),
  });

const malformedById = new Map(IDS.map((id) => [id, malformedResponse(id).map((r) => ({ id, r }))]));
const anyMalformedCase = fc.constantFrom(...IDS).chain((id) => malformedById.get(id)!);

describe('fuzz: malformed responses give a CrossborderError or a value, never a crash', () => {
  it(`every method, generated answers: wrong types, missing fields, huge numbers, non-JSON, empty, HTML, truncated (${RUNS} cases, seed ${SEED})`, async () => {
    const outcomes = new Map<string, number>();
    const signerProblems: string[] = [];
    await reported(
      {
        scenario: 'Fuzz: malformed responses → CrossborderError or a value (every method)',
        unit: 'generated answers',
        cases: RUNS,
        command: command('fuzz.test.ts', 'malformed responses'),
      },
      () =>
        fc.assert(
          fc.asyncProperty(anyMalformedCase, async ({ id, r }) => {
            const op = operations[id];
            const headers: Record<string, string> = {};
            if (r.contentType) headers['content-type'] = r.contentType;
            if (r.retryAfter !== undefined) headers['retry-after'] = r.retryAfter;
            if (r.requestId !== undefined) headers['x-request-id'] = r.requestId;
            // The client's own fetch option answers (msw's interception costs more than the SDK under test here).
            const cb = client({
              validateResponses: r.validateResponses,
              maxRetries: r.maxRetries,
              fetch: async (_url, init) => {
                init.signal?.throwIfAborted();
                return new Response(NULL_BODY.has(r.status) ? null : r.body, { status: r.status, headers });
              },
            });
            const input: Input = { ...FIXED[id], options: { ...FIXED[id].options } };
            if (op.signed && r.signer) {
              delete input.options.signature;
              delete input.options.requestId;
              input.options.signer = async (c: unknown) => {
                const ch = c as Record<string, unknown>;
                if (typeof ch?.payloadToSign !== 'string' || typeof ch.requestId !== 'string' || typeof ch.expiresAt !== 'string')
                  signerProblems.push(`${id}: ${JSON.stringify(c)}`);
                return 'c2lnbmF0dXJl';
              };
            }
            if (op.paginated) input.options.prefetch = r.prefetch;
            let outcome: string;
            try {
              if (op.paginated && r.iterate) {
                let n = 0;
                for await (const _ of METHODS[id](cb, input) as AsyncIterable<unknown>) if (++n >= 50) break;
              } else {
                const value = await run(id, cb, input);
                // A 2xx without the resource is not a success: an operation with a documented answer resolves to an
                // object (a bare value or an array is not the resource); a DELETE to nothing or an object; a POST the
                // document answers 204 (SCA's resend) to whatever a 2xx carried, as the service sent it.
                const resource = value !== null && typeof value === 'object' && !Array.isArray(value);
                if (op.method === 'DELETE' ? value !== undefined && !resource : op.resource === true && !resource) {
                  throw new Error(`${id} resolved to ${JSON.stringify(value)} from a ${r.status} answer: a 2xx without the resource must be an error`);
                }
              }
              outcome = 'resolved';
            } catch (error) {
              if (!(error instanceof CrossborderError)) throw error;
              outcome = error.name;
            }
            outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          }),
          { numRuns: RUNS, seed: SEED },
        ),
    );

    console.log(`[reliability] malformed responses: ${JSON.stringify(Object.fromEntries(outcomes))}`);
    expect(signerProblems).toEqual([]);
    expect(outcomes.get('resolved') ?? 0).toBeGreaterThan(0);
    expect(outcomes.size).toBeGreaterThan(4);
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// Webhooks.

let keys: WebhookKeyPair;
let otherKeys: WebhookKeyPair;
beforeAll(async () => {
  keys = await generateWebhookKeyPair();
  otherKeys = await generateWebhookKeyPair();
});

const eventArbitrary = arbitraryOf(jsonSchemaOf(zod.zWebhookEvent)).filter((v) => (zod.zWebhookEvent as unknown as Zod).safeParse(v).success);

describe('fuzz: webhook bodies and signatures give only WebhookVerificationError', () => {
  it(`cb.webhooks.unwrap / verify with generated bodies, signatures, headers and keys (${RUNS} cases, seed ${SEED})`, async () => {
    const reasons = new Map<string, number>();
    const body = fc.oneof(
      { weight: 3, arbitrary: eventArbitrary.map((e) => JSON.stringify(e)) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(eventArbitrary, fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }))
          .map(([e, picks, r]) => JSON.stringify(mutateJson(e, picks, r))),
      },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
      { weight: 1, arbitrary: fc.constantFrom('', 'null', '{"id":"Webhook:1","type":"TEST","timestamp":"2025-02-30T00:00:00Z","data":{}}', HTML, '\ufeff{}') },
    );
    const delivery = fc.record({
      body,
      sign: fc.constantFrom('right', 'right', 'other-key', 'tampered', 'random', 'none', 'cut', 'padded'),
      random: fc.oneof(fc.string({ maxLength: 120 }), fc.base64String({ maxLength: 100 }), fc.constantFrom('', ' ', '=', 'MEUCIQ==', 'a'.repeat(5000))),
      container: fc.constantFrom('string', 'bytes', 'arraybuffer', 'request', 'used-request', 'dataview', 'object', 'number'),
      headerStyle: fc.constantFrom('plain', 'upper', 'array', 'headers', 'missing', 'undefined'),
      key: fc.constantFrom('client', 'pem', 'hex', '0xhex', 'other', 'garbage', 'private', 'empty'),
      maxAge: fc.option(fc.integer({ min: 0, max: 10 ** 12 }), { nil: undefined }),
      verifyOnly: fc.boolean(),
    });
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', baseUrl: BASE, webhookPublicKey: keys.publicKeyPem });
    await reported(
      {
        scenario: 'Fuzz: webhook bodies and signatures → only WebhookVerificationError',
        unit: 'generated deliveries',
        cases: RUNS,
        command: command('fuzz.test.ts', 'webhook'),
      },
      () =>
        fc.assert(
          fc.asyncProperty(delivery, async (d) => {
            const bytes = new TextEncoder().encode(d.body);
            let signature: string | undefined;
            if (d.sign === 'right' || d.sign === 'cut' || d.sign === 'padded') signature = await signWebhook(d.body, keys.privateKeyPem);
            if (d.sign === 'other-key') signature = await signWebhook(d.body, otherKeys.privateKeyPem);
            if (d.sign === 'tampered') signature = await signWebhook(`${d.body} `, keys.privateKeyPem);
            if (d.sign === 'random') signature = d.random;
            if (d.sign === 'cut') signature = signature!.slice(0, Math.max(0, signature!.length - 3));
            if (d.sign === 'padded') signature = ` ${signature}==`;
            const headerValid = signature === undefined || /^[\t\x20-\x7e\x80-\xff]*$/.test(signature);
            let headers: Record<string, string | string[] | undefined> | Headers | undefined;
            switch (d.headerStyle) {
              case 'plain':
                headers = { 'x-service-signature': signature };
                break;
              case 'upper':
                headers = { 'X-SERVICE-SIGNATURE': signature, 'content-type': 'application/json' };
                break;
              case 'array':
                headers = { 'x-service-signature': signature === undefined ? [] : [signature, 'second'] };
                break;
              case 'headers':
                headers = headerValid && signature !== undefined ? new Headers({ 'x-service-signature': signature }) : new Headers();
                break;
              case 'missing':
                headers = {};
                break;
              case 'undefined':
                headers = undefined;
            }
            const request = () =>
              new Request('https://platform.example/hooks', {
                method: 'POST',
                body: bytes,
                headers: headerValid && signature !== undefined ? { 'x-service-signature': signature } : {},
              });
            let raw: unknown;
            switch (d.container) {
              case 'string':
                raw = d.body;
                break;
              case 'bytes':
                raw = bytes;
                break;
              case 'arraybuffer':
                raw = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
                break;
              case 'dataview':
                raw = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
                break;
              case 'request':
                raw = request();
                break;
              case 'used-request': {
                const r = request();
                await r.text();
                raw = r;
                break;
              }
              case 'object':
                raw = { parsed: d.body };
                break;
              case 'number':
                raw = 42;
            }
            const publicKey = {
              client: undefined,
              pem: keys.publicKeyPem,
              hex: keys.publicKeyHex,
              '0xhex': `0x${keys.publicKeyHex}`,
              other: otherKeys.publicKeyPem,
              garbage: d.random,
              private: keys.privateKeyPem,
              empty: ' ',
            }[d.key];
            try {
              if (d.verifyOnly) await cb.webhooks.verify(raw as string, headers, { publicKey });
              else await cb.webhooks.unwrap(raw as string, headers, { publicKey, maxAge: d.maxAge });
              reasons.set('ok', (reasons.get('ok') ?? 0) + 1);
            } catch (error) {
              if (!(error instanceof WebhookVerificationError)) throw error;
              reasons.set(error.reason, (reasons.get(error.reason) ?? 0) + 1);
            }
          }),
          { numRuns: RUNS, seed: SEED },
        ),
    );

    console.log(`[reliability] webhooks: ${JSON.stringify(Object.fromEntries(reasons))}`);
    for (const reason of ['ok', 'invalid_signature', 'malformed_signature', 'missing_header', 'invalid_key', 'invalid_body'])
      expect(reasons.get(reason) ?? 0).toBeGreaterThan(0);
  }, 600_000);
});

if (FULL) {
  console.log(`[reliability] fuzz: full run, ${RUNS} cases per property`);
}
