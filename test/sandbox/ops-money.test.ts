/**
 * Production's money operations (issue 34 §2 and the platform-funded REALTIME_FUNDING quote of §4) through
 * the SDK client, against the in-process sandbox and the sandbox over HTTP on 127.0.0.1: transfer-out,
 * transaction confirm and cancel, the platform's internal accounts, exchange rates, the crypto withdrawal
 * fee estimate, sandbox send and the sandbox test webhook. Each asserts the values and what the call
 * changed (balances, statuses, webhooks sent), and the refusals production documents.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/index';
import type { CryptoWithdrawalFeeEstimateParams } from '../../src/types';
import { createClock, createSandbox, type Sandbox } from '../../src/sandbox/index';
import { rejected } from '../helpers/client';
import { productionDocument, productionDocumentPath } from '../helpers/production-document';
import { roundTrip } from './helpers';

interface Event {
  type: string;
  data: Record<string, any>;
}

/** A webhook endpoint in memory: answers each URL with its status (200 by default) and keeps every event. */
function endpoint(statuses: Record<string, number> = {}) {
  const events: Event[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    events.push(JSON.parse(String(init.body)) as Event);
    const status = statuses[url] ?? 200;
    return new Response(status === 200 ? 'ok' : 'endpoint broken', { status });
  };
  return { events, fetch };
}

const transports: [string, (sandbox: Sandbox) => Promise<Crossborder>][] = [
  [
    'in-process',
    async (sandbox) =>
      new Crossborder({
        tokenId: 'tok',
        clientSecret: 'sk_sandbox',
        environment: 'sandbox',
        baseUrl: 'http://sandbox.test',
        fetch: sandbox.fetch,
        maxRetries: 0,
      }),
  ],
  [
    'HTTP',
    async (sandbox) => {
      const server = await sandbox.listen();
      expect(new URL(server.url).hostname).toBe('127.0.0.1');
      return new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl: server.url, maxRetries: 0 });
    },
  ],
];

/** One of production's request examples, by operation path and example name. */
function productionExample(method: string, path: string, name: string): Record<string, any> {
  const examples = productionDocument().paths[path][method.toLowerCase()].requestBody.content['application/json'].examples;
  return structuredClone(examples[name].value);
}

const WEBHOOKS = 'https://platform.example/webhooks';

