import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/sandbox/index';
import { createCustomer, expectError, setup } from './helpers';

const { sandbox, call } = setup({ clock: createClock('2025-10-13T09:00:00Z', { frozen: true }) });
afterEach(() => sandbox.reset());

describe('platform configuration', () => {
  it('answers the default configuration', async () => {
    const res = await call('GET', '/config');
    expect(res.status).toBe(200);
    expect(res.body.id).toMatch(/^PlatformConfig:/);
    expect(res.body).toMatchObject({ umaDomain: 'sandbox.crossborder.example', isRegulatedFinancialInstitution: false });
    expect(res.body.webhookEndpoint).toBeUndefined();
    expect(res.body.supportedCurrencies.map((c: any) => c.currencyCode)).toEqual(['USD', 'EUR', 'GBP', 'BRL', 'AED', 'MXN', 'BTC', 'USDC', 'USDT']);
    expect(res.body.supportedCurrencies[3]).toMatchObject({
      currencyCode: 'BRL',
      providerRequiredCustomerFields: ['TAX_ID'],
      providerRequiredCounterpartyCustomerFields: ['COUNTRY_OF_RESIDENCE'],
    });
  });

  it('updates fields; supportedCurrencies replace the list and limits apply to quotes', async () => {
    sandbox.clock.advance(1_000);
    const res = await call('PATCH', '/config', {
      webhookEndpoint: 'https://platform.example/webhooks',
      umaDomain: 'uma.platform.example',
      supportedCurrencies: [
        {
          currencyCode: 'USD',
          minAmount: 100,
          maxAmount: 10_000_000,
          enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
          requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
          providerRequiredCustomerFields: ['IGNORED'],
        },
        { currencyCode: 'EUR', enabledTransactionTypes: ['INCOMING'] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ webhookEndpoint: 'https://platform.example/webhooks', umaDomain: 'uma.platform.example' });
    expect(res.body.supportedCurrencies.map((c: any) => c.currencyCode)).toEqual(['USD', 'EUR']);
    expect(res.body.supportedCurrencies[0].providerRequiredCustomerFields).toEqual([]);
    expect(res.body.updatedAt).not.toBe(res.body.createdAt);
    // New customers get addresses on the new domain; GBP is no longer supported.
    const c = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    expect(c.umaAddress).toBe('$ada.lovelace@uma.platform.example');
    expectError(await call('POST', '/customers', { customerType: 'INDIVIDUAL', region: 'GB' }), 400, 'INVALID_CURRENCY');
    const accounts = (await call('GET', `/customers/internal-accounts?customerId=${c.id}`)).body.data;
    const usd = accounts.find((a: any) => a.balance.currency.code === 'USD');
    const eur = accounts.find((a: any) => a.balance.currency.code === 'EUR');
    const quote = (from: string, to: string, amount: number) =>
      call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: from },
        destination: { destinationType: 'ACCOUNT', accountId: to },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
      });
    expectError(await quote(usd.id, eur.id, 99), 400, 'AMOUNT_OUT_OF_RANGE');
    expectError(await quote(usd.id, eur.id, 10_000_001), 400, 'AMOUNT_OUT_OF_RANGE');
    expect((await quote(usd.id, eur.id, 10_000)).status).toBe(200);
    expectError(await quote(eur.id, usd.id, 10_000), 400, 'INVALID_CURRENCY'); // EUR is incoming-only now
  });

  it('refuses invalid updates and leaves the configuration unchanged', async () => {
    const before = sandbox.state.snapshot();
    expectError(await call('PATCH', '/config', { supportedCurrencies: [{ currencyCode: 'DOGE' }] }), 400, 'INVALID_CURRENCY');
    expectError(await call('PATCH', '/config', { supportedCurrencies: [{ currencyCode: 'USD' }, { currencyCode: 'USD' }] }), 400, 'INVALID_INPUT');
    expectError(await call('PATCH', '/config', { supportedCurrencies: [{ currencyCode: 'USD', minAmount: 10, maxAmount: 5 }] }), 400, 'AMOUNT_OUT_OF_RANGE');
    expectError(await call('PATCH', '/config', { webhookEndpoint: 'not a url' }), 400, 'INVALID_INPUT');
    expectError(await call('PATCH', '/config', { webhookEndpoint: 'ftp://platform.example/hooks' }), 400, 'INVALID_INPUT');
    expectError(await call('PATCH', '/config', { umaDomain: 'no spaces allowed.example' }), 400, 'INVALID_INPUT');
    expectError(await call('PATCH', '/config', { supportedCurrencies: 'USD' }), 400, 'INVALID_INPUT');
    expect(sandbox.state.snapshot()).toEqual(before);
  });
});

