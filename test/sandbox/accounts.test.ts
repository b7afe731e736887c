import { afterEach, describe, expect, it } from 'vitest';
import { accountOf, createCustomer, expectError, fund, setup, usdBank } from './helpers';

const { sandbox, call } = setup();
afterEach(() => sandbox.reset());

describe('internal accounts', () => {
  it('lists with currency and customer filters and pages', async () => {
    const a = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const b = await createCustomer(call, { fullName: 'Bob', currencies: ['USD'] });
    const list = async (q: string) => (await call('GET', `/customers/internal-accounts?${q}`)).body;
    expect((await list('')).totalCount).toBe(3);
    expect((await list('currency=USD')).data.map((x: any) => x.customerId).sort()).toEqual([a.id, b.id].sort());
    expect((await list(`customerId=${b.id}`)).data).toHaveLength(1);
    const page = await list('limit=2');
    expect(page).toMatchObject({ hasMore: true, totalCount: 3 });
    expect((await list(`limit=2&cursor=${page.nextCursor}`)).data).toHaveLength(1);
    expect((await call('GET', '/customers/internal-accounts?customerId=nope')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('funds an account (sandbox), with the amount limit', async () => {
    const c = await createCustomer(call);
    const usd = await accountOf(call, c.id, 'USD');
    const funded = await fund(call, usd.id, 100_000_000_000);
    expect(funded.balance.amount).toBe(100_000_000_000);
    // Funding through the EmbeddedWallet id of the same account works too.
    const wallet = usd.id.replace('InternalAccount:', 'EmbeddedWallet:');
    expect((await fund(call, wallet, 5)).balance.amount).toBe(100_000_000_005);
    expectError(await call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 100_000_000_001 }), 400, 'AMOUNT_OUT_OF_RANGE');
    expectError(await call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 0 }), 400, 'AMOUNT_OUT_OF_RANGE');
    expectError(await call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1.5 }), 400, 'INVALID_INPUT');
    expectError(await call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: '100' }), 400, 'INVALID_INPUT');
    expectError(await call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, {}), 400, 'INVALID_INPUT');
    expectError(await call('POST', '/sandbox/internal-accounts/InternalAccount:missing/fund', { amount: 1 }), 404, 'ACCOUNT_NOT_FOUND');
  });
});

