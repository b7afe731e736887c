import { afterEach, describe, expect, it } from 'vitest';
import { MAGIC, createClock } from '../../src/sandbox/index';
import { accountOf, balance, createCustomer, expectError, fund, setup, usdBank, type Call } from './helpers';

// A frozen clock: time moves only when a test says, so expiry can be asserted to the millisecond.
const { sandbox, call } = setup({ clock: createClock('2025-10-13T09:00:00Z', { frozen: true }) });
afterEach(() => sandbox.reset());

const quoteBody = (source: string, destination: string, side: 'SENDING' | 'RECEIVING', amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: side,
  lockedCurrencyAmount: amount,
  ...extra,
});

async function twoAccounts(call: Call, from: string, to: string) {
  const c = await createCustomer(call, { currencies: [...new Set([from, to])] });
  return { customer: c, from: await accountOf(call, c.id, from), to: await accountOf(call, c.id, to) };
}

describe('quote pricing (exact integers)', () => {
  const cases: {
    name: string;
    from: string;
    to: string;
    side: 'SENDING' | 'RECEIVING';
    amount: number;
    sending: number;
    receiving: number;
    fees: number;
    rate: number;
  }[] = [
    { name: 'USD→EUR locked sending', from: 'USD', to: 'EUR', side: 'SENDING', amount: 10_000, sending: 10_000, receiving: 9_161, fees: 60, rate: 1.085 },
    { name: 'USD→EUR locked receiving', from: 'USD', to: 'EUR', side: 'RECEIVING', amount: 10_000, sending: 10_913, receiving: 10_000, fees: 63, rate: 1.085 },
    {
      name: 'USD→BTC locked sending',
      from: 'USD',
      to: 'BTC',
      side: 'SENDING',
      amount: 100_000,
      sending: 100_000,
      receiving: 1_049_157,
      fees: 330,
      rate: 95_000,
    },
    {
      name: 'BTC→MXN locked sending',
      from: 'BTC',
      to: 'MXN',
      side: 'SENDING',
      amount: 1_000_000,
      sending: 1_000_000,
      receiving: 1_749_861,
      fees: 3_500,
      rate: 0.0541 / 95_000,
    },
    { name: 'USD→USDC locked sending', from: 'USD', to: 'USDC', side: 'SENDING', amount: 10_000, sending: 10_000, receiving: 99_400_000, fees: 60, rate: 1 },
    {
      name: 'USDC→USD locked receiving',
      from: 'USDC',
      to: 'USD',
      side: 'RECEIVING',
      amount: 10_000,
      sending: 100_601_806,
      receiving: 10_000,
      fees: 601_806,
      rate: 1,
    },
    {
      name: 'USD→USD (same currency: fixed fee only)',
      from: 'USD',
      to: 'USD',
      side: 'SENDING',
      amount: 10_000,
      sending: 10_000,
      receiving: 9_970,
      fees: 30,
      rate: 1,
    },
  ];
  for (const t of cases) {
    it(t.name, async () => {
      const c = await createCustomer(call, { region: 'US', currencies: [...new Set([t.from, t.to])] });
      const from = await accountOf(call, c.id, t.from);
      const other = t.from === t.to ? await createCustomer(call, { fullName: 'Receiver', currencies: [t.to] }) : c;
      const to = await accountOf(call, other.id, t.to);
      const res = await call('POST', '/quotes', quoteBody(from.id, to.id, t.side, t.amount));
      expect(res.status).toBe(200);
      const q = res.body;
      expect(q).toMatchObject({ totalSendingAmount: t.sending, totalReceivingAmount: t.receiving, feesIncluded: t.fees, status: 'PENDING' });
      expect(q.exchangeRate).toBeCloseTo(t.rate, 12);
      expect(q.sendingCurrency.code).toBe(t.from);
      expect(q.receivingCurrency).toMatchObject({ code: t.to, decimals: { USD: 2, EUR: 2, BTC: 8, MXN: 2, USDC: 6 }[t.to] });
      expect(q.rateDetails.serviceApiFixedFee + q.rateDetails.serviceApiVariableFeeAmount).toBe(t.fees);
      expect(q.rateDetails.serviceApiVariableFeeRate).toBe(t.from === t.to ? 0 : 0.003);
      expect(Date.parse(q.expiresAt) - Date.parse(q.createdAt)).toBe(5 * 60_000);
      expect(q.transactionId).toMatch(/^Transaction:/);
      const tx = await call('GET', `/transactions/${q.transactionId}`);
      expect(tx.body).toMatchObject({ status: 'PENDING', type: 'OUTGOING', receivedAmount: { amount: t.receiving } });
    });
  }

  it('refuses amounts that cannot cover fees, exceed the platform limit or the locked-amount limit', async () => {
    const { from, to } = await twoAccounts(call, 'USD', 'EUR');
    const tiny = await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 31));
    expectError(tiny, 400, 'AMOUNT_OUT_OF_RANGE');
    expect(tiny.body.details.feesIncluded).toBe(31); // 30 fixed + ceil(31 × 0.3%)
    expectError(await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 100_000_000_001)), 400, 'AMOUNT_OUT_OF_RANGE');
    const huge = await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 9_000_000_000_000_001));
    expectError(huge, 400, 'AMOUNT_OUT_OF_RANGE');
    expect(huge.body.details.field).toBe('lockedCurrencyAmount');
    expectError(await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 0)), 400, 'AMOUNT_OUT_OF_RANGE');
    expectError(await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 10.5)), 400, 'INVALID_INPUT');
    expectError(await call('POST', '/quotes', quoteBody(from.id, to.id, 'BOTH' as 'SENDING', 100)), 400, 'INVALID_INPUT');
    expectError(await call('POST', '/quotes', quoteBody(from.id, from.id, 'SENDING', 1000)), 400, 'INVALID_INPUT');
    expectError(await call('POST', '/quotes', quoteBody('InternalAccount:nope', to.id, 'SENDING', 1000)), 404, 'ACCOUNT_NOT_FOUND');
    expectError(await call('POST', '/quotes', quoteBody(from.id, 'ExternalAccount:nope', 'SENDING', 1000)), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    expectError(await call('GET', '/quotes/Quote:nope'), 404, 'QUOTE_NOT_FOUND');
  });
});

