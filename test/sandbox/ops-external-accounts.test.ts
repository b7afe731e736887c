/**
 * Production's operations on one external account (issue 34 §2), through the SDK, against the sandbox
 * both in process (msw) and over HTTP on 127.0.0.1: get and delete by id (a deleted account is gone
 * from reads and lists and cannot be paid), and ownership verification of a self-custody wallet
 * (challenge, then verify; a wrong, stale or late signature; LIVENESS; the status webhooks; a state
 * exported and imported in the middle).
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, Crossborder, NotFoundError, type ExternalAccount } from '../../src/index';
import { createClock, createSandbox, type Sandbox } from '../../src/sandbox/index';
import { sandboxHandlers } from '../../src/sandbox/msw';

const START = '2025-10-13T09:00:00.000Z';

interface Rig {
  sandbox: Sandbox;
  cb: Crossborder;
  delivered: { body: string; headers: Record<string, string> }[];
  close(): Promise<void>;
}

/** A sandbox on a frozen clock, its webhook deliveries kept, and a client reaching it by `transport`. */
async function rig(transport: 'msw' | 'http'): Promise<Rig> {
  const delivered: Rig['delivered'] = [];
  const sandbox = createSandbox({
    clock: createClock(START, { frozen: true }),
    webhookDelivery: {
      fetch: async (_url, init) => {
        delivered.push({ body: init.body as string, headers: init.headers as Record<string, string> });
        return new Response(null, { status: 200 });
      },
    },
  });
  const options = {
    tokenId: 'tok_sandbox',
    clientSecret: 'sk_sandbox',
    environment: 'sandbox' as const,
    webhookPublicKey: sandbox.webhookPublicKey.pem,
    maxRetries: 0,
  };
  if (transport === 'http') {
    const server = await sandbox.listen();
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    return { sandbox, delivered, cb: new Crossborder({ ...options, baseUrl: server.url }), close: () => sandbox.close() };
  }
  const msw = setupServer(...sandboxHandlers(sandbox));
  msw.listen({ onUnhandledRequest: 'error' });
  return {
    sandbox,
    delivered,
    cb: new Crossborder({ ...options, baseUrl: 'https://api.sandbox.test' }),
    close: async () => {
      msw.close();
      await sandbox.close();
    },
  };
}

