/**
 * Production's limit refusals on demand (issue 27, item 6): a quote whose `lockedCurrencyAmount` is
 * exactly `MAGIC.transactionSizeLimitAmount` answers 400 TRANSACTION_SIZE_LIMIT_EXCEEDED, and exactly
 * `MAGIC.dailyVolumeLimitAmount` answers 429 DAILY_VOLUME_LIMIT_EXCEEDED, which the SDK does not retry.
 * Through the SDK client against the in-process sandbox and the sandbox over HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, Crossborder, RateLimitError } from '../../src/index';
import { createSandbox, MAGIC, type Sandbox } from '../../src/sandbox/index';
import { limitRefusal } from '../../src/sandbox/domain/magic';
import { rejected } from '../helpers/client';

/** Counts the requests that reach the sandbox, by method and path. */
function counting(inner: typeof fetch) {
  const seen: string[] = [];
  const wrapped = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname.replace(/^\/[^/]+/, '')}`);
    return inner(input, init);
  }) as typeof fetch;
  return { seen, fetch: wrapped };
}

const transports: [string, (sandbox: Sandbox, f: ReturnType<typeof counting>) => Promise<Crossborder>, (sandbox: Sandbox) => typeof fetch][] = [
  [
    'in-process',
    async (_s, f) =>
      new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl: 'http://sandbox.test', fetch: f.fetch, maxRetries: 3 }),
    (s) => s.fetch,
  ],
  [
    'HTTP',
    async (sandbox, f) => {
      const server = await sandbox.listen();
      return new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl: server.url, fetch: f.fetch, maxRetries: 3 });
    },
    () => fetch,
  ],
];

describe.each(transports)('limit refusals, %s sandbox', (_name, connect, inner) => {
  let sandbox: Sandbox;
  let cb: Crossborder;
  let counter: ReturnType<typeof counting>;
  let quote: (amount: number) => ReturnType<Crossborder['quotes']['create']>;
  beforeAll(async () => {
    sandbox = createSandbox();
    counter = counting(inner(sandbox));
    cb = await connect(sandbox, counter);
    const customer = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region: 'US',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
    });
    const {
      data: [account],
    } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
    await cb.sandbox.fundInternalAccount(account!.id, { amount: 100_000_000 });
    const payee = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    quote = (amount) =>
      cb.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: account!.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
      });
  });
  afterAll(() => sandbox.close());

  it('the magic amounts are 141,414.14 and 151,515.15 in a two-decimal currency', () => {
    expect([MAGIC.transactionSizeLimitAmount, MAGIC.dailyVolumeLimitAmount]).toEqual([14_141_414, 15_151_515]);
  });

  it('a quote of exactly MAGIC.transactionSizeLimitAmount: 400 TRANSACTION_SIZE_LIMIT_EXCEEDED naming the amount', async () => {
    const err = await rejected(quote(MAGIC.transactionSizeLimitAmount));
    expect(err).toBeInstanceOf(BadRequestError);
    expect([err.status, err.code]).toEqual([400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED']);
    expect(err.details).toMatchObject({ field: 'lockedCurrencyAmount', amount: MAGIC.transactionSizeLimitAmount, currency: 'USD' });
  });

  it('a quote of exactly MAGIC.dailyVolumeLimitAmount: 429 DAILY_VOLUME_LIMIT_EXCEEDED, sent once and not retried', async () => {
    const before = counter.seen.length;
    const err = await rejected(quote(MAGIC.dailyVolumeLimitAmount));
    expect(err).toBeInstanceOf(RateLimitError);
    expect([err.status, err.code, err.dailyVolumeLimitExceeded]).toEqual([429, 'DAILY_VOLUME_LIMIT_EXCEEDED', true]);
    expect(err.message).toContain('not retried');
    expect(counter.seen.slice(before)).toEqual(['POST /quotes']);
  });

  it('amounts beside them quote normally', async () => {
    for (const amount of [MAGIC.transactionSizeLimitAmount - 1, MAGIC.transactionSizeLimitAmount + 1, MAGIC.dailyVolumeLimitAmount + 1, 10_000]) {
      expect((await quote(amount)).status).toBe('PENDING');
    }
  });
});

it('no ordinary amount is refused by accident: only the two whole values', () => {
  const refused: number[] = [];
  for (let i = 1; i <= 10_000; i++) if (limitRefusal(i, 'USD')) refused.push(i);
  for (let i = 0; i < 10_000; i++) for (const a of [1_000_000 + i * 1_414, 1_000_000 + i * 1_515]) if (limitRefusal(a, 'USD')) refused.push(a);
  for (const a of [141_414, 1_414_141_414, 151_515, 1_515_151_515, MAGIC.transactionSizeLimitAmount * 10]) if (limitRefusal(a, 'USD')) refused.push(a);
  expect(refused).toEqual([]);
  expect(limitRefusal(MAGIC.transactionSizeLimitAmount, 'EUR')?.code).toBe('TRANSACTION_SIZE_LIMIT_EXCEEDED');
  expect(limitRefusal(MAGIC.dailyVolumeLimitAmount, 'EUR')?.status).toBe(429);
});

it("docs/testing.md's failure table names both amounts and their answers", async () => {
  const { readFileSync } = await import('node:fs');
  const guide = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');
  expect(guide).toContain(
    `| quote \`lockedCurrencyAmount\` exactly \`${MAGIC.transactionSizeLimitAmount}\` (141,414.14 USD) | 400 \`TRANSACTION_SIZE_LIMIT_EXCEEDED\``,
  );
  expect(guide).toContain(
    `| quote \`lockedCurrencyAmount\` exactly \`${MAGIC.dailyVolumeLimitAmount}\` (151,515.15 USD) | 429 \`DAILY_VOLUME_LIMIT_EXCEEDED\``,
  );
});
