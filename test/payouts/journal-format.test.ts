/**
 * The file journal's stored format is a contract with files users already have. Format 1 (every line a
 * whole record, fingerprints of the first version) is read, resumed, summarised and reported by this
 * code: test/payouts/fixtures/journal-v1.jsonl was written by main's code at 9aef1de
 * (fixtures/make-journal-v1.mjs says how). Format 2 (new files): a reference's later lines carry only
 * what changes, and the byte offset of its full line.
 */
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createPayoutBatch,
  FileJournal,
  instructionFingerprint,
  instructionFingerprintV2,
  journalRecords,
  PayoutJournalError,
  payoutKey,
  readJournalFile,
  type PayoutClient,
  type PayoutInstruction,
} from '../../src/payouts/index';
import { APIUserAbortError } from '../../src/index';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cb-journal-format-'));
  dirs.push(d);
  return d;
};

/** A client answering every create COMPLETED (or PROCESSING for references in `processing`), and every read COMPLETED; it records what was sent. */
function fakeClient(processing: ReadonlySet<string> = new Set()) {
  const creates: { description: string | undefined; key: string | undefined }[] = [];
  const reads: string[] = [];
  let q = 0;
  const client: PayoutClient = {
    quotes: {
      create: async (body, options) => {
        creates.push({ description: body.description, key: options?.idempotencyKey });
        q++;
        return {
          id: `Quote:n${q}`,
          status: processing.has(body.description ?? '') ? 'PROCESSING' : 'COMPLETED',
          transactionId: `Transaction:n${q}`,
          totalSendingAmount: body.lockedCurrencyAmount + 30,
          totalReceivingAmount: body.lockedCurrencyAmount,
          feesIncluded: 30,
          exchangeRate: 1,
          sendingCurrency: { code: 'USD' },
          receivingCurrency: { code: 'USD' },
        } as never;
      },
      execute: async () => {
        throw new Error('not used');
      },
    },
    transactions: {
      retrieve: async (id) => {
        reads.push(id);
        return { id, status: 'COMPLETED' } as never;
      },
    },
    receiver: {
      lookupUma: async () => {
        throw new Error('not used');
      },
    },
  };
  return { client, creates, reads };
}

/** The instructions of the fixture's batch, as its maker gave them. */
const src = { accountId: 'InternalAccount:src' };
const fixtureInstructions: PayoutInstruction[] = [
  { reference: 'r-done', source: src, destination: { accountId: 'ExternalAccount:a' }, amount: 1000, description: 'r-done' },
  { reference: 'r-failed', source: src, destination: { accountId: 'ExternalAccount:b' }, amount: 2000, description: 'r-failed' },
  {
    reference: 'r-processing',
    source: src,
    destination: { accountId: 'ExternalAccount:c', currency: 'EUR' },
    amount: 3000,
    description: 'r-processing',
    lockedCurrencySide: 'SENDING',
  },
  {
    reference: 'r-submitted',
    source: src,
    destination: { accountId: 'ExternalAccount:d' },
    amount: 4000,
    description: 'r-submitted',
    purposeOfPayment: 'GOODS_OR_SERVICES',
  },
  // The same instruction as journaled, its keys in another order.
  {
    reference: 'r-done-é✓',
    source: { accountId: 'InternalAccount:src', currency: 'USD' },
    destination: { accountId: 'ExternalAccount:e' },
    amount: 5000,
    description: 'r-done-é✓',
    senderCustomerInfo: { BIRTH_DATE: '1990-01-01', FULL_NAME: 'Zoë' },
  },
];

const fixture = () => {
  const file = join(tmp(), 'payouts.journal');
  copyFileSync(new URL('./fixtures/journal-v1.jsonl', import.meta.url), file);
  return file;
};
/** `records` in the order of `references` (a journal yields them in the order of their latest lines). */
const byReference = <T extends { reference: string }>(records: T[], references: string[]): T[] =>
  references.map((ref) => records.find((r) => r.reference === ref)!);
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/**
 * The fixture's `submitted` record was last written at 2026-11-28T02:42:37Z and has no `firstSentAt`: resumed
 * now, it is past the key's window (looked up, never replayed blind). The resume tests run an hour after it,
 * inside the window, where a replay under its key is what the service answers.
 */
