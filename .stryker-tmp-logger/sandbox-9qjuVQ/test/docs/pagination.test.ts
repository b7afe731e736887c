// @ts-nocheck
import { Crossborder } from 'crossborder-sdk';
import { describe, expect, it } from 'vitest';
import { firstPendingReview } from '../../examples/guides/pagination/early-break';
import { customerIds } from '../../examples/guides/pagination/every-item';
import { transactionsPage } from '../../examples/guides/pagination/one-page';
import { exportCustomers } from '../../examples/guides/pagination/pages';
import { screenEveryCustomer } from '../../examples/guides/pagination/prefetch';
import { fundedCustomer, sandboxClient } from './support';

/** A sandbox with `count` customers, and the list requests the client sends. */
async function customers(count: number, name = (i: number) => `Customer ${i}`) {
  const requests: string[] = [];
  const { sandbox, cb } = sandboxClient();
  const counting = new Crossborder({
    tokenId: 'test',
    clientSecret: 'test',
    environment: 'sandbox',
    fetch: (url, init) => {
      if (init.method === 'GET' && new URL(url).pathname.endsWith('/customers')) requests.push(new URL(url).search);
      return sandbox.fetch(url, init);
    },
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await cb.customers.create({ customerType: 'INDIVIDUAL', region: i % 2 ? 'GB' : 'US', fullName: name(i) })).id);
  }
  return { sandbox, cb: counting, ids, requests };
}

describe('docs/pagination.md', () => {
  it('every item: for await walks all pages of a filtered list', async () => {
    const { cb, ids, requests, sandbox } = await customers(230);
    const us = await customerIds(cb, 'US');
    expect(us.sort()).toEqual(ids.filter((_, i) => i % 2 === 0).sort());
    expect(requests).toHaveLength(2); // 115 customers, pages of 100
    expect(requests.every((q) => q.includes('region=US'))).toBe(true);
    await sandbox.close();
  });

  it('one page: rows, totalCount and the cursor of the next page', async () => {
    const { sandbox, cb } = sandboxClient();
    const { customer, account, payee } = await fundedCustomer(cb, { amount: 1_000_000 });
    for (let i = 0; i < 25; i++) {
      await cb.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: account.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000 + i,
      });
    }
    const first = await transactionsPage(cb, customer.id);
    expect(first.rows).toHaveLength(20);
    expect(first.total).toBe(25);
    expect(first.next).toEqual(expect.any(String));
    const second = await transactionsPage(cb, customer.id, first.next);
    expect(second.rows).toHaveLength(5);
    expect(second.next).toBeUndefined();
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(25);
    await sandbox.close();
  });

  it('pages: one batch per page', async () => {
    const { cb, sandbox } = await customers(250);
    const batches: number[] = [];
    expect(await exportCustomers(cb, async (batch) => void batches.push(batch.length))).toBe(3);
    expect(batches).toEqual([100, 100, 50]);
    await sandbox.close();
  });

  it('prefetch: the next page is requested while the current one is processed', async () => {
    const { cb, requests, sandbox } = await customers(150);
    const requestsWhenScreened: number[] = [];
    await screenEveryCustomer(cb, async () => {
      await new Promise((r) => setImmediate(r));
      requestsWhenScreened.push(requests.length);
    });
    expect(requestsWhenScreened).toHaveLength(150);
    expect(requestsWhenScreened[0]).toBe(2); // page 2 was on its way while item 1 was screened
    await sandbox.close();
  });

  it('early break: no request for the pages after the match', async () => {
    // Lists come newest first: the 8th newest customer is on the first page of 50.
    const { cb, ids, requests, sandbox } = await customers(160, (i) => (i === 152 ? 'Grace Hopper Pending' : `Customer ${i}`));
    const found = await firstPendingReview(cb);
    expect(found?.id).toBe(ids[152]);
    expect(requests).toHaveLength(1); // 4 pages of 50 exist; only the first was fetched
    await sandbox.close();
  });
});
