/**
 * Money never moves twice. Quote creations + executions and transfer-ins go through a proxy that
 * loses 20 % of the responses (after the sandbox acted) and answers some 503s, with `maxRetries: 3`
 * and a no-wait sleep. Afterwards the sandbox holds at most one effect per logical call, every
 * failure is typed and carries its Idempotency-Key, and after reconciling each unknown outcome with
 * that key (the sandbox replays) exactly one effect per call, with balances exact to the cent.
 * Non-idempotent creates through a lossy proxy are never resent once they may have arrived.
 *
 * Every 4th logical call passes `maxRetries: 0` (an impatient caller), so that unknown outcomes are
 * frequent enough for the reconciliation to be exercised on every run; the rest use the client's 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import { APIConnectionError, APIError, CrossborderError } from '../../src/core/errors';
import type { Sandbox } from '../../src/sandbox/index';
import { SETTLEMENT_MS } from '../../src/sandbox/domain/payments';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import type { Quote, QuoteCreateParams, Transaction, TransferInCreateParams } from '../../src/types';
import { header, only, seeded, startFaultProxy, type Fault, type FaultProxy, type ProxyRecord } from './proxy';
import { createCustomerOnce, executeOnce } from './reconcile';
import { command, count, pool, report, reportWhenFinished, SEED } from './support';
import { startReliabilityWorld, type ReliabilityWorld } from './world';

// CI: 200 money calls (100 quote flows + 100 transfer-ins) and 40 non-idempotent creates; full: 1,000 + 1,000 and 500.
const N_QUOTES = count(100, 1_000);
const N_TRANSFERS = count(100, 1_000);
const N_CREATES = count(40, 500);
const FUNDED = 1_000_000_000;
const WIDTH = 1; // sequential: the seeded fault schedule then lands on the same calls on every run

type Status = 'resolved' | 'unknown' | 'failed';
interface Outcome<T> {
  kind: 'create' | 'execute' | 'transfer-in';
  i: number;
  status: Status;
  key: string | undefined;
  result?: T | undefined;
  error?: unknown;
  /** The final answer after reconciliation (for unknown / failed calls). */
  reconciled?: T | undefined;
  replayed?: boolean | undefined;
}

let sandbox: Sandbox;
let server: SandboxServer;
let proxy: FaultProxy;
let cb: Crossborder; // through the faulty proxy
let direct: Crossborder; // straight to the sandbox: setup and reconciliation
const waits: number[] = [];
let source: string; // A's USD internal account
let target: string; // B's EUR internal account
let bank: string; // A's USD external account

const creates: Outcome<Quote>[] = [];
const executes: Outcome<Quote>[] = [];
const transfers: Outcome<Transaction>[] = [];

const LOST = 0.2;
const moneyPlan = seeded(SEED, [
  [0.15, { kind: 'reset-after' }],
  [0.03, { kind: 'truncate' }],
  [0.02, { kind: 'html', status: 200, forward: true }],
  [0.025, { kind: 'status', status: 503 }],
  [0.025, { kind: 'status', status: 503, retryAfter: '0' }],
  [0.02, { kind: 'duplicate' }],
  [0.01, { kind: 'reset-before' }],
] as [number, Fault][]);

const quoteParams = (i: number): QuoteCreateParams => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: target },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000 + i,
  description: `money:q:${i}`,
});
const transferParams = (i: number): TransferInCreateParams => ({ source: { accountId: bank }, destination: { accountId: source }, amount: 1_000 + i });
const callOptions = (i: number) => (i % 4 === 0 ? { maxRetries: 0 } : {});

async function settle<T>(kind: Outcome<T>['kind'], i: number, run: () => Promise<{ data: T; idempotencyKey: string | undefined }>): Promise<Outcome<T>> {
  try {
    const { data, idempotencyKey } = await run();
    return { kind, i, status: 'resolved', key: idempotencyKey, result: data };
  } catch (error) {
    const unknown = error instanceof APIConnectionError && error.outcomeUnknown;
    return { kind, i, status: unknown ? 'unknown' : 'failed', key: (error as { idempotencyKey?: string }).idempotencyKey, error };
  }
}