describe('quote lifecycle', () => {
  it('expires after 5 minutes of clock time, with its transaction', async () => {
    const { from, to } = await twoAccounts(call, 'USD', 'EUR');
    await fund(call, from.id, 1_000_000);
    const q = (await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 10_000))).body;
    sandbox.clock.advance(5 * 60_000 - 1);
    expect((await call('GET', `/quotes/${q.id}`)).body.status).toBe('PENDING');
    sandbox.clock.advance(1);
    expect((await call('GET', `/quotes/${q.id}`)).body.status).toBe('EXPIRED');
    const tx = (await call('GET', `/transactions/${q.transactionId}`)).body;
    expect(tx).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
    expectError(await call('POST', `/quotes/${q.id}/execute`), 409, 'QUOTE_EXPIRED');
    expect(await balance(call, from.id)).toBe(1_000_000);
  });

  it('executes: debit, PROCESSING, then COMPLETED after settlement; credits an internal destination', async () => {
    const { from, to } = await twoAccounts(call, 'USD', 'EUR');
    await fund(call, from.id, 50_000);
    const q = (await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 10_000))).body;
    const executed = await call('POST', `/quotes/${q.id}/execute`);
    expect(executed.status).toBe(200);
    expect(executed.body).toMatchObject({ id: q.id, status: 'PROCESSING', transactionId: q.transactionId });
    expect(await balance(call, from.id)).toBe(40_000);
    expect(await balance(call, to.id)).toBe(0);
    const processing = (await call('GET', `/transactions/${q.transactionId}`)).body;
    expect(processing.status).toBe('PROCESSING');
    expect(processing.reconciliationInstructions.reference).toMatch(/^CB-[0-9A-F]{6}$/);
    expectError(await call('POST', `/quotes/${q.id}/execute`), 409, 'INVALID_STATE_TRANSITION');
    sandbox.clock.advance(2_000);
    expect((await call('GET', `/quotes/${q.id}`)).body.status).toBe('COMPLETED');
    const done = (await call('GET', `/transactions/${q.transactionId}`)).body;
    expect(done.status).toBe('COMPLETED');
    expect(done.settledAt).toBeDefined();
    expect(await balance(call, to.id)).toBe(9_161);
    expectError(await call('POST', `/quotes/${q.id}/execute`), 409, 'INVALID_STATE_TRANSITION');
    // The quote never expires once executed.
    sandbox.clock.advance(10 * 60_000);
    expect((await call('GET', `/quotes/${q.id}`)).body.status).toBe('COMPLETED');
  });

  it('refuses execution on insufficient balance with 400 INVALID_AMOUNT and changes nothing', async () => {
    const { from, to } = await twoAccounts(call, 'USD', 'EUR');
    await fund(call, from.id, 9_999);
    const q = (await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 10_000))).body;
    const before = sandbox.state.snapshot();
    const res = await call('POST', `/quotes/${q.id}/execute`);
    expectError(res, 400, 'INVALID_AMOUNT');
    expect(res.body.details).toMatchObject({ available: 9_999, required: 10_000, accountId: from.id });
    expect(sandbox.state.snapshot()).toEqual(before);
    await fund(call, from.id, 1);
    expect((await call('POST', `/quotes/${q.id}/execute`)).body.status).toBe('PROCESSING');
  });

  it('immediatelyExecute executes at once; refused without funds and then creates nothing', async () => {
    const { from, to } = await twoAccounts(call, 'USD', 'EUR');
    const before = sandbox.state.snapshot();
    expectError(await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 10_000, { immediatelyExecute: true })), 400, 'INVALID_AMOUNT');
    expect(sandbox.state.snapshot()).toEqual(before);
    await fund(call, from.id, 10_000);
    const q = (await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 10_000, { immediatelyExecute: true }))).body;
    expect(q.status).toBe('PROCESSING');
    expect(await balance(call, from.id)).toBe(0);
    sandbox.clock.advance(2_000);
    expect((await call('GET', `/quotes/${q.id}`)).body.status).toBe('COMPLETED');
  });

  it('pays an external bank account; keeps description and payment rail', async () => {
    const { customer, from } = await twoAccounts(call, 'USD', 'USD');
    const bank = await usdBank(call, customer.id);
    await fund(call, from.id, 20_000);
    const q = (
      await call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: from.id, customerId: customer.id },
        destination: { destinationType: 'ACCOUNT', accountId: bank.id, paymentRail: 'ACH' },
        lockedCurrencySide: 'RECEIVING',
        lockedCurrencyAmount: 10_000,
        description: 'Invoice 2025-114',
        purposeOfPayment: 'GOODS_OR_SERVICES',
        immediatelyExecute: true,
      })
    ).body;
    expect(q).toMatchObject({ totalSendingAmount: 10_030, totalReceivingAmount: 10_000, destination: { paymentRail: 'ACH' } });
    sandbox.clock.advance(2_000);
    const tx = (await call('GET', `/transactions/${q.transactionId}`)).body;
    expect(tx).toMatchObject({
      status: 'COMPLETED',
      description: 'Invoice 2025-114',
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
    });
    expect(await balance(call, from.id)).toBe(9_970);
    expectError(
      await call('POST', '/quotes', {
        ...quoteBody(from.id, bank.id, 'SENDING', 1_000),
        source: { sourceType: 'ACCOUNT', accountId: from.id, customerId: 'Customer:someone-else' },
      }),
      400,
      'INVALID_INPUT',
    );
  });
});

