/**
 * What a user sees of the pipeline's edges: the logger's drift report (message and fields), options
 * whose header values cannot be sent (named by option), a URL that cannot be built, request() on a
 * production client, and the core's own reject() and sleep(). Written against the survivors of the
 * mutation run of client.ts (issue 22).
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors';
import { getCustomer } from '../../src/generated/operations'; // its checks module loads its resource's response checks
import { request } from '../../src/functions';
import { op, rejected, testClient } from '../helpers/client';

const json = (body: unknown, status = 200) => Response.json(body, { status });

describe('drift reports', () => {
  it('to a warn logger: the message names the first issue, the fields carry the whole report', async () => {
    const warned: [string, unknown][] = [];
    const logger = { debug() {}, info() {}, warn: (m: string, f: unknown) => void warned.push([m, f]), error() {} };
    const { client } = testClient({ fetch: async () => json({ id: 'Customer:1' }), validateResponses: true, logger, logLevel: 'warn' });
    await client.call(getCustomer, { path: { customerId: 'Customer:1' } });
    expect(warned).toHaveLength(1);
    const [message, fields] = warned[0]!;
    const { issues } = fields as { issues: { path: string; message: string }[] };
    expect(message).toBe(`GET /customers/{customerId} answered 200 with a body that differs from the document: ${issues[0]!.path}: ${issues[0]!.message}`);
    expect(issues[0]!.path).not.toBe('');
    expect(fields).toMatchObject({ operation: 'GET /customers/{customerId}', status: 200 });
  });

  it('an answer without issues, or of an operation the document does not check, is not reported', async () => {
    const reports: unknown[] = [];
    const { client } = testClient({ fetch: async () => json({ id: 'X:1' }), validateResponses: true, onValidationIssue: (r) => void reports.push(r) });
    await client.call(op({ method: 'GET', path: '/x', id: 'notADocumentOperation', response: 'Nothing' }));
    expect(reports).toEqual([]);
  });
});

describe('options and parameters that cannot go on the wire', () => {
  it('an idempotencyKey, signature or requestId that is no header value is refused, named by its option', async () => {
    let sent = 0;
    const { client } = testClient({ fetch: async () => (sent++, json({})) });
    const keyed = op({ method: 'POST', path: '/k', idempotent: true });
    const paths = async (options: object) =>
      (await rejected(client.call(keyed, { body: {} }, options))).issues.map((i: { path: string; rule: string }) => `${i.path}:${i.rule}`);
    expect(await paths({ idempotencyKey: 'k\n1' })).toEqual(['options.idempotencyKey:invalid_header']);
    expect(await paths({ headers: { 'Idempotency-Key': 'k\n2' } })).toEqual(['options.idempotencyKey:invalid_header']);
    expect(await paths({ signature: 's\n', requestId: 'r' })).toEqual(['options.signature:invalid_header']);
    expect(await paths({ signature: 's', requestId: 'r\n' })).toEqual(['options.requestId:invalid_header']);
    expect(sent).toBe(0);
  });

  it('a query value the URL cannot carry (a lone surrogate inside a list) is a ValidationError, nothing sent', async () => {
    let sent = 0;
    const { client } = testClient({ fetch: async () => (sent++, json({})) });
    const err = await rejected(client.call(op({ method: 'GET', path: '/x' }), { query: { q: ['a\ud800'] } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues).toEqual([{ path: '', rule: 'unsendable', message: 'the request cannot be built: URI malformed' }]);
    expect(sent).toBe(0);
  });
});

describe('the core itself', () => {
  it('request(core, …) on a production client is sent (it is no sandbox-only operation)', async () => {
    const urls: string[] = [];
    const { client } = testClient({ environment: 'production', fetch: async (url) => (urls.push(url), json({ ok: true })) });
    await expect(request(client, 'POST', '/sandbox/send', { body: {} })).resolves.toEqual({ ok: true });
    expect(urls).toEqual(['https://api.test.invalid/2025-10-13/sandbox/send']);
  });

  it('reject() is a rejected call promise; sleep() waits with the injected sleep', async () => {
    const { client, sleeps } = testClient();
    const error = new Error('refused early');
    await expect(client.reject(error)).rejects.toBe(error);
    await client.sleep(1234);
    expect(sleeps).toEqual([1234]);
  });
});
