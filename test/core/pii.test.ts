/**
 * Personal data never reaches the debug log or an error (issue 22, defect 4). A property test plants
 * PII values at random paths of random bodies (inside account info, beneficiary, identity and address
 * objects, under fields the document names and under fields it does not; under the always-masked
 * names anywhere; and past the depth limit anywhere), sends each body and gets it back as the answer
 * and as an error's details, and looks for every planted value in what the console, pino and the
 * error (message, JSON, inspect) show.
 */
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import fc from 'fast-check';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maskBody, PII_ALLOWED_FIELDS } from '../../src/core/logger';
import { op, rejected, testClient } from '../helpers/client';

/** A value that is personal data: unique, so finding it anywhere in the output is a leak. */
const piiValue = fc
  .tuple(
    fc.constantFrom(
      'iban DE89370400440532013000',
      'Ada Lovelace',
      'ada@example.org',
      '+44 20 7946 0958',
      '1815-12-10',
      '12 Rue de Rivoli',
      'CPF 123.456.789-09',
    ),
    fc.nat(),
  )
  .map(([kind, n]) => `${kind} #pii${n}#`);

/** Field names the document gives personal data, and the names it has not given yet. */
const knownPiiField = fc.constantFrom(
  'iban',
  'bic',
  'fullName',
  'birthDate',
  'nationality',
  'countryOfResidence',
  'email',
  'phoneNumber',
  'line1',
  'line2',
  'city',
  'postalCode',
  'state',
  'country',
  'taxId',
  'accountNumber',
  'routingNumber',
  'pixKey',
  'bankName',
  'legalName',
  'registrationNumber',
);
const unknownField = fc
  .stringMatching(/^[a-z][A-Za-z0-9]{0,11}$/)
  .filter((k) => !PII_ALLOWED_FIELDS.has(k) && k !== 'accountType' && k !== 'customerType' && k !== 'beneficiaryType');
const anyPiiField = fc.oneof(knownPiiField, unknownField);

/** How a body names a PII object: by the field holding it, or by its own shape (an open-union account). */
const container = fc.oneof(
  fc
    .constantFrom(
      'accountInfo',
      'beneficiary',
      'address',
      'businessInfo',
      'senderCustomerInfo',
      'receiverCustomerInfo',
      'counterpartyInformation',
      'beneficiaryVerifiedData',
    )
    .map((key) => ({ key, shape: {} })),
  fc
    .tuple(unknownField, fc.constantFrom('EUR_ACCOUNT', 'USD_ACCOUNT', 'MXN_CLABE', 'SPARK_WALLET', 'SOMETHING_NEW'))
    .map(([key, accountType]) => ({ key, shape: { accountType } })),
  fc
    .tuple(unknownField, fc.constantFrom('INDIVIDUAL', 'BUSINESS'))
    .map(([key, customerType]) => ({ key, shape: { id: 'Customer:1', customerType, kycStatus: 'APPROVED' } })),
  fc.tuple(unknownField, fc.constant('INDIVIDUAL')).map(([key, beneficiaryType]) => ({ key, shape: { beneficiaryType } })),
);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Sets `value` at `path` (field names, or `[]` for an array of one element) under `root`. */
function plant(root: Record<string, Json>, path: string[], value: Json): void {
  let node: Record<string, Json> | Json[] = root;
  for (const step of path) {
    if (Array.isArray(node)) {
      const next: Record<string, Json> = {};
      node.push(step === '[]' ? [next] : { [step]: next });
      node = next;
      continue;
    }
    const existing: Json | undefined = node[step];
    if (existing !== null && typeof existing === 'object') node = existing;
    else node = node[step] = step.endsWith('s') ? [] : {};
  }
  if (Array.isArray(node)) node.push(value);
  else node[`f${Object.keys(node).length}`] = value;
}

interface Planted {
  body: Record<string, Json>;
  values: string[];
}

/** A random, non-personal body (amounts, statuses, ids) with PII planted in it. */
const plantedBody: fc.Arbitrary<Planted> = fc
  .record({
    filler: fc.dictionary(unknownField, fc.oneof(fc.integer(), fc.constantFrom('PENDING', 'USD', 'Quote:1'), fc.boolean()), { maxKeys: 4 }),
    // Inside a PII object: at a random depth below it, under a known or an unknown field.
    inside: fc.array(
      fc.record({
        outer: fc.array(unknownField, { maxLength: 3 }),
        box: container,
        inner: fc.array(fc.oneof(anyPiiField, fc.constant('[]')), { maxLength: 3 }),
        field: anyPiiField,
        value: piiValue,
      }),
      { maxLength: 4 },
    ),
    // The always-masked names, anywhere.
    named: fc.array(
      fc.record({
        path: fc.array(unknownField, { maxLength: 4 }),
        field: fc.constantFrom('nationality', 'countryOfResidence', 'fullName', 'email', 'iban', 'taxId', 'umaAddress'),
        value: piiValue,
      }),
      { maxLength: 3 },
    ),
    // Past the depth limit, under any name.
    deep: fc.array(fc.record({ extra: fc.integer({ min: 32, max: 45 }), field: unknownField, value: piiValue }), { maxLength: 2 }),
  })
  .map(({ filler, inside, named, deep }) => {
    const body: Record<string, Json> = { ...filler };
    const values: string[] = [];
    for (const { outer, box, inner, field, value } of inside) {
      const holder: Record<string, Json> = {};
      plant(body, outer, holder);
      const target = (holder[box.key] = { ...(box.shape as Record<string, Json>) });
      let node: Record<string, Json> = target;
      for (const step of inner)
        node = node[step] !== null && typeof node[step] === 'object' && !Array.isArray(node[step]) ? node[step] : (node[step] = {} as Record<string, Json>);
      node[field] = value;
      values.push(value);
    }
    for (const { path, field, value } of named) {
      let node: Record<string, Json> = body;
      for (const step of path)
        node = node[step] !== null && typeof node[step] === 'object' && !Array.isArray(node[step]) ? node[step] : (node[step] = {} as Record<string, Json>);
      node[field] = value;
      values.push(value);
    }
    for (const { extra, field, value } of deep) {
      let node: Record<string, Json> = body;
      for (let i = 0; i < extra; i++) node = (node[`level${i}`] ??= {}) as Record<string, Json>;
      node[field] = value;
      values.push(value);
    }
    return { body, values };
  });

