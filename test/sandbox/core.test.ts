/** Units of the sandbox: route coverage, determinism, the clock, and the pricing invariants. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_VERSION as SDK_API_VERSION } from '../../src/core/client';
import { operations } from '../../src/generated/operations';
import { API_VERSION, createClock } from '../../src/sandbox/index';
import { CURRENCIES } from '../../src/sandbox/domain/currencies';
import { MAX_QUOTE_AMOUNT, price } from '../../src/sandbox/domain/pricing';
import { SandboxError } from '../../src/sandbox/domain/errors';
import { accountOf, createCustomer, setup } from './helpers';

describe('routing', () => {
  it('serves the SDK’s API version', () => {
    expect(API_VERSION).toBe(SDK_API_VERSION);
  });

  it('answers every operation of the document (no routing 404s)', async () => {
    const { sandbox, call } = setup();
    const samples: Record<string, string> = {
      customerId: 'Customer:x',
      accountId: 'InternalAccount:x',
      quoteId: 'Quote:x',
      transactionId: 'Transaction:x',
      id: 'AuthMethod:x',
      receiverUmaAddress: '$x@y.example',
    };
    for (const op of Object.values(operations)) {
      let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(samples[name]!));
      if (op.id === 'revokeSession') path = '/auth/sessions/Session:x';
      if (op.id === 'lookupExternalAccountReceiver') path = '/receiver/external-account/ExternalAccount:x';
      const res = await call(op.method, path, op.bodyRequired ? {} : undefined);
      expect({ op: op.id, routed: !(res.status === 404 && res.body.code === 'NOT_FOUND' && /No operation/.test(res.body.message)) }).toEqual({
        op: op.id,
        routed: true,
      });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    await sandbox.close();
  });
});

describe('determinism', () => {
  it('the same seed gives the same ids, references and numbers', async () => {
    const run = async (seed: number) => {
      const { sandbox, call } = setup({ seed, clock: createClock('2025-10-13T09:00:00Z', { frozen: true }) });
      const c = await createCustomer(call, { currencies: ['USD', 'EUR'] });
      const snapshot = sandbox.state.snapshot();
      await sandbox.close();
      return { c, snapshot };
    };
    const [a, b, other] = [await run(7), await run(7), await run(8)];
    expect(b.snapshot).toEqual(a.snapshot);
    expect(other.c.id).not.toBe(a.c.id);
  });

  it('reset() forgets the state but never hands out an id again', async () => {
    const { sandbox, call } = setup();
    const first = await createCustomer(call);
    sandbox.reset();
    expect(sandbox.state.snapshot().customers).toEqual([]);
    const again = await createCustomer(call);
    expect(again.id).not.toBe(first.id);
    // The sequence goes on: the first group of the id counts up across the reset.
    const sequence = (id: string) => parseInt(id.slice(id.indexOf(':') + 1, id.indexOf(':') + 9), 16);
    expect(sequence(again.id)).toBeGreaterThan(sequence(first.id));
    sandbox.reset();
    const ids = new Set([first.id, again.id, (await createCustomer(call)).id]);
    expect(ids.size).toBe(3);
    // The default clock follows real time: reset() undoes the advances.
    sandbox.clock.advance(86_400_000);
    sandbox.reset();
    expect(Math.abs(sandbox.clock.now() - Date.now())).toBeLessThan(1_000);
    await sandbox.close();
  });
});

describe('clock', () => {
  it('follows real time with an offset by default', () => {
    const clock = createClock();
    const before = Date.now();
    clock.advance(60_000);
    expect(clock.now() - before).toBeGreaterThanOrEqual(60_000);
    clock.set('2030-01-01T00:00:00Z');
    expect(Math.abs(clock.now() - Date.parse('2030-01-01T00:00:00Z'))).toBeLessThan(1_000);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.set('not a date')).toThrow(RangeError);
  });

  it('a frozen clock moves only when told', async () => {
    const clock = createClock('2025-10-13T09:00:00Z', { frozen: true });
    const t = clock.now();
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.now()).toBe(t);
    clock.advance(5);
    expect(clock.now()).toBe(t + 5);
  });

  it('sandbox.clock.advance runs due work at once', async () => {
    const { sandbox, call } = setup({ clock: createClock('2025-10-13T09:00:00Z', { frozen: true }) });
    await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const [usd, eur] = sandbox.state.snapshot().internalAccounts;
    expect([usd!.balance.currency.code, eur!.balance.currency.code]).toEqual(['USD', 'EUR']);
    await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd!.id },
      destination: { destinationType: 'ACCOUNT', accountId: eur!.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    sandbox.clock.advance(5 * 60_000);
    // No request since: the state view already shows the expiry.
    expect(sandbox.state.snapshot().quotes[0]!.status).toBe('EXPIRED');
    await sandbox.close();
  });
});

describe('ordering', () => {
  it('lists by createdAt even when the clock was set backwards between creations', async () => {
    const { sandbox, call } = setup({ clock: createClock('2025-10-13T09:00:00Z', { frozen: true }) });
    const late = await createCustomer(call, { fullName: 'Created First' });
    sandbox.clock.set('2025-10-13T08:00:00Z');
    const early = await createCustomer(call, { fullName: 'Created Second' });
    const ids = async (q: string) => (await call('GET', `/customers?${q}`)).body.data.map((c: { id: string }) => c.id);
    expect(await ids('')).toEqual([late.id, early.id]); // newest createdAt first
    const page = (await call('GET', '/customers?limit=1')).body;
    expect((await call('GET', `/customers?limit=1&cursor=${page.nextCursor}`)).body.data[0].id).toBe(early.id);
    await sandbox.close();
  });
});

/** The price, or undefined when the amount is refused as AMOUNT_OUT_OF_RANGE; any other error fails the property. */
function priceInRange(...args: Parameters<typeof price>): ReturnType<typeof price> | undefined {
  try {
    return price(...args);
  } catch (e) {
    if (e instanceof SandboxError && e.code === 'AMOUNT_OUT_OF_RANGE') return undefined;
    throw e;
  }
}

