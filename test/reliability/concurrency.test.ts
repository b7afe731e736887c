/**
 * 1,000 concurrent calls on one client against the sandbox over HTTP: quote creations (each with its
 * own Idempotency-Key and its own answer), several paginated lists walked at the same time (each
 * iterator sees exactly its own items, in order), and signed-retry calls with different signers
 * (each signer is asked for its own challenges only). Every request and its answer are recorded
 * where the SDK hands them to fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import type { SignatureChallenge } from '../../src/core/errors';
import { createClock } from '../../src/sandbox/domain/clock';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import type { Quote } from '../../src/types';
import { generateClientKeyPair, WalletSession } from '../../src/wallet/index';
import { command, count, report, SEED } from './support';

const TOTAL = 1_000;
const WALLETS = 5;
const SIGNED_PER_WALLET = count(40, 50);
const LIST_CUSTOMERS = 5;

let sandbox: Sandbox;
let server: SandboxServer;
/** One request as the SDK sent it, with its answer. */
interface Exchange {
  method: string;
  url: string;
  headers: Headers;
  body: string;
  status: number;
  answer: string;
  sentAt: number;
  answeredAt: number;
}
const wire: Exchange[] = [];
const header = (e: Exchange, name: string) => e.headers.get(name) ?? undefined;
let direct: Crossborder;
let cb: Crossborder;
let usd: string;
let eur: string;
const listCustomers: { id: string; transactions: number }[] = [];
const wallets: { walletId: string; session: WalletSession }[] = [];

interface ListJob {
  name: string;
  walk: (client: Crossborder) => AsyncIterable<{ id: string }>;
  expected: string[];
}
const lists: ListJob[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ seed: SEED, clock: createClock(undefined, { frozen: true }) });
  server = await sandbox.listen();
  // Setup and the expected lists go in-process (no sockets); the concurrent run goes over HTTP.
  direct = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', baseUrl: server.url, fetch: sandbox.fetch });
  cb = new Crossborder({
    tokenId: 'tok_conc',
    clientSecret: 'sk_conc',
    environment: 'sandbox',
    baseUrl: server.url,
    maxRetries: 0,
    fetch: async (url, init) => {
      const sentAt = performance.now();
      const response = await fetch(url, init);
      const answer = await response.clone().text();
      wire.push({
        method: init.method ?? 'GET',
        url,
        headers: new Headers(init.headers),
        body: typeof init.body === 'string' ? init.body : '',
        status: response.status,
        answer,
        sentAt,
        answeredAt: performance.now(),
      });
      return response;
    },
  });

  const payer = await direct.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Quote Maker', region: 'US', currencies: ['USD', 'EUR'] });
  const accounts = (await direct.internalAccounts.list({ customerId: payer.id })).data;
  usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  eur = accounts.find((a) => a.balance.currency.code === 'EUR')!.id;

  // Customers whose transactions and external accounts the lists walk; nothing the run does changes them.
  for (let k = 0; k < LIST_CUSTOMERS; k++) {
    const c = await direct.customers.create({ customerType: 'INDIVIDUAL', fullName: `Lister ${k}`, region: 'US', currencies: ['USD'] });
    const account = (await direct.internalAccounts.list({ customerId: c.id })).data[0]!.id;
    const banks = [];
    for (let j = 0; j < 3 + k; j++) {
      banks.push(
        await direct.externalAccounts.create({
          customerId: c.id,
          currency: 'USD',
          accountInfo: {
            accountType: 'USD_ACCOUNT',
            accountNumber: `5${k}${String(j).padStart(9, '0')}`,
            routingNumber: '021000021',
            beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
          },
        }),
      );
    }
    const n = 12 + 5 * k;
    for (let j = 0; j < n; j++) {
      await direct.transferIn.create({ source: { accountId: banks[j % banks.length]!.id }, destination: { accountId: account }, amount: 100 + j });
      sandbox.clock.advance(1); // distinct creation times: the order of a page is then unambiguous
    }
    listCustomers.push({ id: c.id, transactions: n });
  }
  // Wallets, each with its own EMAIL_OTP session: the signers of the signed retries.
  for (let k = 0; k < WALLETS; k++) {
    const c = await direct.customers.create({ customerType: 'INDIVIDUAL', fullName: `Signer ${k}`, region: 'US', currencies: ['USD'] });
    const walletId = (await direct.internalAccounts.list({ customerId: c.id })).data[0]!.id.replace('InternalAccount:', 'EmbeddedWallet:');
    const credential = await direct.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
    const keys = await generateClientKeyPair();
    const answer = await direct.auth.credentials.verify(credential.id, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: keys.publicKey });
    wallets.push({ walletId, session: await WalletSession.fromVerify(answer, keys, credential.id) });
  }
  const collect = async (it: AsyncIterable<{ id: string }>) => {
    const ids: string[] = [];
    for await (const x of it) ids.push(x.id);
    return ids;
  };
  const jobs: Omit<ListJob, 'expected'>[] = [];
  for (const [k, c] of listCustomers.entries()) {
    jobs.push({ name: `transactions of customer ${k}, limit ${2 + k}`, walk: (client) => client.transactions.list({ customerId: c.id, limit: 2 + k }) });
    jobs.push({
      name: `transactions of customer ${k}, limit 3, asc`,
      walk: (client) => client.transactions.list({ customerId: c.id, limit: 3, sortOrder: 'asc' }),
    });
    jobs.push({ name: `external accounts of customer ${k}, limit 1`, walk: (client) => client.externalAccounts.list({ customerId: c.id, limit: 1 }) });
  }
  jobs.push({ name: 'customers, limit 1', walk: (client) => client.customers.list({ limit: 1 }) });
  jobs.push({ name: 'customers, limit 2 (prefetch)', walk: (client) => client.customers.list({ limit: 2 }, { prefetch: true }) });
  for (const job of jobs) lists.push({ ...job, expected: await collect(job.walk(direct)) });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

