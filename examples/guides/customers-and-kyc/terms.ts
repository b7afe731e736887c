import type { Crossborder } from 'crossborder-sdk';

/** The End User Terms to show a customer before onboarding: the current version and where it is hosted. */
export async function currentTerms(cb: Crossborder) {
  const { version, url } = await cb.customers.endUserTerms();
  return { version, url }; // keep `version` with the customer's acceptance
}
