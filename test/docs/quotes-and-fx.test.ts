import { ValidationError, formatAmount, toMinorUnits } from 'crossborder-sdk';
import { createClock } from 'crossborder-sdk/sandbox';
import { describe, expect, it } from 'vitest';
import { describeQuote } from '../../examples/guides/quotes-and-fx/describe';
import { executeAccepted } from '../../examples/guides/quotes-and-fx/expiry';
import { quoteReceiving, quoteSending } from '../../examples/guides/quotes-and-fx/locked-side';
import { payout } from '../../examples/guides/quotes-and-fx/payout';
import { rateFor } from '../../examples/guides/quotes-and-fx/rates';
import { bankChoices, vaspNamed } from '../../examples/guides/quotes-and-fx/directories';
import { stopWithdrawal, withdraw } from '../../examples/guides/quotes-and-fx/transfer-out';
import { usdcWithdrawalFee } from '../../examples/guides/quotes-and-fx/crypto-fees';
import { mintFromAccount, redeemToBank, registerToken, underWay } from '../../examples/guides/quotes-and-fx/stablecoins';
import { executeWithSca, openScaSession, trustBeneficiary } from '../../examples/guides/quotes-and-fx/sca';
import { read } from './markdown';
import { fundedCustomer, sandboxClient } from './support';

const guide = read('docs/quotes-and-fx.md');