describe(`${TOTAL} concurrent calls on one client`, () => {
  it('quote creations, interleaved pagination and signed retries with different signers: no cross-talk', async () => {
    const pages = lists.reduce((n, l) => n + Math.max(1, Math.ceil(l.expected.length / Number(/limit (\d+)/.exec(l.name)![1]))), 0);
    const signedCalls = WALLETS * SIGNED_PER_WALLET;
    const quoteCalls = TOTAL - pages - signedCalls;
    expect(quoteCalls).toBeGreaterThan(TOTAL / 2);

    const asked = wallets.map(() => [] as SignatureChallenge[]);
    const signed = wallets.flatMap((w, k) =>
      Array.from({ length: SIGNED_PER_WALLET }, (_, i) => async () => {
        const privateEnabled = i % 2 === 0;
        const account = await cb.internalAccounts.update(
          w.walletId,
          { privateEnabled },
          {
            signer: async (challenge) => {
              asked[k]!.push(challenge);
              return w.session.signer(challenge);
            },
          },
        );
        return { k, account };
      }),
    );
    const quotes = Array.from(
      { length: quoteCalls },
      (_, i) => () =>
        cb.quotes
          .create({
            source: { sourceType: 'ACCOUNT', accountId: usd },
            destination: { destinationType: 'ACCOUNT', accountId: eur },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 10_000 + i,
            description: `conc:${i}`,
          })
          .withResponse(),
    );
    const walks = lists.map((l) => async () => {
      const ids: string[] = [];
      for await (const x of l.walk(cb)) ids.push(x.id);
      return ids;
    });

    // Interleave the three kinds so that they are all in flight together.
    const started = performance.now();
    const quoteResults: Promise<{ data: Quote; idempotencyKey: string | undefined }>[] = [];
    const walkResults: Promise<string[]>[] = [];
    const signedResults: Promise<{ k: number; account: { id: string } }>[] = [];
    for (let i = 0; i < Math.max(quotes.length, signed.length, walks.length); i++) {
      if (i < quotes.length) quoteResults.push(quotes[i]!());
      if (i < walks.length) walkResults.push(walks[i]!());
      if (i < signed.length) signedResults.push(signed[i]!());
    }
    const [q, w, s] = await Promise.all([Promise.all(quoteResults), Promise.all(walkResults), Promise.all(signedResults)]);
    const elapsed = Math.round(performance.now() - started);
    const problems: string[] = [];

    // Quotes: one key each, each answer is its own request's.
    const keys = q.map((r) => r.idempotencyKey!);
    if (new Set(keys).size !== quoteCalls) problems.push(`${new Set(keys).size} distinct keys for ${quoteCalls} quotes`);
    q.forEach((r, i) => {
      if (r.data.totalSendingAmount !== 10_000 + i) problems.push(`quote ${i}: answered ${r.data.totalSendingAmount}`);
    });
    const posts = wire.filter((r) => r.method === 'POST' && r.url.endsWith('/quotes'));
    if (posts.length !== quoteCalls) problems.push(`${posts.length} quote requests for ${quoteCalls} calls`);
    for (const r of posts) {
      const sentAmount = JSON.parse(r.body).lockedCurrencyAmount as number;
      const i = sentAmount - 10_000;
      if (header(r, 'idempotency-key') !== keys[i]) problems.push(`quote ${i}: the key on the wire is not the key the call reported`);
      if (JSON.parse(r.answer).totalSendingAmount !== sentAmount) problems.push(`quote ${i}: the wire answer is another request's`);
    }
    const made = sandbox.state.snapshot().transactions.filter((t) => t.description?.startsWith('conc:'));
    if (made.length !== quoteCalls || new Set(made.map((t) => t.description)).size !== quoteCalls) problems.push(`${made.length} quotes in the sandbox`);

    // Lists: each iterator saw exactly its own items, in order.
    lists.forEach((l, i) => {
      if (JSON.stringify(w[i]) !== JSON.stringify(l.expected))
        problems.push(`${l.name}: saw ${w[i]!.length} items, expected ${l.expected.length} (or another order)`);
    });
    const gets = wire.filter((r) => r.method === 'GET').length;

    // Signed retries: each signer asked only for challenges of its own wallet and request, each once.
    const requestIds = asked.flat().map((c) => c.requestId);
    if (new Set(requestIds).size !== signedCalls) problems.push(`${new Set(requestIds).size} distinct challenges for ${signedCalls} signed calls`);
    asked.forEach((challenges, k) => {
      if (challenges.length !== SIGNED_PER_WALLET) problems.push(`signer ${k} asked ${challenges.length} times`);
      for (const c of challenges) {
        const payload = JSON.parse(c.payloadToSign) as { walletId: string; request: { path: string } };
        if (payload.walletId !== wallets[k]!.walletId) problems.push(`signer ${k} asked to sign for ${payload.walletId}`);
      }
    });
    s.forEach(({ k, account }) => {
      if (account.id !== wallets[k]!.walletId.replace('EmbeddedWallet:', 'InternalAccount:'))
        problems.push(`signed call of wallet ${k} answered ${account.id}`);
    });
    const signedRequests = wire.filter((r) => header(r, 'service-wallet-signature') !== undefined);
    const challenges = new Map(asked.flat().map((c) => [c.requestId, c]));
    const unsignedBy = new Map(wire.filter((u) => u.status === 202).map((u) => [JSON.parse(u.answer).requestId as string, u]));
    for (const r of signedRequests) {
      const challenge = challenges.get(header(r, 'request-id')!);
      const unsigned = unsignedBy.get(header(r, 'request-id')!);
      if (!challenge || !unsigned || unsigned.url !== r.url || unsigned.body !== r.body)
        problems.push(`signed repeat ${header(r, 'request-id')} is not its challenge's request`);
    }

    // How many requests were in flight at once: the calls really overlapped.
    const events = wire
      .flatMap(
        (r) =>
          [
            [r.sentAt, 1],
            [r.answeredAt, -1],
          ] as const,
      )
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let inFlight = 0;
    let peak = 0;
    for (const [, d] of events) peak = Math.max(peak, (inFlight += d));
    const calls = quoteCalls + gets + signedCalls;
    report({
      scenario: `Concurrency: ${TOTAL} concurrent calls on one client (quotes, interleaved pagination, signed retries)`,
      unit: 'concurrent calls',
      cases: calls,
      failures: problems.length,
      command: command('concurrency.test.ts'),
      notes: `${quoteCalls} quote creations, ${lists.length} list walks (${gets} pages), ${signedCalls} signed retries over ${WALLETS} signers; ${wire.length} requests in ${elapsed} ms, up to ${peak} in flight at once`,
    });
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(TOTAL);
    expect(signedRequests).toHaveLength(signedCalls);
    expect(peak).toBeGreaterThan(100);
  }, 120_000);
});
