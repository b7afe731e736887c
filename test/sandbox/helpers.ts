/** Test helpers: raw-fetch calls against a sandbox, and a few fixtures. */
import { createClock, createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxOptions } from '../../src/sandbox/sandbox';

export const VERSION = '2025-10-13';
export const AUTH = `Basic ${btoa('tok_test:sk_test')}`;

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A raw API caller over any fetch (in-process or HTTP). */
export function caller(fetchFn: (input: string, init: RequestInit) => Promise<Response>, origin = 'http://sandbox.test') {
  return async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const init: RequestInit = { method, headers: { authorization: AUTH, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const response = await fetchFn(`${origin}/${VERSION}${path}`, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
  };
}

export type Call = ReturnType<typeof caller>;

/** A fresh in-process sandbox and its caller. */
export function setup(options: SandboxOptions = {}): { sandbox: Sandbox; call: Call } {
  const sandbox = createSandbox(options);
  return { sandbox, call: caller((input, init) => sandbox.fetch(input, init)) };
}

export const ADDRESS = { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' };

/** Creates a complete (KYC-approved) individual customer. */
export async function createCustomer(call: Call, overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
    address: ADDRESS,
    ...overrides,
  });
  if (res.status !== 200) throw new Error(`createCustomer: ${res.status} ${res.text}`);
  return res.body;
}

/** The identity of a beneficial owner (production's example person). */
export const PERSON = {
  firstName: 'Jane',
  lastName: 'Smith',
  birthDate: '1978-06-15',
  nationality: 'US',
  address: ADDRESS,
  idType: 'SSN',
  identifier: '123-45-6789',
};

/** Adds the control person a business's KYB needs (POST /beneficial-owners). */
export async function addControlPerson(call: Call, customerId: string, overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/beneficial-owners', {
    customerId,
    roles: ['CONTROL_PERSON', 'UBO'],
    ownershipPercentage: 60,
    personalInfo: PERSON,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`addControlPerson: ${res.status} ${res.text}`);
  return res.body;
}

/** The customer's internal account in `currency`. */
export async function accountOf(call: Call, customerId: string, currency: string) {
  const res = await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=${currency}`);
  const account = res.body.data[0];
  if (!account) throw new Error(`no ${currency} account for ${customerId}`);
  return account;
}

/** Funds an internal account through the sandbox endpoint. */
export async function fund(call: Call, accountId: string, amount: number) {
  const res = await call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount });
  if (res.status !== 200) throw new Error(`fund: ${res.status} ${res.text}`);
  return res.body;
}

/** Registers a USD bank account for a customer. */
export async function usdBank(call: Call, customerId: string, accountNumber = '000123456789', extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/customers/external-accounts', {
    customerId,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber,
      routingNumber: '021000021',
      accountCategory: 'CHECKING',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    },
    ...extra,
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`usdBank: ${res.status} ${res.text}`);
  return res.body;
}

export async function balance(call: Call, accountId: string): Promise<number> {
  const all = await call('GET', '/customers/internal-accounts?limit=100');
  return all.body.data.find((a: { id: string }) => a.id === accountId).balance.amount;
}

/** An error answer has the decisions.md body and an X-Request-Id. */
export function expectError(res: Answer, status: number, code: string): void {
  if (res.status !== status || res.body?.code !== code || res.body?.status !== status || typeof res.body?.message !== 'string') {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
  if (!res.headers.get('x-request-id')) throw new Error('missing X-Request-Id');
}

/**
 * Exports `sandbox`'s state and imports it into a fresh sandbox, which must take every record (the
 * import checks each one) and export the same world again. Returns the number of records per table.
 */
export function roundTrip(sandbox: Sandbox): Record<string, number> {
  const doc = sandbox.exportState();
  // At the exporting sandbox's time: what is kept for a window (Idempotency-Keys) is still within it.
  const other = createSandbox({ clock: createClock(doc.savedAt, { frozen: true }) });
  try {
    other.importState(JSON.stringify(doc));
    const again = other.exportState();
    if (JSON.stringify(again.world) !== JSON.stringify(doc.world)) throw new Error('the imported world exports differently');
  } finally {
    void other.close();
  }
  return Object.fromEntries(
    Object.entries(doc.world)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => [k, (v as unknown[]).length]),
  );
}
