// @ts-nocheck
import type { Crossborder } from 'crossborder-sdk';

/** The first customer still waiting for KYC review. Leaving the loop stops the pagination. */
export async function firstPendingReview(cb: Crossborder) {
  for await (const customer of cb.customers.list({ limit: 50 })) {
    if (customer.kycStatus === 'PENDING') return customer; // no request is made for later pages
  }
  return undefined;
}
