/**
 * Production's API tokens (`/tokens`): create, list, read and delete through the SDK against the in-process
 * sandbox (msw) and the sandbox over HTTP on 127.0.0.1. A token's secret is answered once, and is a
 * credential: the sandbox refuses its `clientId` with another secret, or once the token is deleted. The
 * secret is planted and then searched for in everything the SDK logs and traces, every error, the
 * sandbox's request log and its state export: it is found only in the create answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, Crossborder, NotFoundError, ValidationError, type ApiToken } from '../../src/index';
import { sandboxWorlds, type World } from '../helpers/worlds';
import { otel } from '../telemetry/helpers';

const worlds = sandboxWorlds('api.tokens-ops.example');

describe.each(worlds)('API tokens against the sandbox, %s', (_name, make) => {
  let world: World;
  const lines: string[] = [];
  const telemetry = otel();
  const client = (tokenId: string, clientSecret: string) =>
    new Crossborder({
      tokenId,
      clientSecret,
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      logLevel: 'debug',
      logger: {
        debug: (m, d) => lines.push(`${m} ${JSON.stringify(d ?? {})}`),
        info: (m, d) => lines.push(`${m} ${JSON.stringify(d ?? {})}`),
        warn: (m, d) => lines.push(`${m} ${JSON.stringify(d ?? {})}`),
        error: (m, d) => lines.push(`${m} ${JSON.stringify(d ?? {})}`),
      },
      tracerProvider: telemetry.tracerProvider,
    });
  let cb: Crossborder;

  beforeAll(async () => {
    world = await make();
    cb = client('tok_admin', 'sk_admin');
  });
  afterEach(() => world.sandbox.reset());
  afterAll(() => world.close());

  it('create answers the secret once; reads and lists never carry it; delete makes it 404', async () => {
    const created = await cb.tokens.create({ name: 'Reporting', permissions: ['VIEW', 'VIEW', 'TRANSACT'] });
    expect(created.id).toMatch(/^Token:/);
    expect(created.name).toBe('Reporting');
    expect(created.permissions).toEqual(['VIEW', 'TRANSACT']);
    expect(created.clientId).toMatch(/^[0-9a-f]{32}$/);
    expect(created.clientSecret).toMatch(/^[0-9a-f]{36}$/);
    expect(created.createdAt).toBe(created.updatedAt);

    const { clientSecret: _secret, ...stored } = created;
    expect(await cb.tokens.retrieve(created.id)).toEqual(stored);
    const other = await cb.tokens.create({ name: 'Payouts', permissions: ['TRANSACT'] });
    const page = await cb.tokens.list();
    expect(page.data.map((t) => t.id)).toEqual([other.id, created.id]);
    expect(page.data.every((t) => !('clientSecret' in t))).toBe(true);
    expect(page.totalCount).toBe(2);
    expect((await cb.tokens.list({ name: 'Payouts' })).data.map((t) => t.id)).toEqual([other.id]);
    expect((await cb.tokens.list({ createdAfter: '2100-01-01T00:00:00Z' })).data).toEqual([]);
    const walked: string[] = [];
    for await (const t of cb.tokens.list({ limit: 1 })) walked.push(t.id);
    expect(walked).toEqual([other.id, created.id]);

    expect(await cb.tokens.delete(created.id)).toBeUndefined();
    const gone = await cb.tokens.retrieve(created.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).code).toBe('TOKEN_NOT_FOUND');
    expect(((await cb.tokens.delete(created.id).catch((e: unknown) => e)) as NotFoundError).code).toBe('TOKEN_NOT_FOUND');
    expect((await cb.tokens.list()).data.map((t) => t.id)).toEqual([other.id]);
    expect(world.sandbox.state.snapshot().tokens.map((t) => t.id)).toEqual([other.id]);
  });

  it('a token is a credential: its own secret works, another secret or a deleted token is 401', async () => {
    const token = await cb.tokens.create({ name: 'Automation', permissions: ['MANAGE'] });
    const itself = client(token.clientId, token.clientSecret!);
    expect((await itself.tokens.retrieve(token.id)).name).toBe('Automation');
    const wrong = await client(token.clientId, 'not-the-secret')
      .tokens.list()
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(AuthenticationError);
    expect((wrong as AuthenticationError).message).toContain(token.id);
    await cb.tokens.delete(token.id);
    const deleted = await itself.tokens.list().catch((e: unknown) => e);
    expect(deleted).toBeInstanceOf(AuthenticationError);
    expect((deleted as AuthenticationError).message).toContain(`${token.id} was deleted`);
    // Credentials the sandbox did not issue are still taken, as before.
    expect((await client('anything', 'at-all').tokens.list()).data).toEqual([]);
  });

  it('bad input: the SDK names a missing field before sending; the sandbox names an empty or unknown permission', async () => {
    const missing = await cb.tokens.create({ name: 'x' } as never).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as ValidationError).message).toContain('permissions');
    const empty = await cb.tokens.create({ name: 'x', permissions: [] }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(BadRequestError);
    expect((empty as BadRequestError).details).toMatchObject({ field: 'permissions' });
    // Permissions are an open set to the client: an unknown one is sent, and the sandbox (production's list) refuses it.
    const unknown = await cb.tokens.create({ name: 'x', permissions: ['VIEW', 'ADMIN'] }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(BadRequestError);
    expect((unknown as BadRequestError).details).toMatchObject({ field: 'permissions[1]' });
    expect(world.sandbox.state.snapshot().tokens).toEqual([]);
  });

  it('the secret reaches no log line, span, error, request log entry or state export', async () => {
    lines.length = 0;
    world.logged.length = 0;
    const token: ApiToken = await cb.tokens.create({ name: 'Planted', permissions: ['VIEW'] });
    const secret = token.clientSecret!;
    expect(secret).toMatch(/^[0-9a-f]{36}$/);
    await cb.tokens.retrieve(token.id);
    await cb.tokens.list();
    const errors: unknown[] = [];
    errors.push(
      await client(token.clientId, `${secret}x`)
        .tokens.list()
        .catch((e: unknown) => e),
    );
    await cb.tokens.delete(token.id);
    errors.push(
      await client(token.clientId, secret)
        .tokens.retrieve(token.id)
        .catch((e: unknown) => e),
    );
    expect(errors.map((e) => (e as Error).constructor.name)).toEqual(['AuthenticationError', 'AuthenticationError']);

    // The log saw the create's answer (the response body line), masked.
    expect(lines.some((l) => l.includes('POST /tokens'))).toBe(true);
    const printed = [
      ...lines,
      ...telemetry.spans().map((s) => JSON.stringify({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
      ...errors.map((e) => `${String(e)} ${(e as Error).stack} ${JSON.stringify(e)}`),
      JSON.stringify(world.logged),
      JSON.stringify(world.sandbox.exportState()),
      JSON.stringify(world.sandbox.state.snapshot()),
    ].join('\n');
    expect(printed.length).toBeGreaterThan(1000);
    expect(printed).toContain(token.clientId);
    expect(printed.includes(secret)).toBe(false);
    // The half a log would cut it to is not there either.
    expect(printed.includes(secret.slice(0, 18))).toBe(false);
  });

  it('a state export keeps tokens (their secret as a digest): after import the same secret is taken and a deleted token stays refused', async () => {
    const kept = await cb.tokens.create({ name: 'Kept', permissions: ['VIEW'] });
    const dropped = await cb.tokens.create({ name: 'Dropped', permissions: ['VIEW'] });
    await cb.tokens.delete(dropped.id);
    const exported = JSON.stringify(world.sandbox.exportState());
    world.sandbox.reset();
    expect((await cb.tokens.list()).data).toEqual([]);
    world.sandbox.importState(exported);
    expect((await client(kept.clientId, kept.clientSecret!).tokens.list()).data.map((t) => t.id)).toEqual([kept.id]);
    expect(
      await client(dropped.clientId, dropped.clientSecret!)
        .tokens.list()
        .catch((e: unknown) => e),
    ).toBeInstanceOf(AuthenticationError);
  });
});
