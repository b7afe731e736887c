import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { useMswServer } from '../helpers/msw';
import { maskBody } from '../../src/core/logger';
import { op, rejected, SECRET, testClient } from '../helpers/client';

const BASE = 'https://api.test.invalid/2025-10-13';
const mswServer = useMswServer();

function recorder() {
  const lines: { level: string; message: string; details?: unknown }[] = [];
  const at = (level: string) => (message: string, details?: unknown) => lines.push({ level, message, details });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('logging', () => {
  it('at debug, logs requests with secrets redacted and personal fields masked', async () => {
    mswServer.use(
      http.post(`${BASE}/auth/credentials`, () =>
        HttpResponse.json({ id: 'AuthMethod:1', encryptedSessionSigningKey: 'deadbeef'.repeat(8) }, { status: 201 }),
      ),
    );
    const { lines, logger } = recorder();
    const { client } = testClient({ logger, logLevel: 'debug' });
    await client.call(op({ method: 'POST', path: '/auth/credentials' }), {
      body: { otp: '123456', oidcToken: 'eyJhbGciOi.secret.token', fullName: 'Ada Lovelace', address: { line1: '1 Main' }, amount: 5 },
      header: { 'Service-Wallet-Signature': 'stamp-secret' },
    });
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const secret of [SECRET, Buffer.from(`tok_test:${SECRET}`).toString('base64'), '123456', 'eyJhbGciOi.secret.token', 'Ada Lovelace', '1 Main', 'stamp-secret', 'deadbeef']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('"amount":5'); // non-sensitive fields stay readable
    expect(text).toContain('[redacted]');
  });

  it('formats nothing when the level is off', async () => {
    mswServer.use(http.get(`${BASE}/x`, () => HttpResponse.json({})));
    let built = 0;
    const logger = new Proxy({}, { get: () => () => built++ });
    const { client } = testClient({ logger: logger as never, logLevel: 'off' });
    await client.call(op({ method: 'GET', path: '/x' }));
    expect(built).toBe(0);
  });

  it('logs retries at info', async () => {
    let n = 0;
    mswServer.use(http.get(`${BASE}/x`, () => (n++ === 0 ? HttpResponse.json({}, { status: 500 }) : HttpResponse.json({}))));
    const { lines, logger } = recorder();
    const { client } = testClient({ logger, logLevel: 'info' });
    await client.call(op({ method: 'GET', path: '/x' }));
    // One line per attempt (method, path, status, ms, request id, attempt) and one for the retry.
    expect(lines.map((l) => l.message.replace(/\d+ms/, 'Nms'))).toEqual(['GET /x 500 Nms', 'GET /x: status 500; retrying in ' + lines[1]!.message.match(/\d+ ms/)![0], 'GET /x 200 Nms']);
    expect(lines[0]!.details).toMatchObject({ method: 'GET', path: '/x', status: 500, attempt: 1 });
    expect(lines[2]!.details).toMatchObject({ method: 'GET', path: '/x', status: 200, attempt: 2 });
    expect(lines.map((l) => l.level)).toEqual(['info', 'info', 'info']);
  });

  it('maskBody masks at any depth and leaves the input untouched', () => {
    const input = { a: [{ accountNumber: '123' }], beneficiary: { fullName: 'X', email: 'x@y' } };
    expect(maskBody(input)).toEqual({ a: [{ accountNumber: '[redacted]' }], beneficiary: { fullName: '[redacted]', email: '[redacted]' } });
    expect(input.a[0]!.accountNumber).toBe('123');
  });
});
