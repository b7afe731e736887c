/**
 * Input never stops a batch, and what is refused is journaled (issue 47 §4, runner side): a row the
 * reader refused (`{ rejected, line }`), an instruction `instructionProblem` refuses (amount ≤ 0 or above
 * production's bound, a reference that is not well-formed Unicode) and a duplicate are each journaled as
 * a `rejected` record under a key of its own, with the same reason on a straight and on a resumed run;
 * the rows after them are paid; `onResume` says what a resumed run found before any request.
 */
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIUserAbortError } from '../../src/index';
import {
  createPayoutBatch,
  instructionFingerprintV2,
  instructionProblem,
  MemoryJournal,
  payoutKey,
  rejectedKey,
  type PayoutClient,
  type PayoutInstruction,
  type PayoutRejectedInput,
} from '../../src/payouts/index';
import { ok, service } from './instant-service';

describe('instructionProblem', () => {
  it('refuses amounts of 0 or less and above 9000000000000000, and references with a lone surrogate, naming the field', () => {
    expect(instructionProblem(ok('a', 0))).toBe('amount: expected more than 0, got 0');
    expect(instructionProblem(ok('a', -500))).toBe('amount: expected more than 0, got -500');
    expect(instructionProblem(ok('a', 9_000_000_000_000_000))).toBeUndefined();
    expect(instructionProblem(ok('a', 9_000_000_000_000_001))).toBe('amount: expected at most 9000000000000000, got 9000000000000001');
    expect(instructionProblem(ok('a', 1))).toBeUndefined();
    expect(instructionProblem(ok('inv-\uD800'))).toBe('reference: not well-formed Unicode (a lone UTF-16 surrogate at index 4)');
    expect(instructionProblem(ok('\uDC00x'))).toBe('reference: not well-formed Unicode (a lone UTF-16 surrogate at index 0)');
    expect(instructionProblem(ok('a\uDBFF\uDFFFb\uD83D'))).toBe('reference: not well-formed Unicode (a lone UTF-16 surrogate at index 4)');
    expect(instructionProblem(ok('pay 😀 ok'))).toBeUndefined();
    expect(instructionProblem(ok('\u0000rejected:line:3'))).toContain('reference: may not start with');
  });

  it('two references that differ only in a lone surrogate are two refusals, not one payout', async () => {
    // Their keys are distinct (keys.ts hashes such a string apart), but neither can be sent: refused locally.
    expect(payoutKey('b', 'x\uD800', 'create')).not.toBe(payoutKey('b', 'x\uDFFF', 'create'));
    const { client, keys } = service();
    const journal = new MemoryJournal();
    const summary = await createPayoutBatch({ client, batchId: 'b', journal }).run([ok('x\uD800'), ok('x\uDFFF'), ok('y')]);
    expect(keys).toEqual([payoutKey('b', 'y', 'create')]);
    expect(summary.rejected.map((r) => r.reason)).toEqual([
      'reference: not well-formed Unicode (a lone UTF-16 surrogate at index 1)',
      'reference: not well-formed Unicode (a lone UTF-16 surrogate at index 1)',
    ]);
    expect(summary.counts).toMatchObject({ completed: 1, rejected: 2 });
  });
});