const withinTheWindow = () => {
  const offset = Date.parse('2026-11-28T03:42:37.602Z') - Date.now();
  const real = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => real() + offset);
};

describe('a format-1 journal written by the previous version', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is summarised and reported as it is: the latest record of each reference, fingerprints and keys of the first version', () => {
    const file = fixture();
    const { batchId, records: inFileOrder } = readJournalFile(file);
    expect(batchId).toBe('fixture-v1');
    const records = byReference(
      inFileOrder,
      fixtureInstructions.map((i) => i.reference),
    );
    expect(records.map((r) => [r.reference, r.state, r.transactionId ?? null])).toEqual([
      ['r-done', 'completed', 'Transaction:1'],
      ['r-failed', 'failed', null],
      ['r-processing', 'processing', 'Transaction:2'],
      ['r-submitted', 'submitted', null],
      ['r-done-é✓', 'completed', 'Transaction:3'],
    ]);
    for (const r of records) {
      expect(r.fingerprint).toBe(instructionFingerprint(fixtureInstructions.find((i) => i.reference === r.reference)!));
      expect(r.keys).toEqual({ create: payoutKey('fixture-v1', r.reference, 'create'), execute: payoutKey('fixture-v1', r.reference, 'execute') });
    }
    expect(records[1]!.lastError).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String) });
  });

  it('is resumed: the unchanged instructions are not "changed", the submitted one is replayed with its key, the processing one settled; lines appended stay format 1', async () => {
    const file = fixture();
    const before = readFileSync(file, 'utf8');
    const { client, creates, reads } = fakeClient();
    withinTheWindow();
    const journal = new FileJournal(file);
    const batch = createPayoutBatch({ client, batchId: 'fixture-v1', journal, pollIntervalMs: 1 });
    const summary = await batch.run(fixtureInstructions);
    await journal.close();
    expect(summary.rejected).toEqual([]);
    expect(summary.counts).toMatchObject({ completed: 4, failed: 1, needs_attention: 0 });
    expect(summary.failed).toEqual([{ reference: 'r-failed', reason: expect.stringContaining('VALIDATION_ERROR') }]);
    expect(creates).toEqual([{ description: 'r-submitted', key: payoutKey('fixture-v1', 'r-submitted', 'create') }]);
    expect(reads).toEqual(['Transaction:2']);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(before)).toBe(true); // appended to, never rewritten
    const appended = text
      .slice(before.length)
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(appended.length).toBeGreaterThan(0);
    for (const line of appended) {
      expect(line).not.toHaveProperty('b');
      expect(line.instruction).toBeDefined(); // whole records: the file's own format
    }
    expect(lines(file)[0]).toMatchObject({ format: 'crossborder-payout-journal/1' });
    const after = new Map(readJournalFile(file).records.map((r) => [r.reference, r]));
    expect(after.get('r-submitted')).toMatchObject({ state: 'completed', attempts: 2, fingerprint: instructionFingerprint(fixtureInstructions[3]!) });
    expect(after.get('r-processing')).toMatchObject({ state: 'completed', transactionId: 'Transaction:2', transactionStatus: 'COMPLETED' });
  });

  it('resumed past the window (days after its last write), its submitted record is not replayed blind: needs attention, nothing sent', async () => {
    const file = fixture();
    const { client, creates } = fakeClient();
    const journal = new FileJournal(file);
    const summary = await createPayoutBatch({ client, batchId: 'fixture-v1', journal, pollIntervalMs: 1 }).run(fixtureInstructions);
    await journal.close();
    expect(creates).toEqual([]);
    expect(summary.needsAttention).toEqual([
      {
        reference: 'r-submitted',
        reason: expect.stringContaining(
          'OUTCOME_UNKNOWN: Sent before this version with no answer, past the Idempotency-Key window: journaled before payouts carried a marker',
        ),
      },
    ]);
  });

  it('still refuses a changed instruction under a journaled reference (compared by the first version)', async () => {
    const file = fixture();
    const { client, creates } = fakeClient();
    const changed = fixtureInstructions.map((i) => (i.reference === 'r-submitted' ? { ...i, amount: 4001 } : i));
    withinTheWindow();
    const journal = new FileJournal(file);
    const summary = await createPayoutBatch({ client, batchId: 'fixture-v1', journal, pollIntervalMs: 1 }).run(changed);
    await journal.close();
    expect(summary.rejected).toEqual([{ reference: 'r-submitted', reason: expect.stringContaining('INSTRUCTION_CHANGED') }]);
    // The journaled one is what the batch pays, with its key.
    expect(creates).toEqual([{ description: 'r-submitted', key: payoutKey('fixture-v1', 'r-submitted', 'create') }]);
  });
});

