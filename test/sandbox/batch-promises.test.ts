/**
 * The promises payout batches rely on (issue 47 §6): an Idempotency-Key and its answer outlive a
 * restart with the state file, for the key's window (24 h of the sandbox clock); a balance check and
 * its debit, and a daily-volume check and its execution, are one step, so concurrent requests never
 * spend a balance twice nor pass the daily limit, in-process and over HTTP on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/index';
import { generateClientKeyPair, WalletSession } from '../../src/wallet/index';
import { MAGIC, createClock, createSandbox, describeFaults, persistStateTo, type Sandbox } from '../../src/sandbox/index';
import { AUTH, accountOf, caller, createCustomer, expectError, fund, usdBank, type Call } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'cb-sandbox-promises-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY_MS = 24 * 60 * 60_000;

const quoteBody = (source: string, destination: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

/** The sandbox over HTTP on 127.0.0.1, and a raw caller to it and to its controls. */
async function overHttp(sandbox: Sandbox): Promise<{ call: Call; control: (path: string, body: unknown) => Promise<Response> }> {
  const server = await sandbox.listen(0, '127.0.0.1');
  expect(new URL(server.url).hostname).toBe('127.0.0.1');
  return {
    call: caller((input, init) => fetch(input, init), server.url),
    control: (path, body) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  };
}

/** The sandbox as the CLI's `--state FILE` restarts it: a new one, the file imported, then listening. */
async function restart(file: string): Promise<{ sandbox: Sandbox } & Awaited<ReturnType<typeof overHttp>>> {
  const sandbox = createSandbox();
  sandbox.importState(readFileSync(file, 'utf8'));
  return { sandbox, ...(await overHttp(sandbox)) };
}

const outgoing = async (call: Call) => ((await call('GET', '/transactions?type=OUTGOING&limit=100')).body.data as { id: string }[]).map((t) => t.id);

