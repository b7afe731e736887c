/**
 * Production's Strong Customer Authentication (`/sca/…`, beneficiary trust, `/quotes/{quoteId}/authorize`) and
 * contact verification (`/customers/{customerId}/verify-*`) through the SDK, against the in-process sandbox (msw)
 * and the sandbox over HTTP on 127.0.0.1. A customer of an EEA region is an SCA customer; any other is refused
 * 409 as production refuses it, and its payments do not change. An SCA customer's executed quote moves nothing:
 * the SDK raises ScaRequiredError naming the quote and its challenge, and `quotes.authorize` with the proof, in a
 * live SCA session, releases it; a trusted beneficiary skips the ceremony.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { APIError, NotFoundError, Quote } from '../../src/index';
import { BadRequestError, ConflictError, Crossborder, RateLimitError, ScaRequiredError, type WebhookEvent } from '../../src/index';
import { createClock } from '../../src/sandbox/index';
import { sandboxWorlds, type World } from '../helpers/worlds';

// Frozen: time moves only by clock.advance, so the session's and the lock's instants are exact.
const worlds = sandboxWorlds('api.sca-ops.example', { clock: createClock('2026-03-02T09:00:00Z', { frozen: true }) });

const CODE = '123456';
const IP = '203.0.113.42';
const ORIGIN = 'https://sandbox.crossborder.example';

describe.each(worlds)('SCA and contact verification against the sandbox, %s', (_name, makeWorld) => {
  let world: World;
  let cb: Crossborder;

  beforeAll(async () => {
    world = await makeWorld();
    cb = new Crossborder({
      tokenId: 'tok_sca',
      clientSecret: 'sk_sca',
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      webhookPublicKey: world.sandbox.webhookPublicKey.pem,
    });
  });
  afterEach(() => {
    world.sandbox.reset();
    world.hooks.length = 0;
  });
  afterAll(() => world.close());

  const balance = (accountId: string) => world.sandbox.state.balance(accountId);
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  /** A KYC-approved customer of `region` with a funded account and a beneficiary in its currency. */
  async function customer(region: 'FR' | 'US' = 'FR', funds = 100_000) {
    const currency = region === 'FR' ? 'EUR' : 'USD';
    const c = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region,
      fullName: region === 'FR' ? 'Marie Curie' : 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: region === 'FR' ? 'FR' : 'GB',
      address:
        region === 'FR'
          ? { line1: '1 rue Pierre et Marie Curie', city: 'Paris', postalCode: '75005', country: 'FR' }
          : { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      currencies: [currency],
    } as never);
    const account = (await cb.internalAccounts.list({ customerId: c.id, currency })).data[0]!;
    if (funds > 0) await cb.sandbox.fundInternalAccount(account.id, { amount: funds });
    const payee = await cb.externalAccounts.create(
      region === 'FR'
        ? { customerId: c.id, currency, accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' } }
        : {
            customerId: c.id,
            currency,
            accountInfo: {
              accountType: 'USD_ACCOUNT',
              accountNumber: '123456789',
              routingNumber: '021000021',
              beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' },
            },
          },
    );
    return { customer: c, account, payee, currency };
  }

  async function quote(who: Awaited<ReturnType<typeof customer>>, amount = 10_000) {
    return cb.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: who.account.id },
      destination: { destinationType: 'ACCOUNT', accountId: who.payee.id, currency: who.currency },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    } as never);
  }

  /** A live SCA session of `customerId`, by SMS (its phone verified first). */
  async function login(customerId: string) {
    await cb.customers.verifyPhone(customerId);
    await cb.customers.confirmPhone(customerId, { code: CODE });
    const start = await cb.sca.login.start(customerId, { factor: 'SMS_OTP' });
    return cb.sca.login.complete(customerId, { factor: 'SMS_OTP', challengeId: start.challengeId, code: CODE, endUserIpAddress: IP });
  }

  async function events(): Promise<WebhookEvent[]> {
    await world.sandbox.webhooks.flush();
    const out: WebhookEvent[] = [];
    for (const { body, headers } of world.hooks) out.push((await cb.webhooks.unwrap(body, headers)) as WebhookEvent);
    return out;
  }

  it('contact verification: an EU customer starts PENDING; a code sent, a wrong one refused, the right one VERIFIED; others get 409', async () => {
    const { customer: eu } = await customer('FR', 0);
    expect(eu.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    // Confirming before a code was sent, or with a wrong code, is refused and changes nothing.
    const early = await failure(cb.customers.confirmEmail(eu.id, { code: CODE }));
    expect(early).toBeInstanceOf(BadRequestError);
    await cb.customers.verifyEmail(eu.id);
    const wrong = (await failure(cb.customers.confirmEmail(eu.id, { code: '654321' }))) as BadRequestError;
    expect([wrong.status, wrong.code, wrong.details?.field]).toEqual([400, 'INVALID_INPUT', 'code']);
    expect((await cb.customers.retrieve(eu.id)).contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const verified = await cb.customers.confirmEmail(eu.id, { code: CODE });
    expect(verified.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
    // Already verified: production's 409.
    expect(((await failure(cb.customers.verifyEmail(eu.id))) as ConflictError).status).toBe(409);
    await cb.customers.verifyPhone(eu.id);
    expect((await cb.customers.confirmPhone(eu.id, { code: CODE })).contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });

    const { customer: us } = await customer('US', 0);
    expect(us.contactVerification).toBeUndefined();
    const refused = (await failure(cb.customers.verifyPhone(us.id))) as ConflictError;
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.code).toBe('CONFLICT');
    expect(((await failure(cb.customers.verifyEmail('Customer:nope'))) as NotFoundError).code).toBe('CUSTOMER_NOT_FOUND');
  });

  it('factors: SMS_OTP always; TOTP and one passkey enrolled with their proofs; a passkey deleted; a non-SCA customer is refused 409', async () => {
    const { customer: eu } = await customer('FR', 0);
    expect(await cb.sca.factors.list(eu.id)).toEqual({ factors: [{ factor: 'SMS_OTP' }] });

    const totp = await cb.sca.factors.enroll(eu.id, { type: 'TOTP' });
    if (totp.type !== 'TOTP') throw new Error('expected a TOTP start');
    expect(totp.totpUri).toBe(`otpauth://totp/Crossborder:${encodeURIComponent(eu.id)}?secret=${totp.secretBase32Encoded}&issuer=Crossborder`);
    const badCode = (await failure(cb.sca.factors.confirm(eu.id, { type: 'TOTP', secret: totp.secret, code: '000000' }))) as BadRequestError;
    expect(badCode.details?.field).toBe('code');
    const badSecret = (await failure(cb.sca.factors.confirm(eu.id, { type: 'TOTP', secret: 'NOT-THE-SECRET', code: CODE }))) as BadRequestError;
    expect(badSecret.details?.field).toBe('secret');
    const done = await cb.sca.factors.confirm(eu.id, { type: 'TOTP', secret: totp.secret, code: CODE });
    if (done.type !== 'TOTP') throw new Error('expected a TOTP result');
    expect(done.recoveryCodes).toHaveLength(8);
    expect(new Set(done.recoveryCodes).size).toBe(8);
    // The secret is kept as its digest only: a state export never carries it.
    expect(JSON.stringify(world.sandbox.exportState())).not.toContain(totp.secret);

    const passkey = await cb.sca.factors.enroll(eu.id, { type: 'PASSKEY' });
    if (passkey.type !== 'PASSKEY') throw new Error('expected a PASSKEY start');
    expect(passkey.allowedOrigins).toEqual([ORIGIN]);
    const otherOrigin = (await failure(
      cb.sca.factors.confirm(eu.id, { type: 'PASSKEY', origin: 'https://evil.example', credential: { id: 'cred' } }),
    )) as BadRequestError;
    expect(otherOrigin.details?.field).toBe('origin');
    const enrolled = await cb.sca.factors.confirm(eu.id, { type: 'PASSKEY', origin: ORIGIN, credential: { id: 'cred', type: 'public-key' } });
    if (enrolled.type !== 'PASSKEY') throw new Error('expected a PASSKEY result');
    const credentialId = enrolled.factor.credentialId!;
    expect((await cb.sca.factors.list(eu.id)).factors.map((f) => f.factor)).toEqual(['SMS_OTP', 'TOTP', 'PASSKEY']);
    const second = (await failure(cb.sca.factors.enroll(eu.id, { type: 'PASSKEY' }))) as ConflictError;
    expect([second.status, second.code]).toEqual([409, 'PASSKEY_ALREADY_ENROLLED']);
    await cb.sca.factors.delete(eu.id, credentialId);
    expect((await cb.sca.factors.list(eu.id)).factors.map((f) => f.factor)).toEqual(['SMS_OTP', 'TOTP']);
    expect(((await failure(cb.sca.factors.delete(eu.id, credentialId))) as NotFoundError).status).toBe(404);

    const { customer: us } = await customer('US', 0);
    for (const call of [cb.sca.factors.list(us.id), cb.sca.factors.enroll(us.id, { type: 'TOTP' }), cb.sca.login.start(us.id, { factor: 'SMS_OTP' })]) {
      const e = (await failure(call)) as ConflictError;
      expect(e).toBeInstanceOf(ConflictError);
      expect(e.code).toBe('CONFLICT');
    }
  });

  it('login: SMS_OTP needs the verified phone; the challenge and code are checked; the session lasts 30 minutes of sandbox time', async () => {
    const { customer: eu } = await customer('FR', 0);
    expect(((await failure(cb.sca.login.start(eu.id, { factor: 'SMS_OTP' }))) as BadRequestError).details?.field).toBe('factor');
    expect(((await failure(cb.sca.login.start(eu.id, { factor: 'TOTP' }))) as BadRequestError).details?.field).toBe('factor');
    await cb.customers.verifyPhone(eu.id);
    await cb.customers.confirmPhone(eu.id, { code: CODE });
    const start = await cb.sca.login.start(eu.id, { factor: 'SMS_OTP' });
    expect(start.challengeId).toMatch(/^ScaChallenge:/);
    const at = world.sandbox.clock.now();
    expect(Date.parse(start.expiresAt!)).toBe(at + 5 * 60_000);
    const wrongChallenge = (await failure(
      cb.sca.login.complete(eu.id, { factor: 'SMS_OTP', challengeId: 'ScaChallenge:other', code: CODE, endUserIpAddress: IP }),
    )) as BadRequestError;
    expect(wrongChallenge.details?.field).toBe('challengeId');
    const wrongCode = (await failure(
      cb.sca.login.complete(eu.id, { factor: 'SMS_OTP', challengeId: start.challengeId, code: '111111', endUserIpAddress: IP }),
    )) as BadRequestError;
    expect(wrongCode.details?.field).toBe('code');
    const done = await cb.sca.login.complete(eu.id, { factor: 'SMS_OTP', challengeId: start.challengeId, code: CODE, endUserIpAddress: IP });
    expect(done).toEqual({ status: 'SUCCESS', sessionExpiresAt: new Date(at + 30 * 60_000).toISOString() });
  });

  it('a payment of an SCA customer waits: ScaRequiredError names the quote and its challenge; authorize, in a session, releases it', async () => {
    await cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
    const who = await customer('FR');
    const q = await quote(who);
    const held = (await failure(cb.quotes.execute(q.id))) as ScaRequiredError;
    expect(held).toBeInstanceOf(ScaRequiredError);
    expect(held.quoteId).toBe(q.id);
    expect(held.quote.status).toBe('PENDING_AUTHORIZATION');
    expect(held.challenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], expiresAt: q.expiresAt, purpose: 'TRANSFER' });
    expect(held.operation).toBe('POST /quotes/{quoteId}/execute');
    // Nothing moved; the transaction waits too, announced by OUTGOING_PAYMENT.PENDING_AUTHORIZATION.
    expect(balance(who.account.id)).toBe(100_000);
    expect((await cb.transactions.retrieve(q.transactionId)).status).toBe('PENDING_AUTHORIZATION');
    expect((await events()).map((e) => e.type)).toContain('OUTGOING_PAYMENT.PENDING_AUTHORIZATION');
    // Executing again is production's 409.
    expect(((await failure(cb.quotes.execute(q.id))) as ConflictError).status).toBe(409);
    await cb.quotes.resendAuthorization(q.id);

    // No SCA session yet: 409 SCA_SESSION_REQUIRED, nothing released.
    const noSession = (await failure(cb.quotes.authorize(q.id, { code: CODE, endUserIpAddress: IP }))) as ConflictError;
    expect([noSession.status, noSession.code]).toEqual([409, 'SCA_SESSION_REQUIRED']);
    await login(who.customer.id);
    const wrong = (await failure(cb.quotes.authorize(q.id, { code: '999999', endUserIpAddress: IP }))) as BadRequestError;
    expect(wrong.details?.field).toBe('code');
    expect(balance(who.account.id)).toBe(100_000);

    const released = await cb.quotes.authorize(q.id, { code: CODE, endUserIpAddress: IP });
    expect(released.status).toBe('PROCESSING');
    expect(released.scaChallenge).toBeUndefined();
    expect(balance(who.account.id)).toBe(100_000 - q.totalSendingAmount);
    // Authorized once: there is nothing left to authorize, nor a code to send again.
    expect(((await failure(cb.quotes.authorize(q.id, { code: CODE }))) as ConflictError).code).toBe('CONFLICT');
    expect(((await failure(cb.quotes.resendAuthorization(q.id))) as ConflictError).status).toBe(409);
    world.sandbox.clock.advance(60_000);
    expect((await cb.transactions.retrieve(q.transactionId)).status).toBe('COMPLETED');
  });

  it('a non-SCA customer sees no change: its quote executes at once, and authorize is refused 409', async () => {
    const who = await customer('US');
    const q = await quote(who);
    const executed = await cb.quotes.execute(q.id);
    expect(executed.status).toBe('PROCESSING');
    expect(executed.scaChallenge).toBeUndefined();
    expect(balance(who.account.id)).toBe(100_000 - q.totalSendingAmount);
    const refused = (await failure(cb.quotes.authorize(q.id, { code: CODE }))) as ConflictError;
    expect([refused.status, refused.code]).toEqual([409, 'CONFLICT']);
  });

  it('createAndExecute of an SCA customer is held the same way; an unauthorized challenge fails the payment SCA_NOT_COMPLETED', async () => {
    const who = await customer('FR');
    const held = (await failure(
      cb.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: who.account.id },
        destination: { destinationType: 'ACCOUNT', accountId: who.payee.id, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000,
        immediatelyExecute: true,
      } as never),
    )) as ScaRequiredError;
    expect(held).toBeInstanceOf(ScaRequiredError);
    expect(held.operation).toBe('POST /quotes');
    world.sandbox.clock.advance(5 * 60_000);
    expect((await cb.quotes.retrieve(held.quoteId)).status).toBe('EXPIRED');
    const tx = await cb.transactions.retrieve(held.quote.transactionId);
    expect([tx.status, tx.failureReason]).toEqual(['FAILED', 'SCA_NOT_COMPLETED']);
    expect(balance(who.account.id)).toBe(100_000);
  });

  /** A REALTIME_FUNDING quote of `who`'s customer, funded in its currency, paying its beneficiary. */
  function realtimeQuote(who: Awaited<ReturnType<typeof customer>>, extra: Record<string, unknown> = {}, options: { idempotencyKey?: string } = {}) {
    return cb.quotes.create(
      {
        source: { sourceType: 'REALTIME_FUNDING', customerId: who.customer.id, currency: who.currency },
        destination: { destinationType: 'ACCOUNT', accountId: who.payee.id, currency: who.currency },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
        ...extra,
      } as never,
      options,
    );
  }

  /** The status the sandbox answered the last `POST /quotes` with. */
  const lastCreateStatus = () => world.logged.filter((e) => e.method === 'POST' && e.path.endsWith('/quotes')).at(-1)?.status;

  it('a REALTIME_FUNDING quote of an SCA customer is created PENDING_AUTHORIZATION (202), its instructions withheld; authorize issues them, and its funds then move money once', async () => {
    await cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
    const who = await customer('FR', 0);
    const held = (await failure(realtimeQuote(who))) as ScaRequiredError;
    expect(held).toBeInstanceOf(ScaRequiredError);
    expect(held.operation).toBe('POST /quotes');
    expect(lastCreateStatus()).toBe(202);
    const q = held.quote;
    expect([q.status, q.source, q.paymentInstructions]).toEqual([
      'PENDING_AUTHORIZATION',
      { sourceType: 'REALTIME_FUNDING', customerId: who.customer.id, currency: 'EUR' },
      undefined,
    ]);
    expect(held.challenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], expiresAt: q.expiresAt, purpose: 'TRANSFER' });
    expect(held.challenge.id).toMatch(/^ScaChallenge:/);
    expect(await cb.quotes.retrieve(q.id)).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: held.challenge });
    expect((await cb.quotes.retrieve(q.id)).paymentInstructions).toBeUndefined();
    expect((await cb.transactions.retrieve(q.transactionId)).status).toBe('PENDING_AUTHORIZATION');
    const announced = (await events()).filter((e) => e.type === 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION');
    expect(announced.map((e) => (e.data as { id: string }).id)).toEqual([q.transactionId]);

    // Held, its funds move nothing: money arriving in the account stays there, the sandbox send is refused 409, so is execute.
    await cb.sandbox.fundInternalAccount(who.account.id, { amount: q.totalSendingAmount });
    expect(balance(who.account.id)).toBe(q.totalSendingAmount);
    expect(((await failure(cb.sandbox.send({ quoteId: q.id, currencyCode: 'EUR' }))) as ConflictError).status).toBe(409);
    expect(((await failure(cb.quotes.execute(q.id))) as ConflictError).status).toBe(409);
    expect(balance(who.account.id)).toBe(q.totalSendingAmount);
    expect((await cb.quotes.retrieve(q.id)).status).toBe('PENDING_AUTHORIZATION');
    await cb.quotes.resendAuthorization(q.id);

    const noSession = (await failure(cb.quotes.authorize(q.id, { code: CODE, endUserIpAddress: IP }))) as ConflictError;
    expect([noSession.status, noSession.code]).toEqual([409, 'SCA_SESSION_REQUIRED']);
    await login(who.customer.id);
    const authorized = await cb.quotes.authorize(q.id, { code: CODE, endUserIpAddress: IP });
    // Authorized: PENDING with its paymentInstructions (the transaction's reference), waiting for its funds; nothing moved.
    expect([authorized.status, authorized.scaChallenge]).toEqual(['PENDING', undefined]);
    const reference = (await cb.transactions.retrieve(q.transactionId)).reconciliationInstructions?.reference;
    expect(reference).toMatch(/^CB-/);
    expect(authorized.paymentInstructions?.length).toBeGreaterThan(0);
    for (const i of authorized.paymentInstructions!) expect(i.accountOrWalletInfo).toMatchObject({ reference });
    expect((await cb.transactions.retrieve(q.transactionId)).status).toBe('PENDING');
    expect(balance(who.account.id)).toBe(q.totalSendingAmount);

    // Its funds arrive: executed once (credited, then debited by totalSendingAmount, once).
    const sent = await cb.sandbox.send({ quoteId: q.id, currencyCode: 'EUR' });
    expect([sent.id, sent.status]).toEqual([q.transactionId, 'PROCESSING']);
    expect(balance(who.account.id)).toBe(q.totalSendingAmount);
    world.sandbox.clock.advance(60_000);
    expect((await cb.transactions.retrieve(q.transactionId)).status).toBe('COMPLETED');
    expect(((await failure(cb.sandbox.send({ quoteId: q.id, currencyCode: 'EUR' }))) as ConflictError).status).toBe(409);
    expect(balance(who.account.id)).toBe(q.totalSendingAmount);
    const processing = (await events()).filter((e) => e.type === 'OUTGOING_PAYMENT.PROCESSING' && (e.data as { id: string }).id === q.transactionId);
    expect(processing).toHaveLength(1);
  });

  it('a held REALTIME_FUNDING quote: scaFactor picks its factor (TOTP refused 400, no quote left); a retry with its key replays the 202; unauthorized it fails SCA_NOT_COMPLETED', async () => {
    const who = await customer('FR', 0);
    const totp = await cb.sca.factors.enroll(who.customer.id, { type: 'TOTP' });
    await cb.sca.factors.confirm(who.customer.id, { type: 'TOTP', secret: (totp as { secret: string }).secret, code: CODE });
    await cb.sca.factors.enroll(who.customer.id, { type: 'PASSKEY' });
    await cb.sca.factors.confirm(who.customer.id, { type: 'PASSKEY', origin: ORIGIN, credential: { id: 'cred' } });
    const quotesBefore = world.sandbox.state.snapshot().quotes.length;
    const refused = (await failure(realtimeQuote(who, { scaFactor: 'TOTP' }))) as BadRequestError;
    expect([refused.status, refused.code, refused.details?.field]).toEqual([400, 'INVALID_INPUT', 'scaFactor']);
    expect(world.sandbox.state.snapshot().quotes.length).toBe(quotesBefore);

    const held = (await failure(realtimeQuote(who, { scaFactor: 'PASSKEY' }, { idempotencyKey: 'rtf-sca-1' }))) as ScaRequiredError;
    expect(held.challenge).toMatchObject({ factor: 'PASSKEY', availableFactors: ['SMS_OTP', 'PASSKEY'] });
    expect(held.challenge.passkeyAssertionOptions).toMatchObject({ rpId: 'sandbox.crossborder.example', userVerification: 'required' });
    // The same key answers the same held quote (a 202 that is no wallet challenge is the answer, remembered).
    const again = (await failure(realtimeQuote(who, { scaFactor: 'PASSKEY' }, { idempotencyKey: 'rtf-sca-1' }))) as ScaRequiredError;
    expect([again.quoteId, again.challenge.id, lastCreateStatus()]).toEqual([held.quoteId, held.challenge.id, 202]);
    expect(world.logged.at(-1)?.replayed).toBe(true);
    expect(world.sandbox.state.snapshot().quotes.length).toBe(quotesBefore + 1);

    world.sandbox.clock.advance(5 * 60_000);
    expect((await cb.quotes.retrieve(held.quoteId)).status).toBe('EXPIRED');
    const tx = await cb.transactions.retrieve(held.quote.transactionId);
    expect([tx.status, tx.failureReason]).toEqual(['FAILED', 'SCA_NOT_COMPLETED']);
    expect(balance(who.account.id)).toBe(0);
  });

  it('a REALTIME_FUNDING quote is not held for a non-SCA customer nor to a trusted beneficiary: created PENDING with its instructions', async () => {
    const us = await customer('US', 0);
    const plain = await realtimeQuote(us, { scaFactor: 'TOTP' }); // ignored outside SCA, as production ignores it
    expect([plain.status, plain.scaChallenge, lastCreateStatus()]).toEqual(['PENDING', undefined, 200]);
    expect(plain.paymentInstructions?.length).toBeGreaterThan(0);

    const eu = await customer('FR', 0);
    const { scaChallenge } = await cb.externalAccounts.trust(eu.payee.id);
    await cb.externalAccounts.confirmTrust(eu.payee.id, { challengeId: scaChallenge!.id, code: CODE });
    const trusted = await realtimeQuote(eu);
    expect([trusted.status, trusted.scaChallenge, lastCreateStatus()]).toEqual(['PENDING', undefined, 200]);
    expect(trusted.paymentInstructions?.length).toBeGreaterThan(0);
  });

  it("execute takes production's optional body: its scaFactor picks the challenge's factor", async () => {
    const who = await customer('FR');
    await cb.sca.factors.enroll(who.customer.id, { type: 'PASSKEY' });
    await cb.sca.factors.confirm(who.customer.id, { type: 'PASSKEY', origin: ORIGIN, credential: { id: 'cred' } });
    const q = await quote(who);
    // The escape hatch (our document declares no body on execute): the held quote is its answer.
    const held = await cb.request<Quote>('POST', '/quotes/{quoteId}/execute', { path: { quoteId: q.id }, body: { scaFactor: 'PASSKEY' } });
    expect(held).toMatchObject({ id: q.id, status: 'PENDING_AUTHORIZATION', scaChallenge: { factor: 'PASSKEY' } });
    expect(balance(who.account.id)).toBe(100_000);
  });

  it('a trusted beneficiary skips the per-transaction ceremony; untrusting it brings it back', async () => {
    const who = await customer('FR');
    const { scaChallenge } = await cb.externalAccounts.trust(who.payee.id);
    expect(scaChallenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] });
    const wrong = (await failure(cb.externalAccounts.confirmTrust(who.payee.id, { challengeId: scaChallenge!.id, code: '000001' }))) as BadRequestError;
    expect(wrong.details?.field).toBe('code');
    const otherChallenge = (await failure(cb.externalAccounts.confirmTrust(who.payee.id, { challengeId: 'ScaChallenge:x', code: CODE }))) as BadRequestError;
    expect(otherChallenge.details?.field).toBe('challengeId');
    expect(await cb.externalAccounts.confirmTrust(who.payee.id, { challengeId: scaChallenge!.id, code: CODE })).toEqual({ trusted: true });

    const q1 = await quote(who);
    expect((await cb.quotes.execute(q1.id)).status).toBe('PROCESSING');

    const untrust = await cb.externalAccounts.untrust(who.payee.id);
    // A trust's confirm does not confirm an untrust.
    expect(await failure(cb.externalAccounts.confirmTrust(who.payee.id, { challengeId: untrust.scaChallenge!.id, code: CODE }))).toBeInstanceOf(
      BadRequestError,
    );
    expect(await cb.externalAccounts.confirmUntrust(who.payee.id, { challengeId: untrust.scaChallenge!.id, code: CODE })).toEqual({ trusted: false });
    const q2 = await quote(who);
    expect(await failure(cb.quotes.execute(q2.id))).toBeInstanceOf(ScaRequiredError);

    const us = await customer('US', 0);
    expect(((await failure(cb.externalAccounts.trust(us.payee.id))) as ConflictError).code).toBe('CONFLICT');
  });

  it('a passkey satisfies a payment challenge with its assertion and origin; TOTP is never offered for one', async () => {
    const who = await customer('FR');
    const totp = await cb.sca.factors.enroll(who.customer.id, { type: 'TOTP' });
    await cb.sca.factors.confirm(who.customer.id, { type: 'TOTP', secret: (totp as { secret: string }).secret, code: CODE });
    await cb.sca.factors.enroll(who.customer.id, { type: 'PASSKEY' });
    await cb.sca.factors.confirm(who.customer.id, { type: 'PASSKEY', origin: ORIGIN, credential: { id: 'cred' } });
    const start = await cb.sca.login.start(who.customer.id, { factor: 'PASSKEY' });
    expect(start.relyingPartyId).toBe('sandbox.crossborder.example');
    await cb.sca.login.complete(who.customer.id, { factor: 'PASSKEY', passkeyAssertion: { id: 'cred' }, origin: ORIGIN, endUserIpAddress: IP });
    const q = await quote(who);
    const held = (await failure(cb.quotes.execute(q.id))) as ScaRequiredError;
    expect(held.challenge.availableFactors).toEqual(['SMS_OTP', 'PASSKEY']);
    const noOrigin = (await failure(cb.quotes.authorize(q.id, { passkeyAssertion: { id: 'cred' } }))) as BadRequestError;
    expect(noOrigin.details?.field).toBe('origin');
    expect((await cb.quotes.authorize(q.id, { passkeyAssertion: { id: 'cred' }, origin: ORIGIN })).status).toBe('PROCESSING');
  });

  it('security events: production lockout milestones (423 ACCOUNT_LOCKED), a password reset clears them and the session', async () => {
    const who = await customer('FR');
    await login(who.customer.id);
    let state = await cb.sca.events.record(who.customer.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    expect(state).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, lockedUntil: null, failedAttempts: 1 });
    for (let i = 2; i <= 5; i++) state = await cb.sca.events.record(who.customer.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    expect(state.lockedUntil).toBe(new Date(world.sandbox.clock.now() + 15 * 60_000).toISOString());
    const locked = (await failure(cb.sca.login.start(who.customer.id, { factor: 'SMS_OTP' }))) as APIError;
    expect([locked.status, locked.code, locked.details?.failedAttempts]).toEqual([423, 'ACCOUNT_LOCKED', 5]);
    const q = await quote(who);
    await failure(cb.quotes.execute(q.id));
    expect(((await failure(cb.quotes.authorize(q.id, { code: CODE }))) as APIError).status).toBe(423);
    world.sandbox.clock.advance(15 * 60_000);
    for (let i = 6; i <= 9; i++) state = await cb.sca.events.record(who.customer.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    expect([state.suspended, state.lockedUntil, state.failedAttempts]).toEqual([true, null, 9]);
    state = await cb.sca.events.record(who.customer.id, { eventType: 'RESET_PASSWORD_COMPLETED' });
    expect(state).toEqual({ eventType: 'RESET_PASSWORD_COMPLETED', suspended: false, lockedUntil: null, failedAttempts: 0 });
    // The reset revoked the session: authorizing needs a new login.
    const next = await quote(who);
    await failure(cb.quotes.execute(next.id));
    expect(((await failure(cb.quotes.authorize(next.id, { code: CODE }))) as ConflictError).code).toBe('SCA_SESSION_REQUIRED');
  });

  it('2FA reset: liveness passes 30 s later, completing clears the factor; an SMS reset names the new number; 5 starts a day', async () => {
    const { customer: eu } = await customer('FR', 0);
    const totp = await cb.sca.factors.enroll(eu.id, { type: 'TOTP' });
    await cb.sca.factors.confirm(eu.id, { type: 'TOTP', secret: (totp as { secret: string }).secret, code: CODE });
    const reset = await cb.sca.resets.start(eu.id, { factor: 'TOTP' });
    expect(reset.resetId).toMatch(/^TwoFactorReset:/);
    expect((await cb.sca.resets.retrieve(eu.id, reset.resetId)).status).toBe('INITIATED');
    expect(((await failure(cb.sca.resets.complete(eu.id, reset.resetId))) as BadRequestError).status).toBe(400);
    world.sandbox.clock.advance(30_000);
    expect((await cb.sca.resets.retrieve(eu.id, reset.resetId)).status).toBe('LIVENESS_PASSED');
    await cb.sca.resets.complete(eu.id, reset.resetId);
    expect(await cb.sca.resets.retrieve(eu.id, reset.resetId)).toMatchObject({ status: 'COMPLETED', factor: 'TOTP', enrollmentStatus: 'PENDING' });
    expect((await cb.sca.factors.list(eu.id)).factors.map((f) => f.factor)).toEqual(['SMS_OTP']);
    expect(((await failure(cb.sca.resets.retrieve(eu.id, 'TwoFactorReset:nope'))) as NotFoundError).status).toBe(404);

    const sms = await cb.sca.resets.start(eu.id, { factor: 'SMS_OTP' });
    world.sandbox.clock.advance(30_000);
    expect(((await failure(cb.sca.resets.complete(eu.id, sms.resetId))) as BadRequestError).details?.field).toBe('mobile');
    await cb.sca.resets.complete(eu.id, sms.resetId, { mobile: { countryCode: '+33', number: '612345678' } });
    expect((await cb.sca.resets.retrieve(eu.id, sms.resetId)).enrollmentStatus).toBeNull();
    for (let i = 0; i < 3; i++) await cb.sca.resets.start(eu.id, { factor: 'SMS_OTP' });
    const limited = (await failure(cb.sca.resets.start(eu.id, { factor: 'SMS_OTP' }))) as RateLimitError;
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited.code).toBe('RATE_LIMITED');
  });

  it('a state export keeps factors, the session, trusted beneficiaries and a held payment: after import authorize still releases it', async () => {
    const who = await customer('FR');
    await login(who.customer.id);
    const totp = await cb.sca.factors.enroll(who.customer.id, { type: 'TOTP' });
    await cb.sca.factors.confirm(who.customer.id, { type: 'TOTP', secret: (totp as { secret: string }).secret, code: CODE });
    const other = await cb.externalAccounts.create({
      customerId: who.customer.id,
      currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'FR7630006000011234567890189', swiftCode: 'AGRIFRPP' },
    });
    const { scaChallenge } = await cb.externalAccounts.trust(other.id);
    await cb.externalAccounts.confirmTrust(other.id, { challengeId: scaChallenge!.id, code: CODE });
    const q = await quote(who);
    await failure(cb.quotes.execute(q.id));
    const saved = JSON.parse(JSON.stringify(world.sandbox.exportState()));
    world.sandbox.reset();
    expect(world.sandbox.state.snapshot().customers).toEqual([]);
    world.sandbox.importState(saved);
    expect((await cb.sca.factors.list(who.customer.id)).factors.map((f) => f.factor)).toEqual(['SMS_OTP', 'TOTP']);
    expect((await cb.customers.retrieve(who.customer.id)).contactVerification).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
    expect((await cb.quotes.authorize(q.id, { code: CODE })).status).toBe('PROCESSING');
    const toTrusted = await cb.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: who.account.id },
      destination: { destinationType: 'ACCOUNT', accountId: other.id, currency: 'EUR' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    } as never);
    expect((await cb.quotes.execute(toTrusted.id)).status).toBe('PROCESSING');
  });
});
