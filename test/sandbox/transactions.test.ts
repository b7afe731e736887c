import { afterEach, describe, expect, it } from 'vitest';
import { MAGIC, createClock } from '../../src/sandbox/index';
import { accountOf, balance, createCustomer, expectError, fund, setup, usdBank } from './helpers';

const { sandbox, call } = setup({ clock: createClock('2025-10-13T09:00:00Z', { frozen: true }) });
afterEach(() => sandbox.reset());

const receive = (body: Record<string, unknown>) =>
  call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$sam.sender@sandbox.uma.example', receivingCurrencyCode: 'USD', ...body });

describe('transfer-in', () => {
  it('moves money from an external account: PROCESSING, then COMPLETED', async () => {
    const c = await createCustomer(call);
    const usd = await accountOf(call, c.id, 'USD');
    const bank = await usdBank(call, c.id);
    const res = await call('POST', '/transfer-in', { source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: 25_000 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'INCOMING',
      status: 'PROCESSING',
      source: { sourceType: 'ACCOUNT', accountId: bank.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: usd.id, currency: 'USD' },
      customerId: c.id,
      receivedAmount: { amount: 25_000, currency: { code: 'USD' } },
    });
    expect(res.body.reconciliationInstructions.reference).toMatch(/^TI-/);
    sandbox.clock.advance(1_999);
    expect(await balance(call, usd.id)).toBe(0);
    sandbox.clock.advance(1);
    expect(await balance(call, usd.id)).toBe(25_000);
    expect((await call('GET', `/transactions/${res.body.id}`)).body.status).toBe('COMPLETED');
  });

  it('refuses mismatched owners and currencies, unknown accounts, bad amounts; magic sources fail or stick', async () => {
    const c = await createCustomer(call, { currencies: ['USD', 'GBP'] });
    const other = await createCustomer(call, { fullName: 'Other' });
    const usd = await accountOf(call, c.id, 'USD');
    const gbp = await accountOf(call, c.id, 'GBP');
    const bank = await usdBank(call, c.id);
    const othersBank = await usdBank(call, other.id);
    const ti = (source: string, destination: string, amount: unknown) =>
      call('POST', '/transfer-in', { source: { accountId: source }, destination: { accountId: destination }, amount });
    expectError(await ti(othersBank.id, usd.id, 100), 400, 'INVALID_INPUT');
    expectError(await ti(bank.id, gbp.id, 100), 400, 'INVALID_CURRENCY');
    expectError(await ti('ExternalAccount:nope', usd.id, 100), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    expectError(await ti(bank.id, 'InternalAccount:nope', 100), 404, 'ACCOUNT_NOT_FOUND');
    expectError(await ti(bank.id, usd.id, 0), 400, 'AMOUNT_OUT_OF_RANGE');
    expectError(await ti(bank.id, usd.id, 9_000_000_000_000_001), 400, 'AMOUNT_OUT_OF_RANGE');
    expectError(await ti(bank.id, usd.id, '5'), 400, 'INVALID_INPUT');
    expectError(await ti(usd.id, usd.id, 5), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    const failing = await usdBank(call, c.id, '4000000000000005');
    const stuck = await usdBank(call, c.id, '4000000000000098');
    const f = (await ti(failing.id, usd.id, 100)).body;
    const s = (await ti(stuck.id, usd.id, 100)).body;
    sandbox.clock.advance(60 * 60_000);
    expect((await call('GET', `/transactions/${f.id}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED' });
    expect((await call('GET', `/transactions/${s.id}`)).body.status).toBe('PROCESSING');
    expect(await balance(call, usd.id)).toBe(0);
  });
});

describe('sandbox UMA receive', () => {
  it('credits the primary internal account at once, by customerId or by UMA address', async () => {
    const c = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const usd = await accountOf(call, c.id, 'USD');
    const res = await receive({ receivingCurrencyAmount: 1_500, customerId: c.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'INCOMING',
      status: 'COMPLETED',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$sam.sender@sandbox.uma.example' },
      destination: { destinationType: 'ACCOUNT', accountId: usd.id, currency: 'USD' },
      customerId: c.id,
      platformCustomerId: c.platformCustomerId,
      counterpartyInformation: { FULL_NAME: 'Sam Sender' },
    });
    expect(res.body.settledAt).toBe(res.body.createdAt);
    await receive({ receivingCurrencyAmount: 500, receiverUmaAddress: c.umaAddress.toUpperCase() });
    expect(await balance(call, usd.id)).toBe(2_000);
    expectError(await receive({ receivingCurrencyAmount: 1, receivingCurrencyCode: 'GBP', customerId: c.id }), 400, 'INVALID_CURRENCY');
    expectError(await receive({ receivingCurrencyAmount: 1, receivingCurrencyCode: 'XXX', customerId: c.id }), 400, 'INVALID_CURRENCY');
    expectError(await receive({ receivingCurrencyAmount: 1 }), 400, 'INVALID_INPUT');
    expectError(await receive({ receivingCurrencyAmount: 1, customerId: 'Customer:nope' }), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await receive({ receivingCurrencyAmount: 1, receiverUmaAddress: '$nobody@sandbox.crossborder.example' }), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await receive({ receivingCurrencyAmount: 1, senderUmaAddress: 'sam', customerId: c.id }), 400, 'INVALID_UMA_ADDRESS');
    expectError(await receive({ receivingCurrencyAmount: 9_000_000_000_000_001, customerId: c.id }), 400, 'AMOUNT_OUT_OF_RANGE');
    const other = await createCustomer(call, { fullName: 'Other' });
    expectError(await receive({ receivingCurrencyAmount: 1, customerId: c.id, receiverUmaAddress: other.umaAddress }), 400, 'INVALID_INPUT');
  });

  it('deposits to the default UMA deposit account when the customer has one', async () => {
    const c = await createCustomer(call);
    const usd = await accountOf(call, c.id, 'USD');
    const bank = await usdBank(call, c.id, '000123456789', { defaultUmaDepositAccount: true });
    const res = await receive({ receivingCurrencyAmount: 1_500, customerId: c.id });
    expect(res.body.destination.accountId).toBe(bank.id);
    expect(await balance(call, usd.id)).toBe(0);
  });

  it('holds exactly MAGIC.holdForApprovalAmount for approval; /approve completes it, /reject refuses it', async () => {
    const HELD = MAGIC.holdForApprovalAmount;
    expect(HELD).toBe(13_131_313);
    const c = await createCustomer(call);
    const usd = await accountOf(call, c.id, 'USD');
    // The old suffix rule is gone: amounts merely ending in 1313 complete at once.
    for (const amount of [1_313, 21_313, 113_131_313])
      expect((await receive({ receivingCurrencyAmount: amount, customerId: c.id })).body.status).toBe('COMPLETED');
    const base = 1_313 + 21_313 + 113_131_313;
    expect(await balance(call, usd.id)).toBe(base);
    const held = (await receive({ receivingCurrencyAmount: HELD, customerId: c.id })).body;
    expect(held.status).toBe('PENDING');
    expect(held.settledAt).toBeUndefined();
    sandbox.clock.advance(60 * 60_000); // without a webhook endpoint it waits for a decision
    expect((await call('GET', `/transactions/${held.id}`)).body.status).toBe('PENDING');
    expect(await balance(call, usd.id)).toBe(base);
    const approved = await call('POST', `/transactions/${held.id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('COMPLETED');
    expect(await balance(call, usd.id)).toBe(base + HELD);
    expectError(await call('POST', `/transactions/${held.id}/approve`), 409, 'INVALID_STATE_TRANSITION');
    expectError(await call('POST', `/transactions/${held.id}/reject`), 409, 'INVALID_STATE_TRANSITION');

    const second = (await receive({ receivingCurrencyAmount: HELD, customerId: c.id })).body;
    const rejected = await call('POST', `/transactions/${second.id}/reject`, { reason: 'Receiver account is closed.' });
    expect(rejected.body.status).toBe('REJECTED');
    expect(await balance(call, usd.id)).toBe(base + HELD);
    expectError(await call('POST', `/transactions/${second.id}/approve`), 409, 'INVALID_STATE_TRANSITION');
    expectError(await call('POST', `/transactions/${second.id}/reject`, { reason: 42 }), 400, 'INVALID_INPUT');
    expectError(await call('POST', '/transactions/Transaction:nope/reject'), 404, 'TRANSACTION_NOT_FOUND');
  });

  it('approve/reject only apply to incoming payments', async () => {
    const c = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const usd = await accountOf(call, c.id, 'USD');
    const eur = await accountOf(call, c.id, 'EUR');
    const q = (
      await call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: usd.id },
        destination: { destinationType: 'ACCOUNT', accountId: eur.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      })
    ).body;
    expectError(await call('POST', `/transactions/${q.transactionId}/reject`), 409, 'INVALID_STATE_TRANSITION');
    expectError(await call('POST', `/transactions/${q.transactionId}/approve`), 409, 'INVALID_STATE_TRANSITION');
  });
});

describe('transaction listing', () => {
  it('filters by every parameter, sorts by creation time and pages', async () => {
    const a = await createCustomer(call, { platformCustomerId: 'p-a', currencies: ['USD', 'EUR'] });
    const b = await createCustomer(call, { fullName: 'Bob', platformCustomerId: 'p-b' });
    const aUsd = await accountOf(call, a.id, 'USD');
    const aEur = await accountOf(call, a.id, 'EUR');
    const bank = await usdBank(call, a.id);
    await fund(call, aUsd.id, 100_000);
    const t1 = (await receive({ receivingCurrencyAmount: 100, customerId: a.id })).body; // INCOMING COMPLETED
    sandbox.clock.advance(1_000);
    const q = (
      await call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: aUsd.id },
        destination: { destinationType: 'ACCOUNT', accountId: aEur.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000,
      })
    ).body;
    const t2 = (await call('GET', `/transactions/${q.transactionId}`)).body; // OUTGOING PENDING
    sandbox.clock.advance(1_000);
    const t3 = (await call('POST', '/transfer-in', { source: { accountId: bank.id }, destination: { accountId: aUsd.id }, amount: 300 })).body; // PROCESSING
    sandbox.clock.advance(1_000);
    const t4 = (await receive({ receivingCurrencyAmount: MAGIC.holdForApprovalAmount, receiverUmaAddress: b.umaAddress })).body; // PENDING, customer b
    const ids = async (q: string) => (await call('GET', `/transactions?${q}`)).body.data.map((t: any) => t.id);

    expect(await ids('')).toEqual([t4.id, t3.id, t2.id, t1.id]);
    expect(await ids('sortOrder=asc')).toEqual([t1.id, t2.id, t3.id, t4.id]);
    expect(await ids(`customerId=${b.id}`)).toEqual([t4.id]);
    expect(await ids('platformCustomerId=p-a')).toEqual([t3.id, t2.id, t1.id]);
    expect(await ids('type=OUTGOING')).toEqual([t2.id]);
    expect(await ids('type=INCOMING&status=PENDING')).toEqual([t4.id]);
    expect(await ids('status=PROCESSING')).toEqual([t3.id]);
    expect(await ids(`reference=${t3.reconciliationInstructions.reference}`)).toEqual([t3.id]);
    expect(await ids(`senderAccountIdentifier=${encodeURIComponent('$sam.sender@sandbox.uma.example')}`)).toEqual([t4.id, t1.id]);
    expect(await ids(`senderAccountIdentifier=${bank.id}`)).toEqual([t3.id]);
    expect(await ids(`receiverAccountIdentifier=${aEur.id}`)).toEqual([t2.id]);
    // The EmbeddedWallet id names the same account.
    expect(await ids(`receiverAccountIdentifier=${aUsd.id.replace('InternalAccount', 'EmbeddedWallet')}`)).toEqual([t3.id, t1.id]);
    expect(await ids(`startDate=${encodeURIComponent(t2.createdAt)}&endDate=${encodeURIComponent(t3.createdAt)}`)).toEqual([t3.id, t2.id]);

    const page1 = (await call('GET', '/transactions?limit=3&sortOrder=asc')).body;
    expect(page1).toMatchObject({ hasMore: true, totalCount: 4 });
    const page2 = (await call('GET', `/transactions?limit=3&sortOrder=asc&cursor=${page1.nextCursor}`)).body;
    expect(page2.data.map((t: any) => t.id)).toEqual([t4.id]);
    expect(page2.nextCursor).toBeUndefined();
    expectError(await call('GET', `/transactions?limit=3&cursor=${page1.nextCursor}`), 400, 'INVALID_INPUT'); // cursor of another order
    expectError(await call('GET', '/transactions?sortOrder=up'), 400, 'INVALID_INPUT');
    expect((await call('GET', '/transactions?status=DONE')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expectError(await call('GET', '/transactions/Transaction:nope'), 404, 'TRANSACTION_NOT_FOUND');
  });
});

describe('balance cap at every credit (issue #16, defect 4)', () => {
  const CAP = 9_000_000_000_000_000;
  it('transfer-ins that each fit but together pass the cap: the later one fails at settlement, the balance stays exact', async () => {
    await call('PATCH', '/config', {
      supportedCurrencies: [{ currencyCode: 'USD', minAmount: 1, maxAmount: CAP, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }],
    });
    const c = await createCustomer(call);
    const usd = await accountOf(call, c.id, 'USD');
    const bank = await usdBank(call, c.id);
    const big = 5_000_000_000_000_000;
    const first = await call('POST', '/transfer-in', { source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: big });
    const second = await call('POST', '/transfer-in', { source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: big });
    expect([first.status, second.status]).toEqual([200, 200]);
    sandbox.clock.advance(60 * 60_000);
    const statuses = [(await call('GET', `/transactions/${first.body.id}`)).body, (await call('GET', `/transactions/${second.body.id}`)).body];
    expect(statuses.map((t) => t.status)).toEqual(['COMPLETED', 'FAILED']);
    expect(statuses[1].failureReason).toBe('BALANCE_LIMIT_EXCEEDED');
    expect(await balance(call, usd.id)).toBe(big);
    expect(Number.isSafeInteger(await balance(call, usd.id))).toBe(true);
  });

  it('a held UMA payment approved once the balance is near the cap fails instead of passing it', async () => {
    await call('PATCH', '/config', {
      supportedCurrencies: [{ currencyCode: 'USD', minAmount: 1, maxAmount: CAP, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }],
    });
    const c = await createCustomer(call);
    const usd = await accountOf(call, c.id, 'USD');
    const bank = await usdBank(call, c.id);
    const held = await receive({ customerId: c.id, receivingCurrencyAmount: MAGIC.holdForApprovalAmount }); // held for approval
    expect(held.body.status).toBe('PENDING');
    const nearCap = CAP - MAGIC.holdForApprovalAmount + 1; // one unit too many once the held payment lands
    await call('POST', '/transfer-in', { source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: nearCap });
    sandbox.clock.advance(60 * 60_000);
    const approved = await call('POST', `/transactions/${held.body.id}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'FAILED', failureReason: 'BALANCE_LIMIT_EXCEEDED' });
    expect(await balance(call, usd.id)).toBe(nearCap);
  });

  it('money on its way out keeps its room under the cap: a payment that fails is refunded in full, the credit that would have taken its room fails instead', async () => {
    await call('PATCH', '/config', {
      supportedCurrencies: [{ currencyCode: 'USD', minAmount: 1, maxAmount: CAP, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }],
    });
    const c = await createCustomer(call);
    const usd = await accountOf(call, c.id, 'USD');
    const bank = await usdBank(call, c.id);
    const failingPayee = await usdBank(call, c.id, '4000000000000001'); // MAGIC.failures: LNURLP_FAILED
    const nearCap = CAP - MAGIC.holdForApprovalAmount + 1;
    const held = await receive({ customerId: c.id, receivingCurrencyAmount: MAGIC.holdForApprovalAmount });
    expect(held.body.status).toBe('PENDING');
    await call('POST', '/transfer-in', { source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: nearCap });
    sandbox.clock.advance(60 * 60_000);
    const paid = 7_000_000_000_000_000;
    const quote = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'ACCOUNT', accountId: failingPayee.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: paid,
      immediatelyExecute: true,
    });
    expect(quote.body.status).toBe('PROCESSING');
    expect(await balance(call, usd.id)).toBe(nearCap - paid);
    // Fits the balance alone, not beside the payment that may come back: refused, so the refund keeps its room.
    const approved = await call('POST', `/transactions/${held.body.id}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'FAILED', failureReason: 'BALANCE_LIMIT_EXCEEDED' });
    sandbox.clock.advance(60 * 60_000);
    expect((await call('GET', `/transactions/${quote.body.transactionId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'LNURLP_FAILED' });
    expect(await balance(call, usd.id)).toBe(nearCap); // the refund landed in full: nothing vanished
  });
});