/** Requests the proxy received, by Idempotency-Key (rebuilt when more arrived). */
let byKey = new Map<string, ProxyRecord[]>();
let indexed = -1;
const onWire = (key: string | undefined): ProxyRecord[] => {
  if (indexed !== proxy.records.length) {
    byKey = new Map();
    for (const r of proxy.records) {
      const k = header(r, 'idempotency-key');
      if (k !== undefined) byKey.set(k, [...(byKey.get(k) ?? []), r]);
    }
    indexed = proxy.records.length;
  }
  return key === undefined ? [] : (byKey.get(key) ?? []);
};
/** True when the sandbox answered a request with this key with a non-5xx status (it stored the answer). */
const sandboxActed = (key: string | undefined) => onWire(key).some((r) => r.upstream.some((a) => a.status < 500));

beforeAll(async () => {
  let credentials: ReliabilityWorld['base'];
  ({ sandbox, server, direct, source, bank, base: credentials } = await startReliabilityWorld('tok_money', 'sk_money', 'Ada Sender'));
  proxy = await startFaultProxy(server.url);
  cb = new Crossborder({
    ...credentials,
    baseUrl: proxy.url,
    maxRetries: 3,
    sleep: async (ms, signal) => {
      waits.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
  });
  const b = await direct.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Bea Receiver', region: 'US', currencies: ['EUR'] });
  target = (await direct.internalAccounts.list({ customerId: b.id, currency: 'EUR' })).data[0]!.id;
  await direct.sandbox.fundInternalAccount(source, { amount: FUNDED });

  // Phase 1: every logical call once, through the faults.
  proxy.setPlan(only((r) => r.method === 'POST' && /\/(quotes|transfer-in)/.test(r.url), moneyPlan));
  const started = performance.now();
  await pool([...Array(N_QUOTES).keys()], WIDTH, async (i) => {
    const created = await settle('create', i, () => cb.quotes.create(quoteParams(i), callOptions(i)).withResponse());
    creates.push(created);
    if (created.status === 'resolved') {
      executes.push(await settle('execute', i, () => cb.quotes.execute(created.result!.id, callOptions(i + 1)).withResponse()));
    }
  });
  await pool([...Array(N_TRANSFERS).keys()], WIDTH, async (i) => {
    transfers.push(await settle('transfer-in', i, () => cb.transferIn.create(transferParams(i), callOptions(i)).withResponse()));
  });

  console.log(`[reliability] money phase 1: ${N_QUOTES} quote flows + ${N_TRANSFERS} transfer-ins in ${Math.round(performance.now() - started)} ms`);
}, 300_000);

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

const all = () => [...creates, ...executes, ...transfers] as Outcome<unknown>[];

const txOf = (quote: Quote, txs: Transaction[]) => txs.filter((t) => t.id === quote.transactionId);

describe(`money never moves twice (${N_QUOTES} quote creations + executions, ${N_TRANSFERS} transfer-ins, ${LOST * 100} % lost responses)`, () => {
  it('the proxy really lost responses after the sandbox acted, and answered 503s', () => {
    const hit = proxy.records.filter((r) => r.method === 'POST');
    const lost = hit.filter((r) => ['reset-after', 'truncate', 'html'].includes(r.fault.kind));
    expect(lost.length / hit.length).toBeGreaterThan(LOST * 0.75);
    expect(lost.length / hit.length).toBeLessThan(LOST * 1.25);
    expect(lost.every((r) => r.upstream.length === 1)).toBe(true);
    expect(hit.some((r) => r.fault.kind === 'status' && r.fault.status === 503)).toBe(true);
    expect(hit.some((r) => r.fault.kind === 'duplicate' && r.upstream.length === 2)).toBe(true);
    expect(all().some((o) => o.status === 'unknown')).toBe(true);
  });

  it('every call resolved or threw a CrossborderError carrying the Idempotency-Key it sent', () => {
    const problems: string[] = [];
    // The requests of one logical call, found by what it sent (not by its key): then "only this key" measures.
    const requestsOf = (o: Outcome<unknown>): ProxyRecord[] => {
      if (o.kind === 'create') return proxy.records.filter((r) => r.url.endsWith('/quotes') && r.body.includes(`"money:q:${o.i}"`));
      if (o.kind === 'transfer-in')
        return proxy.records.filter((r) => r.url.endsWith('/transfer-in') && (JSON.parse(r.body) as { amount: number }).amount === 1_000 + o.i);
      const quoteId = creates.find((c) => c.i === o.i)?.result?.id;
      return proxy.records.filter((r) => quoteId !== undefined && r.url.endsWith(`/quotes/${encodeURIComponent(quoteId)}/execute`));
    };
    for (const o of all()) {
      const sent = requestsOf(o);
      const wire = new Set(sent.map((r) => header(r, 'idempotency-key')));
      if (!o.key || sent.length === 0 || wire.size !== 1 || !wire.has(o.key))
        problems.push(`${o.kind} ${o.i}: key ${o.key} not (only) on the wire (${[...wire].join(', ')})`);
      if (o.status === 'resolved') continue;
      if (!(o.error instanceof CrossborderError)) problems.push(`${o.kind} ${o.i}: ${String(o.error)}`);
      if ((o.error as { idempotencyKey?: string }).idempotencyKey !== o.key) problems.push(`${o.kind} ${o.i}: error carries another key`);
    }
    expect(problems).toEqual([]);
    // A call whose every attempt reached the sandbox and whose error is not "unknown" must be a service answer.
    for (const o of all().filter((x) => x.status === 'failed')) expect(o.error).toBeInstanceOf(APIError);
  });

  it('every error of a write says whether its outcome is unknown, and says it right', () => {
    const errors = all().filter((o) => o.status !== 'resolved');
    // What the SDK must say, from what the proxy saw: unknown when some request of the call reached the
    // sandbox and its answer did not come back whole (lost, cut, HTML, 5xx); known when the service refused it.
    const expected = (o: Outcome<unknown>): boolean => {
      const e = o.error as { status?: number; name?: string };
      if (e.name === 'InternalServerError') return true;
      if (typeof e.status === 'number' && e.status < 500 && e.name !== 'APIConnectionError') return false;
      return true;
    };
    const silent = errors
      .filter((o) => (o.error as { outcomeUnknown?: unknown }).outcomeUnknown !== expected(o))
      .map(
        (o) =>
          `${o.kind} ${o.i}: ${(o.error as Error).name} said outcomeUnknown ${String((o.error as { outcomeUnknown?: unknown }).outcomeUnknown)}: ${(o.error as Error).message}`,
      );
    report({
      scenario: 'Every error of a money call says whether its outcome is unknown',
      unit: 'errors',
      cases: errors.length,
      failures: silent.length,
      command: command('money.test.ts', 'says it right'),
      notes: silent.length ? `${silent.length} InternalServerError/APIError without outcomeUnknown (SDK gap, see report)` : undefined,
    });
    expect(silent).toEqual([]);
  });

  it('before reconciliation the sandbox holds at most one effect per logical call, and balances add up', () => {
    const snap = sandbox.state.snapshot();
    const outgoing = snap.transactions.filter((t) => t.type === 'OUTGOING');
    const byDescription = new Map<string | undefined, Transaction[]>();
    for (const t of outgoing) byDescription.set(t.description, [...(byDescription.get(t.description) ?? []), t]);
    for (let i = 0; i < N_QUOTES; i++) {
      const made = byDescription.get(`money:q:${i}`) ?? [];
      expect(made.length).toBeLessThanOrEqual(1);
      const o = creates.find((c) => c.i === i)!;
      if (o.status === 'resolved') expect(made.map((t) => t.id)).toEqual([o.result!.transactionId]);
      if (!sandboxActed(o.key)) expect(made).toEqual([]);
    }
    expect(snap.quotes).toHaveLength(outgoing.length);
    const inbound = snap.transactions.filter((t) => t.type === 'INCOMING' && t.source?.sourceType === 'ACCOUNT' && t.source.accountId === bank);
    for (let i = 0; i < N_TRANSFERS; i++) expect(inbound.filter((t) => t.receivedAmount?.amount === 1_000 + i).length).toBeLessThanOrEqual(1);
    // Nothing has settled (frozen clock): A lost exactly what the executed quotes debited.
    const debited = snap.quotes.filter((q) => q.status === 'PROCESSING').reduce((s, q) => s + q.totalSendingAmount, 0);
    expect(sandbox.state.balance(source)).toBe(FUNDED - debited);
    for (const e of executes) {
      const quote = snap.quotes.find((q) => q.id === creates.find((c) => c.i === e.i)!.result!.id)!;
      if (e.status === 'resolved') expect(quote.status).toBe('PROCESSING');
      if (!sandboxActed(e.key)) expect(quote.status).toBe('PENDING');
    }
  });

  it('reconciling each unknown outcome with its Idempotency-Key replays the first answer: exactly one effect each, balances exact', async () => {
    const row = reportWhenFinished({
      scenario: 'Money never moves twice: quote create + execute, transfer-in (20 % lost responses, 503s, duplicates)',
      unit: 'logical calls',
      cases: all().length,
      command: command('money.test.ts', 'money never moves twice'),
    });
    let replays = 0;
    let fresh = 0;
    const reconcile = async <T>(o: Outcome<T>, again: (key: string) => Promise<{ data: T; response: Response }>) => {
      const { data, response } = await again(o.key!);
      o.reconciled = data;
      o.replayed = response.headers.get('idempotent-replayed') === 'true';
      expect(o.replayed, `${o.kind} ${o.i}: replayed iff the sandbox had acted`).toBe(sandboxActed(o.key));
      if (o.replayed) replays++;
      else fresh++;
      return data;
    };
    for (const o of creates.filter((c) => c.status !== 'resolved')) {
      await reconcile(o, (key) => direct.quotes.create(quoteParams(o.i), { idempotencyKey: key }).withResponse());
    }
    // The quotes that only reconciliation made known are executed now: new logical calls, through the faults again.
    for (const o of creates.filter((c) => c.status !== 'resolved')) {
      if (o.reconciled!.status !== 'PENDING') continue;
      executes.push(await settle('execute', o.i, () => cb.quotes.execute(o.reconciled!.id, callOptions(o.i + 1)).withResponse()));
    }
    for (const o of executes.filter((e) => e.status !== 'resolved')) {
      const quoteId = (creates.find((c) => c.i === o.i)!.result ?? creates.find((c) => c.i === o.i)!.reconciled)!.id;
      await reconcile(o, (key) => direct.quotes.execute(quoteId, { idempotencyKey: key }).withResponse());
    }
    for (const o of transfers.filter((t) => t.status !== 'resolved')) {
      await reconcile(o, (key) => direct.transferIn.create(transferParams(o.i), { idempotencyKey: key }).withResponse());
    }
    // A replayed answer is the first answer: same ids as the sandbox holds.
    sandbox.clock.advance(SETTLEMENT_MS + 1);
    const snap = sandbox.state.snapshot();

    const quotes = creates.map((c) => (c.result ?? c.reconciled)!);
    expect(new Set(quotes.map((q) => q.id)).size).toBe(N_QUOTES);
    expect(snap.quotes).toHaveLength(N_QUOTES);
    const outgoing = snap.transactions.filter((t) => t.type === 'OUTGOING');
    expect(outgoing).toHaveLength(N_QUOTES);
    for (const [i, q] of quotes.entries()) {
      expect(outgoing.filter((t) => t.description === `money:q:${i}`).map((t) => t.id)).toEqual([q.transactionId]);
      expect(txOf(q, outgoing)[0]!.status).toBe('COMPLETED');
      expect(snap.quotes.find((s) => s.id === q.id)!.status).toBe('COMPLETED');
    }
    // Every quote was executed by exactly one logical call.
    const executedIds = executes.map((e) => (e.result ?? e.reconciled)!.id);
    expect(new Set(executedIds).size).toBe(executedIds.length);
    expect(executedIds.length).toBe(N_QUOTES);
    const mirrored = snap.transactions.filter((t) => t.type === 'INCOMING' && 'accountId' in t.destination && t.destination.accountId === target);
    expect(mirrored).toHaveLength(N_QUOTES);

    const inbound = snap.transactions.filter((t) => t.type === 'INCOMING' && t.source?.sourceType === 'ACCOUNT' && t.source.accountId === bank);
    expect(inbound).toHaveLength(N_TRANSFERS);
    for (const o of transfers) {
      const tx = (o.result ?? o.reconciled)!;
      expect(inbound.filter((t) => t.receivedAmount?.amount === 1_000 + o.i).map((t) => t.id)).toEqual([tx.id]);
      expect(inbound.find((t) => t.id === tx.id)!.status).toBe('COMPLETED');
    }

    // Balances to the cent, from what the SDK calls answered.
    const sent = quotes.reduce((s, q) => s + q.totalSendingAmount, 0);
    const received = quotes.reduce((s, q) => s + q.totalReceivingAmount, 0);
    const transferred = transfers.reduce((s, o) => s + (o.result ?? o.reconciled)!.receivedAmount!.amount, 0);
    expect(sandbox.state.balance(source)).toBe(FUNDED + transferred - sent);
    expect(sandbox.state.balance(target)).toBe(received);

    const tally = (list: Outcome<unknown>[]) => {
      const by = (s: Status) => list.filter((o) => o.status === s).length;
      return `${by('resolved')} resolved, ${by('unknown')} unknown, ${by('failed')} failed`;
    };
    const lost = proxy.records.filter((r) => ['reset-after', 'truncate', 'html'].includes(r.fault.kind)).length;
    row.cases = all().length;
    row.notes =
      `${N_QUOTES} creates (${tally(creates)}), ${executes.length} executes (${tally(executes)}), ` +
      `${N_TRANSFERS} transfer-ins (${tally(transfers)}); ${proxy.records.length} requests, ${lost} responses lost; ` +
      `${replays} reconciled by replay, ${fresh} never reached the sandbox`;
  });
});

describe(`non-idempotent creates are never resent once they may have arrived (${N_CREATES} calls)`, () => {
  it('customers and external accounts: one upstream request per call at most, and the error says the outcome is unknown', async () => {
    const lossy = await startFaultProxy(server.url);
    try {
      lossy.setPlan(
        seeded(SEED + 1, [
          [0.35, { kind: 'reset-after' }],
          [0.05, { kind: 'truncate' }],
          [0.05, { kind: 'html', status: 200, forward: true }],
          [0.05, { kind: 'reset-before' }],
          [0.1, { kind: 'status', status: 503, retryAfter: '0' }],
          [0.05, { kind: 'status', status: 429, retryAfter: '0' }],
          [0.05, { kind: 'status', status: 502 }],
        ] as [number, Fault][]),
      );
      const client = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', baseUrl: lossy.url, maxRetries: 3, sleep: async () => {} });
      const owner = (await direct.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Owner', region: 'US', currencies: ['USD'] })).id;
      const problems: string[] = [];
      let unknown = 0;
      let resent = 0;
      const forwardedBy = new Map<string, number>();
      for (let i = 0; i < N_CREATES; i++) {
        const marker = i % 2 === 0 ? `nonidem-${i}` : String(700_000_000_000 + i);
        const call =
          i % 2 === 0
            ? () => client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: marker, fullName: 'Retry Probe', region: 'US' })
            : () =>
                client.externalAccounts.create({
                  customerId: owner,
                  currency: 'USD',
                  accountInfo: {
                    accountType: 'USD_ACCOUNT',
                    accountNumber: marker,
                    routingNumber: '021000021',
                    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
                  },
                });
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        const seen = lossy.records.filter((r) => r.body.includes(`"${marker}"`));
        const forwarded = seen.reduce((n, r) => n + r.upstream.length, 0);
        // None of these faults proves the request did not arrive (a 503 or 429 may come from a gateway
        // after the service acted): every call goes out exactly once.
        if (seen.length > 1) resent++;
        if (seen.length !== 1 || forwarded > 1) problems.push(`call ${i}: ${seen.map((r) => r.fault.kind).join(' → ')}`);
        const last = seen[seen.length - 1]!;
        if (last.fault.kind === 'status' && (last.fault.status === 503 || last.fault.status === 429)) {
          const e = error as { status?: number; outcomeUnknown?: boolean; retryAfter?: number };
          if (e?.status !== last.fault.status || e.outcomeUnknown !== (last.fault.status === 503) || e.retryAfter !== 0) {
            problems.push(`call ${i}: ${last.fault.status} gave ${String(error)}`);
          }
        }
        if (['reset-after', 'reset-before', 'truncate', 'html'].includes(last.fault.kind)) {
          unknown++;
          if (
            !(error instanceof APIConnectionError) ||
            !error.outcomeUnknown ||
            error.idempotencyKey !== undefined ||
            !/outcome is unknown/.test(error.message)
          ) {
            problems.push(`call ${i}: ${last.fault.kind} gave ${String(error)}`);
          }
        }
        forwardedBy.set(marker, forwarded);
      }
      // The sandbox holds the resource iff a request reached it.
      const snap = sandbox.state.snapshot();
      for (const [i, [marker, forwarded]] of [...forwardedBy].entries()) {
        const held =
          i % 2 === 0
            ? snap.customers.filter((c) => c.platformCustomerId === marker).length
            : snap.externalAccounts.filter((a) => a.accountInfo.accountType === 'USD_ACCOUNT' && a.accountInfo.accountNumber === marker).length;
        if (held !== forwarded) problems.push(`call ${i}: sandbox holds ${held}, ${forwarded} forwarded`);
      }
      report({
        scenario: 'Non-idempotent creates (customers, external accounts) through lost responses: never resent',
        unit: 'calls',
        cases: N_CREATES,
        failures: problems.length,
        command: command('money.test.ts', 'non-idempotent'),
        notes: `${unknown} ended outcome-unknown, ${resent} resent (must be 0)`,
      });
      expect(problems).toEqual([]);
      expect(unknown).toBeGreaterThan(0);
      expect(resent).toBe(0);
    } finally {
      await lossy.close();
    }
  }, 120_000);
});

