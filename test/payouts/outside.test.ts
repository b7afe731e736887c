/**
 * What was found by trying the runner from the outside: an instruction with an empty account id was sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPayoutBatch, MemoryJournal } from '../../src/payouts/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { sandboxClient, setUpWorld } from './world';

let sandbox: Sandbox;
afterEach(() => sandbox?.close());

describe('runner: instructions refused before anything is sent', () => {
  // An empty account id passed the check (`typeof accountId === 'string'`) and was sent: the service answered
  // 404 ACCOUNT_NOT_FOUND "Account  was not found", and the item ended `failed` with a reason naming no field.
  it('rejects an empty source or destination account id, naming the field, and sends nothing', async () => {
    sandbox = createSandbox();
    const cb = sandboxClient(sandbox);
    const world = await setUpWorld(cb, 1);
    const requests: string[] = [];
    const counting = sandboxClient(sandbox, async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`);
      return sandbox.fetch(input, init);
    });
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
