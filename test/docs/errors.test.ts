import { APIConnectionError, APIError, ConflictError, Crossborder, NotFoundError, RateLimitError, ValidationError } from 'crossborder-sdk';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../examples/guides/errors/form';
import { nextStep } from '../../examples/guides/errors/narrowing';
import { createQuoteLogged } from '../../examples/guides/errors/request-ids';
import { read } from './markdown';
import { fundedCustomer, losingFetch, sandboxClient } from './support';

const failure = (p: PromiseLike<unknown>) =>
  Promise.resolve(p).then(
    () => expect.unreachable('expected a failure'),
    (err: unknown) => err,
  );

describe('docs/errors.md', () => {
  it('narrows real failures from the sandbox, most specific first', async () => {
    const { sandbox, cb } = sandboxClient({}, { maxRetries: 0 });
    const { account, payee } = await fundedCustomer(cb);

    const invalid = await failure(
      cb.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: account.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 12.5,
      }),
    ); // amounts are whole minor units
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(nextStep(invalid)).toMatch(/^fix the call: lockedCurrencyAmount /);

    const missing = await failure(cb.customers.retrieve('Customer:does-not-exist'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(nextStep(missing)).toBe('CUSTOMER_NOT_FOUND: check the id');

    const quote = await cb.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: account.id },
      destination: { destinationType: 'ACCOUNT', accountId: payee.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    sandbox.clock.advance(6 * 60_000);
    const expired = await failure(cb.quotes.execute(quote.id));
    expect(expired).toBeInstanceOf(ConflictError);
    expect(nextStep(expired)).toBe('quote expired: create a new one');

    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const {
      data: [wallet],
    } = await cb.internalAccounts.list({ customerId: customer.id });
    const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: wallet!.id.replace('InternalAccount:', 'EmbeddedWallet:') });
    await cb.auth.credentials.challenge(otp.id);
    const limited = await failure(cb.auth.credentials.challenge(otp.id)); // a second code within 30 s
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(nextStep(limited)).toBe('slow down: retry in 30000 ms');

    const refused = await failure(cb.transactions.approve(quote.transactionId));
    expect(refused).toBeInstanceOf(APIError);
    const api = refused as APIError;
    expect(nextStep(refused)).toBe(`${api.status} ${api.code}: report request ${api.requestId}`);
    expect(api.requestId).toMatch(/\S/);

    const lost = new Crossborder({ tokenId: 't', clientSecret: 't', environment: 'sandbox', maxRetries: 0, fetch: losingFetch(sandbox.fetch, () => true) });
    const unknown = await failure(
      lost.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: account.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      }),
    );
    expect(unknown).toBeInstanceOf(APIConnectionError);
    expect(nextStep(unknown)).toBe(`unknown outcome: retry with key ${(unknown as APIConnectionError).idempotencyKey}`);

    const bug = new TypeError('not from the SDK');
    expect(() => nextStep(bug)).toThrow(bug);
    await sandbox.close();
  });

  it('validation: one message per field, and nothing sent', async () => {
    const { sandbox, cb } = sandboxClient();
    const before = sandbox.state.snapshot();
    const result = await signUp(cb, { fullName: 'Ada Lovelace', birthDate: '10/12/1990', nationality: 'British' });
    expect(result).toEqual({ problems: { birthDate: 'must be a valid date', nationality: 'must match /^[A-Z]{2}$/' } });
    expect(read('docs/errors.md')).toContain("`{ birthDate: 'must be a valid date', nationality: 'must match /^[A-Z]{2}$/' }`");
    expect(sandbox.state.snapshot()).toEqual(before);
    expect(await signUp(cb, { fullName: 'Ada Lovelace', birthDate: '1990-12-10', nationality: 'GB' })).toHaveProperty('customer.fullName', 'Ada Lovelace');
    await sandbox.close();
  });

  it('request ids: logged from withResponse()', async () => {
    const { sandbox, cb } = sandboxClient();
    const { account, payee } = await fundedCustomer(cb);
    const lines: string[] = [];
    const quote = await createQuoteLogged(
      cb,
      {
        source: { sourceType: 'ACCOUNT', accountId: account.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      },
      (l) => lines.push(l),
    );
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^quote ${quote.id} request \\S+ idempotency-key [0-9a-f-]{36}$`))]);
    await sandbox.close();
  });

  it('lists every error class the main entry exports in its hierarchy', async () => {
    const sdk = await import('crossborder-sdk');
    const doc = read('docs/errors.md');
    const classes = Object.entries(sdk)
      .filter(([, v]) => typeof v === 'function' && (v as { prototype?: unknown }).prototype instanceof Error)
      .map(([k]) => k);
    expect(classes.length).toBeGreaterThan(15);
    for (const name of classes) expect(doc, name).toMatch(new RegExp(`[─ ]${name}\\b`));
  });
});