describe('the reconciliation recipes of docs/reliability.md', () => {
  it('executeOnce and createCustomerOnce act exactly once through lost responses', async () => {
    const K = count(20, 100);
    const row = reportWhenFinished({
      scenario: 'Reconciliation recipes (docs): executeOnce / createCustomerOnce through lost responses',
      unit: 'calls',
      cases: 2 * K,
      command: command('money.test.ts', 'recipes'),
    });
    const lossy = await startFaultProxy(
      server.url,
      only(
        (r) => r.method === 'POST',
        seeded(SEED + 2, [
          [0.3, { kind: 'reset-after' }],
          [0.05, { kind: 'truncate' }],
          [0.05, { kind: 'reset-before' }],
          [0.1, { kind: 'status', status: 503 }],
        ] as [number, Fault][]),
      ),
    );
    try {
      const client = new Crossborder({ tokenId: 'tok', clientSecret: 'sk', environment: 'sandbox', baseUrl: lossy.url, maxRetries: 0 });
      const before = sandbox.state.balance(source)!;
      let debited = 0;
      for (let i = 0; i < K; i++) {
        const quote = await direct.quotes.create({ ...quoteParams(i), description: `recipe:${i}` });
        const executed = await executeOnce(client, quote.id, `recipe-key-${i}`, 10);
        expect(executed.id).toBe(quote.id);
        debited += quote.totalSendingAmount;
        await createCustomerOnce(client, { customerType: 'INDIVIDUAL', platformCustomerId: `recipe-${i}`, region: 'US' }, 10);
      }
      const snap = sandbox.state.snapshot();
      const recipeQuotes = snap.transactions.filter((t) => t.description?.startsWith('recipe:'));
      expect(recipeQuotes).toHaveLength(K);
      expect(recipeQuotes.every((t) => t.status === 'PROCESSING')).toBe(true);
      expect(sandbox.state.balance(source)).toBe(before - debited);
      for (let i = 0; i < K; i++) expect(snap.customers.filter((c) => c.platformCustomerId === `recipe-${i}`)).toHaveLength(1);
      const lost = lossy.records.filter((r) => r.fault.kind !== 'pass').length;
      row.notes = `${lost} of ${lossy.records.length} requests faulted`;
    } finally {
      await lossy.close();
    }
  }, 60_000);
});