describe('Idempotency-Keys persist with the state file, for their window', () => {
  const open: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('a replay after a restart gets the same answer and pays once; another body is refused; past the window the key acts again', async () => {
    const file = join(dir, 'keys.json');
    const first = createSandbox();
    open.push(first);
    const persister = await persistStateTo(first, file, { delayMs: 0 });
    const before = await overHttp(first);
    const customer = await createCustomer(before.call, { currencies: ['USD', 'EUR'] });
    const usd = await accountOf(before.call, customer.id, 'USD');
    const eur = await accountOf(before.call, customer.id, 'EUR');
    await fund(before.call, usd.id, 20_000);
    const body = quoteBody(usd.id, eur.id, 5_000, { immediatelyExecute: true, description: 'payout row 1' });
    const paid = await before.call('POST', '/quotes', body, { 'idempotency-key': 'batch-7/row-1' });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('PROCESSING');
    persister.close(); // what the CLI does on its way out
    await first.close();

    const again = await restart(file);
    open.push(again.sandbox);
    const replay = await again.call('POST', '/quotes', body, { 'idempotency-key': 'batch-7/row-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(paid.text);
    expect(await outgoing(again.call)).toEqual([paid.body.transactionId]); // no second transaction
    expect(again.sandbox.state.balance(usd.id)).toBe(15_000); // debited once
    expectError(
      await again.call('POST', '/quotes', { ...body, lockedCurrencyAmount: 5_001 }, { 'idempotency-key': 'batch-7/row-1' }),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );

    // 24 h later (by the sandbox clock, moved through its control) the key is forgotten: the same request acts again.
    expect((await again.control('/_sandbox/clock', { advanceMs: DAY_MS })).status).toBe(200);
    expect(again.sandbox.exportState().world.idempotency).toEqual([]); // an expired key is not written out
    const later = await again.call('POST', '/quotes', body, { 'idempotency-key': 'batch-7/row-1' });
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(paid.body.id);
    expect(again.sandbox.state.balance(usd.id)).toBe(10_000);
  });

  it('a key past its window when the state is loaded is not restored', async () => {
    const clock = createClock('2026-03-02T10:00:00Z', { frozen: true });
    const sandbox = createSandbox({ clock });
    open.push(sandbox);
    const call = caller((input, init) => sandbox.fetch(input, init));
    const customer = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const usd = await accountOf(call, customer.id, 'USD');
    const eur = await accountOf(call, customer.id, 'EUR');
    await fund(call, usd.id, 20_000);
    const body = quoteBody(usd.id, eur.id, 5_000, { immediatelyExecute: true });
    expect((await call('POST', '/quotes', body, { 'idempotency-key': 'old' })).status).toBe(200);
    clock.advance(DAY_MS - 1);
    expect((await call('POST', '/quotes', body, { 'idempotency-key': 'young' })).status).toBe(200);
    const saved = sandbox.exportState();
    expect((saved.world.idempotency as [string, unknown][]).map(([key]) => key)).toEqual(['old', 'young']);

    // Loaded 1 ms later: `old` is exactly 24 h old, past its window; `young` is not.
    const loaded = createSandbox({ clock: createClock(Date.parse('2026-03-02T10:00:00Z') + DAY_MS, { frozen: true }) });
    open.push(loaded);
    loaded.importState(JSON.stringify(saved));
    expect((loaded.exportState().world.idempotency as [string, unknown][]).map(([key]) => key)).toEqual(['young']);
    const loadedCall = caller((input, init) => loaded.fetch(input, init));
    expect((await loadedCall('POST', '/quotes', body, { 'idempotency-key': 'young' })).headers.get('idempotent-replayed')).toBe('true');
    const acted = await loadedCall('POST', '/quotes', body, { 'idempotency-key': 'old' });
    expect(acted.headers.get('idempotent-replayed')).toBeNull();
    expect(loaded.state.balance(usd.id)).toBe(5_000);
  });

  it('a malformed remembered answer in a state file is refused, naming the table and key', () => {
    const sandbox = createSandbox();
    open.push(sandbox);
    const doc = sandbox.exportState();
    doc.world.idempotency = [['k1', { fingerprint: 'POST /quotes\n{}', storedMs: Date.now(), response: { status: '200', headers: {}, body: '{}' } }]];
    expect(() => sandbox.importState(doc)).toThrow('world.idempotency["k1"] has a missing or malformed response');
  });
});

const transports: [string, (sandbox: Sandbox) => Promise<Call>, (sandbox: Sandbox) => Promise<Crossborder>][] = [
  [
    'in-process',
    async (sandbox) => caller((input, init) => sandbox.fetch(input, init)),
    async (sandbox) => new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', fetch: sandbox.fetch, maxRetries: 0 }),
  ],
  [
    'HTTP',
    async (sandbox) => (await overHttp(sandbox)).call,
    async (sandbox) =>
      new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', baseUrl: (await sandbox.listen(0, '127.0.0.1')).url, maxRetries: 0 }),
  ],
];

describe.each(transports)('a check and its debit are one step, %s', (_name, connect, sdk) => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  /** The lowest balance `accountId` ever had after a change, from now on. */
  function lowest(accountId: string): () => number {
    let min = Infinity;
    sandbox.onChange(() => (min = Math.min(min, sandbox.state.balance(accountId) ?? Infinity)));
    return () => min;
  }

  it('20 concurrent transfer-outs of the whole balance: exactly one succeeds, the rest are insufficient funds, the balance never negative', async () => {
    sandbox = createSandbox();
    const call = await connect(sandbox);
    const customer = await createCustomer(call);
    const usd = await accountOf(call, customer.id, 'USD');
    const bank = await usdBank(call, customer.id);
    await fund(call, usd.id, 10_000);
    const min = lowest(usd.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/transfer-out', { source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 10_000 })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(19);
    for (const answer of refused) expectError(answer, 400, 'INVALID_AMOUNT');
    expect(refused[0]!.body.details).toMatchObject({ field: 'amount', available: 0, required: 10_000 });
    expect(sandbox.state.balance(usd.id)).toBe(0);
    expect(min()).toBe(0);
    expect(await outgoing(call)).toHaveLength(1);
  });

  it('20 concurrent transfer-outs signed by an embedded wallet (the signature checked asynchronously): one succeeds, the balance never negative', async () => {
    sandbox = createSandbox();
    const cb = await sdk(sandbox);
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Mary Jackson' });
    const wallet = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!;
    await cb.sandbox.fundInternalAccount(wallet.id, { amount: 10_000 });
    const bank = await usdBank(
      caller((input, init) => sandbox.fetch(input, init)),
      customer.id,
    );
    const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: wallet.id });
    const keys = await generateClientKeyPair();
    const session = await WalletSession.fromVerify(
      await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: MAGIC.otp, clientPublicKey: keys.publicKey }),
      keys,
      otp.id,
    );
    const min = lowest(wallet.id);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        cb.transferOut
          .create(
            { source: { accountId: wallet.id }, destination: { accountId: bank.id }, amount: 10_000 },
            { signer: session.signer, idempotencyKey: `out-${i}` },
          )
          .then(
            (tx) => ({ ok: true as const, status: tx.status }),
            (error: unknown) => ({ ok: false as const, error: error as { status?: number; code?: string } }),
          ),
      ),
    );
    expect(outcomes.filter((o) => o.ok).map((o) => o.ok && o.status)).toEqual(['PROCESSING']);
    for (const o of outcomes) if (!o.ok) expect(o.error).toMatchObject({ status: 400, code: 'INVALID_AMOUNT' });
    expect(sandbox.state.balance(wallet.id)).toBe(0);
    expect(min()).toBe(0);
  });

  it('concurrent quote executions signed by an embedded wallet (createAndExecute) never pass the daily volume limit', async () => {
    sandbox = createSandbox({ faults: { dailyVolumeLimit: { USD: 1_000 } } });
    const cb = await sdk(sandbox);
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Mary Jackson', currencies: ['USD', 'EUR'] });
    const accounts = (await cb.internalAccounts.list({ customerId: customer.id })).data;
    const wallet = accounts.find((a) => a.balance.currency.code === 'USD')!;
    const eur = accounts.find((a) => a.balance.currency.code === 'EUR')!;
    await cb.sandbox.fundInternalAccount(wallet.id, { amount: 100_000 });
    const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: wallet.id });
    const keys = await generateClientKeyPair();
    const session = await WalletSession.fromVerify(
      await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: MAGIC.otp, clientPublicKey: keys.publicKey }),
      keys,
      otp.id,
    );
    const params = {
      source: { sourceType: 'ACCOUNT' as const, accountId: wallet.id },
      destination: { destinationType: 'ACCOUNT' as const, accountId: eur.id },
      lockedCurrencySide: 'SENDING' as const,
      lockedCurrencyAmount: 500,
    };
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        cb.quotes.createAndExecute(params, { signer: session.signer, idempotencyKey: `q-${i}` }).then(
          (quote) => ({ ok: true as const, status: quote.status }),
          (error: unknown) => ({ ok: false as const, error: error as { status?: number; code?: string } }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.ok).map((o) => o.ok && o.status)).toEqual(['PROCESSING', 'PROCESSING']);
    for (const o of outcomes) if (!o.ok) expect(o.error).toMatchObject({ status: 429, code: 'DAILY_VOLUME_LIMIT_EXCEEDED' });
    expect(sandbox.ledger.executions.map((e) => e.amount)).toEqual([500, 500]);
    expect(sandbox.state.balance(wallet.id)).toBe(99_000);
  });

  it('20 concurrent quotes executing the whole balance: one executes, the balance never negative', async () => {
    sandbox = createSandbox();
    const call = await connect(sandbox);
    const customer = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const usd = await accountOf(call, customer.id, 'USD');
    const eur = await accountOf(call, customer.id, 'EUR');
    await fund(call, usd.id, 10_000);
    const min = lowest(usd.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/quotes', quoteBody(usd.id, eur.id, 10_000, { immediatelyExecute: true }))),
    );
    expect(answers.filter((a) => a.status === 200).map((a) => a.body.status)).toEqual(['PROCESSING']);
    for (const answer of answers.filter((a) => a.status !== 200)) expectError(answer, 400, 'INVALID_AMOUNT');
    expect(sandbox.state.balance(usd.id)).toBe(0);
    expect(min()).toBe(0);
    expect(sandbox.ledger.executions).toHaveLength(1);
  });

  it('concurrent quotes never pass the daily volume limit (created with immediatelyExecute, or executed)', async () => {
    sandbox = createSandbox({ faults: { dailyVolumeLimit: { USD: 1_000 } } });
    const call = await connect(sandbox);
    const customer = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const usd = await accountOf(call, customer.id, 'USD');
    const eur = await accountOf(call, customer.id, 'EUR');
    await fund(call, usd.id, 100_000);
    // 10 × 500 asked at once against a limit of 1,000: two execute.
    const created = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/quotes', quoteBody(usd.id, eur.id, 500, { immediatelyExecute: true }))));
    expect(created.filter((a) => a.status === 200)).toHaveLength(2);
    for (const answer of created.filter((a) => a.status !== 200)) expectError(answer, 429, 'DAILY_VOLUME_LIMIT_EXCEEDED');
    // The amounts named in major units with their currency, not in cents.
    expect(created.find((a) => a.status === 429)!.body.message).toBe(
      "5.00 USD would pass the platform's daily volume limit (10.00 USD of 10.00 USD used today).",
    );
    expect(sandbox.ledger.executions.map((e) => e.amount)).toEqual([500, 500]);
    expect(sandbox.state.balance(usd.id)).toBe(99_000);

    // The next day: 10 quotes made first, then all executed at once.
    sandbox.clock.advance(DAY_MS);
    const quotes = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/quotes', quoteBody(usd.id, eur.id, 400))));
    const executed = await Promise.all(quotes.map((q) => call('POST', `/quotes/${q.body.id}/execute`)));
    expect(executed.filter((a) => a.status === 200)).toHaveLength(2);
    for (const answer of executed.filter((a) => a.status !== 200)) expectError(answer, 429, 'DAILY_VOLUME_LIMIT_EXCEEDED');
    expect(sandbox.ledger.executions).toHaveLength(4);
    expect(sandbox.state.balance(usd.id)).toBe(98_200);
  });

  it('a payout is found again by the filters production lists, its description kept on the transaction', async () => {
    sandbox = createSandbox();
    const call = await connect(sandbox);
    const customer = await createCustomer(call, { currencies: ['USD', 'EUR'] });
    const usd = await accountOf(call, customer.id, 'USD');
    const eur = await accountOf(call, customer.id, 'EUR');
    await fund(call, usd.id, 10_000);
    const other = await createCustomer(call, { currencies: ['USD', 'EUR'], fullName: 'Grace Hopper' });
    const otherUsd = await accountOf(call, other.id, 'USD');
    await fund(call, otherUsd.id, 10_000);
    const paid = (await call('POST', '/quotes', quoteBody(usd.id, eur.id, 1_000, { immediatelyExecute: true, description: 'batch-7 row-1' }))).body;
    await call(
      'POST',
      '/quotes',
      quoteBody(otherUsd.id, (await accountOf(call, other.id, 'EUR')).id, 1_000, { immediatelyExecute: true, description: 'not ours' }),
    );
    const created = (await call('GET', `/transactions/${paid.transactionId}`)).body;
    expect(created.description).toBe('batch-7 row-1');
    const around = (ms: number) => encodeURIComponent(new Date(Date.parse(created.createdAt) + ms).toISOString());
    const find = async (query: string) =>
      ((await call('GET', `/transactions?${query}`)).body.data as { id: string; description?: string }[]).map((t) => [t.id, t.description]);
    const sender = `senderAccountIdentifier=${encodeURIComponent(usd.id)}`;
    expect(await find(`${sender}&type=OUTGOING&status=PROCESSING&startDate=${around(-1)}&endDate=${around(1)}`)).toEqual([
      [paid.transactionId, 'batch-7 row-1'],
    ]);
    expect(await find(`${sender}&status=COMPLETED`)).toEqual([]);
    expect(await find(`${sender}&type=INCOMING`)).toEqual([]);
    expect(await find(`${sender}&startDate=${around(1)}`)).toEqual([]);
    expect(await find(`${sender}&endDate=${around(-1)}`)).toEqual([]);
  });
});