describe('pricing invariants (integers only)', () => {
  const codes = [...CURRENCIES.keys()];
  const currency = fc.constantFrom(...codes);

  it('locked SENDING: sending is the amount, receiving = floor((sending − fees) × rate)', () => {
    fc.assert(
      fc.property(currency, currency, fc.integer({ min: 1, max: 1_000_000_000_000 }), (from, to, amount) => {
        const a = CURRENCIES.get(from)!;
        const b = CURRENCIES.get(to)!;
        const p = priceInRange(a, b, 'SENDING', amount);
        if (p === undefined) return true; // refused as AMOUNT_OUT_OF_RANGE
        const num = a.usdValue * 10n ** BigInt(b.decimals);
        const den = b.usdValue * 10n ** BigInt(a.decimals);
        return (
          p.totalSendingAmount === amount &&
          Number.isSafeInteger(p.totalReceivingAmount) &&
          Number.isSafeInteger(p.feesIncluded) &&
          BigInt(p.totalReceivingAmount) === (BigInt(amount - p.feesIncluded) * num) / den &&
          p.feesIncluded === p.rateDetails.serviceApiFixedFee + p.rateDetails.serviceApiVariableFeeAmount
        );
      }),
      { numRuns: 500 },
    );
  });

  it('locked RECEIVING: receiving is the amount and sending is the smallest total that reaches it', () => {
    fc.assert(
      fc.property(currency, currency, fc.integer({ min: 1, max: 1_000_000_000_000 }), (from, to, amount) => {
        const a = CURRENCIES.get(from)!;
        const b = CURRENCIES.get(to)!;
        const p = priceInRange(a, b, 'RECEIVING', amount);
        if (p === undefined) return true; // refused as AMOUNT_OUT_OF_RANGE
        const reached = (s: number) => {
          try {
            return price(a, b, 'SENDING', s).totalReceivingAmount >= amount;
          } catch {
            return false;
          }
        };
        return (
          p.totalReceivingAmount === amount && p.totalSendingAmount <= MAX_QUOTE_AMOUNT && reached(p.totalSendingAmount) && !reached(p.totalSendingAmount - 1)
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe("the document's required Idempotency-Key", () => {
  it('is refused missing by the serving pipeline for every operation whose row says required, before its parameters are checked; an optional one may be left out', async () => {
    const required = Object.values(operations).filter((op) => op.idempotencyKeyRequired);
    // The four stablecoin creates mark it required (IdempotencyKeyRequired); every other idempotent operation, optional.
    expect(required.map((op) => op.id).sort()).toEqual(['createStablecoinBurn', 'createStablecoinMint', 'linkStablecoinProviderAccount', 'registerStablecoin']);
    const { sandbox, call } = setup();
    for (const op of required) {
      const path = op.path.replace(/\{(\w+)\}/g, 'Stablecoin:nope');
      // An empty body: without a key the key is what is refused (the pipeline checks it before the body's schema);
      // with one, the same request gets past it and the body is refused instead.
      const without = await call(op.method, path, {});
      expect({ op: op.id, status: without.status, code: without.body.code, field: without.body.details?.field, message: without.body.message }).toEqual({
        op: op.id,
        status: 400,
        code: 'INVALID_INPUT',
        field: 'Idempotency-Key',
        message: `${op.method} ${op.path} requires an Idempotency-Key header.`,
      });
      const withKey = await call(op.method, path, {}, { 'idempotency-key': `key-${op.id}` });
      expect({ op: op.id, status: withKey.status, refused: withKey.body.details?.field }).toEqual({
        op: op.id,
        status: 400,
        refused: expect.not.stringMatching(/Idempotency-Key/),
      });
    }
    // createQuote's key is optional (IdempotencyKey): without one, the quote is made.
    expect([operations.createQuote.idempotent, operations.createQuote.idempotencyKeyRequired]).toEqual([true, false]);
    const customer = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const [usd, eur] = [await accountOf(call, customer.id, 'USD'), await accountOf(call, customer.id, 'EUR')];
    const quote = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'ACCOUNT', accountId: eur.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect([quote.status, quote.body.id]).toEqual([200, expect.stringMatching(/^Quote:/)]);
    await sandbox.close();
  });
});
