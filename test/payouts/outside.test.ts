/**
 * What engineer S3 found from the outside in the runner (src/payouts/runner.ts, not S3's to change):
 * each case is a failing test, skipped until the runner is fixed, with the defect named.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPayoutBatch, MemoryJournal } from '../../src/payouts/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { sandboxClient, setUpWorld } from './world';

let sandbox: Sandbox;
afterEach(() => sandbox?.close());

describe('runner: instructions refused before anything is sent', () => {
  // DEFECT (runner.ts, instructionProblem): an empty account id passes the check (`typeof accountId ===
  // 'string'`), so `{ source: { accountId: '' } }` or `{ destination: { accountId: '' } }` is sent; the
  // service answers 404 ACCOUNT_NOT_FOUND "Account  was not found", and the item ends `failed` with a
  // reason naming no field. The CLI no longer makes such instructions (an empty column is no source),
  // but a library user's does. Expected: `rejected`, 'source.accountId: required', nothing sent.
  it.skip('rejects an empty source or destination account id, naming the field, and sends nothing', async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb, 1);
    const requests: string[] = [];
    const counting = sandboxClient(sandbox, (async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`);
      return sandbox.fetch(input, init);
    }) as typeof fetch);
    const summary = await createPayoutBatch({ client: counting, batchId: 'empty-ids', journal: new MemoryJournal(), pollIntervalMs: 50 }).run([
      { reference: 'no-source', source: { accountId: '' }, destination: { accountId: world.payees[0]! }, amount: 100 },
      { reference: 'no-destination', source: { accountId: world.accountId }, destination: { accountId: '' }, amount: 100 },
    ]);
    expect(summary.rejected).toEqual([
      { reference: 'no-source', reason: 'source.accountId: required' },
      { reference: 'no-destination', reason: 'destination.accountId: required' },
    ]);
    expect(summary.failed).toEqual([]);
    expect(requests.filter((r) => r.startsWith('POST'))).toEqual([]);
    expect(sandbox.ledger.executions).toHaveLength(0);
  });
});