describe('format 2', () => {
  const instructions = (n: number): PayoutInstruction[] =>
    Array.from({ length: n }, (_, k) => ({
      reference: `ref-${k}`,
      source: src,
      destination: { accountId: `ExternalAccount:${k}` },
      amount: 100 + k,
      description: `ref-${k}`,
    }));

  it('a record object put in another journal, or in the same one reopened, is written whole there first (never a change naming a line of another file)', async () => {
    const dir = tmp();
    const record = {
      reference: 'ref-x',
      state: 'submitted' as const,
      fingerprint: instructionFingerprintV2(instructions(1)[0]!),
      instruction: instructions(1)[0]!,
      keys: { create: payoutKey('bx', 'ref-x', 'create'), execute: payoutKey('bx', 'ref-x', 'execute') },
      attempts: 1,
      updatedAt: '2026-11-28T00:00:00.000Z',
    };
    const a = new FileJournal(join(dir, 'a'));
    await a.open('bx');
    await a.put(record);
    await a.put(record); // its full line is on disk: a change
    await a.put({ ...record, attempts: 2 }); // another object: whole (as with the WeakMap this replaced)
    const b = new FileJournal(join(dir, 'b'));
    await b.open('bx');
    await b.put(record);
    await b.close();
    await a.close();
    const again = new FileJournal(join(dir, 'a')); // the same file, opened again
    await again.open('bx');
    await again.put(record);
    await again.close();
    const kinds = (file: string) =>
      lines(file)
        .slice(1)
        .map((l) => (l.b === undefined ? 'whole' : 'change'));
    expect(kinds(join(dir, 'a'))).toEqual(['whole', 'change', 'whole', 'whole']);
    expect(readJournalFile(join(dir, 'a')).records).toEqual([record]);
    expect(kinds(join(dir, 'b'))).toEqual(['whole']);
    // The record object carries nothing JSON would write: each line is the record, nothing more.
    expect(Object.keys(lines(join(dir, 'b'))[1]!).sort()).toEqual(Object.keys(record).sort());
    const read = new FileJournal(join(dir, 'b'));
    expect([...((await read.open('bx')) as Iterable<unknown>)]).toEqual([record]);
    await read.close();
  });

  it('lines of any size and script, written together, are found again at their byte offsets', async () => {
    const file = join(tmp(), 'j');
    const journal = new FileJournal(file);
    await journal.open('bu');
    const base = instructions(1)[0]!;
    // Multi-byte text (2-, 3- and 4-byte UTF-8), and one line far longer than the write's first buffer.
    const texts = ['é'.repeat(10), '✓ façade — 東京', '😀'.repeat(40), 'x'.repeat(200_000), 'ü'.repeat(50_000)];
    const records = texts.map((description, n) => ({
      reference: `réf-${n}-✓`,
      state: 'submitted' as const,
      fingerprint: 'f',
      instruction: { ...base, reference: `réf-${n}-✓`, description },
      keys: { create: `k${n}`, execute: `e${n}` },
      attempts: 1,
      updatedAt: '2026-11-28T00:00:00.000Z',
    }));
    await Promise.all(records.map((r) => journal.put(r))); // whole lines, in one group
    await Promise.all(records.map((r) => journal.put({ ...r, state: 'processing' as const, attempts: 2 }))); // copies: whole again
    await Promise.all(records.map((r) => journal.put(Object.assign(r, { state: 'processing' as const, transactionId: `Transaction:${r.reference}` })))); // changes naming the first lines
    for (const r of records) expect(await journal.get(r.reference)).toEqual(r);
    await journal.close();
    expect(
      lines(file)
        .slice(1)
        .map((l) => (l.b === undefined ? 'whole' : 'change')),
    ).toEqual([...texts.map(() => 'whole'), ...texts.map(() => 'whole'), ...texts.map(() => 'change')]);
    expect(readJournalFile(file).records).toEqual(records);
    const again = new FileJournal(file);
    expect([...((await again.open('bu')) as Iterable<unknown>)]).toEqual(records);
    await again.close();
  });

  it('writes a reference whole once, then only what changes with the offset of that line; every reader rebuilds the whole record', async () => {
    const file = join(tmp(), 'j');
    const list = instructions(3);
    const { client } = fakeClient(new Set(['ref-1']));
    const journal = new FileJournal(file);
    await createPayoutBatch({ client, batchId: 'b2', journal, pollIntervalMs: 1 }).run(list);
    await journal.close();
    const text = readFileSync(file, 'utf8');
    const all = lines(file);
    expect(all[0]).toMatchObject({ format: 'crossborder-payout-journal/2', batchId: 'b2' });
    const starts: number[] = [];
    for (let at = 0; at < text.length; at = text.indexOf('\n', at) + 1) starts.push(Buffer.byteLength(text.slice(0, at)));
    for (const ref of ['ref-0', 'ref-1', 'ref-2']) {
      const own = all.map((l, n) => ({ l, at: starts[n]! })).filter(({ l }) => l.reference === ref);
      expect(own.map(({ l }) => l.state)).toEqual(ref === 'ref-1' ? ['submitted', 'processing', 'completed'] : ['submitted', 'processing', 'completed']);
      expect(own[0]!.l).toMatchObject({
        instruction: list.find((i) => i.reference === ref),
        fingerprint: instructionFingerprintV2(list.find((i) => i.reference === ref)!),
      });
      for (const { l } of own.slice(1)) {
        expect(l.b).toBe(own[0]!.at); // the byte offset of its full line
        expect(l).not.toHaveProperty('instruction');
        expect(l).not.toHaveProperty('keys');
        expect(l).not.toHaveProperty('fingerprint');
      }
    }
    const expected = (ref: string, k: number) => ({
      reference: ref,
      state: 'completed',
      fingerprint: instructionFingerprintV2(list[k]!),
      instruction: list[k],
      keys: { create: payoutKey('b2', ref, 'create'), execute: payoutKey('b2', ref, 'execute') },
      attempts: 1,
      transactionId: expect.stringMatching(/^Transaction:n/),
      transactionStatus: 'COMPLETED',
      quote: expect.objectContaining({ sendingAmount: 130 + k, receivingAmount: 100 + k }),
    });
    const read = byReference(readJournalFile(file).records, ['ref-0', 'ref-1', 'ref-2']);
    expect(read).toEqual([0, 1, 2].map((k) => expect.objectContaining(expected(`ref-${k}`, k))));
    for (const r of read) expect(r).not.toHaveProperty('b');
    expect(byReference([...journalRecords(file).records], ['ref-0', 'ref-1', 'ref-2'])).toEqual(read);
    const again = new FileJournal(file);
    expect(byReference([...(await again.open('b2'))], ['ref-0', 'ref-1', 'ref-2'])).toEqual(read);
    expect(await again.get('ref-1')).toEqual(read[1]);
    // A rerun of the same instructions: nothing "changed", nothing sent again.
    await again.close();
    const rerun = fakeClient();
    const third = new FileJournal(file);
    const summary = await createPayoutBatch({ client: rerun.client, batchId: 'b2', journal: third }).run(list);
    await third.close();
    expect(summary).toMatchObject({ rejected: [], counts: { completed: 3 } });
    expect(rerun.creates).toEqual([]);
  });

  it('a resumed record is written whole again once, then as changes; a torn change line is dropped; a change line naming another line is corruption', async () => {
    const file = join(tmp(), 'j');
    const list = instructions(2);
    const stop = new AbortController();
    // First run: stopped with both references submitted (their creates never answer).
    const hanging: PayoutClient = {
      ...fakeClient().client,
      quotes: {
        // Never answers; stops when the run does.
        create: (_body, options) =>
          new Promise((_, reject) =>
            options?.signal?.addEventListener('abort', () => reject(new APIUserAbortError('stopped', { outcomeUnknown: true })), { once: true }),
          ),
        execute: async () => ({}) as never,
      },
    };
    const firstJournal = new FileJournal(file);
    const first = createPayoutBatch({ client: hanging, batchId: 'b3', journal: firstJournal, signal: stop.signal, initialConcurrency: 4 });
    const running = first.run(list).catch((e: unknown) => e);
    for (let i = 0; i < 400 && !(existsSync(file) && lines(file).length >= 3); i++) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await running;
    await firstJournal.close();
    const submittedOnly = readFileSync(file, 'utf8');
    expect(
      lines(file)
        .slice(1)
        .map((l) => [l.reference, l.state, 'b' in l]),
    ).toEqual([
      ['ref-0', 'submitted', false],
      ['ref-1', 'submitted', false],
    ]);
    const { client } = fakeClient();
    const secondJournal = new FileJournal(file);
    await createPayoutBatch({ client, batchId: 'b3', journal: secondJournal, pollIntervalMs: 1 }).run(list);
    await secondJournal.close();
    const appended = lines(file).slice(3);
    // Read back from the file: new objects, so each is whole once (attempt 2 submitted), then changes.
    for (const ref of ['ref-0', 'ref-1']) {
      const own = appended.filter((l) => l.reference === ref);
      expect(own.map((l) => [l.state, 'b' in l])).toEqual([
        ['submitted', false],
        ['processing', true],
        ['completed', true],
      ]);
    }
    expect(byReference(readJournalFile(file).records, ['ref-0', 'ref-1']).map((r) => [r.reference, r.state, r.attempts])).toEqual([
      ['ref-0', 'completed', 2],
      ['ref-1', 'completed', 2],
    ]);
    // A kill mid-write of a change line: dropped, the reference's previous line stands.
    const whole = readFileSync(file, 'utf8');
    const lastLine = whole.slice(whole.lastIndexOf('\n', whole.length - 2) + 1);
    const torn = lastLine.replace('"completed"', '"failed"').slice(0, 30);
    appendFileSync(file, torn);
    const journal = new FileJournal(file);
    expect([...(await journal.open('b3'))].map((r) => r.state)).toEqual(['completed', 'completed']);
    await journal.close();
    expect(readFileSync(file, 'utf8')).toBe(whole);
    // A change line whose offset is not its reference's full line.
    const change = JSON.parse(lastLine) as Record<string, unknown>;
    appendFileSync(
      file,
      `${JSON.stringify({ ...change, b: Buffer.byteLength(submittedOnly.slice(0, submittedOnly.indexOf('\n') + 1)) + (change.reference === 'ref-0' ? Buffer.byteLength(submittedOnly.split('\n')[1]!) + 1 : 0) })}\n`,
    );
    expect(() => readJournalFile(file)).toThrow(PayoutJournalError);
    writeFileSync(file, `${whole}${JSON.stringify({ ...change, b: 3 })}\n`);
    expect(() => readJournalFile(file)).toThrow(/names its full line at byte 3/);
  });
});
