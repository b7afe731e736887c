/**
 * Production's cards (`/cards`: issue, list, retrieve, update, reveal) and the sandbox's card simulations
 * (`/sandbox/cards/{id}/simulate/…`) through the SDK, against the in-process sandbox (msw) and the sandbox
 * over HTTP on 127.0.0.1. The simulations make the card transactions production's `CARD_TRANSACTION.*`
 * webhooks carry: each test reads them as a platform would, verified and narrowed by `type` with
 * `cb.webhooks.unwrap`, and checks the balances they moved. The card's `maxSpendPerTransaction` and its
 * funds are checked in the same step as the debit: concurrent authorizations never overdraw. The reveal URL
 * is planted and searched for in spans, errors, the sandbox's request log and its state export.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  Crossborder,
  NotFoundError,
  ValidationError,
  type Card,
  type CardTransaction,
  type WebhookEvent,
} from '../../src/index';
import { MASK, maskBody } from '../../src/core/logger';
import { sandboxWorlds, type World } from '../helpers/worlds';
import { otel } from '../telemetry/helpers';

const worlds = sandboxWorlds('api.cards-ops.example');

const COFFEE = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };

describe.each(worlds)('cards against the sandbox, %s', (_name, makeWorld) => {
  let world: World;
  let cb: Crossborder;
  const telemetry = otel();

  beforeAll(async () => {
    world = await makeWorld();
    cb = new Crossborder({
      tokenId: 'tok_cards',
      clientSecret: 'sk_cards',
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      webhookPublicKey: world.sandbox.webhookPublicKey.pem,
      tracerProvider: telemetry.tracerProvider,
    });
  });
  afterEach(() => {
    world.sandbox.reset();
    world.hooks.length = 0;
  });
  afterAll(() => world.close());

  /** A KYC-approved cardholder with a funded USD account (and an EUR one). */
  async function cardholder(balance = 10_000) {
    await cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
    const customer = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      currencies: ['USD', 'EUR'],
    } as never);
    expect(customer.kycStatus).toBe('APPROVED');
    const usd = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!;
    const eur = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'EUR' })).data[0]!;
    if (balance > 0) await cb.sandbox.fundInternalAccount(usd.id, { amount: balance });
    return { customer, usd, eur };
  }

  async function activeCard(maxSpendPerTransaction?: number, balance?: number) {
    const who = await cardholder(balance);
    const card = await cb.cards.create({
      cardholderId: who.customer.id,
      form: 'VIRTUAL',
      fundingSources: [who.usd.id],
      ...(maxSpendPerTransaction ? { maxSpendPerTransaction } : {}),
    });
    expect(card.state).toBe('PROCESSING');
    expect((await cb.cards.retrieve(card.id)).state).toBe('ACTIVE');
    return { ...who, card };
  }

  /** The webhook events delivered so far, verified and narrowed (balance updates left out). */
  async function events(): Promise<WebhookEvent[]> {
    await world.sandbox.webhooks.flush();
    const out: WebhookEvent[] = [];
    for (const h of world.hooks) {
      const event = (await cb.webhooks.unwrap(h.body, h.headers)) as WebhookEvent;
      if (event.type !== 'INTERNAL_ACCOUNT.BALANCE_UPDATED') out.push(event);
    }
    return out;
  }

  /** The card transactions the CARD_TRANSACTION.* webhooks carried, last state of each, by issuer token. */
  async function cardTransactions(): Promise<Map<string, CardTransaction>> {
    const byToken = new Map<string, CardTransaction>();
    for (const e of await events()) {
      if (e.type.startsWith('CARD_TRANSACTION.')) {
        const tx = (e as Extract<WebhookEvent, { type: 'CARD_TRANSACTION.AUTHORIZED' }>).data;
        expect(e.type).toBe(`CARD_TRANSACTION.${tx.status}`);
        byToken.set(tx.issuerTransactionToken!, tx);
      }
    }
    return byToken;
  }

  const balance = (accountId: string) => world.sandbox.state.balance(accountId);

  it('issue, list, retrieve, update: a card is provisioned (CARD.STATE_CHANGE), frozen, limited, re-funded and closed', async () => {
    const { customer, usd } = await cardholder();
    const card = await cb.cards.create({
      cardholderId: customer.id,
      platformCardId: 'card-emp-1',
      form: 'VIRTUAL',
      fundingSources: [usd.id],
      maxSpendPerTransaction: 5_000,
    });
    expect(card).toMatchObject({
      cardholderId: customer.id,
      platformCardId: 'card-emp-1',
      state: 'PROCESSING',
      stateReason: null,
      form: 'VIRTUAL',
      fundingSources: [usd.id],
      maxSpendPerTransaction: 5_000,
      currency: 'USD',
    });
    expect(card.id).toMatch(/^Card:/);
    expect(card.last4).toMatch(/^\d{4}$/);
    const active = await cb.cards.retrieve(card.id);
    expect(active.state).toBe('ACTIVE');

    const second = await cb.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [usd.id] });
    expect(second.maxSpendPerTransaction).toBeNull();
    expect(second.platformCardId).toMatch(/^card_/);
    expect((await cb.cards.list()).data.map((c) => c.id)).toEqual([second.id, card.id]);
    expect((await cb.cards.list({ sortOrder: 'asc' })).data.map((c) => c.id)).toEqual([card.id, second.id]);
    expect((await cb.cards.list({ platformCardId: 'card-emp-1' })).data.map((c) => c.id)).toEqual([card.id]);
    expect((await cb.cards.list({ accountId: usd.id, cardholderId: customer.id })).totalCount).toBe(2);
    expect((await cb.cards.list({ cardholderId: 'Customer:nobody' })).data).toEqual([]);
    const walked: string[] = [];
    for await (const c of cb.cards.list({ limit: 1 })) walked.push(c.id);
    expect(walked).toEqual([second.id, card.id]);

    const frozen = await cb.cards.update(card.id, { state: 'FROZEN' });
    expect(frozen.state).toBe('FROZEN');
    expect((await cb.cards.list({ state: 'FROZEN' })).data.map((c) => c.id)).toEqual([card.id]);
    expect((await cb.cards.update(card.id, { maxSpendPerTransaction: 10_000 })).maxSpendPerTransaction).toBe(10_000);
    expect((await cb.cards.update(card.id, { maxSpendPerTransaction: null })).maxSpendPerTransaction).toBeNull();
    const usd2 = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!;
    expect((await cb.cards.update(card.id, { state: 'ACTIVE', fundingSources: [usd2.id] })).state).toBe('ACTIVE');
    const closed = await cb.cards.update(card.id, { state: 'CLOSED' });
    expect(closed).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' });

    const sent = (await events()).filter((e) => e.type.startsWith('CARD.'));
    const seen = sent.map((e) => {
      const c = (e as Extract<WebhookEvent, { type: 'CARD.STATE_CHANGE' }>).data;
      return `${e.type} ${c.id === card.id ? 'first' : 'second'} ${c.state}`;
    });
    expect(seen).toEqual([
      'CARD.STATE_CHANGE first ACTIVE',
      'CARD.STATE_CHANGE second ACTIVE',
      'CARD.STATE_CHANGE first FROZEN',
      'CARD.STATE_CHANGE first ACTIVE',
      'CARD.FUNDING_SOURCE_CHANGE first ACTIVE',
      'CARD.STATE_CHANGE first CLOSED',
    ]);
    expect(world.sandbox.state.snapshot().cards.map((c) => [c.id, c.state])).toEqual([
      [card.id, 'CLOSED'],
      [second.id, 'ACTIVE'],
    ]);
  });

  it("refuses what production refuses, naming the field: KYC, another's or another currency's account, moves out of CLOSED", async () => {
    const { customer, usd, eur } = await cardholder();
    const other = await cardholder();
    const refused = async (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e as BadRequestError,
      );
    const foreign = await refused(cb.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [usd.id, other.usd.id] }));
    expect(foreign).toBeInstanceOf(BadRequestError);
    expect(foreign).toMatchObject({ code: 'FUNDING_SOURCE_INELIGIBLE', details: { field: 'fundingSources[1]' } });
    const mixed = await refused(cb.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [usd.id, eur.id] }));
    expect(mixed).toMatchObject({ code: 'FUNDING_SOURCE_INELIGIBLE', details: { field: 'fundingSources[1]' } });
    const missing = await refused(cb.cards.create({ cardholderId: customer.id, form: 'VIRTUAL' } as never));
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as unknown as ValidationError).message).toContain('fundingSources');
    const pending = await cb.customers.create({ customerType: 'INDIVIDUAL', fullName: 'No Birthdate' } as never);
    expect(pending.kycStatus).not.toBe('APPROVED');
    const kyc = await refused(cb.cards.create({ cardholderId: pending.id, form: 'VIRTUAL', fundingSources: [usd.id] }));
    expect(kyc).toMatchObject({ code: 'CARDHOLDER_KYC_NOT_APPROVED', details: { field: 'cardholderId' } });
    expect(world.sandbox.state.snapshot().cards).toEqual([]);

    const card = await cb.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [usd.id] });
    // Provisioned before the next request: freezing a card just issued works.
    expect((await cb.cards.update(card.id, { state: 'FROZEN' })).state).toBe('FROZEN');
    const empty = await refused(cb.cards.update(card.id, {}));
    expect(empty).toMatchObject({ code: 'INVALID_INPUT' });
    const closeAndMore = await refused(cb.cards.update(card.id, { state: 'CLOSED', maxSpendPerTransaction: 5 }));
    expect(closeAndMore).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'maxSpendPerTransaction' } });
    await cb.cards.update(card.id, { state: 'CLOSED' });
    const again = await cb.cards.update(card.id, { state: 'CLOSED' }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ code: 'CARD_ALREADY_CLOSED' });
    expect(await cb.cards.update(card.id, { state: 'ACTIVE' }).catch((e: unknown) => e)).toMatchObject({ code: 'CARD_NOT_MUTABLE' });
    const unknown = await cb.cards.retrieve('Card:nope').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ code: 'CARD_NOT_FOUND' });
  });
  it('an authorization is decided and paid in one step: the limit, the funds, the frozen card; a decline moves nothing', async () => {
    const { card, usd } = await activeCard(5_000, 10_000);
    const approved = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 1_250, currency: { code: 'USD' }, merchant: COFFEE });
    expect(approved.issuerTransactionToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(balance(usd.id)).toBe(8_750);
    // Exactly the limit is allowed; one more is declined.
    const atLimit = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 5_000, currency: { code: 'USD' }, merchant: COFFEE });
    const overLimit = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 5_001, currency: { code: 'USD' }, merchant: COFFEE });
    expect(balance(usd.id)).toBe(3_750);
    // More than the funding source holds, and the descriptor's 002: declined.
    const broke = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 4_000, currency: { code: 'USD' }, merchant: COFFEE });
    const magic = await cb.sandbox.simulateCardAuthorization(card.id, {
      amount: 100,
      currency: { code: 'USD' },
      merchant: { descriptor: 'AMAZON RETAIL US-002' },
    });
    await cb.cards.update(card.id, { state: 'FROZEN' });
    const paused = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 100, currency: { code: 'USD' }, merchant: COFFEE });
    expect(balance(usd.id)).toBe(3_750);

    const txs = await cardTransactions();
    expect([...txs.keys()]).toEqual([approved.issuerTransactionToken, atLimit.issuerTransactionToken]);
    for (const declined of [overLimit, broke, magic, paused]) expect(txs.has(declined.issuerTransactionToken)).toBe(false);
    expect(txs.get(approved.issuerTransactionToken)).toMatchObject({
      type: 'CARD',
      cardId: card.id,
      status: 'AUTHORIZED',
      direction: 'DEBIT',
      merchant: COFFEE,
      authorizedAmount: { amount: 1_250, currency: { code: 'USD' } },
      accountId: usd.id,
      pullSummary: { count: 1, totalAmount: 1_250, pendingCount: 0 },
    });
    expect(world.sandbox.state.snapshot().cardTransactions).toHaveLength(2);

    const wrongCurrency = await cb.sandbox
      .simulateCardAuthorization(card.id, { amount: 1, currency: { code: 'EUR' }, merchant: COFFEE })
      .catch((e: unknown) => e);
    expect(wrongCurrency).toMatchObject({ code: 'INVALID_CURRENCY', details: { field: 'currency.code' } });
    const zero = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 0, currency: { code: 'USD' }, merchant: COFFEE }).catch((e: unknown) => e);
    expect(zero).toBeInstanceOf(ValidationError);
    expect((zero as ValidationError).message).toContain('amount');
  });

  it('concurrent authorizations never overdraw the funding source: the check and the debit are one step', async () => {
    const { card, usd } = await activeCard(undefined, 10_000);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => cb.sandbox.simulateCardAuthorization(card.id, { amount: 3_000, currency: { code: 'USD' }, merchant: COFFEE })),
    );
    expect(new Set(answers.map((a) => a.issuerTransactionToken)).size).toBe(8);
    const txs = await cardTransactions();
    expect(txs.size).toBe(3);
    expect(balance(usd.id)).toBe(1_000);
  });

  it('clearing: part of it (PARTIALLY_SETTLED), the rest with a tip pulled after the fact (SETTLED), or 0 gives the hold back', async () => {
    const { card, usd } = await activeCard(undefined, 10_000);
    const a = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 2_000, currency: { code: 'USD' }, merchant: COFFEE });
    const b = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 1_000, currency: { code: 'USD' }, merchant: COFFEE });
    let txs = await cardTransactions();
    const ta = txs.get(a.issuerTransactionToken)!;
    const tb = txs.get(b.issuerTransactionToken)!;
    expect(balance(usd.id)).toBe(7_000);

    expect((await cb.sandbox.simulateCardClearing(card.id, { cardTransactionId: ta.id, amount: 500 })).issuerTransactionToken).toBe(a.issuerTransactionToken);
    txs = await cardTransactions();
    expect(txs.get(a.issuerTransactionToken)).toMatchObject({
      status: 'PARTIALLY_SETTLED',
      settledAmount: { amount: 500 },
      settlementSummary: { count: 1, totalAmount: 500 },
    });
    // 1,500 still held; a clearing of 1,800 settles it with a 300 tip pulled after the fact.
    await cb.sandbox.simulateCardClearing(card.id, { cardTransactionId: ta.id, amount: 1_800 });
    txs = await cardTransactions();
    expect(txs.get(a.issuerTransactionToken)).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 2_300 },
      pullSummary: { count: 2, totalAmount: 2_300 },
    });
    expect(balance(usd.id)).toBe(6_700);
    // An authorization expiry: 0 gives the whole hold back.
    await cb.sandbox.simulateCardClearing(card.id, { cardTransactionId: tb.id, amount: 0 });
    expect(balance(usd.id)).toBe(7_700);
    expect((await cardTransactions()).get(b.issuerTransactionToken)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 0 } });

    const settledAgain = await cb.sandbox.simulateCardClearing(card.id, { cardTransactionId: ta.id, amount: 1 }).catch((e: unknown) => e);
    expect(settledAgain).toBeInstanceOf(ConflictError);
    expect(settledAgain).toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
    const elsewhere = await cb.sandbox.simulateCardClearing(card.id, { cardTransactionId: 'CardTransaction:nope', amount: 1 }).catch((e: unknown) => e);
    expect(elsewhere).toMatchObject({ code: 'CARD_TRANSACTION_NOT_FOUND' });
  });

  it('a tip the funding source cannot cover makes the transaction EXCEPTION (CARD_TRANSACTION.EXCEPTION)', async () => {
    const { card, usd } = await activeCard(undefined, 1_000);
    const a = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 900, currency: { code: 'USD' }, merchant: COFFEE });
    const tx = (await cardTransactions()).get(a.issuerTransactionToken)!;
    await cb.sandbox.simulateCardClearing(card.id, { cardTransactionId: tx.id, amount: 1_200 });
    expect((await cardTransactions()).get(a.issuerTransactionToken)).toMatchObject({
      status: 'EXCEPTION',
      settledAmount: { amount: 1_200 },
      pullSummary: { count: 1 },
    });
    expect(balance(usd.id)).toBe(100);
    expect((await events()).map((e) => e.type).filter((t) => t.startsWith('CARD_TRANSACTION'))).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.EXCEPTION',
    ]);
  });

  it('returns give back at most what settled (REFUNDED when all of it), and a return reversal pulls it again', async () => {
    const { card, usd } = await activeCard(undefined, 10_000);
    const a = await cb.sandbox.simulateCardFinancialAuthorization(card.id, {
      amount: 1_500,
      currency: { code: 'USD' },
      merchant: { descriptor: 'ATM WITHDRAWAL 24TH ST', mcc: '6011' },
    });
    const tx = (await cardTransactions()).get(a.issuerTransactionToken)!;
    expect(tx).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_500 } });
    expect(balance(usd.id)).toBe(8_500);
    await cb.sandbox.simulateCardReturn(card.id, { cardTransactionId: tx.id, amount: 500 });
    expect((await cardTransactions()).get(a.issuerTransactionToken)).toMatchObject({
      status: 'SETTLED',
      refundedAmount: { amount: 500 },
      refundSummary: { count: 1, totalAmount: 500 },
    });
    const tooMuch = await cb.sandbox.simulateCardReturn(card.id, { cardTransactionId: tx.id, amount: 1_001 }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(BadRequestError);
    expect(tooMuch).toMatchObject({ code: 'INVALID_AMOUNT', details: { field: 'amount', max: 1_000 } });
    const early = await cb.sandbox.simulateCardReturnReversal(card.id, { cardTransactionId: tx.id }).catch((e: unknown) => e);
    expect(early).toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
    await cb.sandbox.simulateCardReturn(card.id, { cardTransactionId: tx.id, amount: 1_000 });
    expect(balance(usd.id)).toBe(10_000);
    expect((await cardTransactions()).get(a.issuerTransactionToken)).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: 1_500 } });
    await cb.sandbox.simulateCardReturnReversal(card.id, { cardTransactionId: tx.id });
    expect(balance(usd.id)).toBe(8_500);
    expect((await cardTransactions()).get(a.issuerTransactionToken)).toMatchObject({
      status: 'SETTLED',
      refundedAmount: { amount: 0 },
      pullSummary: { count: 2, totalAmount: 3_000 },
    });
    const types = (await events()).map((e) => e.type).filter((t) => t.startsWith('CARD_TRANSACTION'));
    expect(types).toEqual(['CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.REFUNDED', 'CARD_TRANSACTION.SETTLED']);
  });

  it('an advice re-sizes an open authorization both ways; credits and balance inquiries', async () => {
    const { card, usd } = await activeCard(undefined, 10_000);
    const a = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 1_000, currency: { code: 'USD' }, merchant: COFFEE });
    const tx = (await cardTransactions()).get(a.issuerTransactionToken)!;
    await cb.sandbox.simulateCardAuthorizationAdvice(card.id, { cardTransactionId: tx.id, amount: 2_000 });
    expect(balance(usd.id)).toBe(8_000);
    expect((await cardTransactions()).get(a.issuerTransactionToken)).toMatchObject({
      status: 'AUTHORIZED',
      authorizedAmount: { amount: 2_000 },
      pullSummary: { count: 2, totalAmount: 2_000 },
    });
    await cb.sandbox.simulateCardAuthorizationAdvice(card.id, { cardTransactionId: tx.id, amount: 500 });
    expect(balance(usd.id)).toBe(9_500);

    const credit = await cb.sandbox.simulateCardCreditAuthorization(card.id, {
      amount: 2_500,
      currency: { code: 'USD' },
      merchant: { descriptor: 'ACME MARKETPLACE' },
    });
    const push = await cb.sandbox.simulateCardFinancialCreditAuthorization(card.id, {
      amount: 4_000,
      currency: { code: 'USD' },
      merchant: { descriptor: 'ACME PAYOUTS' },
    });
    const advice = await cb.sandbox.simulateCardCreditAuthorizationAdvice(card.id, {
      amount: 100,
      currency: { code: 'USD' },
      merchant: { descriptor: 'ACME' },
    });
    expect(balance(usd.id)).toBe(16_100);
    const txs = await cardTransactions();
    expect(txs.get(credit.issuerTransactionToken)).toMatchObject({ direction: 'CREDIT', status: 'AUTHORIZED' });
    expect(txs.get(push.issuerTransactionToken)).toMatchObject({ direction: 'CREDIT', status: 'SETTLED' });
    expect(txs.get(advice.issuerTransactionToken)).toMatchObject({ direction: 'CREDIT', status: 'AUTHORIZED' });

    const inquiry = await cb.sandbox.simulateCardBalanceInquiry(card.id, { merchant: { descriptor: 'SHELL OIL 12345678', mcc: '5541', country: 'US' } });
    expect(inquiry.issuerTransactionToken).toMatch(/^[0-9a-f-]{36}$/);
    expect((await cardTransactions()).size).toBe(4);
    expect(balance(usd.id)).toBe(16_100);
  });

  it("the descriptor's 005 keeps the pull pending 30 s of sandbox time; 006 makes the transaction EXCEPTION", async () => {
    const { card } = await activeCard(undefined, 10_000);
    const slow = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 100, currency: { code: 'USD' }, merchant: { descriptor: 'SLOW PULL-005' } });
    const failing = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 100, currency: { code: 'USD' }, merchant: { descriptor: 'FAILS-006' } });
    const txs = await cardTransactions();
    expect(txs.get(slow.issuerTransactionToken)).toMatchObject({ status: 'AUTHORIZED', pullSummary: { pendingCount: 1 } });
    expect(txs.get(failing.issuerTransactionToken)).toMatchObject({ status: 'EXCEPTION' });
    const id = txs.get(slow.issuerTransactionToken)!.id;
    const pending = () => world.sandbox.state.snapshot().cardTransactions.find((t) => t.id === id)!.pullSummary!.pendingCount;
    world.sandbox.clock.advance(29_000);
    expect(pending()).toBe(1);
    world.sandbox.clock.advance(1_000);
    expect(pending()).toBe(0);
  });

  it('a state export keeps cards and card transactions; after import a card still PROCESSING is provisioned', async () => {
    const { card, customer, usd } = await activeCard(undefined, 10_000);
    const a = await cb.sandbox.simulateCardAuthorization(card.id, { amount: 700, currency: { code: 'USD' }, merchant: COFFEE });
    const tx = (await cardTransactions()).get(a.issuerTransactionToken)!;
    const fresh = await cb.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [usd.id] });
    // A state saved while the issuer was still provisioning the new card.
    const saved = JSON.parse(JSON.stringify(world.sandbox.exportState()));
    const entry = (saved.world.cards as [string, { data: Card }][]).find(([id]) => id === fresh.id)!;
    entry[1].data.state = 'PROCESSING';
    world.sandbox.reset();
    await world.sandbox.webhooks.flush();
    world.hooks.length = 0;
    expect(await cb.cards.retrieve(card.id).catch((e: unknown) => (e as NotFoundError).code)).toBe('CARD_NOT_FOUND');
    world.sandbox.importState(saved);
    expect((await cb.cards.retrieve(card.id)).state).toBe('ACTIVE');
    expect((await cb.cards.retrieve(fresh.id)).state).toBe('ACTIVE');
    const provisioned = (await events()).filter((e) => e.type === 'CARD.STATE_CHANGE').map((e) => e.data.id);
    expect(provisioned).toEqual([fresh.id]);
    await cb.sandbox.simulateCardClearing(card.id, { cardTransactionId: tx.id, amount: 700 });
    expect(world.sandbox.state.snapshot().cardTransactions.find((t) => t.id === tx.id)!.status).toBe('SETTLED');
    expect(balance(usd.id)).toBe(9_300);
  });

  it('reveal: a fresh URL each time, and it reaches no span, error, request log entry, snapshot or state export', async () => {
    const { card } = await activeCard();
    world.logged.length = 0;
    const first = await cb.cards.reveal(card.id);
    const second = await cb.cards.reveal(card.id);
    expect(first.panEmbedUrl).toMatch(/^https:\/\/embed\.sandbox\.crossborder\.invalid\/iframe\/.+\?t=[0-9a-f]{48}$/);
    expect(second.panEmbedUrl).not.toBe(first.panEmbedUrl);
    expect(Date.parse(first.expiresAt)).toBeGreaterThan(Date.now() - 60_000);
    const errors = [await cb.cards.reveal('Card:nope').catch((e: unknown) => e)];
    expect(errors[0]).toBeInstanceOf(NotFoundError);
    const tokens = [first, second].map((r) => new URL(r.panEmbedUrl).searchParams.get('t')!);
    const printed = [
      ...telemetry.spans().map((s) => JSON.stringify({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
      ...errors.map((e) => `${String(e)} ${(e as Error).stack} ${JSON.stringify(e)}`),
      JSON.stringify(world.logged),
      JSON.stringify(world.sandbox.exportState()),
      JSON.stringify(world.sandbox.state.snapshot()),
      (await world.sandbox.webhooks.flush(), world.hooks.map((h) => h.body).join('\n')),
    ].join('\n');
    expect(printed).toContain(card.id);
    expect(world.logged.some((e) => e.path.endsWith('/reveal'))).toBe(true);
    for (const token of tokens) {
      expect(printed.includes(token)).toBe(false);
      expect(printed.includes(token.slice(0, 24))).toBe(false);
    }
  });
  // The SDK's debug log masks body fields by name (src/core/logger.ts, MASKED_FIELDS): `panEmbedUrl` and the
  // create's `threeDSecurePassword` are among them.
  it("the SDK's debug log does not print the reveal URL, nor an issue's 3-D Secure password", async () => {
    const { card } = await activeCard();
    const lines: string[] = [];
    const line = (m: string, d?: unknown) => lines.push(`${m} ${JSON.stringify(d ?? {})}`);
    const logged = new Crossborder({
      tokenId: 'tok_cards',
      clientSecret: 'sk_cards',
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      logLevel: 'debug',
      logger: { debug: line, info: line, warn: line, error: line },
    });
    const { panEmbedUrl } = await logged.cards.reveal(card.id);
    expect(lines.some((l) => l.includes('/reveal'))).toBe(true);
    expect(lines.join('\n').includes(new URL(panEmbedUrl).searchParams.get('t')!)).toBe(false);
    expect(maskBody({ threeDSecurePassword: 'hunter2-3ds', nickname: 'x', state: 'ACTIVE' })).toEqual({
      threeDSecurePassword: MASK,
      nickname: MASK,
      state: 'ACTIVE',
    });
  });
});
