/**
 * decisions.md: "Any write may answer 202 with a challenge … for example, executing a quote whose
 * source is an embedded wallet." The sandbox signs money leaving a wallet that has a credential, and
 * the SDK takes that 202 through the signed retry of an operation the document does not flag as
 * signed, with the call's Idempotency-Key on both legs: the payment moves once.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Crossborder, SignatureRequiredError, type InternalAccount, type Quote } from '../../src/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { generateClientKeyPair, WalletSession } from '../../src/wallet/index';

let sandbox: Sandbox;
let cb: Crossborder;
/** Every request the client sent: method, path, Idempotency-Key, whether it was signed, and the answer's status. */
let sent: { method: string; path: string; key: string | null; signed: boolean; status: number; replayed: boolean }[];

beforeEach(() => {
  sandbox = createSandbox();
  sent = [];
  cb = new Crossborder({
    tokenId: 't',
    clientSecret: 's',
    environment: 'sandbox',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await sandbox.fetch(request.clone());
      sent.push({
        method: request.method,
        path: decodeURIComponent(new URL(request.url).pathname).replace(/^\/[\d-]+/, ''),
        key: request.headers.get('idempotency-key'),
        signed: request.headers.has('service-wallet-signature'),
        status: response.status,
        replayed: response.headers.get('idempotent-replayed') === 'true',
      });
      return response;
    },
  });
});

/** A funded wallet with an EMAIL_OTP credential and a session on it, and a quote paying a GBP payee from it. */
async function walletWithQuote(options: { credential?: boolean } = {}) {
  const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Mary Jackson' });
  const account = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!;
  await cb.sandbox.fundInternalAccount(account.id, { amount: 50_000 });
  const payee = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'GBP',
    accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819' },
  });
  let session: WalletSession | undefined;
  if (options.credential !== false) {
    const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: account.id });
    const keys = await generateClientKeyPair();
    session = await WalletSession.fromVerify(
      await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: keys.publicKey }),
      keys,
      otp.id,
    );
  }
  const params = {
    source: { sourceType: 'ACCOUNT' as const, accountId: account.id },
    destination: { destinationType: 'ACCOUNT' as const, accountId: payee.id },
    lockedCurrencySide: 'SENDING' as const,
    lockedCurrencyAmount: 10_000,
  };
  const quote = await cb.quotes.create(params);
  return { account, session, quote, params };
}

const balance = async (account: InternalAccount) =>
  (await cb.internalAccounts.list({ customerId: account.customerId! })).data.find((a) => a.id === account.id)!.balance.amount;

describe('quote execution from an embedded wallet (signed by the service, not flagged in the document)', () => {
  it('without a signer: a SignatureRequiredError carrying the challenge, and no money moves', async () => {
    const { account, quote } = await walletWithQuote();
    const error = await cb.quotes.execute(quote.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureRequiredError);
    expect((error as SignatureRequiredError).challenge).toMatchObject({
      type: 'EXECUTE_QUOTE',
      requestId: expect.any(String),
      payloadToSign: expect.stringContaining(quote.id),
    });
    expect(await balance(account)).toBe(50_000);
    expect((await cb.quotes.retrieve(quote.id)).status).toBe('PENDING');
  });

  it('with the signer: one signed repeat with the same Idempotency-Key, the quote executes and the wallet is debited once', async () => {
    const { account, session, quote } = await walletWithQuote();
    const executed: Quote = await cb.quotes.execute(quote.id, { signer: session!.signer, idempotencyKey: 'pay-mary-1' });
    expect(executed).toMatchObject({ id: quote.id, status: 'PROCESSING' });
    const legs = sent.filter((r) => r.path === `/quotes/${quote.id}/execute`);
    expect(legs.map((r) => [r.status, r.signed, r.key])).toEqual([
      [202, false, 'pay-mary-1'],
      [200, true, 'pay-mary-1'],
    ]);
    expect(await balance(account)).toBe(50_000 - quote.totalSendingAmount);
    // The key now names the executed payment: a repeat replays it, and the money does not move again.
    const again = await cb.quotes.execute(quote.id, { idempotencyKey: 'pay-mary-1' });
    expect(again).toMatchObject({ id: quote.id, status: 'PROCESSING' });
    expect(sent.at(-1)).toMatchObject({ status: 200, signed: false, replayed: true });
    expect(await balance(account)).toBe(50_000 - quote.totalSendingAmount);
  });

  it('relayed to the device: the second leg with { signature, requestId } and the first leg’s key', async () => {
    const { account, session, quote } = await walletWithQuote();
    const first = (await cb.quotes.execute(quote.id, { idempotencyKey: 'pay-mary-2' }).catch((e: unknown) => e)) as SignatureRequiredError;
    expect(first).toBeInstanceOf(SignatureRequiredError);
    const signature = await session!.signer(first.challenge);
    const executed = await cb.quotes.execute(quote.id, { signature, requestId: first.challenge.requestId, idempotencyKey: 'pay-mary-2' });
    expect(executed.status).toBe('PROCESSING');
    expect(await balance(account)).toBe(50_000 - quote.totalSendingAmount);
  });

  it('immediatelyExecute from the wallet is signed too; a wallet without a credential pays unsigned', async () => {
    const { account, session, params } = await walletWithQuote();
    const unsigned = await cb.quotes.create({ ...params, immediatelyExecute: true }).catch((e: unknown) => e);
    expect(unsigned).toBeInstanceOf(SignatureRequiredError);
    const quotesBefore = sandbox.state.snapshot().quotes.length;
    const paid = await cb.quotes.create({ ...params, immediatelyExecute: true }, { signer: session!.signer });
    expect(paid.status).toBe('PROCESSING');
    expect(sandbox.state.snapshot().quotes.length).toBe(quotesBefore + 1);
    expect(await balance(account)).toBe(50_000 - paid.totalSendingAmount);

    const plain = await walletWithQuote({ credential: false });
    expect((await cb.quotes.execute(plain.quote.id)).status).toBe('PROCESSING');
    expect(sent.filter((r) => r.status === 202 && r.path === `/quotes/${plain.quote.id}/execute`)).toEqual([]);
  });
});
