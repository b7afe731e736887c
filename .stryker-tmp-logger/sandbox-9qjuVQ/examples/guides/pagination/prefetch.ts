// @ts-nocheck
import type { Crossborder, Customer } from 'crossborder-sdk';

/** Slow work per item: with prefetch, the next page is on its way while this one is processed. */
export async function screenEveryCustomer(cb: Crossborder, screen: (customer: Customer) => Promise<void>): Promise<void> {
  for await (const customer of cb.customers.list({ limit: 100 }, { prefetch: true })) {
    await screen(customer);
  }
}
