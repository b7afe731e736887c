/**
 * The errors' own properties: every field is there (undefined when the answer had no value), in the order
 * it is declared, whatever the build (the fields are `declare`d and set by the constructors: issue 36).
 * `JSON.stringify`, `util.inspect` and `Object.keys` of an error show them in this order.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  BadRequestError,
  RateLimitError,
  ResponseValidationError,
  SignatureRequiredError,
  ValidationError,
  WebhookVerificationError,
} from '../../src/index';

const API_FIELDS = ['name', 'status', 'code', 'details', 'requestId', 'headers', 'idempotencyKey', 'operation', 'outcomeUnknown', 'retryAfter'];

describe('error fields', () => {
  it('are own properties in their declared order, undefined ones included', () => {
    const cases: [Error, string[]][] = [
      [new APIError({ status: 500 }), API_FIELDS],
      [new BadRequestError({ status: 400 }), [...API_FIELDS, 'issues', 'field']],
      [new RateLimitError({ status: 429, code: 'DAILY_VOLUME_LIMIT_EXCEEDED' }), [...API_FIELDS, 'dailyVolumeLimitExceeded']],
      [new APIConnectionError('down', { outcomeUnknown: false }), ['name', 'outcomeUnknown', 'idempotencyKey', 'operation', 'status', 'requestId']],
      [new APITimeoutError('slow', { outcomeUnknown: true }), ['name', 'outcomeUnknown', 'idempotencyKey', 'operation', 'status', 'requestId']],
      [new APIUserAbortError('stop', { outcomeUnknown: false }), ['name', 'idempotencyKey', 'outcomeUnknown', 'operation']],
      [new ValidationError([{ path: 'a', rule: 'required', message: 'missing' }]), ['name', 'issues', 'field']],
      [new SignatureRequiredError({ payloadToSign: 'p', requestId: 'r', expiresAt: '2030-01-01T00:00:00Z' }), ['name', 'challenge', 'idempotencyKey']],
      [new ResponseValidationError([], { status: 200 }), ['name', 'issues', 'status', 'requestId', 'operation']],
      [new WebhookVerificationError('invalid_signature', 'no'), ['name', 'reason']],
    ];
    for (const [error, fields] of cases) expect(Object.keys(error), error.name).toEqual(fields);
  });

  it('show every field by name, in JSON without the undefined ones', () => {
    const error = new APIError({ status: 503, code: 'UNAVAILABLE', requestId: 'req_1', operation: 'GET /customers' });
    expect(JSON.stringify(error)).toBe(
      '{"name":"APIError","message":"503 UNAVAILABLE: request failed (request req_1)","status":503,"code":"UNAVAILABLE","requestId":"req_1","headers":{},"operation":"GET /customers","outcomeUnknown":false}',
    );
    expect(inspect(error)).toMatch(
      /status: 503,\s+code: 'UNAVAILABLE',\s+details: undefined,\s+requestId: 'req_1',\s+headers: \{\},\s+idempotencyKey: undefined,\s+operation: 'GET \/customers',\s+outcomeUnknown: false,\s+retryAfter: undefined/,
    );
  });
});