describe('rejected inputs are journaled, and the batch goes on', () => {
  const input = (): (PayoutInstruction | PayoutRejectedInput)[] => [
    ok('inv-1'),
    { rejected: 'line 3: unbalanced quote', line: 3 },
    { ...ok('neg', -500) },
    ok('inv-2'),
    { ...ok('inv-1'), amount: 999 }, // the same reference again, another amount
    { rejected: 'amount: not a number', reference: 'inv-2', line: 7 }, // a bad row naming a payable reference
    ok('inv-3'),
  ];

  it('the same reasons and records on a straight run and on a resumed one; rows after a bad one are paid; a rejected row never touches a payable record', async () => {
    const { client, keys } = service();
    const journal = new MemoryJournal();
    const straight = await createPayoutBatch({ client, batchId: 'rows', journal }).run(input());
    const expected = [
      { reference: '', reason: 'line 3: unbalanced quote' },
      { reference: 'neg', reason: 'amount: expected more than 0, got -500' },
      { reference: 'inv-1', reason: 'reference: seen twice in this run (references are unique in a batch); the second was not sent' },
      { reference: 'inv-2', reason: 'amount: not a number' },
    ];
    expect(straight.rejected).toEqual(expected);
    expect(straight.counts).toMatchObject({ completed: 3, rejected: 4, pending: 0, submitted: 0 });
    expect(straight.total).toBe(3); // references; the rejected inputs are counted apart
    expect(keys).toHaveLength(3);

    const byKey = new Map(journal.records().map((r) => [r.reference, r]));
    expect(byKey.get(rejectedKey({ line: 3 }, 0))).toMatchObject({
      state: 'rejected',
      line: 3,
      lastError: { code: 'REJECTED', message: 'line 3: unbalanced quote' },
    });
    expect(byKey.get(rejectedKey({ reference: 'neg' }, 0))).toMatchObject({
      state: 'rejected',
      inputReference: 'neg',
      lastError: { message: 'amount: expected more than 0, got -500' },
    });
    expect(byKey.get(rejectedKey({ line: 7 }, 0))).toMatchObject({ state: 'rejected', line: 7, inputReference: 'inv-2' });
    // The payable records are the first instructions', completed, untouched by the rejected rows naming them.
    expect(byKey.get('inv-1')).toMatchObject({ state: 'completed', fingerprint: instructionFingerprintV2(ok('inv-1')) });
    expect(byKey.get('inv-2')).toMatchObject({ state: 'completed', transactionId: 'Transaction:2' });
    expect(journal.records()).toHaveLength(7);

    // Resumed over the same input: what it found, then the same reasons; nothing sent, nothing journaled twice.
    let found: unknown;
    const resumed = await createPayoutBatch({ client, batchId: 'rows', journal, onResume: (f) => (found = f) }).run(input());
    expect(found).toEqual({ final: 3, rejected: 4, replay: 0, lookup: 0, waiting: 0 });
    expect(resumed.rejected).toEqual(expected);
    expect(resumed.counts).toMatchObject({ completed: 3, rejected: 4 });
    expect(resumed.total).toBe(3);
    expect(keys).toHaveLength(3);
    expect(journal.records()).toHaveLength(7);
  });

  it('onResume is called once, before any request, with what is left to replay', async () => {
    const journal = new MemoryJournal();
    const events: string[] = [];
    const slow: PayoutClient = {
      ...service().client,
      quotes: {
        create: async () => {
          events.push('request');
          throw new APIConnectionError('fetch failed', { outcomeUnknown: true }); // no answer: replayed until stopped
        },
        execute: async () => ({}) as never,
      },
    };
    const controller = new AbortController();
    const first = createPayoutBatch({ client: slow, batchId: 'r', journal, signal: controller.signal }).run([ok('a'), ok('b')]);
    for (let i = 0; i < 200 && events.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(first).rejects.toBeInstanceOf(APIUserAbortError);
    events.length = 0;
    const { client } = service();
    const wrapped: PayoutClient = { ...client, quotes: { ...client.quotes, create: (b, o) => (events.push('request'), client.quotes.create(b, o)) } };
    const summary = await createPayoutBatch({ client: wrapped, batchId: 'r', journal, onResume: (f) => events.push(`resume ${JSON.stringify(f)}`) }).run([
      ok('a'),
      ok('b'),
    ]);
    expect(events).toEqual(['resume {"final":0,"rejected":0,"replay":2,"lookup":0,"waiting":0}', 'request', 'request']);
    expect(summary.counts.completed).toBe(2);
  });
});

describe('the report of rejected rows', () => {
  it('shows the input reference, the state, the reason and the line, in JSON and CSV; status counts them', async () => {
    const { reportCsv, reportRows, summarize } = await import('../../src/payouts/index');
    const journal = new MemoryJournal();
    await createPayoutBatch({ client: service().client, batchId: 'rep', journal }).run([
      ok('a'),
      { rejected: 'amount: not a number', reference: 'b', line: 4 },
      { rejected: 'line 9: unbalanced quote', line: 9 },
      ok('c', 0),
    ]);
    const rows = reportRows(journal.records()).filter((r) => r.state === 'rejected');
    expect(rows.map((r) => [r.reference, r.errorCode, r.errorMessage, r.line])).toEqual([
      ['b', 'REJECTED', 'line 4: amount: not a number', 4],
      ['', 'REJECTED', 'line 9: unbalanced quote', 9],
      ['c', 'REJECTED', 'amount: expected more than 0, got 0', undefined],
    ]);
    expect(reportCsv(rows).split('\r\n').slice(1, 3)).toEqual([
      'b,rejected,,,,,,,,,,0,REJECTED,line 4: amount: not a number',
      ',rejected,,,,,,,,,,0,REJECTED,line 9: unbalanced quote',
    ]);
    expect(summarize(journal.records())).toMatchObject({ completed: 1, rejected: 3 });
  });
});
