/** Shared setup of the docs tests: a sandbox, a client on it, and a funded customer with a payee. */
import { Crossborder, type ClientOptions } from 'crossborder-sdk';
import { createSandbox, type SandboxOptions } from 'crossborder-sdk/sandbox';

/**
 * A sandbox and a client on it. Every wait of the SDK (retry backoff, `waitFor` polls) advances
 * the sandbox clock instead of sleeping, so settlement and expiry take no real time.
 */
export function sandboxClient(options: SandboxOptions = {}, client: ClientOptions = {}) {
  const sandbox = createSandbox(options);
  const cb = new Crossborder({
    tokenId: 'test',
    clientSecret: 'test',
    environment: 'sandbox',
    fetch: sandbox.fetch,
    webhookPublicKey: sandbox.webhookPublicKey.pem,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sandbox.clock.advance(ms);
    },
    ...client,
  });
  return { sandbox, cb };
}

/** A webhook as the sandbox delivered it: its body and headers, to unwrap as a receiver would. */
export interface Delivered {
  body: string;
  headers: Record<string, string>;
}

/** {@link sandboxClient} whose webhooks, answered 200, are kept in `received`, the platform's endpoint set. */
export async function sandboxWithWebhooks(): Promise<ReturnType<typeof sandboxClient> & { received: Delivered[] }> {
  const received: Delivered[] = [];
  const { sandbox, cb } = sandboxClient({
    webhookDelivery: {
      fetch: async (_url: string, init: RequestInit) => {
        received.push({ body: init.body as string, headers: init.headers as Record<string, string> });
        return new Response(null, { status: 200 });
      },
    },
  });
  await cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
  return { sandbox, cb, received };
}

/** An individual whose KYC completes at once: the identity and a US address. */
export const ADA = {
  customerType: 'INDIVIDUAL',
  fullName: 'Ada Lovelace',
  birthDate: '1990-12-10',
  nationality: 'GB',
  address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
} as const;

/** An approved US customer with `amount` cents in its USD account, and a GBP payee. */
export async function fundedCustomer(cb: Crossborder, options: { amount?: number; payeeAccountNumber?: string } = {}) {
  const customer = await cb.customers.create({
    customerType: 'INDIVIDUAL',
    region: 'US',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
  });
  const {
    data: [listed],
  } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
  if (!listed) throw new Error('no USD account');
  const account = await cb.sandbox.fundInternalAccount(listed.id, { amount: options.amount ?? 100_000 });
  const payee = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'GBP',
    accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: options.payeeAccountNumber ?? '31926819', routingNumber: '601613' },
  });
  return { customer, account, payee };
}

/** A fetch that forwards each request, then throws as if the connection dropped before the answer, while `lose(url, init)` says so. */
export function losingFetch(
  fetch: (input: string, init: RequestInit) => Promise<Response>,
  lose: (url: string, init: RequestInit) => boolean,
): (input: string, init: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!lose(input, init)) return response;
    await response.arrayBuffer();
    throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
  };
}
