// @ts-nocheck
import type { Crossborder } from 'crossborder-sdk';

/** Every customer of a region, across as many pages as it takes. */
export async function customerIds(cb: Crossborder, region: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const customer of cb.customers.list({ region, limit: 100 })) ids.push(customer.id);
  return ids;
}
