import { afterEach, describe, expect, it } from 'vitest';
import { ADDRESS, addControlPerson, createCustomer, expectError, setup } from './helpers';

const { sandbox, call } = setup();
afterEach(() => sandbox.reset());

describe('customers', () => {
  it('creates an individual customer with its internal accounts, generated ids, UMA address and verification', async () => {
    const res = await call('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Zoë O’Brien',
      birthDate: '1990-01-01',
      nationality: 'IE',
      address: { ...ADDRESS, country: 'IE' },
      currencies: ['EUR', 'USD'],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const c = res.body;
    expect(c.id).toMatch(/^Customer:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(c).toMatchObject({ customerType: 'INDIVIDUAL', region: 'IE', currencies: ['EUR', 'USD'], isDeleted: false, kycStatus: 'APPROVED' });
    expect(c.umaAddress).toBe('$zoe.obrien@sandbox.crossborder.example');
    expect(c.platformCustomerId).toMatch(/^cust-[0-9a-f]{10}$/);
    const accounts = await call('GET', `/customers/internal-accounts?customerId=${c.id}`);
    expect(accounts.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual(['EUR', 'USD']);
    for (const a of accounts.body.data) {
      expect(a.id).toMatch(/^InternalAccount:/);
      expect(a.balance.amount).toBe(0);
      expect(a.fundingPaymentInstructions[0].accountOrWalletInfo.reference).toMatch(/^FUND-/);
    }
    const verifications = await call('GET', `/verifications?customerId=${c.id}`);
    expect(verifications.body.data).toHaveLength(1);
    expect(verifications.body.data[0]).toMatchObject({ customerId: c.id, verificationStatus: 'APPROVED', errors: [] });
  });

  it('infers currencies from the region', async () => {
    const cases: [string, string][] = [
      ['US', 'USD'],
      ['GB', 'GBP'],
      ['BR', 'BRL'],
      ['AE', 'AED'],
      ['FR', 'EUR'],
      ['JP', 'USD'],
    ];
    for (const [region, currency] of cases) {
      const c = await createCustomer(call, { region, fullName: `Person ${region}` });
      expect(c.currencies).toEqual([currency]);
    }
  });

  it('creates a business customer; incomplete data leaves KYC UNVERIFIED with MISSING_FIELD errors', async () => {
    const res = await call('POST', '/customers', { customerType: 'BUSINESS', region: 'US', businessInfo: { legalName: 'Acme Widgets LLC' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customerType: 'BUSINESS', kycStatus: 'UNVERIFIED', umaAddress: '$acme.widgets.llc@sandbox.crossborder.example' });
    const v = await call('GET', `/verifications?customerId=${res.body.id}`);
    expect(v.body.data[0].verificationStatus).toBe('RESOLVE_ERRORS');
    expect(v.body.data[0].errors.map((e: any) => e.field ?? e.type)).toEqual([
      'businessInfo.taxId',
      'businessInfo.incorporatedOn',
      'address',
      'MISSING_BENEFICIAL_OWNER',
      'MISSING_CONTROL_PERSON',
    ]);
    expect(v.body.data[0].errors[0]).toMatchObject({ type: 'MISSING_FIELD', resourceId: res.body.id });
    // Supplying the fields and the control person approves it.
    await addControlPerson(call, res.body.id);
    const fixed = await call('PATCH', `/customers/${res.body.id}`, {
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Acme Widgets LLC', taxId: '12-3456789', incorporatedOn: '2019-03-01' },
      address: ADDRESS,
    });
    expect(fixed.body.kycStatus).toBe('APPROVED');
    expect((await call('GET', `/verifications?customerId=${res.body.id}`)).body.data[0].verificationStatus).toBe('APPROVED');
  });

  it('magic names force KYC PENDING or REJECTED', async () => {
    const pending = await createCustomer(call, { fullName: 'Penny Pending' });
    const rejected = await createCustomer(call, { fullName: 'Rex Rejected' });
    expect(pending.kycStatus).toBe('PENDING');
    expect(rejected.kycStatus).toBe('REJECTED');
    const byStatus = await call('GET', '/verifications?verificationStatus=PENDING_MANUAL_REVIEW');
    expect(byStatus.body.data.map((v: any) => v.customerId)).toEqual([pending.id]);
  });

  it('keeps given platformCustomerId and umaAddress; refuses a taken or malformed UMA address', async () => {
    const c = await createCustomer(call, { platformCustomerId: 'cust-7781', umaAddress: '$ada@platform.example' });
    expect(c).toMatchObject({ platformCustomerId: 'cust-7781', umaAddress: '$ada@platform.example' });
    expectError(await call('POST', '/customers', { customerType: 'INDIVIDUAL', umaAddress: '$ADA@platform.example' }), 400, 'INVALID_UMA_ADDRESS');
    expectError(await call('POST', '/customers', { customerType: 'INDIVIDUAL', umaAddress: 'ada@platform' }), 400, 'INVALID_UMA_ADDRESS');
    // Generated addresses are numbered when the slug is taken.
    const a = await createCustomer(call, { fullName: 'Grace Hopper' });
    const b = await createCustomer(call, { fullName: 'Grace Hopper' });
    expect([a.umaAddress, b.umaAddress]).toEqual(['$grace.hopper@sandbox.crossborder.example', '$grace.hopper2@sandbox.crossborder.example']);
  });

  it('refuses unknown currencies and combinations that need separate customers', async () => {
    expectError(await call('POST', '/customers', { customerType: 'INDIVIDUAL', currencies: ['XYZ'] }), 400, 'INVALID_CURRENCY');
    const mixed = await call('POST', '/customers', { customerType: 'INDIVIDUAL', region: 'BR', currencies: ['BRL', 'AED'] });
    expectError(mixed, 400, 'CURRENCY_COMBINATION_REQUIRES_SEPARATE_CUSTOMERS');
    expect(mixed.body.details.jurisdictions).toEqual({ BRL: 'BR', AED: 'AE' });
    expectError(
      await call('POST', '/customers', { customerType: 'INDIVIDUAL', region: 'US', currencies: ['USD', 'BRL'] }),
      400,
      'CURRENCY_COMBINATION_REQUIRES_SEPARATE_CUSTOMERS',
    );
    const ok = await call('POST', '/customers', { customerType: 'INDIVIDUAL', region: 'BR', currencies: ['BRL', 'USD', 'BTC'] });
    expect(ok.status).toBe(200);
  });

  it('reads and updates; region is immutable; currencies replace the list and open new accounts', async () => {
    const c = await createCustomer(call, { currencies: ['USD'] });
    expect((await call('GET', `/customers/${c.id}`)).body).toEqual(c);
    expectError(await call('PATCH', `/customers/${c.id}`, { region: 'GB' }), 400, 'INVALID_INPUT');
    const same = await call('PATCH', `/customers/${c.id}`, { customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada King' });
    expect(same.status).toBe(200);
    sandbox.clock.advance(1000);
    const updated = await call('PATCH', `/customers/${c.id}`, {
      customerType: 'INDIVIDUAL',
      currencies: ['EUR', 'MXN'],
      umaAddress: '$ada.king@platform.example',
    });
    expect(updated.body).toMatchObject({ currencies: ['EUR', 'MXN'], umaAddress: '$ada.king@platform.example', fullName: 'Ada King', region: 'US' });
    expect(Date.parse(updated.body.updatedAt)).toBeGreaterThan(Date.parse(c.updatedAt));
    const accounts = await call('GET', `/customers/internal-accounts?customerId=${c.id}`);
    // USD stays (its balance cannot vanish); EUR and MXN are new.
    expect(accounts.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual(['EUR', 'MXN', 'USD']);
  });

  it('switches customer type only with the fields the new type needs', async () => {
    const c = await createCustomer(call);
    expectError(await call('PATCH', `/customers/${c.id}`, { customerType: 'BUSINESS' }), 400, 'INVALID_INPUT');
    expectError(await call('PATCH', `/customers/${c.id}`, { businessInfo: { legalName: 'X' } }), 400, 'INVALID_INPUT');
    const business = await call('PATCH', `/customers/${c.id}`, { customerType: 'BUSINESS', businessInfo: { legalName: 'Lovelace Analytics Ltd' } });
    expect(business.body.customerType).toBe('BUSINESS');
    expect(business.body.fullName).toBeUndefined();
  });

  it('soft-deletes: 404 afterwards, listed only with isIncludingDeleted', async () => {
    const c = await createCustomer(call);
    const deleted = await call('DELETE', `/customers/${c.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.isDeleted).toBe(true);
    expectError(await call('GET', `/customers/${c.id}`), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await call('PATCH', `/customers/${c.id}`, { fullName: 'x' }), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await call('DELETE', `/customers/${c.id}`), 404, 'CUSTOMER_NOT_FOUND');
    expect((await call('GET', '/customers')).body.totalCount).toBe(0);
    const all = await call('GET', '/customers?isIncludingDeleted=true');
    expect(all.body.data.map((x: any) => x.id)).toEqual([c.id]);
    // Its accounts are gone as well.
    expect((await call('GET', `/customers/internal-accounts?customerId=${c.id}`)).body.totalCount).toBe(0);
    // Its UMA address is free again.
    expect((await call('POST', '/customers', { customerType: 'INDIVIDUAL', umaAddress: c.umaAddress })).status).toBe(200);
  });

  it("answers 404 for unknown ids, whatever their shape (the service decides, never the id's prefix)", async () => {
    expectError(await call('GET', '/customers/Customer:nope'), 404, 'CUSTOMER_NOT_FOUND');
    const other = await call('GET', '/customers/Quote:123');
    expectError(other, 404, 'CUSTOMER_NOT_FOUND');
    expect(other.body.details.id).toBe('Quote:123');
  });
});

describe('customer listing', () => {
  it('pages newest first with limit bounds, cursors, hasMore, nextCursor and totalCount', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await createCustomer(call, { fullName: `Customer ${i}` })).id);
    const newestFirst = [...ids].reverse();

    const first = await call('GET', '/customers');
    expect(first.body.data).toHaveLength(20); // default limit
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 25 });
    expect(first.body.data.map((c: any) => c.id)).toEqual(newestFirst.slice(0, 20));
    const second = await call('GET', `/customers?cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((c: any) => c.id)).toEqual(newestFirst.slice(20));
    expect(second.body.hasMore).toBe(false);
    expect('nextCursor' in second.body).toBe(false);
    expect(second.body.totalCount).toBe(25);

    // Walk with limit=7: every id once, in order.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await call('GET', `/customers?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...res.body.data.map((c: any) => c.id));
      cursor = res.body.nextCursor;
      if (!res.body.hasMore) break;
    }
    expect(seen).toEqual(newestFirst);

    expect((await call('GET', '/customers?limit=100')).body.data).toHaveLength(25);
    expect((await call('GET', '/customers?limit=1')).body.data).toHaveLength(1);
    expectError(await call('GET', '/customers?limit=0'), 400, 'INVALID_INPUT');
    expectError(await call('GET', '/customers?limit=101'), 400, 'INVALID_INPUT');
    expectError(await call('GET', '/customers?limit=abc'), 400, 'INVALID_INPUT');
    expectError(await call('GET', '/customers?cursor=not-a-cursor'), 400, 'INVALID_INPUT');
  });

  it('applies every filter', async () => {
    const t0 = sandbox.clock.now();
    const a = await createCustomer(call, { fullName: 'Alpha', platformCustomerId: 'p-a', region: 'US', currencies: ['USD', 'MXN'] });
    sandbox.clock.advance(60_000);
    const b = await call('POST', '/customers', { customerType: 'BUSINESS', platformCustomerId: 'p-b', region: 'GB', businessInfo: { legalName: 'Beta Ltd' } });
    sandbox.clock.advance(60_000);
    const c = await createCustomer(call, { fullName: 'Gamma', platformCustomerId: 'p-c', region: 'FR' });
    sandbox.clock.advance(60_000);
    await call('PATCH', `/customers/${a.id}`, { customerType: 'INDIVIDUAL', fullName: 'Alpha Two' });
    const ids = async (query: string) => (await call('GET', `/customers?${query}`)).body.data.map((x: any) => x.id);
    const iso = (ms: number) => new Date(ms).toISOString();

    expect(await ids('platformCustomerId=p-b')).toEqual([b.body.id]);
    expect(await ids('customerType=BUSINESS')).toEqual([b.body.id]);
    expect(await ids('region=FR')).toEqual([c.id]);
    expect(await ids('currency=MXN')).toEqual([a.id]);
    expect(await ids(`umaAddress=${encodeURIComponent(c.umaAddress)}`)).toEqual([c.id]);
    expect(await ids(`createdAfter=${iso(t0 + 60_000)}`)).toEqual([c.id, b.body.id]);
    expect(await ids(`createdBefore=${encodeURIComponent(b.body.createdAt)}`)).toEqual([b.body.id, a.id]); // inclusive
    expect(await ids(`createdAfter=${iso(t0 + 30_000)}&createdBefore=${iso(t0 + 90_000)}`)).toEqual([b.body.id]);
    expect(await ids(`updatedAfter=${iso(t0 + 150_000)}`)).toEqual([a.id]);
    expect(await ids(`updatedBefore=${iso(t0 + 150_000)}`)).toEqual([c.id, b.body.id]);
    const counted = await call('GET', '/customers?region=US&limit=1');
    expect(counted.body).toMatchObject({ totalCount: 1, hasMore: false });
    expectError(await call('GET', '/customers?customerType=ROBOT'), 400, 'INVALID_INPUT');
    expectError(await call('GET', '/customers?createdAfter=yesterday'), 400, 'INVALID_INPUT');
  });
});

describe('unknown query parameters (issue #17.7)', () => {
  it('are refused with 400 INVALID_INPUT naming the parameter, never ignored', async () => {
    const misspelled = await call('GET', '/customers?platformCustomerID=abc');
    expectError(misspelled, 400, 'INVALID_INPUT');
    expect(misspelled.body.details.field).toBe('platformCustomerID');
    expect(misspelled.body.message).toContain('platformCustomerId');
    expectError(await call('GET', '/transactions?state=COMPLETED'), 400, 'INVALID_INPUT');
    expectError(await call('GET', '/config?verbose=1'), 400, 'INVALID_INPUT');
    expect((await call('GET', '/customers?limit=5')).status).toBe(200);
  });
});
