/**
 * The sandbox the reliability scenarios send money through: frozen clock, seeded ids, listening on 127.0.0.1, a
 * client straight to it (setup and reconciliation: in-process, no faults, no sockets), and a sender with a USD
 * internal account and a USD bank account. The scenarios put their fault proxy in front of `server.url`.
 */
import { Crossborder } from '../../src/client';
import { createClock } from '../../src/sandbox/domain/clock';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import { SEED } from './support';

export interface ReliabilityWorld {
  sandbox: Sandbox;
  server: SandboxServer;
  /** Straight to the sandbox, no retries: setup and reconciliation. */
  direct: Crossborder;
  /** The credentials and environment a scenario's own client uses against the proxy. */
  base: { tokenId: string; clientSecret: string; environment: 'sandbox' };
  /** The sender: a customer with a USD internal account (`source`) and a USD external bank account (`bank`). */
  customerId: string;
  source: string;
  bank: string;
}

/** Starts the sandbox and makes the sender `fullName`, with the credentials `tokenId`/`clientSecret`. */
export async function startReliabilityWorld(tokenId: string, clientSecret: string, fullName: string): Promise<ReliabilityWorld> {
  const sandbox = createSandbox({ clock: createClock(undefined, { frozen: true }), seed: SEED });
  const server = await sandbox.listen();
  const base = { tokenId, clientSecret, environment: 'sandbox' as const };
  const direct = new Crossborder({ ...base, baseUrl: server.url, maxRetries: 0, fetch: sandbox.fetch });
  const customer = await direct.customers.create({ customerType: 'INDIVIDUAL', fullName, region: 'US', currencies: ['USD'] });
  const source = (await direct.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.id;
  const bank = (
    await direct.externalAccounts.create({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    })
  ).id;
  return { sandbox, server, direct, base, customerId: customer.id, source, bank };
}
