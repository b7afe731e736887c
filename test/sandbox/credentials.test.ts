/**
 * 401 and 403 on demand (issue 50 §7): the magic token ids MAGIC.unauthorizedTokenId and
 * MAGIC.forbiddenTokenId are refused with the service's error bodies (production's Error401 and
 * Error403), nothing acted upon; every other credential is still accepted. Through the SDK client,
 * in-process and over HTTP on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, Crossborder, PermissionDeniedError } from '../../src/index';
import { MAGIC, createSandbox, type Sandbox } from '../../src/sandbox/index';
import { VERSION } from './helpers';

const SECRET = 'sk_sandbox_do_not_echo_7f3a';

const transports: [string, (sandbox: Sandbox) => Promise<{ baseUrl: string; fetch: typeof fetch }>][] = [
  ['in-process', async (sandbox) => ({ baseUrl: 'http://sandbox.test', fetch: sandbox.fetch })],
  [
    'HTTP',
    async (sandbox) => {
      const server = await sandbox.listen(0, '127.0.0.1');
      expect(new URL(server.url).hostname).toBe('127.0.0.1');
      return { baseUrl: server.url, fetch: (input, init) => fetch(input, init) };
    },
  ],
];

describe.each(transports)('magic credentials, %s', (_name, connect) => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  async function start() {
    sandbox = createSandbox();
    const transport = await connect(sandbox);
    const client = (tokenId: string, clientSecret = SECRET) =>
      new Crossborder({ tokenId, clientSecret, environment: 'sandbox', baseUrl: transport.baseUrl, fetch: transport.fetch, maxRetries: 0 });
    const raw = (tokenId: string, method = 'GET', path = '/customers', body?: unknown) =>
      transport.fetch(`${transport.baseUrl}/${VERSION}${path}`, {
        method,
        headers: { authorization: `Basic ${btoa(`${tokenId}:${SECRET}`)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    return { client, raw };
  }

  const person = { customerType: 'INDIVIDUAL' as const, region: 'US', fullName: 'Ada Lovelace', birthDate: '1990-12-10', nationality: 'GB' };

  it(`token id ${MAGIC.unauthorizedTokenId}: AuthenticationError 401 UNAUTHORIZED, the service's body, nothing created`, async () => {
    const { client, raw } = await start();
    const err = await client(MAGIC.unauthorizedTokenId)
      .customers.create(person)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const answer = await raw(MAGIC.unauthorizedTokenId);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Basic realm="crossborder-sandbox"');
    const text = await answer.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
    expect(body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(body.message).toContain(MAGIC.unauthorizedTokenId);
    expect(text).not.toContain(SECRET);
    expect(sandbox.state.snapshot().customers).toEqual([]);
  });

  it(`token id ${MAGIC.forbiddenTokenId}: PermissionDeniedError 403 FORBIDDEN, the service's body, nothing created`, async () => {
    const { client, raw } = await start();
    const err = await client(MAGIC.forbiddenTokenId)
      .customers.create(person)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect(err).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await expect(client(MAGIC.forbiddenTokenId).customers.list()).rejects.toMatchObject({ constructor: PermissionDeniedError, status: 403, code: 'FORBIDDEN' });
    const answer = await raw(MAGIC.forbiddenTokenId, 'POST', '/customers', person);
    expect(answer.status).toBe(403);
    const text = await answer.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
    expect(body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(text).not.toContain(SECRET);
    expect(sandbox.state.snapshot().customers).toEqual([]);
  });

  it('every other credential is accepted: near misses, and the magic values as the secret', async () => {
    const { client } = await start();
    const near = ['magic_unauthorized', 'MAGIC_UNAUTHORIZED2', ' MAGIC_FORBIDDEN', 'MAGIC_FORBIDDEN_', 'tok_live_123'];
    for (const tokenId of near) {
      const created = await client(tokenId).customers.create({ ...person, fullName: `Ada ${tokenId.trim()}` });
      expect(created).toMatchObject({ customerType: 'INDIVIDUAL', fullName: `Ada ${tokenId.trim()}` });
    }
    await client('tok', MAGIC.unauthorizedTokenId).customers.list();
    await client('tok', MAGIC.forbiddenTokenId).customers.list();
    expect(sandbox.state.snapshot().customers).toHaveLength(near.length);
  });
});
