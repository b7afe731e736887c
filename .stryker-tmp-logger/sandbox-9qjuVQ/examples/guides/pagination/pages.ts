// @ts-nocheck
import type { Crossborder, Customer } from 'crossborder-sdk';

/** Exports customers a page at a time, e.g. one database transaction per page. */
export async function exportCustomers(cb: Crossborder, save: (batch: Customer[]) => Promise<void>): Promise<number> {
  let pages = 0;
  for await (const page of cb.customers.list({ limit: 100 }).pages()) {
    await save(page.data);
    pages++;
  }
  return pages;
}
