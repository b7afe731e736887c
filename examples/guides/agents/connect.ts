import { Crossborder, type AgentDeviceCode, type AgentPolicy, type ClientOptions } from 'crossborder-sdk';

/**
 * What the agent may do for its customer: read its transactions, send money out and exchange currencies, on its
 * own up to $200.00 an action; above that a human approves. Never more than $500.00 an action, nor $1,000.00 a
 * day, nor ten actions a day.
 */
export const PAYROLL_POLICY: AgentPolicy = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000, dailyTransactionLimit: 10 },
  approvalThresholds: { currency: 'USD', amount: 20_000 },
};

/** The platform creates the agent for one customer; the device code is what it hands to the agent's software. */
export async function createAgent(cb: Crossborder, customerId: string): Promise<{ agentId: string; deviceCode: AgentDeviceCode }> {
  const { agent, deviceCode } = await cb.agents.create({ name: 'Payroll bot', customerId, policy: PAYROLL_POLICY });
  return { agentId: agent.id, deviceCode };
}

/**
 * Redeems the device code, once and within a day, for the agent's credential, and answers a client that is the
 * agent (`agentToken`). The `accessToken` is answered this once: keep it as a secret, never log it.
 */
export async function connectAgent(cb: Crossborder, code: string, options: ClientOptions = {}): Promise<Crossborder> {
  const { accessToken } = await cb.agents.redeemDeviceCode(code);
  return new Crossborder({ ...options, agentToken: accessToken });
}
