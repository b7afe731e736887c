/**
 * Production's forms of the shared operations (issue 27, items 2, 4 and 7) through the SDK client,
 * against the in-process sandbox and the sandbox over HTTP on 127.0.0.1: just-in-time funded quotes,
 * the lists' new filters and fields, and every external account type production lists. The spec's
 * forms keep working beside them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, Crossborder } from '../../src/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { rejected } from '../helpers/client';

const transports: [string, (sandbox: Sandbox) => Promise<Crossborder>][] = [
  [
    'in-process',
    async (sandbox) =>
      new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl: 'http://sandbox.test', fetch: sandbox.fetch }),
  ],
  [
    'HTTP',
    async (sandbox) => {
      const server = await sandbox.listen();
      return new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl: server.url });
    },
  ],
];

describe.each(transports)('production forms, %s sandbox', (_name, connect) => {
  let sandbox: Sandbox;
  let cb: Crossborder;
  beforeAll(async () => {
    sandbox = createSandbox();
    cb = await connect(sandbox);
  });
  afterAll(() => sandbox.close());

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

  describe('REALTIME_FUNDING quotes', () => {
    it('answer paymentInstructions; funds sent to them through the sandbox fund endpoint execute the quote', async () => {
      const c = await customer(['USD']);
      const usd = await accountOf(c.id, 'USD');
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
      const quote = await cb.quotes.create({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.id },
        destination: { destinationType: 'ACCOUNT', accountId: bank.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 25_000,
      });
      expect(quote.status).toBe('PENDING');
      expect(quote.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.id });
      const tx = await cb.transactions.retrieve(quote.transactionId);
      const reference = tx.reconciliationInstructions!.reference;
      const funding = usd.fundingPaymentInstructions![0]!.accountOrWalletInfo;
      expect(quote.paymentInstructions).toHaveLength(1);
      expect(quote.paymentInstructions![0]!.accountOrWalletInfo).toMatchObject({
        accountType: 'USD_ACCOUNT',
        accountNumber: funding.accountNumber,
        routingNumber: funding.routingNumber,
        reference,
      });
      expect(quote.paymentInstructions![0]!.instructionsNotes).toContain(reference);

      // Less than the quote needs: it waits.
      await cb.sandbox.fundInternalAccount(usd.id, { amount: quote.totalSendingAmount - 1 });
      expect((await cb.quotes.retrieve(quote.id)).status).toBe('PENDING');
      // The rest arrives just in time: the quote executes and spends exactly its amount.
      const funded = await cb.sandbox.fundInternalAccount(usd.id, { amount: 1 });
      expect(funded.balance.amount).toBe(0);
      expect((await cb.quotes.retrieve(quote.id)).status).toBe('PROCESSING');
      expect((await cb.transactions.retrieve(quote.transactionId)).status).toBe('PROCESSING');
    });

    it('a stablecoin needs cryptoNetwork, which the instructions then carry; the spec form (ACCOUNT source) is unchanged', async () => {
      const c = await customer(['USD', 'USDC']);
      const usd = await accountOf(c.id, 'USD');
      const params = {
        destination: { destinationType: 'ACCOUNT' as const, accountId: usd.id },
        lockedCurrencySide: 'SENDING' as const,
        lockedCurrencyAmount: 5_000_000,
      };
      const refused = await rejected(cb.quotes.create({ ...params, source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', customerId: c.id } }));
      expect(refused).toBeInstanceOf(BadRequestError);
      expect(refused.details).toMatchObject({ field: 'source.cryptoNetwork' });
      const quote = await cb.quotes.create({
        ...params,
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', customerId: c.id, cryptoNetwork: 'SOLANA_DEVNET' },
      });
      expect(quote.paymentInstructions![0]!.accountOrWalletInfo).toMatchObject({ cryptoNetwork: 'SOLANA_DEVNET' });
      const usdc = await accountOf(c.id, 'USDC');
      const spec = await cb.quotes.create({ ...params, source: { sourceType: 'ACCOUNT', accountId: usdc.id } });
      expect(spec.source).toMatchObject({ sourceType: 'ACCOUNT', accountId: usdc.id });
      expect(spec.paymentInstructions).toBeUndefined();
    });
  });

  describe('errors', () => {
    it("a refused body answers production's details.errors[] beside the spec's details; the client reads them as issues", async () => {
      // Through the escape hatch, which leaves the body's check to the service.
      const error = await rejected(cb.request('POST', '/customers', { body: { customerType: 'INDIVIDUAL', birthDate: 'yesterday' } }));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.details.field).toBe('birthDate'); // the spec's form
      expect(error.details.errors).toEqual([{ field: 'birthDate', message: expect.any(String) }]); // production's
      expect(error.issues).toEqual([{ path: 'birthDate', rule: 'invalid', message: error.details.errors[0].message }]);
      expect(error.field).toBe('birthDate');
    });
  });

  describe('lists', () => {
    it('internal accounts carry type, status and totalBalance and filter by type', async () => {
      const c = await customer(['USD', 'USDC']);
      const usd = await accountOf(c.id, 'USD');
      await cb.sandbox.fundInternalAccount(usd.id, { amount: 1_234 });
      const all = (await cb.internalAccounts.list({ customerId: c.id })).data;
      expect(all.map((a) => [a.balance.currency.code, a.type, a.status]).sort()).toEqual([
        ['USD', 'INTERNAL_FIAT', 'OPEN'],
        ['USDC', 'INTERNAL_CRYPTO', 'OPEN'],
      ]);
      expect(all.find((a) => a.id === usd.id)!.totalBalance).toEqual({ amount: 1_234, currency: usd.balance.currency });
      expect((await cb.internalAccounts.list({ customerId: c.id, type: 'INTERNAL_CRYPTO' })).data.map((a) => a.balance.currency.code)).toEqual(['USDC']);
      expect((await cb.internalAccounts.list({ customerId: c.id, type: 'RULE_BASED' })).data).toEqual([]);
      expect((await cb.internalAccounts.list({ customerId: c.id, type: 'EMBEDDED_WALLET' })).data).toHaveLength(2);
    });

    it('platform external accounts page (for await walks them all); await still gives { data }', async () => {
      const created: string[] = [];
      for (const n of ['1', '2', '3']) {
        const a = await cb.platform.externalAccounts.create({
          currency: 'EUR',
          accountInfo: { accountType: 'EUR_ACCOUNT', iban: `DE8937040044053201300${n}` },
        });
        created.push(a.id);
      }
      const seen: string[] = [];
      for await (const a of cb.platform.externalAccounts.list({ currency: 'EUR', limit: 2 })) seen.push(a.id);
      expect(seen.sort()).toEqual([...created].sort());
      const { data, hasMore } = await cb.platform.externalAccounts.list({ currency: 'EUR', limit: 2 });
      expect(data).toHaveLength(2);
      expect(hasMore).toBe(true);
    });

    it('transactions filter by accountIdentifier (either end) and carry direction', async () => {
      const a = await customer(['USD']);
      const b = await customer(['USD']);
      const fromA = await accountOf(a.id, 'USD');
      const toB = await accountOf(b.id, 'USD');
      await cb.sandbox.fundInternalAccount(fromA.id, { amount: 50_000 });
      const quote = await cb.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: fromA.id },
        destination: { destinationType: 'ACCOUNT', accountId: toB.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
        immediatelyExecute: true,
      });
      const bySender = (await cb.transactions.list({ accountIdentifier: fromA.id })).data.map((t) => t.id);
      const byReceiver = (await cb.transactions.list({ accountIdentifier: toB.id })).data.map((t) => t.id);
      expect(bySender).toEqual([quote.transactionId]);
      expect(byReceiver).toEqual([quote.transactionId]);
      expect((await cb.transactions.list({ senderAccountIdentifier: toB.id })).data).toEqual([]);
      const tx = await cb.transactions.retrieve(quote.transactionId);
      expect([tx.type, tx.direction]).toEqual(['OUTGOING', 'DEBIT']);
      const incoming = await cb.sandbox.receiveUmaPayment({
        receiverUmaAddress: b.umaAddress,
        senderUmaAddress: '$alice@sender.example',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 500,
      });
      expect([incoming.type, incoming.direction]).toEqual(['INCOMING', 'CREDIT']);
    });
  });

  describe('external accounts of every type production lists', () => {
    it('EUR with iban/swiftCode and MXN with clabeNumber are accepted; the fields production requires are checked', async () => {
      const c = await customer(['USD']);
      const eur = await cb.externalAccounts.create({
        customerId: c.id,
        currency: 'EUR',
        accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' },
      });
      expect(eur).toMatchObject({
        status: 'ACTIVE',
        currency: 'EUR',
        accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' },
      });
      const mxn = await cb.externalAccounts.create({
        customerId: c.id,
        currency: 'MXN',
        accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '123456789012345678' },
      });
      expect(mxn.accountInfo).toMatchObject({ accountType: 'MXN_ACCOUNT', clabeNumber: '123456789012345678' });
      const noIban = await rejected(
        cb.externalAccounts.create({ customerId: c.id, currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', swiftCode: 'DEUTDEFF' } }),
      );
      expect(noIban).toBeInstanceOf(BadRequestError);
      expect(noIban.details).toMatchObject({ field: 'accountInfo.iban' });
      const cad = await rejected(
        cb.externalAccounts.create({ customerId: c.id, currency: 'CAD', accountInfo: { accountType: 'CAD_ACCOUNT', accountNumber: '1234567' } }),
      );
      expect(cad.details).toMatchObject({ field: 'accountInfo.bankCode', missing: ['accountInfo.bankCode', 'accountInfo.branchCode'] });
      const ok = await cb.externalAccounts.create({
        customerId: c.id,
        currency: 'CAD',
        accountInfo: { accountType: 'CAD_ACCOUNT', bankCode: '001', branchCode: '00012', accountNumber: '1234567' },
      });
      expect(ok.accountInfo.accountType).toBe('CAD_ACCOUNT');
    });

    it('a type production lists without further required fields is accepted; one it does not list is refused', async () => {
      const c = await customer(['USD']);
      const php = await cb.externalAccounts.create({
        customerId: c.id,
        currency: 'PHP',
        accountInfo: { accountType: 'PHP_ACCOUNT', accountNumber: '001234567890', bankName: 'BDO' },
      });
      expect(php).toMatchObject({ currency: 'PHP', accountInfo: { accountType: 'PHP_ACCOUNT', accountNumber: '001234567890' } });
      const wallet = await cb.externalAccounts.create({
        customerId: c.id,
        currency: 'USDC',
        cryptoNetwork: 'SOLANA_DEVNET',
        accountInfo: { accountType: 'SOLANA_WALLET', address: '4Nd1mYxW9Qe1cWz8mFf7uKx5b3kLr2Tq8sV9aPzE6hJd' },
      });
      expect(wallet).toMatchObject({ currency: 'USDC', cryptoNetwork: 'SOLANA_DEVNET' });
      const unknown = await rejected(
        cb.externalAccounts.create({ customerId: c.id, currency: 'USD', accountInfo: { accountType: 'MOON_ACCOUNT', accountNumber: '1' } }),
      );
      expect(unknown.details).toMatchObject({ field: 'accountInfo.accountType' });
      const wrongCurrency = await rejected(
        cb.externalAccounts.create({ customerId: c.id, currency: 'USD', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '123456789012345678' } }),
      );
      expect(wrongCurrency.code).toBe('INVALID_CURRENCY');
    });
  });
});
