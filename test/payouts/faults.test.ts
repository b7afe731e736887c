/** The sandbox's faults over its control plane, and their checks. */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { sandboxClient, setUpWorld } from './world';

let sandbox: Sandbox;
afterEach(() => sandbox?.close());
const AUTH = { authorization: `Basic ${btoa('tok:sk')}`, 'content-type': 'application/json' };

describe('sandbox faults', () => {
  it('PUT /_sandbox/faults sets them (checked, naming the field), GET answers them, and the rate limit answers 429 with Retry-After', async () => {
    sandbox = createSandbox();
    const server = await sandbox.listen();
    const put = (body: unknown) => fetch(`${server.url}/_sandbox/faults`, { method: 'PUT', headers: AUTH, body: JSON.stringify(body) });
    const bad = await put({ rateLimit: { requestsPerSecond: -1 } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'faults.rateLimit.requestsPerSecond' } });
    expect((await put({ nonsense: 1 })).status).toBe(400);
    const ok = await put({ rateLimit: { requestsPerSecond: 2, burst: 2 } });
    expect(await ok.json()).toEqual({ rateLimit: { requestsPerSecond: 2, burst: 2 } });
    expect(await (await fetch(`${server.url}/_sandbox/faults`, { headers: AUTH })).json()).toEqual({ rateLimit: { requestsPerSecond: 2, burst: 2 } });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${server.url}/2025-10-13/customers`, { headers: AUTH });
      statuses.push(r.status);
      if (r.status === 429) {
        retryAfter = r.headers.get('retry-after');
        expect(await r.json()).toMatchObject({ code: 'RATE_LIMITED' });
      } else await r.body?.cancel();
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses.slice(2)).toEqual([429, 429]);
    expect(retryAfter).toBe('1');
    // The controls themselves are never rate limited.
    expect((await put({})).status).toBe(200);
    expect((await fetch(`${server.url}/2025-10-13/customers`, { headers: AUTH })).status).toBe(200);
  });

  it('the ledger counts executions by key, over HTTP too; latency delays each API answer', async () => {
    sandbox = createSandbox({ faults: { latency: { ms: 60 } } });
    const server = await sandbox.listen();
    const cb = sandboxClient(sandbox, fetch, server.url);
    const world = await setUpWorld(cb, 1);
    const started = performance.now();
    const body = {
      source: { sourceType: 'ACCOUNT' as const, accountId: world.accountId },
      destination: { destinationType: 'ACCOUNT' as const, accountId: world.payees[0]! },
      lockedCurrencySide: 'SENDING' as const,
      lockedCurrencyAmount: 500,
      immediatelyExecute: true,
      description: 'memo',
    };
    await cb.quotes.create(body, { idempotencyKey: 'key-1' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    await cb.quotes.create(body, { idempotencyKey: 'key-1' }); // replayed: no second execution
    const { data } = (await (await fetch(`${server.url}/_sandbox/ledger`, { headers: AUTH })).json()) as {
      data: { idempotencyKey: string; description: string; amount: number }[];
    };
    expect(data).toEqual([expect.objectContaining({ idempotencyKey: 'key-1', createKey: 'key-1', description: 'memo', amount: 500 })]);
    sandbox.reset();
    expect(sandbox.ledger.executions).toEqual([]);
  });
});