describe('magic failure values', () => {
  for (const [value, reason] of Object.entries(MAGIC.failures)) {
    it(`account number ${value} fails with ${reason} and returns the debit`, async () => {
      const { customer, from } = await twoAccounts(call, 'USD', 'USD');
      const bank = await usdBank(call, customer.id, value);
      await fund(call, from.id, 10_000);
      const q = (await call('POST', '/quotes', quoteBody(from.id, bank.id, 'SENDING', 10_000, { immediatelyExecute: true }))).body;
      expect(await balance(call, from.id)).toBe(0);
      sandbox.clock.advance(2_000);
      expect((await call('GET', `/quotes/${q.id}`)).body.status).toBe('FAILED');
      const tx = (await call('GET', `/transactions/${q.transactionId}`)).body;
      expect(tx).toMatchObject({ status: 'FAILED', failureReason: reason });
      expect(await balance(call, from.id)).toBe(10_000);
    });
  }

  it('account number 4000000000000098 stays PROCESSING forever', async () => {
    const { customer, from } = await twoAccounts(call, 'USD', 'USD');
    const bank = await usdBank(call, customer.id, MAGIC.stuckProcessing);
    await fund(call, from.id, 10_000);
    const q = (await call('POST', '/quotes', quoteBody(from.id, bank.id, 'SENDING', 10_000, { immediatelyExecute: true }))).body;
    sandbox.clock.advance(24 * 60 * 60_000);
    expect((await call('GET', `/quotes/${q.id}`)).body.status).toBe('PROCESSING');
    expect((await call('GET', `/transactions/${q.transactionId}`)).body.status).toBe('PROCESSING');
  });
});

