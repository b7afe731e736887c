import type { Crossborder } from 'crossborder-sdk';

/** A hosted KYC (or, for a business, KYB) flow: send the customer to `url`; they come back to `redirectUri`. */
export async function hostedKyc(cb: Crossborder, customerId: string, redirectUri: string) {
  const link = await cb.customers.createKycLink(customerId, { redirectUri });
  return { url: link.kycUrl, validUntil: link.expiresAt }; // single use: make a new one each time
}
