/** A sandbox world for payout batches: a funded USD account, payees, and a client over a chosen fetch. */
import { Crossborder } from '../../src/index';
import type { Sandbox } from '../../src/sandbox/index';
import { userDescription, type PayoutInstruction } from '../../src/payouts/index';

export interface PayoutWorld {
  accountId: string;
  /** Ordinary payees (USD external accounts). */
  payees: string[];
  /** A payee whose payments fail (magic OFFRAMP_FAILED). */
  failingPayee: string;
}

/** Sets up a customer with `funds` cents in USD and `payees` payees, through `cb`. */
export async function setUpWorld(cb: Crossborder, payees = 3, funds = 90_000_000_000): Promise<PayoutWorld> {
  const customer = await cb.customers.create({
    customerType: 'INDIVIDUAL',
    region: 'US',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
  });
  const {
    data: [account],
  } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
  for (let left = funds; left > 0; left -= 100_000_000_000) await cb.sandbox.fundInternalAccount(account!.id, { amount: Math.min(left, 100_000_000_000) });
  const ids: string[] = [];
  for (let i = 0; i < payees; i++) {
    const payee = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: `00012345${String(i).padStart(4, '0')}`,
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    ids.push(payee.id);
  }
  const failing = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '4000000000000005',
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    },
  });
  return { accountId: account!.id, payees: ids, failingPayee: failing.id };
}

/** A client of `sandbox` over `fetch` (default: in-process). */
export function sandboxClient(sandbox: Sandbox, fetch: typeof globalThis.fetch = sandbox.fetch, baseUrl = 'http://sandbox.test'): Crossborder {
  return new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl, fetch, timeout: 10_000 });
}

/** `n` instructions `ref-0000…`, amounts 100 + i cents, spread over the payees; each description is its reference. */
export function instructions(world: PayoutWorld, n: number, prefix = 'ref'): PayoutInstruction[] {
  return Array.from({ length: n }, (_, i) => {
    const reference = `${prefix}-${String(i).padStart(5, '0')}`;
    return {
      reference,
      source: { accountId: world.accountId },
      destination: { accountId: world.payees[i % world.payees.length]! },
      amount: 100 + i,
      description: reference,
    };
  });
}

/** Executions in the sandbox's ledger per description (= reference, the runner's marker taken off): doubled and missing references. */
export function exactlyOnce(sandbox: Sandbox, references: readonly string[]): { doubled: string[]; missing: string[]; executions: number } {
  const per = new Map<string, number>();
  for (const e of sandbox.ledger.executions) {
    const reference = userDescription(e.description) ?? '?';
    per.set(reference, (per.get(reference) ?? 0) + 1);
  }
  return {
    doubled: [...per].filter(([, n]) => n > 1).map(([r]) => r),
    missing: references.filter((r) => !per.has(r)),
    executions: sandbox.ledger.executions.length,
  };
}
