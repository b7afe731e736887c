/**
 * Production's answers to the shared operations (issue 27, items 5 and 6), read by the client over a
 * stub fetch: 201 and 202 where the spec says 200, field errors on a 400, production's error codes, and
 * a 429 DAILY_VOLUME_LIMIT_EXCEEDED that is never retried.
 */
import { describe, expect, it } from 'vitest';
import { BadRequestError, Crossborder, RateLimitError, SignatureRequiredError } from '../../src/index';
import { rejected, testCrossborder } from '../helpers/client';
import { json } from '../helpers/responses';

const CUSTOMER = {
  id: 'Customer:019542f5-b3e7-1d02-0000-000000000001',
  platformCustomerId: 'cust-7781',
  customerType: 'INDIVIDUAL',
  umaAddress: '$ada@platform.example',
  region: 'US',
  currencies: ['USD'],
  createdAt: '2025-10-13T09:30:00Z',
  updatedAt: '2025-10-13T09:30:00Z',
  isDeleted: false,
  kycStatus: 'UNVERIFIED',
  fullName: 'Ada Lovelace',
};

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** A client whose every call is answered by `answer` (in order), recording what was sent. */
function stub(...answers: Array<() => Response>) {
  const seen: Seen[] = [];
  // The environment left to its default ('unknown' with a baseUrl of its own).
  const { cb, sleeps } = testCrossborder({
    environment: undefined,
    maxRetries: 3,
    fetch: async (url, init) => {
      seen.push({ method: init.method ?? 'GET', url, headers: { ...(init.headers as Record<string, string>) } });
      const next = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      return next();
    },
  });
  return { cb, seen, sleeps };
}

/** A factory of the answer, as production sends it (with an X-Request-Id). */
const answer =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    json(body, status, { 'x-request-id': 'req_1', ...headers });

describe('status codes production answers', () => {
  it('201 on a create is the created resource, as 200 is', async () => {
    const { cb } = stub(answer(201, CUSTOMER));
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    expect(customer.id).toBe(CUSTOMER.id);
    expect(customer).toMatchObject({ fullName: 'Ada Lovelace' });
  });

  it('202 carrying the resource (no challenge fields) is the resource, even on an operation that signs', async () => {
    const { cb, seen } = stub(answer(202, { ...CUSTOMER, fullName: 'Ada King' }));
    const customer = await cb.customers.update(CUSTOMER.id, { fullName: 'Ada King' });
    expect(customer).toMatchObject({ fullName: 'Ada King' });
    expect(seen).toHaveLength(1);
  });

  it('202 with a payloadToSign on PATCH /customers is the challenge: relayed, then signed', async () => {
    const challenge = { payloadToSign: '{"requestId":"Request:1"}', requestId: 'Request:1', expiresAt: new Date(Date.now() + 60_000).toISOString() };
    const { cb, seen } = stub(answer(202, challenge), answer(200, { ...CUSTOMER, email: 'ada@example.com' }));
    const error = await rejected(cb.customers.update(CUSTOMER.id, { fullName: 'Ada' }));
    expect(error).toBeInstanceOf(SignatureRequiredError);
    expect(error.challenge).toMatchObject({ payloadToSign: challenge.payloadToSign, requestId: 'Request:1' });
    const updated = await cb.customers.update(CUSTOMER.id, { fullName: 'Ada' }, { signature: 'stamp', requestId: 'Request:1' });
    expect(updated.id).toBe(CUSTOMER.id);
    expect(seen[1]!.headers['request-id']).toBe('Request:1');
    expect(seen[1]!.headers['service-wallet-signature']).toBe('stamp');
  });
});

describe('errors production answers', () => {
  it("Error400's details.errors[] surface as ValidationIssues on the BadRequestError", async () => {
    const { cb } = stub(
      answer(400, {
        status: 400,
        code: 'INVALID_INPUT',
        message: 'Invalid customer fields',
        details: {
          errors: [
            { field: 'address.postalCode', message: 'Value does not match the pattern.', constraint: { pattern: '^\\d{5}$' } },
            { field: 'birthDate', constraint: { format: 'date' } },
            { field: 'taxIdType', constraint: { enum: ['SSN', 'ITIN'] } },
          ],
        },
      }),
    );
    const error = await rejected(cb.customers.create({ customerType: 'INDIVIDUAL' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.issues).toEqual([
      { path: 'address.postalCode', rule: 'invalid_format', message: 'Value does not match the pattern.' },
      { path: 'birthDate', rule: 'invalid_format', message: 'refused: {"format":"date"}' },
      { path: 'taxIdType', rule: 'invalid_value', message: 'refused: {"enum":["SSN","ITIN"]}' },
    ]);
    expect(error.field).toBe('address.postalCode');
  });

  it('a 400 without field errors has no issues; a malformed errors entry is skipped, not thrown', async () => {
    const { cb } = stub(
      answer(400, {
        status: 400,
        code: 'TRANSACTION_SIZE_LIMIT_EXCEEDED',
        message: 'too big',
        details: { errors: [42, { message: 'no field' }, { field: 'lockedCurrencyAmount' }] },
      }),
    );
    const error = await rejected(cb.customers.create({ customerType: 'INDIVIDUAL' }));
    expect(error.code).toBe('TRANSACTION_SIZE_LIMIT_EXCEEDED');
    expect(error.issues).toEqual([{ path: 'lockedCurrencyAmount', rule: 'invalid', message: 'refused: {}' }]);
    const plain = await rejected(stub(answer(400, { status: 400, code: 'INVALID_INPUT', message: 'no' })).cb.customers.create({ customerType: 'INDIVIDUAL' }));
    expect(plain.issues).toEqual([]);
    expect(plain.field).toBeUndefined();
  });

  it('429 DAILY_VOLUME_LIMIT_EXCEEDED is not retried, even on a read, and the error says so', async () => {
    const { cb, seen, sleeps } = stub(
      answer(429, { code: 'DAILY_VOLUME_LIMIT_EXCEEDED', reason: 'Daily volume limit reached for USD->MXN' }, { 'retry-after': '1' }),
    );
    const error = await rejected(cb.customers.retrieve(CUSTOMER.id));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.code).toBe('DAILY_VOLUME_LIMIT_EXCEEDED');
    expect(error.dailyVolumeLimitExceeded).toBe(true);
    expect(error.message).toContain('Daily volume limit reached for USD->MXN'); // production's `reason`
    expect(error.message).toMatch(/not a rate limit.*not retried/);
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('429 RATE_LIMITED on a read is still retried after Retry-After', async () => {
    const { cb, seen, sleeps } = stub(answer(429, { code: 'RATE_LIMITED', reason: 'slow down' }, { 'retry-after': '1' }), answer(200, CUSTOMER));
    const customer = await cb.customers.retrieve(CUSTOMER.id);
    expect(customer.id).toBe(CUSTOMER.id);
    expect(seen).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });
});
