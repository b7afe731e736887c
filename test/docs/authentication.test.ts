import { inspect } from 'node:util';
import { API_VERSION, ConfigurationError, Crossborder } from 'crossborder-sdk';
import { createSandbox } from 'crossborder-sdk/sandbox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { explicitClient, productionClient, sandboxClient } from '../../examples/guides/authentication/clients';
import { topUp } from '../../examples/guides/authentication/sandbox-only';
import { read } from './markdown';

const guide = read('docs/authentication.md');

describe('docs/authentication.md', () => {
  beforeEach(() => {
    vi.stubEnv('CROSSBORDER_TOKEN_ID', 'tok_123');
    vi.stubEnv('CROSSBORDER_CLIENT_SECRET', 'sk_SECRET_456');
    vi.stubEnv('CROSSBORDER_BASE_URL', '');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('reads credentials from the environment; production and sandbox have their own addresses', () => {
    const production = productionClient();
    expect(production.environment).toBe('production');
    expect(production.baseUrl).toBe(`https://api.crossborder.example/${API_VERSION}`);
    const sandbox = sandboxClient();
    expect(sandbox.environment).toBe('sandbox');
    expect(sandbox.baseUrl).toBe(`https://sandbox.crossborder.example/${API_VERSION}`);
    for (const url of [production.baseUrl, sandbox.baseUrl]) expect(guide).toContain(`\`${url}\``);
  });

  it('takes CROSSBORDER_BASE_URL, e.g. a local sandbox server, and talks to it', async () => {
    const local = createSandbox();
    const server = await local.listen();
    try {
      vi.stubEnv('CROSSBORDER_BASE_URL', server.url);
      const cb = sandboxClient();
      expect(cb.baseUrl).toBe(`${server.url}/${API_VERSION}`);
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
      expect(local.state.snapshot().customers.map((c) => c.id)).toEqual([customer.id]);
    } finally {
      await local.close();
    }
  });

  it('normalizes the base address: the version segment once, trailing slash or not', () => {
    const cb = explicitClient({ tokenId: 'tok', clientSecret: 'sk' });
    expect(cb.baseUrl).toBe('http://127.0.0.1:4010/2025-10-13');
    for (const baseUrl of ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/', 'http://127.0.0.1:4010/2025-10-13']) {
      expect(new Crossborder({ tokenId: 'tok', clientSecret: 'sk', baseUrl }).baseUrl).toBe(cb.baseUrl);
    }
    expect(cb.timeout).toBe(30_000);
    expect(cb.maxRetries).toBe(3);
  });

  it('names the missing variable at the first call, with the message the guide quotes; nothing is sent', async () => {
    vi.stubEnv('CROSSBORDER_TOKEN_ID', '');
    let sent = 0;
    const cb = new Crossborder({ fetch: async () => (sent++, new Response('{}')) });
    const error = await cb.config.retrieve().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe('Missing tokenId: pass { tokenId } or set CROSSBORDER_TOKEN_ID');
    expect(guide).toContain(`\`${(error as Error).message}\``);
    expect(sent).toBe(0);
  });

  it('a misspelt option is refused with the message the guide quotes', () => {
    expect(() => new Crossborder({ baseURL: 'http://127.0.0.1:4010' } as never)).toThrow(
      new ConfigurationError('Unknown client option baseURL. Did you mean baseUrl?'),
    );
    expect(guide).toContain('`Unknown client option baseURL. Did you mean baseUrl?`');
  });

  it('never shows the secret', () => {
    const cb = productionClient();
    expect(JSON.stringify(cb)).not.toContain('sk_SECRET_456');
    expect(inspect(cb, { depth: 5, showHidden: true })).not.toContain('sk_SECRET_456');
    expect(inspect(cb)).not.toContain(Buffer.from('tok_123:sk_SECRET_456').toString('base64'));
  });

  it('sandbox-only methods: allowed in the sandbox, refused locally in production, refused by a production service', async () => {
    const sandbox = createSandbox();
    const onSandbox = new Crossborder({ tokenId: 't', clientSecret: 's', environment: 'sandbox', fetch: sandbox.fetch });
    const customer = await onSandbox.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const {
      data: [account],
    } = await onSandbox.internalAccounts.list({ customerId: customer.id });
    expect(await topUp(onSandbox, account!.id, 500)).toBe('balance 500');

    const seen: string[] = [];
    const production = new Crossborder({
      tokenId: 't',
      clientSecret: 's',
      fetch: (url, init) => {
        seen.push(url);
        return sandbox.fetch(url, init);
      },
    });
    expect(await topUp(production, account!.id, 500)).toBe('refused locally: production client');
    expect(seen).toEqual([]); // nothing was sent
    expect(sandbox.state.balance(account!.id)).toBe(500);

    const productionService = createSandbox({ environment: 'production' });
    const misconfigured = new Crossborder({ tokenId: 't', clientSecret: 's', environment: 'sandbox', fetch: productionService.fetch });
    expect(await topUp(misconfigured, account!.id, 500)).toBe('refused by the service: SANDBOX_ONLY');
    await Promise.all([sandbox.close(), productionService.close()]);
  });
});