describe('docs/quotes-and-fx.md', () => {
  it('amounts: exact conversions both ways, and no silent rounding', () => {
    const usd = { code: 'USD', decimals: 2 };
    expect(formatAmount({ amount: 123456, currency: usd })).toBe('1234.56');
    expect(formatAmount({ amount: 123456, currency: usd }, { code: true })).toBe('1234.56 USD');
    expect(toMinorUnits('1234.56', usd)).toBe(123456);
    expect(() => toMinorUnits('0.001', usd)).toThrow(ValidationError);
    expect(formatAmount({ amount: 1, currency: { code: 'BTC', decimals: 8 } })).toBe('0.00000001');
  });

  it('locked side: SENDING fixes what is paid, RECEIVING what arrives; fees are in the sending currency', async () => {
    const { sandbox, cb } = sandboxClient();
    const { account, payee } = await fundedCustomer(cb);

    const sending = await quoteSending(cb, account.id, payee.id, 10_000);
    expect(sending.totalSendingAmount).toBe(10_000);
    expect(sending.feesIncluded).toBeGreaterThan(0);
    // exchangeRate is sending units per receiving unit: receiving ≈ (sending − fees) / rate, rounded down.
    const sendingExpected = Math.floor((sending.totalSendingAmount - sending.feesIncluded) / sending.exchangeRate);
    expect(Math.abs(sending.totalReceivingAmount - sendingExpected)).toBeLessThanOrEqual(1);
    expect(sending.totalReceivingAmount).toBeLessThanOrEqual((sending.totalSendingAmount - sending.feesIncluded) / sending.exchangeRate);

    const receiving = await quoteReceiving(cb, account.id, payee.id, 5_000);
    expect(receiving.totalReceivingAmount).toBe(5_000);
    expect((receiving.totalSendingAmount - receiving.feesIncluded) / receiving.exchangeRate).toBeGreaterThanOrEqual(5_000); // never short
    expect(receiving.sendingCurrency.code).toBe('USD');
    expect(receiving.receivingCurrency.code).toBe('GBP');
    await sandbox.close();
  });

  it('rates before quoting: the rate shown is the price of a quote made at once', async () => {
    const { sandbox, cb } = sandboxClient();
    const { account, payee } = await fundedCustomer(cb);
    const rate = await rateFor(cb, 'USD', 'GBP', 10_000);
    const quote = await quoteSending(cb, account.id, payee.id, 10_000);
    expect(rate).toEqual({ exchangeRate: quote.exchangeRate, fees: quote.feesIncluded, receivingAmount: quote.totalReceivingAmount, rail: 'FASTER_PAYMENTS' });
    expect(await rateFor(cb, 'USD', 'XYZ', 10_000)).toBeUndefined();
    await sandbox.close();
  });

  it('receiving institutions and VASPs: a corridor picker from discoveries, a VASP found on a later page', async () => {
    const { sandbox, cb } = sandboxClient();
    expect(await bankChoices(cb, 'PH', 'PHP')).toEqual([
      { value: 'BDO Unibank', label: 'BDO Unibank' },
      { value: 'BPI', label: 'Bank of the Philippine Islands' },
    ]);
    expect(await bankChoices(cb, 'PH', 'EUR')).toEqual([]);
    expect(await vaspNamed(cb, ' kraken ')).toBe('Kraken');
    expect(await vaspNamed(cb, 'bitpanda')).toBe('Bitpanda');
    expect(await vaspNamed(cb, 'Mt. Gox')).toBeUndefined();
    const guide = read('docs/quotes-and-fx.md');
    expect(guide).toContain('npx crossborder-sdk discoveries list --country PH --currency PHP');
    await sandbox.close();
  });

  it('describes a quote exactly as the guide quotes it', async () => {
    const { sandbox, cb } = sandboxClient({ clock: createClock('2025-10-13T12:00:00Z', { frozen: true }) });
    const { account, payee } = await fundedCustomer(cb);
    const line = describeQuote(await quoteSending(cb, account.id, payee.id, 10_000));
    expect(guide).toContain(`> ${line}`);
    await sandbox.close();
  });

  it('expiry: executes a valid quote; an expired one, seen locally or by the service, is priced again', async () => {
    const { sandbox, cb } = sandboxClient();
    const { account, payee } = await fundedCustomer(cb);
    const params = {
      source: { sourceType: 'ACCOUNT' as const, accountId: account.id },
      destination: { destinationType: 'ACCOUNT' as const, accountId: payee.id },
      lockedCurrencySide: 'SENDING' as const,
      lockedCurrencyAmount: 10_000,
    };
    const valid = await executeAccepted(cb, await cb.quotes.create(params), params);
    expect(valid).toHaveProperty('executed.status', 'PROCESSING');

    const accepted = await cb.quotes.create(params);
    sandbox.clock.advance(6 * 60_000); // the service's clock passes expiresAt; this machine's has not
    const byService = await executeAccepted(cb, accepted, params);
    expect(byService).toHaveProperty('requote.status', 'PENDING');
    expect((await cb.quotes.retrieve(accepted.id)).status).toBe('EXPIRED');
    await sandbox.close();

    // A quote whose expiresAt has passed on this machine is never sent for execution.
    const past = sandboxClient({ clock: createClock(Date.now() - 10 * 60_000) });
    const funded = await fundedCustomer(past.cb);
    const stale = await past.cb.quotes.create({
      ...params,
      source: { sourceType: 'ACCOUNT', accountId: funded.account.id },
      destination: { destinationType: 'ACCOUNT', accountId: funded.payee.id },
    });
    const locally = await executeAccepted(past.cb, stale, {
      ...params,
      source: { sourceType: 'ACCOUNT', accountId: funded.account.id },
      destination: { destinationType: 'ACCOUNT', accountId: funded.payee.id },
    });
    expect(locally).toHaveProperty('requote');
    expect((await past.cb.quotes.retrieve(stale.id)).status).toBe('PENDING'); // not executed
    await past.sandbox.close();
  });

  it('payout: straight through to COMPLETED, or the failure reason', async () => {
    const { sandbox, cb } = sandboxClient();
    const ok = await fundedCustomer(cb);
    expect(await payout(cb, ok.account, ok.payee.id, '250.00', 'payout-1')).toMatch(/^paid \d+\.\d{2} GBP$/);
    expect(sandbox.state.balance(ok.account.id)).toBe(100_000 - 25_000);

    const failing = await fundedCustomer(cb, { payeeAccountNumber: '4000000000000005' });
    expect(await payout(cb, failing.account, failing.payee.id, '250.00', 'payout-2')).toBe('FAILED: OFFRAMP_FAILED');
    expect(sandbox.state.balance(failing.account.id)).toBe(100_000); // returned

    await expect(payout(cb, ok.account, ok.payee.id, '250.001', 'payout-3')).rejects.toBeInstanceOf(ValidationError);
    await sandbox.close();
  });

  it("transfer-out: the customer's own USD bank account, debited at once, settled; one still PROCESSING is cancelled and refunded", async () => {
    const { sandbox, cb } = sandboxClient();
    const customer = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region: 'US',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
    });
    const {
      data: [usd],
    } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
    await cb.sandbox.fundInternalAccount(usd!.id, { amount: 50_000 });
    const bank = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    const tx = await withdraw(cb, usd!.id, bank.id, 12_550);
    expect(tx).toMatchObject({ type: 'OUTGOING', status: 'PROCESSING', receivedAmount: { amount: 12_550, currency: { code: 'USD' } } });
    expect(sandbox.state.balance(usd!.id)).toBe(50_000 - 12_550);
    sandbox.clock.advance(2_000);
    expect((await cb.transactions.retrieve(tx.id)).status).toBe('COMPLETED');

    const second = await withdraw(cb, usd!.id, bank.id, 10_000);
    expect(sandbox.state.balance(usd!.id)).toBe(50_000 - 12_550 - 10_000);
    const cancelled = await stopWithdrawal(cb, second.id);
    expect([cancelled.status, cancelled.failureReason]).toEqual(['FAILED', 'CANCELLED']);
    expect(sandbox.state.balance(usd!.id)).toBe(50_000 - 12_550);
    await expect(stopWithdrawal(cb, tx.id)).rejects.toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    await sandbox.close();
  });

  it('crypto withdrawal fees: what it costs and what arrives, in USDC; the gas in lamports of SOL', async () => {
    const { sandbox, cb } = sandboxClient();
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace', currencies: ['USD', 'USDC'] });
    const {
      data: [usdc],
    } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USDC' });
    expect(await usdcWithdrawalFee(cb, usdc!.id, 1_000_000, '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU')).toEqual({
      totalFee: '0.005000 USDC',
      arrives: '0.995000 USDC',
      gas: '5000 (smallest unit of SOL)',
    });
    const {
      data: [usd],
    } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
    await expect(usdcWithdrawalFee(cb, usd!.id, 1_000_000, '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU')).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_CURRENCY',
    });
    await sandbox.close();
  });

  it('stablecoin issuance: link, register, a mint paid from the account, a burn to the bank; each settles on the clock', async () => {
    const { sandbox, cb } = sandboxClient();
    const { customer, account } = await fundedCustomer(cb, { amount: 10_000 });
    const bank = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    const wallet = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'BTC',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1pgss9qvzc8e2yfz3lwsz8ra6zxj6yqjk8hy0mnhvxm3a5ccgzyyaqmqyjdxz' },
    });
    const stablecoinId = await registerToken(cb, 'brale-client', 'brale-secret');
    expect((await cb.stablecoins.retrieve(stablecoinId)).issuanceStatus).toBe('PROVISIONED');

    const mint = await mintFromAccount(cb, stablecoinId, account.id, wallet.id, '25000000'); // 25 ACME for 25.00 USD
    expect(mint.status).toBe('PROCESSING');
    expect(sandbox.state.balance(account.id)).toBe(10_000 - 2_500);
    expect((await underWay(cb, stablecoinId)).map((o) => o.id)).toEqual([mint.id]);
    sandbox.clock.advance(2_000);
    expect(await underWay(cb, stablecoinId)).toEqual([]);

    const burn = await redeemToBank(cb, stablecoinId, bank.id, '10000000');
    expect(burn).toMatchObject({ status: 'PROCESSING', estimatedDelivery: { rail: 'ACH_CREDIT', amount: '1000', currency: 'USD' } });
    sandbox.clock.advance(2_000);
    expect((await cb.stablecoins.retrieveOperation(burn.id)).status).toBe('COMPLETED');
    expect(guide).toContain('npx crossborder-sdk stablecoins mint "$STABLECOIN_ID" --amount 1000000 --data -');
    await sandbox.close();
  });
  it("SCA: an EU customer's payment waits for the proof of its challenge; a trusted beneficiary skips it", async () => {
    const { sandbox, cb } = sandboxClient();
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'FR', fullName: 'Marie Curie', currencies: ['EUR'] } as never);
    const account = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'EUR' })).data[0]!;
    await cb.sandbox.fundInternalAccount(account.id, { amount: 100_000 });
    const payee = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' },
    });
    const params = {
      source: { sourceType: 'ACCOUNT' as const, accountId: account.id },
      destination: { destinationType: 'ACCOUNT' as const, accountId: payee.id, currency: 'EUR' },
      lockedCurrencySide: 'SENDING' as const,
      lockedCurrencyAmount: 10_000,
    };
    await cb.customers.verifyPhone(customer.id);
    await cb.customers.confirmPhone(customer.id, { code: '123456' });
    expect((await openScaSession(cb, customer.id, async () => '123456', '203.0.113.42')).status).toBe('SUCCESS');
    const asked: string[] = [];
    const quote = await cb.quotes.create(params);
    const executed = await executeWithSca(cb, quote.id, async (challenge) => {
      asked.push(challenge.factor);
      return { code: '123456', endUserIpAddress: '203.0.113.42' };
    });
    expect([executed.status, asked]).toEqual(['PROCESSING', ['SMS_OTP']]);
    expect(sandbox.state.balance(account.id)).toBe(100_000 - quote.totalSendingAmount);
    expect(await trustBeneficiary(cb, payee.id, async () => '123456')).toBe(true);
    const next = await executeWithSca(cb, (await cb.quotes.create(params)).id, async () => {
      throw new Error('a trusted beneficiary needs no proof');
    });
    expect(next.status).toBe('PROCESSING');
    await sandbox.close();
  });
});