describe('amounts named in messages', () => {
  it("the limits' refusals name money in major units with the currency's decimals", async () => {
    const sandbox = createSandbox({ faults: { dailyVolumeLimit: { BTC: 130_389 } } });
    try {
      const call = caller((input, init) => sandbox.fetch(input, init));
      const customer = await createCustomer(call, { currencies: ['USD', 'EUR', 'BTC'] });
      const usd = await accountOf(call, customer.id, 'USD');
      const eur = await accountOf(call, customer.id, 'EUR');
      const btc = await accountOf(call, customer.id, 'BTC');
      await fund(call, usd.id, 20_000_000);
      await fund(call, btc.id, 1_000_000);
      const daily = await call('POST', '/quotes', quoteBody(usd.id, eur.id, MAGIC.dailyVolumeLimitAmount, { immediatelyExecute: true }));
      expectError(daily, 429, 'DAILY_VOLUME_LIMIT_EXCEEDED');
      expect(daily.body.message).toBe("151,515.15 USD would pass the platform's daily volume limit.");
      const size = await call('POST', '/quotes', quoteBody(usd.id, eur.id, MAGIC.transactionSizeLimitAmount));
      expectError(size, 400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
      expect(size.body.message).toBe('141,414.14 USD is above the largest single payment allowed for this corridor.');
      const btcDaily = await call('POST', '/quotes', quoteBody(btc.id, usd.id, 200_000, { immediatelyExecute: true }));
      expectError(btcDaily, 429, 'DAILY_VOLUME_LIMIT_EXCEEDED');
      expect(btcDaily.body.message).toBe("0.00200000 BTC would pass the platform's daily volume limit (0.00000000 BTC of 0.00130389 BTC used today).");
      expect(btcDaily.body.details).toMatchObject({ amount: 200_000, currency: 'BTC', used: 0, limit: 130_389 }); // details stay in smallest units
    } finally {
      await sandbox.close();
    }
  });

  it('describeFaults says each fault that is on, money in major units', () => {
    expect(describeFaults({})).toEqual([]);
    expect(describeFaults({ failAfterProcessing: { rate: 0 }, latency: { ms: 0 } })).toEqual([]);
    expect(
      describeFaults({
        rateLimit: { requestsPerSecond: 40 },
        dailyVolumeLimit: { USD: 123_456_789, USDC: 2_500_000 },
        failAfterProcessing: { rate: 0.125, reason: 'QUOTE_EXECUTION_FAILED' },
        latency: { ms: 15 },
      }),
    ).toEqual([
      'rate limit 40 requests/s (burst 40)',
      'daily volume limit 1,234,567.89 USD, 2.500000 USDC',
      '12.5% of new payouts fail after PROCESSING (QUOTE_EXECUTION_FAILED)',
      'latency 15 ms',
    ]);
  });
});
