/**
 * Production's stablecoin issuance (`/stablecoin-provider-accounts`, `/stablecoins`, `/stablecoin-operations`)
 * through the SDK client, against the in-process sandbox and the sandbox over HTTP on 127.0.0.1: link a
 * provider account, register a stablecoin, mint and burn it, follow the operations. Each asserts values and
 * what the call changed: the internal account a mint is paid from is debited in the step that checks it (and
 * never twice for one Idempotency-Key), a burn cannot redeem more than is outstanding, operations waiting
 * for outside funds expire, and the provider's secret is found nowhere but in the request that sent it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, Crossborder, NotFoundError } from '../../src/index';
import { createClock, createSandbox, type Sandbox } from '../../src/sandbox/index';
import { rejected } from '../helpers/client';
import { roundTrip } from './helpers';

const transports: [string, (sandbox: Sandbox, log?: string[]) => Promise<Crossborder>][] = [
  [
    'in-process',
    async (sandbox, log) =>
      new Crossborder({
        tokenId: 'tok',
        clientSecret: 'sk_sandbox',
        environment: 'sandbox',
        baseUrl: 'http://sandbox.test',
        fetch: sandbox.fetch,
        maxRetries: 0,
        ...(log ? { logLevel: 'debug' as const, logger: logger(log) } : {}),
      }),
  ],
  [
    'HTTP',
    async (sandbox, log) => {
      const server = await sandbox.listen();
      expect(new URL(server.url).hostname).toBe('127.0.0.1');
      return new Crossborder({
        tokenId: 'tok',
        clientSecret: 'sk_sandbox',
        environment: 'sandbox',
        baseUrl: server.url,
        maxRetries: 0,
        ...(log ? { logLevel: 'debug' as const, logger: logger(log) } : {}),
      });
    },
  ],
];

function logger(lines: string[]) {
  const line = (m: string, d?: unknown) => lines.push(`${m} ${JSON.stringify(d ?? {})}`);
  return { debug: line, info: line, warn: line, error: line };
}

const SECRET = 'brale-secret-5f0c7e1a9b7d4d8e';

describe.each(transports)('stablecoins, %s sandbox', (_name, connect) => {
  let sandbox: Sandbox;
  let cb: Crossborder;
  afterEach(() => sandbox.close());

  async function start(log?: string[]) {
    sandbox = createSandbox({ clock: createClock('2026-05-20T16:40:00Z', { frozen: true }) });
    cb = await connect(sandbox, log);
  }

  const link = (apiClientId = 'provider_client_123') => cb.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId, apiClientSecret: SECRET });
  const register = (providerTokenIdentifier = 'ACME', networkTokenIdentifier = 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k') =>
    cb.stablecoins.register({ providerTokenIdentifier, networkTokenIdentifier, network: 'SPARK' });

  /** A customer with a USD internal account funded with `amount` cents, a USD bank account and a Spark wallet. */
  async function issuer(amount = 50_000) {
    const c = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      region: 'US',
      currencies: ['USD'],
      address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    });
    const usd = (await cb.internalAccounts.list({ customerId: c.id, currency: 'USD' })).data[0]!;
    if (amount > 0) await cb.sandbox.fundInternalAccount(usd.id, { amount });
    const bank = await cb.externalAccounts.create({
      customerId: c.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    const wallet = await cb.externalAccounts.create({
      customerId: c.id,
      currency: 'BTC',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1pgss9qvzc8e2yfz3lwsz8ra6zxj6yqjk8hy0mnhvxm3a5ccgzyyaqmqyjdxz' },
    });
    return { c, usd, bank, wallet };
  }
  const balance = (accountId: string) => sandbox.state.balance(accountId);

  it('links a provider account (201, ACTIVE, no secret in the answer), lists it by provider and status, reads it; an unknown link is 404', async () => {
    await start();
    const { data: linked, response } = await link().withResponse();
    expect(response.status).toBe(201);
    expect(linked).toMatchObject({ provider: 'BRALE', providerEnvironment: 'SANDBOX', status: 'ACTIVE', createdAt: '2026-05-20T16:40:00.000Z' });
    expect(linked.id).toMatch(/^StablecoinProviderAccount:/);
    expect(linked.providerAccountId).toMatch(/^[0-9a-f]{27}$/);
    expect(JSON.stringify(linked)).not.toContain(SECRET);

    expect((await cb.stablecoinProviderAccounts.retrieve(linked.id)).providerAccountId).toBe(linked.providerAccountId);
    expect((await cb.stablecoinProviderAccounts.list({ provider: 'BRALE', status: 'ACTIVE' })).data.map((l) => l.id)).toEqual([linked.id]);
    expect((await cb.stablecoinProviderAccounts.list({ status: 'REVOKED' })).data).toEqual([]);

    const missing = await rejected(cb.stablecoinProviderAccounts.retrieve('StablecoinProviderAccount:nope'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    // The same provider account twice: 409, naming the link it already has.
    const twice = await rejected(link());
    expect(twice).toBeInstanceOf(ConflictError);
    expect(twice.details).toMatchObject({ stablecoinProviderAccountId: linked.id });
    // A provider production does not list: 400 naming `provider`.
    const other = await rejected(cb.stablecoinProviderAccounts.link({ provider: 'PAXOS', apiClientId: 'x', apiClientSecret: 'y' }));
    expect(other).toBeInstanceOf(BadRequestError);
    expect(other.details?.field).toBe('provider');
  });

  it('registers a stablecoin against the only active link; with two links the caller must choose; without one it is 404; twice is 409', async () => {
    await start();
    const none = await rejected(register());
    expect(none.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    const first = await link('client-a');
    const { data: coin, response } = await register().withResponse();
    expect(response.status).toBe(201);
    expect(coin).toMatchObject({
      name: 'ACME',
      symbol: 'ACME',
      baseCurrency: 'USD',
      network: 'SPARK',
      decimals: 6,
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: 'NOT_ENABLED',
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      providerTokenIdentifier: 'ACME',
      networkTokenIdentifier: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
      stablecoinProviderAccountId: first.id,
    });
    expect((await cb.stablecoins.retrieve(coin.id)).id).toBe(coin.id);
    expect((await rejected(register())).code).toBe('CONFLICT');

    const second = await link('client-b');
    const choose = await rejected(register('BETA', 'btkn1beta'));
    expect(choose).toBeInstanceOf(BadRequestError);
    expect(choose.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED');
    expect(choose.details?.field).toBe('stablecoinProviderAccountId');
    const beta = await cb.stablecoins.register({
      providerTokenIdentifier: 'BETA',
      networkTokenIdentifier: 'btkn1beta',
      network: 'SPARK',
      stablecoinProviderAccountId: second.id,
    });
    expect(beta.stablecoinProviderAccountId).toBe(second.id);

    const listed = [];
    for await (const c of cb.stablecoins.list({ provider: 'BRALE', issuanceStatus: 'PROVISIONED', limit: 1 })) listed.push(c.symbol);
    expect(listed.sort()).toEqual(['ACME', 'BETA']);
    expect((await cb.stablecoins.list({ gridOperationsStatus: 'ENABLED' })).data).toEqual([]);
    expect((await rejected(cb.stablecoins.retrieve('Stablecoin:nope'))).code).toBe('STABLECOIN_NOT_FOUND');
  });

  it('a mint paid from an internal account debits its fiat value at once, settles COMPLETED, and is not debited twice for one key', async () => {
    await start();
    await link();
    const coin = await register();
    const { usd, wallet } = await issuer(50_000);
    const params = {
      amount: '123450000', // 123.450000 ACME = 123.45 USD
      fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id } as const,
      destination: { accountId: wallet.id },
      description: 'Initial program funding mint',
    };
    const { data: mint, response } = await cb.stablecoins.mint(coin.id, params, { idempotencyKey: 'mint-1' }).withResponse();
    expect(response.status).toBe(201);
    expect(mint).toMatchObject({
      stablecoinId: coin.id,
      operationType: 'MINT',
      status: 'PROCESSING',
      amount: '123450000',
      source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id },
      destination: { accountId: wallet.id },
      description: 'Initial program funding mint',
    });
    expect(balance(usd.id)).toBe(50_000 - 12_345);
    const again = await cb.stablecoins.mint(coin.id, params, { idempotencyKey: 'mint-1' }).withResponse();
    expect(again.data.id).toBe(mint.id);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(balance(usd.id)).toBe(50_000 - 12_345);

    sandbox.clock.advance(2_000);
    const settled = await cb.stablecoins.retrieveOperation(mint.id);
    expect(settled.status).toBe('COMPLETED');
    expect((await cb.stablecoins.listOperations(coin.id)).data.map((o) => o.id)).toEqual([mint.id]);

    // More than the account holds: 400 naming amount, nothing debited.
    const short = await rejected(cb.stablecoins.mint(coin.id, { ...params, amount: '500000000' }));
    expect(short).toBeInstanceOf(BadRequestError);
    expect(short.code).toBe('INVALID_AMOUNT');
    expect(short.details?.field).toBe('amount');
    expect(balance(usd.id)).toBe(50_000 - 12_345);
  });

  it('refuses amounts that are not a whole cent, unknown accounts and sources, each naming its field', async () => {
    await start();
    await link();
    const coin = await register();
    const { usd, bank, wallet } = await issuer(10_000);
    const mint = (body: Record<string, unknown>) =>
      rejected(
        cb.stablecoins.mint(coin.id, {
          amount: '1000000',
          fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id },
          destination: { accountId: wallet.id },
          ...body,
        }),
      );
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: '1000001' }, 400, 'amount'],
      [{ amount: '0' }, 400, 'amount'],
      [{ destination: { accountId: 'ExternalAccount:nope' } }, 404, 'destination.accountId'],
      [{ fundingSource: { type: 'ACH_DEBIT', externalAccountId: wallet.id } }, 400, 'fundingSource.externalAccountId'],
      [{ fundingSource: { type: 'ACH_DEBIT', externalAccountId: 'ExternalAccount:nope' } }, 404, 'fundingSource.externalAccountId'],
      [{ fundingSource: { type: 'CARD_PULL' } }, 400, 'fundingSource.type'],
    ];
    for (const [body, status, field] of cases) {
      const error = await mint(body);
      expect([error.status, error.details?.field], JSON.stringify(body)).toEqual([status, field]);
    }
    expect(balance(usd.id)).toBe(10_000);
    expect((await cb.stablecoins.listOperations(coin.id)).data).toEqual([]);
    expect(
      (await rejected(cb.stablecoins.mint('Stablecoin:nope', { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: bank.id } })))
        .code,
    ).toBe('STABLECOIN_NOT_FOUND');
  });

  it('a wire mint and an external-source burn answer funding instructions, wait PENDING_FUNDING, and expire at expiresAt', async () => {
    await start();
    await link();
    const coin = await register();
    const { bank, wallet } = await issuer(0);
    const wire = await cb.stablecoins.mint(coin.id, { amount: '2000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet.id } });
    expect(wire).toMatchObject({ status: 'PENDING_FUNDING', source: { type: 'WIRE' }, expiresAt: '2026-05-27T16:40:00.000Z' });
    expect(wire.fundingInstructions).toMatchObject({ rail: 'WIRE', routingNumber: '110000000', amount: '200', currency: 'USD' });

    // Nothing is outstanding yet: a burn is refused, naming amount.
    const early = await rejected(
      cb.stablecoins.burn(coin.id, {
        amount: '1000000',
        source: { type: 'EXTERNAL_ACCOUNT' },
        destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail: 'ACH_CREDIT' },
      }),
    );
    expect([early.code, early.details?.field]).toEqual(['INVALID_AMOUNT', 'amount']);

    await cb.stablecoins.mint(coin.id, {
      amount: '3000000',
      fundingSource: { type: 'ACH_DEBIT', externalAccountId: bank.id },
      destination: { accountId: wallet.id },
    });
    sandbox.clock.advance(2_000);
    const burn = await cb.stablecoins.burn(coin.id, {
      amount: '1000000',
      source: { type: 'EXTERNAL_ACCOUNT' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail: 'ACH_CREDIT' },
    });
    expect(burn).toMatchObject({
      operationType: 'BURN',
      status: 'PENDING_FUNDING',
      destination: { accountId: bank.id, rail: 'ACH_CREDIT' },
      estimatedDelivery: { rail: 'ACH_CREDIT', amount: '100', currency: 'USD', timing: '1-3 business days' },
      fundingInstructions: { rail: 'SPARK', network: 'SPARK', valueType: 'ACME' },
    });
    expect(burn.fundingInstructions?.address).toMatch(/^spark1/);

    sandbox.clock.advance(7 * 24 * 3_600_000);
    expect((await cb.stablecoins.retrieveOperation(wire.id)).status).toBe('EXPIRED');
    expect((await cb.stablecoins.retrieveOperation(burn.id)).status).toBe('EXPIRED');
    const mints = (await cb.stablecoins.listOperations(coin.id, { operationType: 'MINT' })).data;
    expect(mints.map((o) => o.status)).toEqual(['COMPLETED', 'EXPIRED']);
  });

  it('burns take their amount out of the outstanding supply at once: a second burn cannot redeem the same tokens', async () => {
    await start();
    await link();
    const coin = await register();
    const { usd, bank, wallet } = await issuer(10_000);
    await cb.stablecoins.mint(coin.id, {
      amount: '50000000',
      fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id },
      destination: { accountId: wallet.id },
    });
    sandbox.clock.advance(2_000);
    const destination = { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail: 'RTP_CREDIT' } as const;
    const burns = await Promise.allSettled([
      cb.stablecoins.burn(coin.id, { amount: '30000000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination }),
      cb.stablecoins.burn(coin.id, { amount: '30000000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination }),
    ]);
    expect(burns.map((b) => b.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = burns.find((b) => b.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason.details).toMatchObject({ field: 'amount', available: '20000000' });
    const burned = (burns.find((b) => b.status === 'fulfilled') as PromiseFulfilledResult<Awaited<ReturnType<typeof cb.stablecoins.burn>>>).value;
    expect(burned).toMatchObject({ status: 'PROCESSING', estimatedDelivery: { amount: '3000', timing: 'seconds' } });
    sandbox.clock.advance(2_000);
    expect((await cb.stablecoins.retrieveOperation(burned.id)).status).toBe('COMPLETED');
    // A burn to a wallet: the fiat value needs a bank account.
    const toWallet = await rejected(
      cb.stablecoins.burn(coin.id, {
        amount: '1000000',
        source: { type: 'PROVIDER_INTERNAL_BALANCE' },
        destination: { ...destination, externalAccountId: wallet.id },
      }),
    );
    expect(toWallet.details?.field).toBe('destination.externalAccountId');
  });

  it('state export keeps links, stablecoins and operations (never the provider secret) and imports them again', async () => {
    const lines: string[] = [];
    await start(lines);
    await link();
    const coin = await register();
    const { usd, wallet } = await issuer(10_000);
    await cb.stablecoins.mint(coin.id, {
      amount: '10000000',
      fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id },
      destination: { accountId: wallet.id },
    });
    const counts = roundTrip(sandbox);
    expect(counts).toMatchObject({ stablecoinProviderAccounts: 1, stablecoins: 1, stablecoinOperations: 1 });
    expect(JSON.stringify(sandbox.exportState())).not.toContain(SECRET);
    expect(lines.join('\n')).toContain('stablecoin-provider-accounts');
  });

  it('production requires an Idempotency-Key on the creates: the sandbox refuses a request without one, naming the header', async () => {
    await start();
    const res = await sandbox.fetch('http://sandbox.test/2025-10-13/stablecoin-provider-accounts', {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('tok:sk')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'BRALE', apiClientId: 'a', apiClientSecret: 'b' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'Idempotency-Key' } });
  });
});