describe.each(transports)('money operations, %s sandbox', (_name, connect) => {
  let sandbox: Sandbox;
  let cb: Crossborder;
  let hook: ReturnType<typeof endpoint>;
  afterEach(() => sandbox.close());

  async function start(statuses: Record<string, number> = {}) {
    hook = endpoint(statuses);
    sandbox = createSandbox({ clock: createClock('2025-10-13T09:00:00Z', { frozen: true }), webhookDelivery: { fetch: hook.fetch, maxAttempts: 1 } });
    cb = await connect(sandbox);
  }

  const customer = (currencies: string[]) =>
    cb.customers.create({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      region: 'US',
      currencies,
      address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    });
  const accountOf = async (customerId: string, currency: string) => (await cb.internalAccounts.list({ customerId, currency })).data[0]!;
  const bank = (customerId: string, accountNumber = '000123456789') =>
    cb.externalAccounts.create({
      customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber,
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
  /** A customer with a funded USD account and a USD bank account. */
  async function funded(amount = 50_000, accountNumber?: string) {
    const c = await customer(['USD']);
    const usd = await accountOf(c.id, 'USD');
    await cb.sandbox.fundInternalAccount(usd.id, { amount });
    const payee = await bank(c.id, accountNumber);
    return { c, usd, payee };
  }
  const balance = async (accountId: string) => sandbox.state.balance(accountId);
  async function delivered(): Promise<Event[]> {
    await sandbox.webhooks.flush();
    return hook.events;
  }

  describe('transfer-out', () => {
    it('debits the account at once, answers the PROCESSING transaction (201), settles it and sends its webhooks; the same key replays it', async () => {
      await start();
      const { c, usd, payee } = await funded();
      await cb.config.update({ webhookEndpoint: WEBHOOKS });
      const params = {
        source: { accountId: usd.id },
        destination: { accountId: payee.id, paymentRail: 'ACH' },
        amount: 12_550,
        remittanceInformation: 'Invoice 1042',
      };
      const { data: tx, response } = await cb.transferOut.create(params, { idempotencyKey: 'out-1' }).withResponse();
      expect(response.status).toBe(201);
      expect(tx).toMatchObject({
        status: 'PROCESSING',
        type: 'OUTGOING',
        customerId: c.id,
        source: { sourceType: 'ACCOUNT', accountId: usd.id, currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id, currency: 'USD', paymentRail: 'ACH' },
        receivedAmount: { amount: 12_550, currency: { code: 'USD' } },
      });
      expect(await balance(usd.id)).toBe(37_450);
      // A retry with the same key is the same transfer: nothing debited twice.
      const again = await cb.transferOut.create(params, { idempotencyKey: 'out-1' });
      expect(again.id).toBe(tx.id);
      expect(await balance(usd.id)).toBe(37_450);

      const events = await delivered();
      expect(events.map((e) => e.type)).toEqual(['INTERNAL_ACCOUNT.BALANCE_UPDATED', 'OUTGOING_PAYMENT.PROCESSING']);
      expect(events[0]!.data).toMatchObject({ id: usd.id, balance: { amount: 37_450 } });
      expect(events[1]!.data).toMatchObject({ id: tx.id, status: 'PROCESSING' });

      sandbox.clock.advance(2_000);
      expect((await cb.transactions.retrieve(tx.id)).status).toBe('COMPLETED');
      expect((await delivered()).slice(2).map((e) => [e.type, e.data.id, e.data.status])).toEqual([['OUTGOING_PAYMENT.COMPLETED', tx.id, 'COMPLETED']]);
      expect(await balance(usd.id)).toBe(37_450);
    });

    it('a destination that fails returns the debit (OUTGOING_PAYMENT.FAILED)', async () => {
      await start();
      const { usd, payee } = await funded(50_000, '4000000000000005');
      await cb.config.update({ webhookEndpoint: WEBHOOKS });
      const tx = await cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: payee.id }, amount: 10_000 });
      expect(await balance(usd.id)).toBe(40_000);
      sandbox.clock.advance(2_000);
      expect(await cb.transactions.retrieve(tx.id)).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED' });
      expect(await balance(usd.id)).toBe(50_000);
      expect((await delivered()).map((e) => e.type)).toEqual([
        'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        'OUTGOING_PAYMENT.PROCESSING',
        'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        'OUTGOING_PAYMENT.FAILED',
      ]);
    });

    it('refuses a short balance, another currency, another owner, an unknown destination and a missing amount, naming the field; nothing moves', async () => {
      await start();
      const { c, usd, payee } = await funded(5_000);
      const short = await rejected(cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: payee.id }, amount: 5_001 }));
      expect([short.status, short.code, short.details.field]).toEqual([400, 'INVALID_AMOUNT', 'amount']);
      const gbp = await cb.externalAccounts.create({
        customerId: c.id,
        currency: 'GBP',
        accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819', sortCode: '601613' },
      });
      const currency = await rejected(cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: gbp.id }, amount: 100 }));
      expect([currency.status, currency.code, currency.details.field]).toEqual([400, 'INVALID_CURRENCY', 'destination.accountId']);
      const other = await customer(['USD']);
      const theirs = await bank(other.id);
      const owner = await rejected(cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: theirs.id }, amount: 100 }));
      expect([owner.status, owner.code, owner.details.field]).toEqual([400, 'INVALID_INPUT', 'destination.accountId']);
      const unknown = await rejected(cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: 'ExternalAccount:nope' }, amount: 100 }));
      expect([unknown.status, unknown.code]).toEqual([404, 'EXTERNAL_ACCOUNT_NOT_FOUND']);
      const noAmount = await rejected(cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: payee.id } }));
      expect([noAmount.status, noAmount.code, noAmount.details.field]).toEqual([400, 'INVALID_INPUT', 'amount']);
      expect(await balance(usd.id)).toBe(5_000);
      expect((await cb.transactions.list({ type: 'OUTGOING' })).data).toEqual([]);
    });

    it.skipIf(productionDocumentPath() === undefined)("production's request example is sent and accepted, with the sandbox's own account ids", async () => {
      await start();
      const { usd, payee } = await funded(20_000);
      const example = productionExample('POST', '/transfer-out', 'transferOut');
      const tx = await cb.transferOut.create({ ...example, source: { accountId: usd.id }, destination: { ...example.destination, accountId: payee.id } });
      expect([tx.status, tx.receivedAmount?.amount]).toEqual(['PROCESSING', example.amount]);
      expect(await balance(usd.id)).toBe(20_000 - example.amount);
    });
  });

  describe('cancel and confirm', () => {
    it('cancel fails a bank transfer in flight and returns its debit (OUTGOING_PAYMENT.FAILED); after that, and once settled, 409; no bank transfer, 400', async () => {
      await start();
      const { c, usd, payee } = await funded(30_000);
      await cb.config.update({ webhookEndpoint: WEBHOOKS });
      const tx = await cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: payee.id }, amount: 10_000 });
      const cancelled = await cb.transactions.cancel(tx.id, { reason: 'REQUESTED_AFTER_HOURS' });
      expect([cancelled.status, cancelled.failureReason]).toEqual(['FAILED', 'CANCELLED']);
      // The debit came back at once: the transaction carries its refund, completed, as production's `Refund`.
      expect(cancelled.refund).toEqual({
        reference: expect.stringMatching(/-REFUND$/),
        initiatedAt: cancelled.updatedAt,
        settledAt: cancelled.updatedAt,
        status: 'COMPLETED',
        reason: 'USER_CANCELLATION',
      });
      expect(await balance(usd.id)).toBe(30_000);
      sandbox.clock.advance(2_000); // the settlement it would have had changes nothing now
      expect((await cb.transactions.retrieve(tx.id)).status).toBe('FAILED');
      expect(await balance(usd.id)).toBe(30_000);
      expect((await delivered()).map((e) => e.type)).toEqual([
        'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        'OUTGOING_PAYMENT.PROCESSING',
        'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        'OUTGOING_PAYMENT.FAILED',
      ]);
      const twice = await rejected(cb.transactions.cancel(tx.id));
      expect([twice.status, twice.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);

      const settled = await cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: payee.id }, amount: 1_000 });
      sandbox.clock.advance(2_000);
      const late = await rejected(cb.transactions.cancel(settled.id));
      expect([late.status, late.code, late.details.status]).toEqual([409, 'INVALID_STATE_TRANSITION', 'COMPLETED']);

      const incoming = await cb.sandbox.receiveUmaPayment({
        senderUmaAddress: '$sam@sandbox.uma.example',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 500,
        customerId: c.id,
      });
      const notBank = await rejected(cb.transactions.cancel(incoming.id));
      expect([notBank.status, notBank.code]).toEqual([400, 'INVALID_INPUT']);
      const unknown = await rejected(cb.transactions.cancel('Transaction:nope'));
      expect([unknown.status, unknown.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    });

    it('cancel of a transfer-in in flight fails it before it credits', async () => {
      await start();
      const c = await customer(['USD']);
      const usd = await accountOf(c.id, 'USD');
      const payer = await bank(c.id);
      const tx = await cb.transferIn.create({ source: { accountId: payer.id }, destination: { accountId: usd.id }, amount: 7_000 });
      expect((await cb.transactions.cancel(tx.id)).status).toBe('FAILED');
      sandbox.clock.advance(2_000);
      expect(await balance(usd.id)).toBe(0);
    });

    it('confirm records when the receipt was delivered, the service time by default, again on a second call', async () => {
      await start();
      const { usd, payee } = await funded();
      const tx = await cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: payee.id }, amount: 100 });
      const confirmed = await cb.transactions.confirm(tx.id, { receiptDeliveryConfirmedAt: '2025-10-13T08:59:00Z' });
      expect(confirmed.receiptDeliveryConfirmedAt).toBe('2025-10-13T08:59:00Z');
      sandbox.clock.advance(60_000);
      const now = await cb.transactions.confirm(tx.id);
      expect(now.receiptDeliveryConfirmedAt).toBe('2025-10-13T09:01:00.000Z');
      expect((await cb.transactions.retrieve(tx.id)).receiptDeliveryConfirmedAt).toBe('2025-10-13T09:01:00.000Z');
      const unknown = await rejected(cb.transactions.confirm('Transaction:nope'));
      expect([unknown.status, unknown.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    });
  });

  describe("the platform's internal accounts", () => {
    it("one per currency, apart from the customers' accounts; they can be funded; the customers' ids are as before", async () => {
      await start();
      const c = await customer(['USD']);
      expect(c.id.startsWith('Customer:00000002-')).toBe(true); // PlatformConfig is 1: the platform's accounts take no sequence number
      const { data } = await cb.platform.internalAccounts.list();
      expect(data.map((a) => a.balance.currency.code)).toEqual(['USD', 'EUR', 'GBP', 'BRL', 'AED', 'MXN', 'BTC', 'USDC', 'USDT']);
      expect(data.every((a) => a.customerId === undefined && a.fundingPaymentInstructions?.[0]?.isPlatformAccount === true)).toBe(true);
      expect((await cb.platform.internalAccounts.list({ type: 'INTERNAL_CRYPTO' })).data.map((a) => a.balance.currency.code)).toEqual(['BTC', 'USDC', 'USDT']);
      const [usd] = (await cb.platform.internalAccounts.list({ currency: 'USD' })).data;
      expect((await cb.internalAccounts.list()).data.map((a) => a.customerId)).toEqual([c.id]);
      await cb.sandbox.fundInternalAccount(usd!.id, { amount: 9_000 });
      expect((await cb.platform.internalAccounts.list({ currency: 'USD' })).data[0]!.balance.amount).toBe(9_000);
      expect(sandbox.state.snapshot().platformInternalAccounts).toHaveLength(9);
      // They survive an export and import, as every record does (and are not made twice).
      expect(roundTrip(sandbox).internalAccounts).toBe(10);
    });

    it('a platform-funded REALTIME_FUNDING quote is accepted; sandbox send brings its funds to the platform account and executes it', async () => {
      await start();
      const payee = await cb.platform.externalAccounts.create({
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountCategory: 'CHECKING',
          accountNumber: '000123456789',
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme Corporation' },
        },
      });
      const [platformUsd] = (await cb.platform.internalAccounts.list({ currency: 'USD' })).data;
      const quote = await cb.quotes.create({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 25_000,
      });
      expect([quote.status, quote.source]).toEqual(['PENDING', { sourceType: 'REALTIME_FUNDING', currency: 'USD' }]);
      expect(quote.paymentInstructions?.[0]?.accountOrWalletInfo).toMatchObject({
        accountNumber: (platformUsd!.fundingPaymentInstructions![0]!.accountOrWalletInfo as { accountNumber: string }).accountNumber,
      });

      const wrong = await rejected(cb.sandbox.send({ quoteId: quote.id, currencyCode: 'EUR' }));
      expect([wrong.status, wrong.code, wrong.details.field]).toEqual([400, 'INVALID_CURRENCY', 'currencyCode']);
      const sent = await cb.sandbox.send({ quoteId: quote.id, currencyCode: 'USD' });
      expect([sent.id, sent.status]).toEqual([quote.transactionId, 'PROCESSING']);
      expect((await cb.quotes.retrieve(quote.id)).status).toBe('PROCESSING');
      expect(await balance(platformUsd!.id)).toBe(0); // credited 25,000, then debited by the execution
      sandbox.clock.advance(2_000);
      expect((await cb.transactions.retrieve(sent.id)).status).toBe('COMPLETED');
      const again = await rejected(cb.sandbox.send({ quoteId: quote.id, currencyCode: 'USD' }));
      expect([again.status, again.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);
      const unknown = await rejected(cb.sandbox.send({ quoteId: 'Quote:nope', currencyCode: 'USD' }));
      expect([unknown.status, unknown.code]).toEqual([404, 'QUOTE_NOT_FOUND']);
    });

    it('sandbox send of less than the quote credits it and waits; a quote funded from an account has nothing to send to', async () => {
      await start();
      const { c, usd, payee } = await funded(10_000);
      const jit = await cb.quotes.create({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 30_000,
      });
      const partial = await cb.sandbox.send({ quoteId: jit.id, currencyCode: 'USD', currencyAmount: 5_000 });
      expect(partial.status).toBe('PENDING');
      expect(await balance(usd.id)).toBe(15_000);
      expect((await cb.sandbox.send({ quoteId: jit.id, currencyCode: 'USD', currencyAmount: 15_000 })).status).toBe('PROCESSING');
      expect(await balance(usd.id)).toBe(0);
      const fromAccount = await cb.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: usd.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100,
      });
      const none = await rejected(cb.sandbox.send({ quoteId: fromAccount.id, currencyCode: 'USD' }));
      expect([none.status, none.code, none.details.field]).toEqual([400, 'INVALID_INPUT', 'quoteId']);
    });
  });

  describe('exchange rates and fees', () => {
    it("answers from the quotes' pricing: a quote made at once shows the same rate, fees and receiving amount", async () => {
      await start();
      const c = await customer(['USD', 'EUR']);
      const { data } = await cb.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: ['EUR', 'MXN'], sendingAmount: 10_000 });
      expect(data.map((r) => [r.sourceCurrency.code, r.destinationCurrency.code, r.destinationPaymentRail, r.sendingAmount])).toEqual([
        ['USD', 'EUR', 'SEPA_INSTANT', 10_000],
        ['USD', 'MXN', 'SPEI', 10_000],
      ]);
      const eur = data[0]!;
      expect([eur.minSendingAmount, eur.maxSendingAmount, eur.fees.fixed]).toEqual([1, 100_000_000_000, 30]);
      const quote = await cb.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: (await accountOf(c.id, 'USD')).id },
        destination: { destinationType: 'ACCOUNT', accountId: (await accountOf(c.id, 'EUR')).id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      });
      expect([quote.exchangeRate, quote.totalReceivingAmount, quote.feesIncluded]).toEqual([eur.exchangeRate, eur.receivingAmount, eur.fees.total]);
      // Without filters: every corridor of the platform, 10000 sent by default; a stablecoin's 10000 (0.01) does
      // not cover its fixed fee (0.30), so those corridors cannot be priced and are left out.
      const all = await cb.exchangeRates.list();
      expect(new Set(all.data.map((r) => r.sendingAmount))).toEqual(new Set([10_000]));
      const sources = new Map<string, number>();
      for (const r of all.data) sources.set(r.sourceCurrency.code ?? '', (sources.get(r.sourceCurrency.code ?? '') ?? 0) + 1);
      expect([...sources]).toEqual(['USD', 'EUR', 'GBP', 'BRL', 'AED', 'MXN', 'BTC'].map((code) => [code, 8]));
      expect((await cb.exchangeRates.list({ sourceCurrency: 'USDC', sendingAmount: 1_000_000 })).data).toHaveLength(8);
      expect((await cb.exchangeRates.list({ sourceCurrency: 'XYZ' })).data).toEqual([]);
    });

    it('estimates a crypto withdrawal fee in the withdrawn asset; refuses another asset, an unknown network, an unknown account', async () => {
      await start();
      const c = await customer(['USD', 'USDC']);
      const usdc = await accountOf(c.id, 'USDC');
      const usd = await accountOf(c.id, 'USD');
      const body: CryptoWithdrawalFeeEstimateParams =
        productionDocumentPath() === undefined
          ? {
              internalAccountId: usdc.id,
              currency: 'USDC',
              cryptoNetwork: 'SOLANA',
              amount: 1_000_000,
              destinationAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
            }
          : ({
              ...productionExample('POST', '/crypto/estimate-withdrawal-fee', 'estimateUSDCWithdrawal'),
              internalAccountId: usdc.id,
            } as CryptoWithdrawalFeeEstimateParams);
      expect(await cb.crypto.estimateWithdrawalFee(body)).toEqual({
        networkFee: 5_000,
        networkFeeAsset: 'SOL',
        applicationFee: 0,
        totalFee: 5_000,
        netAmount: 995_000,
      });
      expect(await cb.crypto.estimateWithdrawalFee({ ...body, cryptoNetwork: 'ETHEREUM_MAINNET', amount: 10_000_000 })).toMatchObject({
        networkFeeAsset: 'ETH',
        totalFee: 1_500_000,
        netAmount: 8_500_000,
      });
      const fiat = await rejected(cb.crypto.estimateWithdrawalFee({ ...body, internalAccountId: usd.id }));
      expect([fiat.status, fiat.code, fiat.details.field]).toEqual([400, 'INVALID_CURRENCY', 'currency']);
      const network = await rejected(cb.crypto.estimateWithdrawalFee({ ...body, cryptoNetwork: 'DOGECHAIN' }));
      expect([network.status, network.details.field]).toEqual([400, 'cryptoNetwork']);
      const dust = await rejected(cb.crypto.estimateWithdrawalFee({ ...body, amount: 5_000 }));
      expect([dust.status, dust.code]).toEqual([400, 'AMOUNT_OUT_OF_RANGE']);
      const unknown = await rejected(cb.crypto.estimateWithdrawalFee({ ...body, internalAccountId: 'InternalAccount:nope' }));
      expect([unknown.status, unknown.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    });
  });

  describe('sandbox test webhook', () => {
    it("answers the endpoint's answer; a failing endpoint or none is a 400", async () => {
      await start({ 'https://broken.example/webhooks': 500 });
      const none = await rejected(cb.sandbox.sendTestWebhook());
      expect([none.status, none.code]).toEqual([400, 'WEBHOOK_ENDPOINT_NOT_SET']);
      expect(hook.events).toEqual([]);
      await cb.config.update({ webhookEndpoint: WEBHOOKS });
      expect(await cb.sandbox.sendTestWebhook()).toEqual({ url: WEBHOOKS, response_status: 200, response_body: 'ok' });
      expect(hook.events.map((e) => e.type)).toEqual(['TEST']);
      await cb.config.update({ webhookEndpoint: 'https://broken.example/webhooks' });
      const broken = await rejected(cb.sandbox.sendTestWebhook());
      expect([broken.status, broken.code, broken.details.response_status]).toEqual([400, 'WEBHOOK_DELIVERY_ERROR', 500]);
    });
  });
});

describe('sandbox-only operations with a production client', () => {
  it('are refused locally: nothing is sent', async () => {
    let sent = 0;
    const cb = new Crossborder({
      tokenId: 'tok',
      clientSecret: 'sk_live',
      environment: 'production',
      baseUrl: 'https://api.test.invalid',
      maxRetries: 0,
      fetch: async () => {
        sent++;
        return new Response('{}');
      },
    });
    expect((await rejected(cb.sandbox.send({ quoteId: 'Quote:1', currencyCode: 'USD' }))).name).toMatch(/Error/);
    expect((await rejected(cb.sandbox.sendTestWebhook())).name).toMatch(/Error/);
    expect(sent).toBe(0);
  });
});
