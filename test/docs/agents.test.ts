import { PermissionDeniedError, type APIError, type AgentAction } from 'crossborder-sdk';
import { describe, expect, it } from 'vitest';
import { exchangeToEur, onAgentEvent, payOut } from '../../examples/guides/agents/act';
import { connectAgent, createAgent, PAYROLL_POLICY } from '../../examples/guides/agents/connect';
import { read } from './markdown';
import { ADA, sandboxWithWebhooks } from './support';

const guide = read('docs/agents.md');

async function refused(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    return error as APIError;
  }
  throw new Error('expected the call to be refused');
}

describe('docs/agents.md', () => {
  it('creates an agent, connects it, acts within the policy; held actions are approved (run once) or rejected (never run)', async () => {
    const { sandbox, cb, received } = await sandboxWithWebhooks();
    // A customer with $1,000.00 in USD, an EUR account and a USD bank account of their own.
    const customer = await cb.customers.create({ ...ADA, currencies: ['USD', 'EUR'] });
    const account = async (currency: string) => (await cb.internalAccounts.list({ customerId: customer.id, currency })).data[0]!;
    const usd = await cb.sandbox.fundInternalAccount((await account('USD')).id, { amount: 100_000 });
    const eur = await account('EUR');
    const bank = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });

    const { agentId, deviceCode } = await createAgent(cb, customer.id);
    expect(deviceCode).toMatchObject({ agentId, redeemed: false, code: expect.stringMatching(/^GRID-AGENT-/) });
    expect(await cb.agents.retrieve(agentId)).toMatchObject({ isConnected: false, policy: PAYROLL_POLICY });
    const agent = await connectAgent(cb, deviceCode.code, { environment: 'sandbox', fetch: sandbox.fetch });
    expect(await agent.agents.me.retrieve()).toMatchObject({ id: agentId, isConnected: true, customerId: customer.id });
    // Once only: the code is spent, and the credential is not kept in the sandbox's state.
    expect((await refused(cb.agents.redeemDeviceCode(deviceCode.code))).code).toBe('DEVICE_CODE_ALREADY_REDEEMED');
    expect(JSON.stringify(sandbox.exportState())).not.toMatch(/gat_[0-9a-f]{40}/);

    // Within the policy: runs at once, with its transaction.
    const paid = await payOut(agent, usd.id, bank.id, 12_550);
    expect(paid).toMatchObject({ status: 'APPROVED', type: 'TRANSFER_OUT', transaction: { type: 'OUTGOING', receivedAmount: { amount: 12_550 } } });
    const exchanged = await exchangeToEur(agent, usd.id, eur.id);
    expect(exchanged).toMatchObject({ status: 'APPROVED', type: 'EXECUTE_QUOTE', quote: { totalSendingAmount: expect.any(Number) } });
    const exchangedTotal = exchanged.quote!.totalSendingAmount;
    expect(exchangedTotal).toBeGreaterThanOrEqual(2_500);
    expect(sandbox.state.balance(usd.id)).toBe(100_000 - 12_550 - exchangedTotal);
    expect(exchanged.transaction?.id).toBe(exchanged.quote!.transactionId);

    // Beyond the per-action limit: refused, nothing moves.
    const beyond = await refused(payOut(agent, usd.id, bank.id, 50_001));
    expect(beyond).toBeInstanceOf(PermissionDeniedError);
    expect([beyond.status, beyond.code, (beyond.details as { limit?: string }).limit]).toEqual([403, 'AGENT_SPENDING_LIMIT_EXCEEDED', 'perTransactionLimit']);

    // Above the approval threshold: held; the webhook handler approves $300.00 (it runs once), rejects $450.00.
    const before = 100_000 - 12_550 - exchangedTotal;
    const held = [await payOut(agent, usd.id, bank.id, 30_000), await payOut(agent, usd.id, bank.id, 45_000)];
    expect(held.map((a) => [a.status, a.transaction])).toEqual([
      ['PENDING_APPROVAL', undefined],
      ['PENDING_APPROVAL', undefined],
    ]);
    expect(sandbox.state.balance(usd.id)).toBe(before);
    expect((await cb.agents.listApprovals({ agentId })).data.map((a) => a.id).sort()).toEqual(held.map((a) => a.id).sort());
    await sandbox.webhooks.flush();
    const decided: AgentAction[] = [];
    for (const r of received) {
      const decision = await onAgentEvent(cb, await cb.webhooks.unwrap(r.body, r.headers), 40_000);
      if (decision) decided.push(decision);
    }
    expect(decided.map((a) => [a.id, a.status])).toEqual([
      [held[0]!.id, 'APPROVED'],
      [held[1]!.id, 'REJECTED'],
    ]);
    expect(decided[0]!.transaction).toMatchObject({ type: 'OUTGOING', receivedAmount: { amount: 30_000 } });
    expect(decided[1]!.rejectionReason).toBe('USER_CANCELLATION');
    expect(sandbox.state.balance(usd.id)).toBe(before - 30_000);
    // Decided once: a second approval is refused, and nothing moves again.
    expect((await refused(cb.agents.approveAction(agentId, held[0]!.id))).code).toBe('AGENT_ACTION_NOT_PENDING');
    expect(sandbox.state.balance(usd.id)).toBe(before - 30_000);
    expect((await agent.agents.me.actions.list({ status: 'REJECTED' })).data.map((a) => a.id)).toEqual([held[1]!.id]);
    // The rejected action gave its usage back: what ran is counted.
    expect((await agent.agents.me.retrieve()).usage).toMatchObject({ dailySpend: 12_550 + exchangedTotal + 30_000, dailyTransactionCount: 3 });

    for (const line of [
      'npx crossborder-sdk agents create --name',
      'npx crossborder-sdk agents redeem-device-code',
      'npx crossborder-sdk agents me transfer-out',
      'npx crossborder-sdk agents me quotes execute',
      'npx crossborder-sdk agents approve-action',
      'npx crossborder-sdk agents reject-action',
    ])
      expect(guide).toContain(line);
    await sandbox.close();
  });
});