describe('UMA destinations', () => {
  it('needs a matching lookup and the payer data it asks for', async () => {
    const { customer, from } = await twoAccounts(call, 'USD', 'USD');
    await fund(call, from.id, 1_000_000);
    const lookup = await call('GET', `/receiver/uma/${encodeURIComponent('$bob@receiver.example')}?customerId=${customer.id}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.lookupId).toMatch(/^Lookup:/);
    expect(lookup.body.receiverUmaAddress).toBe('$bob@receiver.example');
    expect(lookup.body.requiredPayerDataFields).toEqual([
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: false },
    ]);
    const mxn = lookup.body.supportedCurrencies.find((c: any) => c.currency.code === 'MXN');
    expect(mxn.estimatedExchangeRate).toBeCloseTo(0.0541, 12);
    const uma = (extra: Record<string, unknown>) => ({
      source: { sourceType: 'ACCOUNT', accountId: from.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$bob@receiver.example', currency: 'MXN' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 50_000,
      ...extra,
    });
    expectError(await call('POST', '/quotes', uma({ senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' } })), 400, 'INVALID_INPUT');
    expectError(await call('POST', '/quotes', uma({ lookupId: 'Lookup:nope', senderCustomerInfo: { FULL_NAME: 'Ada' } })), 404, 'LOOKUP_NOT_FOUND');
    const missing = await call('POST', '/quotes', uma({ lookupId: lookup.body.lookupId }));
    expectError(missing, 400, 'INVALID_INPUT');
    expect(missing.body.details.missingFields).toEqual(['FULL_NAME']);
    expectError(
      await call(
        'POST',
        '/quotes',
        uma({
          lookupId: lookup.body.lookupId,
          senderCustomerInfo: { FULL_NAME: 'Ada' },
          destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$bob@receiver.example', currency: 'GBP' },
        }),
      ),
      400,
      'INVALID_CURRENCY',
    );
    const other = await call('GET', `/receiver/uma/${encodeURIComponent('$carol@receiver.example')}`);
    expectError(await call('POST', '/quotes', uma({ lookupId: other.body.lookupId, senderCustomerInfo: { FULL_NAME: 'Ada' } })), 400, 'INVALID_INPUT');
    const q = await call(
      'POST',
      '/quotes',
      uma({ lookupId: lookup.body.lookupId, senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' }, immediatelyExecute: true }),
    );
    expect(q.body).toMatchObject({ status: 'PROCESSING', totalReceivingAmount: 50_000, destination: { destinationType: 'UMA_ADDRESS', currency: 'MXN' } });
    expect(q.body.rateDetails).toMatchObject({ counterpartyMultiplier: 1, counterpartyFixedFee: 0 });
    sandbox.clock.advance(2_000);
    const tx = (await call('GET', `/transactions/${q.body.transactionId}`)).body;
    expect(tx.status).toBe('COMPLETED');
    expect(tx.reconciliationInstructions.reference).toMatch(/^UMA-/);
  });

  it('fails a payment to an UMA user that is a magic value', async () => {
    const { from } = await twoAccounts(call, 'USD', 'USD');
    await fund(call, from.id, 100_000);
    const address = '$4000000000000001@receiver.example';
    const lookup = (await call('GET', `/receiver/uma/${encodeURIComponent(address)}`)).body;
    const q = (
      await call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: from.id },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
        lookupId: lookup.lookupId,
        senderCustomerInfo: { FULL_NAME: 'Ada' },
        immediatelyExecute: true,
      })
    ).body;
    sandbox.clock.advance(2_000);
    expect((await call('GET', `/transactions/${q.transactionId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'LNURLP_FAILED' });
    expect(await balance(call, from.id)).toBe(100_000);
  });

  it('pays another customer of the platform by UMA address: their account is credited and they see it as incoming', async () => {
    const sender = await createCustomer(call, { currencies: ['USD'] });
    const receiver = await createCustomer(call, { fullName: 'Bea Receiver', currencies: ['EUR'] });
    const from = await accountOf(call, sender.id, 'USD');
    const to = await accountOf(call, receiver.id, 'EUR');
    await fund(call, from.id, 100_000);
    const lookup = (await call('GET', `/receiver/uma/${encodeURIComponent(receiver.umaAddress)}?customerId=${sender.id}`)).body;
    expect(lookup.supportedCurrencies.map((c: any) => c.currency.code)).toEqual(['EUR']);
    expect(lookup.requiredPayerDataFields).toEqual([{ name: 'FULL_NAME', mandatory: true }]);
    const q = (
      await call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: from.id },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver.umaAddress, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
        lookupId: lookup.lookupId,
        senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
        immediatelyExecute: true,
      })
    ).body;
    expect(q.counterpartyInformation).toEqual({ FULL_NAME: 'Bea Receiver' });
    sandbox.clock.advance(2_000);
    expect(await balance(call, to.id)).toBe(9_161);
    const incoming = (await call('GET', `/transactions?customerId=${receiver.id}&type=INCOMING`)).body.data;
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({
      status: 'COMPLETED',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: sender.umaAddress },
      receivedAmount: { amount: 9_161 },
    });
    expectError(await call('GET', `/receiver/uma/${encodeURIComponent('$nobody@sandbox.crossborder.example')}`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/receiver/uma/not-an-address'), 400, 'INVALID_UMA_ADDRESS');
  });

  it('looks up an external account receiver', async () => {
    const c = await createCustomer(call);
    const bank = await usdBank(call, c.id);
    const res = await call('GET', `/receiver/external-account/${bank.id}?customerId=${c.id}`);
    expect(res.body).toMatchObject({
      accountId: bank.id,
      requiredPayerDataFields: [],
      supportedCurrencies: [{ currency: { code: 'USD' }, estimatedExchangeRate: 1 }],
    });
    const from = await accountOf(call, c.id, 'USD');
    const q = await call('POST', '/quotes', quoteBody(from.id, bank.id, 'SENDING', 1_000, { lookupId: res.body.lookupId }));
    expect(q.status).toBe(200);
    expectError(await call('GET', '/receiver/external-account/ExternalAccount:nope'), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
  });
});