describe('external accounts', () => {
  it('registers (201), then answers the same account again with 200', async () => {
    const c = await createCustomer(call);
    const first = await call('POST', '/customers/external-accounts', {
      customerId: c.id,
      currency: 'USD',
      platformAccountId: 'bank-1',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      status: 'ACTIVE',
      currency: 'USD',
      customerId: c.id,
      platformAccountId: 'bank-1',
      defaultUmaDepositAccount: false,
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Ada Lovelace' },
    });
    expect(first.body.id).toMatch(/^ExternalAccount:/);
    const again = await usdBank(call, c.id);
    expect(again.id).toBe(first.body.id);
    expect((await call('GET', '/customers/external-accounts')).body.totalCount).toBe(1);
  });

  it('registers GBP, AED, BRL and Spark accounts; checks currency and network', async () => {
    const c = await createCustomer(call, { currencies: ['USD', 'BTC'] });
    const make = (body: Record<string, unknown>) => call('POST', '/customers/external-accounts', { customerId: c.id, ...body });
    expect((await make({ currency: 'GBP', accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '12345678', routingNumber: '040004' } })).status).toBe(201);
    expect((await make({ currency: 'AED', accountInfo: { accountType: 'AED_ACCOUNT', accountNumber: 'AE070331234567890123456' } })).status).toBe(201);
    const pix = await make({
      currency: 'BRL',
      accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: '123.456.789-09', pixKeyType: 'CPF', paymentRails: ['PIX'] },
    });
    expect(pix.body.beneficiaryVerificationStatus).toBe('CHECKED_BY_RECEIVING_FI');
    const spark = await make({
      currency: 'BTC',
      cryptoNetwork: 'SPARK_TESTNET',
      accountInfo: { accountType: 'SPARK_WALLET', assetType: 'BTC', address: 'sp1qexample' },
    });
    expect(spark.body).toMatchObject({ cryptoNetwork: 'SPARK_TESTNET', beneficiaryVerificationStatus: 'UNSUPPORTED' });
    // Production takes a SPARK_WALLET without cryptoNetwork (its own request example has none).
    expect((await make({ currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qother' } })).status).toBe(201);
    const cryptoOnBank = await make({
      currency: 'USD',
      cryptoNetwork: 'SPARK_MAINNET',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '1',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    expectError(cryptoOnBank, 400, 'INVALID_INPUT');
    expect(cryptoOnBank.body.details.field).toBe('cryptoNetwork');
    expectError(await make({ currency: 'EUR', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1' } }), 400, 'INVALID_CURRENCY');
    expectError(await make({ currency: 'XXX', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1' } }), 400, 'INVALID_CURRENCY');
    expectError(await make({ currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT' } }), 400, 'INVALID_INPUT');
    expectError(await make({ currency: 'USD', accountInfo: { accountType: 'CHF_ACCOUNT', accountNumber: '1' } }), 400, 'INVALID_INPUT');
    expectError(
      await call('POST', '/customers/external-accounts', {
        customerId: 'Customer:missing',
        currency: 'USD',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1' },
      }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
  });

  it('magic account numbers: …0099 NOT_MATCHED, …0097 PARTIAL_MATCH, …0096 UNDER_REVIEW (whole values)', async () => {
    const c = await createCustomer(call);
    expect((await usdBank(call, c.id, '4000000000000099')).beneficiaryVerificationStatus).toBe('NOT_MATCHED');
    const partial = await usdBank(call, c.id, '4000000000000097');
    expect(partial).toMatchObject({ beneficiaryVerificationStatus: 'PARTIAL_MATCH', beneficiaryVerifiedData: { fullName: 'A. Lovelace' } });
    expect((await usdBank(call, c.id, '4000000000000096')).status).toBe('UNDER_REVIEW');
  });

  it('keeps one default UMA deposit account per customer', async () => {
    const c = await createCustomer(call);
    const other = await createCustomer(call, { fullName: 'Other' });
    const x = await usdBank(call, c.id, '111', { defaultUmaDepositAccount: true });
    const y = await usdBank(call, other.id, '222', { defaultUmaDepositAccount: true });
    expect(x.defaultUmaDepositAccount).toBe(true);
    const z = await usdBank(call, c.id, '333', { defaultUmaDepositAccount: true });
    const list = (await call('GET', '/customers/external-accounts?limit=100')).body.data;
    const flag = (id: string) => list.find((a: any) => a.id === id).defaultUmaDepositAccount;
    expect([flag(x.id), flag(z.id), flag(y.id)]).toEqual([false, true, true]);
    expectError(
      await call('POST', '/customers/external-accounts', {
        currency: 'GBP',
        defaultUmaDepositAccount: true,
        accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '9' },
      }),
      400,
      'INVALID_INPUT',
    );
  });

  it('lists with filters; platform accounts have customerId null and their own list', async () => {
    const c = await createCustomer(call);
    await usdBank(call, c.id, '1');
    await call('POST', '/customers/external-accounts', { customerId: c.id, currency: 'GBP', accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '2' } });
    const platform = await call('POST', '/platform/external-accounts', {
      currency: 'USD',
      platformAccountId: 'treasury-ops',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000987654321',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    expect(platform.status).toBe(200);
    expect(platform.body).toMatchObject({ customerId: null, platformAccountId: 'treasury-ops' });
    const viaCustomerRoute = await call('POST', '/customers/external-accounts', {
      currency: 'GBP',
      accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '3' },
    });
    expect(viaCustomerRoute.body.customerId).toBeNull();
    const list = async (q: string) => (await call('GET', `/customers/external-accounts?${q}`)).body;
    expect((await list('')).totalCount).toBe(4);
    expect((await list('currency=GBP')).totalCount).toBe(2);
    expect((await list(`customerId=${c.id}`)).totalCount).toBe(2);
    expect((await list(`customerId=${c.id}&currency=USD&limit=1`)).data[0].accountInfo.accountNumber).toBe('1');
    const platformList = await call('GET', '/platform/external-accounts');
    expect(platformList.body.data.map((a: any) => a.id)).toEqual([viaCustomerRoute.body.id, platform.body.id]);
    // Production's form: paginated (the spec's `{ data }` is its subset).
    expect(platformList.body).toMatchObject({ hasMore: false, totalCount: 2 });
    const first = await call('GET', '/platform/external-accounts?limit=1');
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 2 });
    expect(first.body.data.map((a: any) => a.id)).toEqual([viaCustomerRoute.body.id]);
    const second = await call('GET', `/platform/external-accounts?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.data.map((a: any) => a.id)).toEqual([platform.body.id]);
    expect(second.body.hasMore).toBe(false);
    expect((await call('GET', '/platform/external-accounts?currency=USD')).body.data.map((a: any) => a.id)).toEqual([platform.body.id]);
  });
});
