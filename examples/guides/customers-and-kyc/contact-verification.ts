import type { Crossborder, Customer } from 'crossborder-sdk';

/**
 * Verifies the contact channels a customer's provider requires (EU customers: `contactVerification` lists them,
 * each PENDING until confirmed; other customers have none). A code is sent to each, and the customer types it in.
 */
export async function verifyContacts(cb: Crossborder, customerId: string, codeFor: (channel: 'email' | 'phone') => Promise<string>): Promise<Customer> {
  let customer = await cb.customers.retrieve(customerId);
  if (customer.contactVerification?.email === 'PENDING') {
    await cb.customers.verifyEmail(customerId);
    customer = await cb.customers.confirmEmail(customerId, { code: await codeFor('email') });
  }
  if (customer.contactVerification?.phone === 'PENDING') {
    await cb.customers.verifyPhone(customerId);
    customer = await cb.customers.confirmPhone(customerId, { code: await codeFor('phone') });
  }
  return customer;
}