describe('idempotency', () => {
  it('replays the first answer for the same key and body, refuses a different body', async () => {
    const { from, to } = await twoAccounts(call, 'USD', 'EUR');
    const body = quoteBody(from.id, to.id, 'SENDING', 10_000);
    const first = await call('POST', '/quotes', body, { 'idempotency-key': 'key-1' });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await call('POST', '/quotes', body, { 'idempotency-key': 'key-1' });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(sandbox.state.snapshot().quotes).toHaveLength(1);
    const conflict = await call('POST', '/quotes', { ...body, lockedCurrencyAmount: 10_001 }, { 'idempotency-key': 'key-1' });
    expectError(conflict, 409, 'IDEMPOTENCY_KEY_REUSED');
    // Concurrent repeats act once.
    const burst = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/quotes', body, { 'idempotency-key': 'key-2' })));
    expect(new Set(burst.map((r) => r.body.id)).size).toBe(1);
    expect(sandbox.state.snapshot().quotes).toHaveLength(2);
    // After 24 h the key is forgotten.
    sandbox.clock.advance(24 * 60 * 60_000);
    const later = await call('POST', '/quotes', body, { 'idempotency-key': 'key-1' });
    expect(later.body.id).not.toBe(first.body.id);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expectError(await call('POST', '/quotes', body, { 'idempotency-key': 'x'.repeat(256) }), 400, 'INVALID_INPUT');
  });

  it('replays execute (including its refusal) and transfer-in', async () => {
    const { customer, from, to } = await twoAccounts(call, 'USD', 'EUR');
    const bank = await usdBank(call, customer.id);
    await fund(call, from.id, 10_000);
    const q = (await call('POST', '/quotes', quoteBody(from.id, to.id, 'SENDING', 10_000))).body;
    const a = await call('POST', `/quotes/${q.id}/execute`, undefined, { 'idempotency-key': 'exec-1' });
    const b = await call('POST', `/quotes/${q.id}/execute`, undefined, { 'idempotency-key': 'exec-1' });
    expect(a.body.status).toBe('PROCESSING');
    expect(b.text).toBe(a.text);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(await balance(call, from.id)).toBe(0);
    const t1 = await call(
      'POST',
      '/transfer-in',
      { source: { accountId: bank.id }, destination: { accountId: from.id }, amount: 500 },
      { 'idempotency-key': 'ti' },
    );
    const t2 = await call(
      'POST',
      '/transfer-in',
      { source: { accountId: bank.id }, destination: { accountId: from.id }, amount: 500 },
      { 'idempotency-key': 'ti' },
    );
    expect(t2.body.id).toBe(t1.body.id);
    sandbox.clock.advance(2_000);
    expect(await balance(call, from.id)).toBe(500);
    expectError(
      await call('POST', '/transfer-in', { source: { accountId: bank.id }, destination: { accountId: from.id }, amount: 501 }, { 'idempotency-key': 'ti' }),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });
});

describe('balances add up', () => {
  it('funding, transfer-in, execution and incoming payments move exactly what they say', async () => {
    const c = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const usd = await accountOf(call, c.id, 'USD');
    const eur = await accountOf(call, c.id, 'EUR');
    const bank = await usdBank(call, c.id);
    await fund(call, usd.id, 100_000);
    const ti = (await call('POST', '/transfer-in', { source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: 25_000 })).body;
    expect(ti).toMatchObject({ type: 'INCOMING', status: 'PROCESSING' });
    expect(await balance(call, usd.id)).toBe(100_000);
    sandbox.clock.advance(2_000);
    expect((await call('GET', `/transactions/${ti.id}`)).body.status).toBe('COMPLETED');
    expect(await balance(call, usd.id)).toBe(125_000);
    const q = (await call('POST', '/quotes', quoteBody(usd.id, eur.id, 'RECEIVING', 10_000, { immediatelyExecute: true }))).body;
    expect(await balance(call, usd.id)).toBe(125_000 - q.totalSendingAmount);
    await call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$sam.sender@sandbox.uma.example',
      receivingCurrencyCode: 'EUR',
      receivingCurrencyAmount: 1_500,
      customerId: c.id,
    });
    sandbox.clock.advance(2_000);
    expect(await balance(call, eur.id)).toBe(10_000 + 1_500);
    expect(await balance(call, usd.id)).toBe(125_000 - 10_913);
  });
});