const echo = op({ method: 'POST', path: '/echo' });
const failing = op({ method: 'POST', path: '/fail' });

/** A client whose service answers the body it was sent: as the answer (200), or as an error's details (400). */
function echoClient(logger: unknown) {
  return testClient({
    logger: logger as never,
    logLevel: 'debug',
    maxRetries: 0,
    fetch: async (url, init) => {
      const sent = JSON.parse(String(init.body)) as unknown;
      const fail = url.endsWith('/fail');
      const answer = fail ? { code: 'INVALID_INPUT', message: 'the request was refused', details: sent } : sent;
      return new Response(JSON.stringify(answer), { status: fail ? 400 : 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } });
    },
  }).client;
}

function leaks(text: string, values: string[]): string[] {
  return values.filter((v) => text.includes(v) || text.includes(v.split(' #')[1]!));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('personal data in the debug log and in errors (issue 22, defect 4)', () => {
  it('console at debug: no planted value in what it prints', async () => {
    const printed: string[] = [];
    for (const level of ['debug', 'info', 'warn', 'error', 'log'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        printed.push(
          args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }))).join(' '),
        );
      });
    }
    const client = echoClient(console);
    await fc.assert(
      fc.asyncProperty(plantedBody, async ({ body, values }) => {
        printed.length = 0;
        await client.call(echo, { body });
        expect(printed.length).toBeGreaterThanOrEqual(2);
        expect(leaks(printed.join('\n'), values)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('pino at debug (no depth limit of its own): no planted value in its JSON lines', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ level: 'debug', depthLimit: 1_000, edgeLimit: 10_000 }, sink);
    const client = echoClient(logger);
    await fc.assert(
      fc.asyncProperty(plantedBody, async ({ body, values }) => {
        lines.length = 0;
        await client.call(echo, { body });
        await new Promise((r) => setImmediate(r));
        expect(lines.length).toBeGreaterThanOrEqual(2);
        expect(leaks(lines.join('\n'), values)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('an error whose details carry the body: no planted value in its message, JSON or inspect', async () => {
    const client = echoClient(undefined);
    await fc.assert(
      fc.asyncProperty(plantedBody, async ({ body, values }) => {
        const err = await rejected(client.call(failing, { body }));
        expect(err.status).toBe(400);
        expect(err.details).toBeDefined();
        const shown = [
          err.message,
          JSON.stringify(err),
          inspect(err, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }),
          String(err),
        ].join('\n');
        expect(leaks(shown, values)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('the defects as reported: an open-union account, nationality and countryOfResidence, past 32 levels', () => {
    const account = {
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada', nationality: 'GB', countryOfResidence: 'FR' },
    };
    expect(maskBody({ id: 'ExternalAccount:1', currency: 'EUR', status: 'ACTIVE', accountInfo: account })).toEqual({
      id: 'ExternalAccount:1',
      currency: 'EUR',
      status: 'ACTIVE',
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: '[redacted]',
        bic: '[redacted]',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: '[redacted]', nationality: '[redacted]', countryOfResidence: '[redacted]' },
      },
    });
    // The account object recognised by its own shape, under a field no one knows yet.
    expect(maskBody({ payoutTarget: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000' } })).toEqual({
      payoutTarget: { accountType: 'EUR_ACCOUNT', iban: '[redacted]' },
    });
    // A customer (identity): the allow-list shows, the rest does not.
    expect(
      maskBody({
        id: 'Customer:9',
        customerType: 'INDIVIDUAL',
        kycStatus: 'APPROVED',
        currencies: ['USD', 'EUR'],
        nationality: 'GB',
        region: 'GB',
        somethingNew: 'x',
      }),
    ).toEqual({
      id: 'Customer:9',
      customerType: 'INDIVIDUAL',
      kycStatus: 'APPROVED',
      currencies: ['USD', 'EUR'],
      nationality: '[redacted]',
      region: '[redacted]',
      somethingNew: '[redacted]',
    });
    // Names masked anywhere, even outside a PII object.
    expect(maskBody({ update: { nationality: 'GB', countryOfResidence: 'FR', amount: 5 } })).toEqual({
      update: { nationality: '[redacted]', countryOfResidence: '[redacted]', amount: 5 },
    });
    // An allow-listed field whose value is not an id, a code or a status is masked too.
    expect(maskBody({ accountInfo: { accountType: 'EUR_ACCOUNT', status: 'Ada Lovelace', id: 'ada@example.org', currency: 'euros of Ada' } })).toEqual({
      accountInfo: { accountType: 'EUR_ACCOUNT', status: '[redacted]', id: '[redacted]', currency: '[redacted]' },
    });
    // Past the depth limit: redacted, not passed through.
    let deep: Record<string, unknown> = { secret: 'DE89370400440532013000' };
    for (let i = 0; i < 40; i++) deep = { next: deep };
    expect(JSON.stringify(maskBody(deep))).not.toContain('DE89370400440532013000');
    expect(JSON.stringify(maskBody(deep))).toContain('[redacted]');
  });
});