describe('invitations', () => {
  it('creates a PENDING invitation with code and url; expires it at expiresAt', async () => {
    const inviter = await createCustomer(call, { currencies: ['EUR'], region: 'FR' });
    const expiresAt = new Date(sandbox.clock.now() + 60_000).toISOString();
    const res = await call('POST', '/invitations', { inviterUma: inviter.umaAddress, firstName: 'Grace', amountToSend: 2_000, expiresAt });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'PENDING',
      inviterUma: inviter.umaAddress,
      expiresAt,
      amountToSend: { amount: 2_000, currency: { code: 'EUR' } },
    });
    expect(res.body.code).toMatch(/^INV-[A-Z0-9]{6}$/);
    expect(res.body.url).toBe(`https://sandbox.crossborder.example/invite/${res.body.code}`);
    sandbox.clock.advance(60_000);
    expect(sandbox.state.snapshot().invitations[0]!.status).toBe('EXPIRED');
    expect(() => sandbox.claimInvitation(res.body.code)).toThrow(/EXPIRED/);
  });

  it('refuses unknown inviters, past expiries and bad amounts', async () => {
    const inviter = await createCustomer(call);
    expectError(await call('POST', '/invitations', { inviterUma: '$stranger@elsewhere.example' }), 400, 'INVALID_UMA_ADDRESS');
    expectError(await call('POST', '/invitations', { inviterUma: 'nobody' }), 400, 'INVALID_UMA_ADDRESS');
    expectError(await call('POST', '/invitations', { inviterUma: inviter.umaAddress, expiresAt: '2020-01-01T00:00:00Z' }), 400, 'INVALID_INPUT');
    expectError(await call('POST', '/invitations', { inviterUma: inviter.umaAddress, amountToSend: -5 }), 400, 'AMOUNT_OUT_OF_RANGE');
    expectError(await call('POST', '/invitations', {}), 400, 'INVALID_INPUT');
    const plain = await call('POST', '/invitations', { inviterUma: inviter.umaAddress });
    expect(plain.body.amountToSend).toBeUndefined();
    expect(sandbox.claimInvitation(plain.body.code).inviteeUma).toBe('$invitee@wallet.example');
  });
});

describe('verifications', () => {
  it('lists one per customer, filtered and paged', async () => {
    for (let i = 0; i < 3; i++) await createCustomer(call, { fullName: `Full ${i}` });
    await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Partial' });
    const all = (await call('GET', '/verifications')).body;
    expect(all.totalCount).toBe(4);
    expect(all.data.every((v: any) => v.id.startsWith('Verification:'))).toBe(true);
    const errors = (await call('GET', '/verifications?verificationStatus=RESOLVE_ERRORS')).body.data;
    expect(errors).toHaveLength(1);
    expect(errors[0].errors.map((e: any) => e.field)).toEqual(['birthDate', 'nationality', 'address']);
    const page = (await call('GET', '/verifications?limit=3')).body;
    expect(page).toMatchObject({ hasMore: true, totalCount: 4 });
    expect((await call('GET', `/verifications?limit=3&cursor=${page.nextCursor}`)).body.data).toHaveLength(1);
    // Statuses are an open set: an unknown one matches nothing.
    expect((await call('GET', '/verifications?verificationStatus=MAYBE')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });
});

describe('UMA providers', () => {
  it('pages a catalogue of 30 with filters and sort order', async () => {
    const all = (await call('GET', '/uma-providers?limit=100')).body;
    expect(all.totalCount).toBe(30);
    expect(all.data[0]).toMatchObject({ name: 'Delta Remit', domain: 'deltaremit.example' }); // newest first
    const asc = (await call('GET', '/uma-providers?limit=100&sortOrder=asc')).body.data.map((p: any) => p.name);
    expect(asc).toEqual([...all.data.map((p: any) => p.name)].reverse());
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const page = (await call('GET', `/uma-providers?limit=8&sortOrder=asc${cursor}`)).body;
      seen.push(...page.data.map((p: any) => p.name));
      if (!page.hasMore) break;
      cursor = `&cursor=${page.nextCursor}`;
    }
    expect(seen).toEqual(asc);
    const mx = (await call('GET', '/uma-providers?countryCode=MX&limit=100')).body.data;
    expect(mx.length).toBeGreaterThan(0);
    expect(mx.every((p: any) => p.supportedRegions.includes('MX'))).toBe(true);
    const btc = (await call('GET', '/uma-providers?currencyCode=BTC&limit=100')).body;
    expect(btc.totalCount).toBe(10);
    expect(btc.data.every((p: any) => p.supportedCurrencies.some((c: any) => c.code === 'BTC'))).toBe(true);
    const allowed = (await call('GET', '/uma-providers?hasBlockedProviders=false&limit=100')).body;
    expect(allowed.totalCount).toBe(24);
    expect(allowed.data.every((p: any) => p.allowListStatus)).toBe(true);
    expect((await call('GET', '/uma-providers?hasBlockedProviders=true')).body.totalCount).toBe(30);
    expectError(await call('GET', '/uma-providers?countryCode=mex'), 400, 'INVALID_INPUT');
    expectError(await call('GET', '/uma-providers?hasBlockedProviders=maybe'), 400, 'INVALID_INPUT');
  });

  it('remote receivers on a catalogue domain accept that provider’s currencies', async () => {
    const lookup = (await call('GET', `/receiver/uma/${encodeURIComponent('$rosa@cedarwallet.example')}`)).body;
    expect(lookup.supportedCurrencies.map((c: any) => c.currency.code)).toEqual(['BRL', 'MXN']);
  });
});