describe('magic values are whole values (issue #17.4)', () => {
  it('10,000 random and 10,000 sequential account numbers, UMA addresses and amounts: 0 accidental effects', async () => {
    const { failureFor, staysProcessing, holdsForApproval, MAGIC: magic } = await import('../../src/sandbox/domain/magic');
    const { umaUser } = await import('../../src/sandbox/domain/uma');
    const fc = (await import('fast-check')).default;
    const accidental: string[] = [];
    const check = (id: string) => {
      if (failureFor(id) || staysProcessing(id) || [magic.beneficiaryNotMatched, magic.beneficiaryPartialMatch, magic.underReview].includes(id as never))
        accidental.push(id);
    };
    const checkAmount = (amount: number) => {
      if (holdsForApproval(amount)) accidental.push(`amount ${amount}`);
    };
    for (let i = 0; i < 10_000; i++) check(String(100_000_001 + i)); // 100000001, 100000002, …: the old suffixes' worst case
    for (let i = 0; i < 10_000; i++) check(String(i).padStart(12, '0'));
    for (let i = 1; i <= 10_000; i++) check(umaUser(`$user${i}@receiver.example`)); // sequential UMA addresses
    for (let i = 1; i <= 10_000; i++) checkAmount(i); // 1 … 10,000 (the old 1313 suffix held 1313)
    for (let i = 0; i < 10_000; i++) checkAmount(1_000_000 + i * 1_313); // sequential amounts in steps that walk through …1313 endings
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{6,17}$/),
        fc.stringMatching(/^[a-z]{1,8}\d{0,6}$/),
        fc.stringMatching(/^\$[a-z0-9][a-z0-9._-]{0,30}@[a-z]{1,12}\.example$/),
        fc.integer({ min: 1, max: 100_000_000_000 }),
        (number, name, address, amount) => (check(number), check(name), check(umaUser(address)), checkAmount(amount), true),
      ),
      { numRuns: 10_000, seed: 20251013 },
    );
    expect(accidental).toEqual([]);
    // Each magic value still has its effect.
    for (const [value, reason] of Object.entries(magic.failures)) expect(failureFor(value)).toBe(reason);
    expect(staysProcessing(magic.stuckProcessing)).toBe(true);
    expect(failureFor(`1${Object.keys(magic.failures)[0]}`)).toBeUndefined(); // a longer number ending the same way is not magic
    expect(holdsForApproval(magic.holdForApprovalAmount)).toBe(true);
    expect([1_313, 101_313, 2_000_000_000_001_313, magic.holdForApprovalAmount + 1, magic.holdForApprovalAmount * 10].map(holdsForApproval)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('real payments through the sandbox for a sample: sequential and random amounts, account numbers and UMA addresses all settle', async () => {
    const fc = (await import('fast-check')).default;
    const c = await createCustomer(call, { currencies: ['USD'] });
    const usd = await accountOf(call, c.id, 'USD');
    // Incoming UMA payments: amounts 1…100, 1,300…1,320 (the old magic 1313 among them) and 100 random ones.
    const amounts = [
      ...Array.from({ length: 100 }, (_, i) => i + 1),
      ...Array.from({ length: 21 }, (_, i) => 1_300 + i),
      ...fc.sample(fc.integer({ min: 1, max: 1_000_000_000 }), { numRuns: 100, seed: 17 }),
    ];
    const incoming: Record<string, number> = {};
    for (const amount of amounts) {
      const tx = (
        await call('POST', '/sandbox/uma/receive', {
          senderUmaAddress: '$sam@sandbox.uma.example',
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: amount,
          customerId: c.id,
        })
      ).body;
      incoming[tx.status] = (incoming[tx.status] ?? 0) + 1;
    }
    expect(incoming).toEqual({ COMPLETED: amounts.length });
    const sum = amounts.reduce((a, b) => a + b, 0);
    expect(await balance(call, usd.id)).toBe(sum);
    const magicOne = (
      await call('POST', '/sandbox/uma/receive', {
        senderUmaAddress: '$sam@sandbox.uma.example',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: MAGIC.holdForApprovalAmount,
        customerId: c.id,
      })
    ).body;
    expect(magicOne.status).toBe('PENDING'); // and the one magic amount is held

    // Outgoing payments to external accounts numbered 100000001…100000025 and 25 random numbers, and to
    // UMA addresses $user1…$user15@receiver.example and 15 random ones.
    const numbers = [
      ...Array.from({ length: 25 }, (_, i) => String(100_000_001 + i)),
      ...fc.sample(fc.stringMatching(/^\d{8,17}$/), { numRuns: 25, seed: 18 }),
    ];
    const addresses = [
      ...Array.from({ length: 15 }, (_, i) => `$user${i + 1}@receiver.example`),
      ...fc.sample(fc.stringMatching(/^\$[a-z][a-z0-9]{0,12}@receiver\.example$/), { numRuns: 15, seed: 19 }),
    ];
    const transactions: string[] = [];
    const accountStatuses: Record<string, number> = {};
    for (const accountNumber of numbers) {
      const account = (await usdBank(call, c.id, accountNumber)) as { id: string; status: string; beneficiaryVerificationStatus?: string };
      const key = `${account.status}/${account.beneficiaryVerificationStatus ?? 'none'}`;
      accountStatuses[key] = (accountStatuses[key] ?? 0) + 1;
      transactions.push((await call('POST', '/quotes', quoteBody(usd.id, account.id, 'SENDING', 1_000, { immediatelyExecute: true }))).body.transactionId);
    }
    expect(Object.keys(accountStatuses).every((k) => k.startsWith('ACTIVE/') && !/NOT_MATCHED|PARTIAL_MATCH/.test(k))).toBe(true);
    for (const address of addresses) {
      const lookup = (await call('GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${c.id}`)).body;
      const q = await call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: usd.id },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        lookupId: lookup.lookupId,
        senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
        immediatelyExecute: true,
      });
      expect({ address, status: q.status }).toEqual({ address, status: 200 });
      transactions.push(q.body.transactionId);
    }
    sandbox.clock.advance(5_000);
    const outgoing: Record<string, number> = {};
    for (const id of transactions) {
      const status = (await call('GET', `/transactions/${id}`)).body.status as string;
      outgoing[status] = (outgoing[status] ?? 0) + 1;
    }
    expect(outgoing).toEqual({ COMPLETED: numbers.length + addresses.length });
  });
});