/** The error a call rejects with (the test fails when it resolves). */
async function failure(promise: PromiseLike<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe.each(['msw', 'http'] as const)('external accounts by id, through the SDK (%s)', (transport) => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig(transport);
  });
  afterEach(() => {
    r.sandbox.reset();
    r.delivered.length = 0;
  });
  afterAll(() => r.close());

  /** A KYC-approved customer with a funded USD account. */
  async function payer() {
    const customer = await r.cb.customers.create({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      region: 'US',
      currencies: ['USD', 'BTC'],
      address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    });
    const usd = (await r.cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!;
    await r.cb.sandbox.fundInternalAccount(usd.id, { amount: 1_000_000 });
    return { customer, usd };
  }

  const usdBank = (accountNumber: string) => ({
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT' as const,
      accountNumber,
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    },
  });
  const quoteTo = (from: string, to: string) =>
    r.cb.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: from },
      destination: { destinationType: 'ACCOUNT', accountId: to },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });

  /** The STATUS_UPDATED events delivered so far, verified and read by the SDK: `id status` each. */
  async function statusEvents(): Promise<string[]> {
    await r.sandbox.webhooks.flush();
    const out: string[] = [];
    for (const d of r.delivered) {
      const event = await r.cb.webhooks.unwrap(d.body, d.headers);
      if (event.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED') {
        const account: ExternalAccount = event.data;
        out.push(`${account.id} ${account.status}`);
      }
    }
    return out;
  }

  it('retrieves a customer account by id, deletes it, and a deleted account is gone and cannot be paid', async () => {
    const { customer, usd } = await payer();
    const bank = await r.cb.externalAccounts.create({ customerId: customer.id, ...usdBank('000123456789') });
    const other = await r.cb.externalAccounts.create({ customerId: customer.id, ...usdBank('000123456790') });

    const got = await r.cb.externalAccounts.retrieve(bank.id);
    expect(got).toEqual(bank);
    expect(got.accountInfo).toMatchObject({ accountType: 'USD_ACCOUNT', accountNumber: '000123456789' });
    // A customer's account is not the platform's.
    expect(await failure(r.cb.platform.externalAccounts.retrieve(bank.id))).toMatchObject({ status: 404, code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    // Payable before the delete.
    expect((await quoteTo(usd.id, bank.id)).destination).toMatchObject({ accountId: bank.id });

    await expect(r.cb.externalAccounts.delete(bank.id)).resolves.toBeUndefined();

    const gone = await failure(r.cb.externalAccounts.retrieve(bank.id));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone.code).toBe('EXTERNAL_ACCOUNT_NOT_FOUND');
    expect((await r.cb.externalAccounts.list({ customerId: customer.id })).data.map((a) => a.id)).toEqual([other.id]);
    expect(await failure(quoteTo(usd.id, bank.id))).toMatchObject({ status: 404, code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    expect(await failure(r.cb.transferIn.create({ source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: 100 }))).toMatchObject({
      status: 404,
    });
    expect(await failure(r.cb.externalAccounts.delete(bank.id))).toMatchObject({ status: 404, code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    // The other account is untouched, and the state holds no trace of the deleted one.
    expect((await r.cb.externalAccounts.retrieve(other.id)).status).toBe('ACTIVE');
    expect(r.sandbox.state.snapshot().externalAccounts.map((a) => a.id)).toEqual([other.id]);
  });

  it('retrieves and deletes a platform account by id; a customer path does not reach it', async () => {
    const { usd } = await payer();
    const treasury = await r.cb.platform.externalAccounts.create({ ...usdBank('000987654321'), platformAccountId: 'treasury-ops' });
    const got = await r.cb.platform.externalAccounts.retrieve(treasury.id);
    expect(got).toMatchObject({ id: treasury.id, customerId: null, platformAccountId: 'treasury-ops', status: 'ACTIVE' });
    expect(await failure(r.cb.externalAccounts.retrieve(treasury.id))).toMatchObject({ status: 404, code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    expect(await failure(r.cb.externalAccounts.delete(treasury.id))).toMatchObject({ status: 404 });

    await expect(r.cb.platform.externalAccounts.delete(treasury.id)).resolves.toBeUndefined();
    expect((await r.cb.platform.externalAccounts.list()).data).toEqual([]);
    expect(await failure(r.cb.platform.externalAccounts.retrieve(treasury.id))).toMatchObject({ status: 404, code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    expect(await failure(quoteTo(usd.id, treasury.id))).toMatchObject({ status: 404, code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
  });

  it('WALLET_SIGNATURE: a wrong signature leaves the wallet UNVERIFIED, a new challenge and the right one make it ACTIVE', async () => {
    await r.cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
    const { customer, usd } = await payer();
    const wallet = await r.cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'BTC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qownedwallet000000000000000000000000000' },
    });
    expect(wallet).toMatchObject({ status: 'PENDING_OWNERSHIP_VERIFICATION', ownershipType: 'FIRST_PARTY' });
    // Production pays an unverified wallet below its (unpublished) thresholds: the sandbox does not refuse it.
    expect((await quoteTo(usd.id, wallet.id)).destination).toMatchObject({ accountId: wallet.id });

    // Verify with no challenge: 409.
    const early = await failure(r.cb.externalAccounts.verify(wallet.id, { signature: '0xabc' }));
    expect(early).toBeInstanceOf(ConflictError);
    expect(early.code).toBe('INVALID_STATE_TRANSITION');

    const first = await r.cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
    if (first.method !== 'WALLET_SIGNATURE') throw new Error(`expected a WALLET_SIGNATURE challenge, got ${first.method}`);
    expect(first.messageToSign).toMatch(/^I verify that I control this wallet\. Nonce: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}$/);
    expect(first.expiresAt).toBe('2025-10-13T09:10:00.000Z');

    const wrong = await failure(r.cb.externalAccounts.verify(wallet.id, { signature: '0x52d75f01c9e7b8b2ce2fbcbd21bfeeee7bcd1a2f01ce6b8ad9a67a45e83a8f5d1c' }));
    expect(wrong).toBeInstanceOf(BadRequestError);
    expect(wrong).toMatchObject({ code: 'INVALID_INPUT', field: 'signature' });
    expect((await r.cb.externalAccounts.retrieve(wallet.id)).status).toBe('UNVERIFIED');
    // The refused attempt used the challenge up.
    expect(await failure(r.cb.externalAccounts.verify(wallet.id, { signature: `sandbox-signed:${first.messageToSign}` }))).toMatchObject({ status: 409 });

    const second = await r.cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
    if (second.method !== 'WALLET_SIGNATURE') throw new Error('expected a WALLET_SIGNATURE challenge');
    expect(second.messageToSign).not.toBe(first.messageToSign);
    expect((await r.cb.externalAccounts.retrieve(wallet.id)).status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const verified = await r.cb.externalAccounts.verify(wallet.id, { signature: `sandbox-signed:${second.messageToSign}` });
    expect(verified).toMatchObject({ id: wallet.id, status: 'ACTIVE', ownershipType: 'FIRST_PARTY' });
    expect((await r.cb.externalAccounts.list({ customerId: customer.id })).data.find((a) => a.id === wallet.id)?.status).toBe('ACTIVE');

    // Already verified: a new challenge does not apply.
    expect(await failure(r.cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' }))).toMatchObject({
      status: 409,
      code: 'INVALID_STATE_TRANSITION',
    });
    // Each status change was sent, typed, with the whole account.
    expect(await statusEvents()).toEqual([`${wallet.id} UNVERIFIED`, `${wallet.id} PENDING_OWNERSHIP_VERIFICATION`, `${wallet.id} ACTIVE`]);
  });

  it('refuses the signature of a replaced challenge, and a right signature after expiresAt', async () => {
    const { customer } = await payer();
    const wallet = await r.cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'BTC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qstalewallet0000000000000000000000000000' },
    });
    const replaced = await r.cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
    await r.cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
    if (replaced.method !== 'WALLET_SIGNATURE') throw new Error('expected a WALLET_SIGNATURE challenge');
    expect(await failure(r.cb.externalAccounts.verify(wallet.id, { signature: `sandbox-signed:${replaced.messageToSign}` }))).toMatchObject({
      status: 400,
      field: 'signature',
    });
    expect((await r.cb.externalAccounts.retrieve(wallet.id)).status).toBe('UNVERIFIED');

    const late = await r.cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
    if (late.method !== 'WALLET_SIGNATURE') throw new Error('expected a WALLET_SIGNATURE challenge');
    r.sandbox.clock.advance(10 * 60_000 + 1);
    const expired = await failure(r.cb.externalAccounts.verify(wallet.id, { signature: `sandbox-signed:${late.messageToSign}` }));
    expect(expired).toMatchObject({ status: 400, code: 'INVALID_INPUT', field: 'signature' });
    expect(expired.message).toContain('expired');
    expect((await r.cb.externalAccounts.retrieve(wallet.id)).status).toBe('UNVERIFIED');
  });

  it('LIVENESS: a hosted link, no /verify, and the wallet ACTIVE when the flow passes', async () => {
    await r.cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
    const { customer } = await payer();
    const wallet = await r.cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'BTC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qlivenesswallet00000000000000000000000000' },
    });
    const challenge = await r.cb.externalAccounts.challenge(wallet.id, { method: 'LIVENESS' });
    if (challenge.method !== 'LIVENESS') throw new Error('expected a LIVENESS challenge');
    expect(challenge.verificationLink).toMatch(/^https:\/\/verify\.sandbox\.crossborder\.invalid\/session\/[0-9a-f-]+$/);
    expect(await failure(r.cb.externalAccounts.verify(wallet.id, { signature: 'anything' }))).toMatchObject({ status: 409 });
    r.sandbox.clock.advance(29_999);
    expect((await r.cb.externalAccounts.retrieve(wallet.id)).status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    r.sandbox.clock.advance(1);
    expect((await r.cb.externalAccounts.retrieve(wallet.id)).status).toBe('ACTIVE');
    expect(await statusEvents()).toEqual([`${wallet.id} ACTIVE`]);
  });

  it('a LIVENESS flow replaced by a WALLET_SIGNATURE challenge decides nothing', async () => {
    const { customer } = await payer();
    const wallet = await r.cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'BTC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qswitchedmethod00000000000000000000000000' },
    });
    await r.cb.externalAccounts.challenge(wallet.id, { method: 'LIVENESS' });
    const signing = await r.cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
    if (signing.method !== 'WALLET_SIGNATURE') throw new Error('expected a WALLET_SIGNATURE challenge');
    r.sandbox.clock.advance(60_000);
    expect((await r.cb.externalAccounts.retrieve(wallet.id)).status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    expect((await r.cb.externalAccounts.verify(wallet.id, { signature: `sandbox-signed:${signing.messageToSign}` })).status).toBe('ACTIVE');
  });

  it('answers 409 where ownership verification does not apply, and 400 naming an unknown method', async () => {
    const { customer } = await payer();
    const bank = await r.cb.externalAccounts.create({ customerId: customer.id, ...usdBank('000123456789') });
    const theirs = await r.cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'BTC',
      ownershipType: 'THIRD_PARTY',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qsomeoneelse00000000000000000000000000000' },
    });
    expect(theirs.status).toBe('ACTIVE');
    for (const id of [bank.id, theirs.id]) {
      expect(await failure(r.cb.externalAccounts.challenge(id, { method: 'WALLET_SIGNATURE' }))).toMatchObject({
        status: 409,
        code: 'INVALID_STATE_TRANSITION',
      });
    }
    // The SDK sends a method it does not know (an open set); the sandbox names the field it refuses.
    expect(await failure(r.cb.externalAccounts.challenge(theirs.id, { method: 'SELFIE' }))).toMatchObject({ status: 400, field: 'method' });
    expect(await failure(r.cb.externalAccounts.challenge('ExternalAccount:missing', { method: 'LIVENESS' }))).toMatchObject({
      status: 404,
      code: 'EXTERNAL_ACCOUNT_NOT_FOUND',
    });
  });

  it('the platform wallet flow, and a challenge in flight survives a state export and import', async () => {
    const wallet = await r.cb.platform.externalAccounts.create({
      currency: 'BTC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qplatformwallet000000000000000000000000' },
    });
    expect(wallet).toMatchObject({ customerId: null, status: 'PENDING_OWNERSHIP_VERIFICATION' });
    // A customer path does not reach the platform's wallet.
    expect(await failure(r.cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' }))).toMatchObject({ status: 404 });
    const challenge = await r.cb.platform.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
    if (challenge.method !== 'WALLET_SIGNATURE') throw new Error('expected a WALLET_SIGNATURE challenge');

    const saved = JSON.stringify(r.sandbox.exportState());
    r.sandbox.reset();
    expect(await failure(r.cb.platform.externalAccounts.retrieve(wallet.id))).toMatchObject({ status: 404 });
    r.sandbox.importState(saved);

    const verified = await r.cb.platform.externalAccounts.verify(wallet.id, { signature: `sandbox-signed:${challenge.messageToSign}` });
    expect(verified).toMatchObject({ id: wallet.id, status: 'ACTIVE', customerId: null });
    expect((await r.cb.platform.externalAccounts.retrieve(wallet.id)).status).toBe('ACTIVE');
  });

  it('a LIVENESS challenge in flight passes after an import', async () => {
    const wallet = await r.cb.platform.externalAccounts.create({
      currency: 'BTC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qplatformliveness0000000000000000000000' },
    });
    await r.cb.platform.externalAccounts.challenge(wallet.id, { method: 'LIVENESS' });
    const saved = r.sandbox.exportState();
    r.sandbox.reset();
    r.sandbox.importState(saved);
    r.sandbox.clock.advance(30_000);
    expect((await r.cb.platform.externalAccounts.retrieve(wallet.id)).status).toBe('ACTIVE');
  });
});
