import type { AgentAction, Crossborder, UnknownEvent, WebhookEvent } from 'crossborder-sdk';

/**
 * The agent pays its customer's bank account from the customer's USD account. Within the policy it runs at
 * once: `APPROVED`, with its transaction. Above the approval threshold it waits, `PENDING_APPROVAL`, and
 * nothing moves until the platform decides. Beyond a limit it is refused: `PermissionDeniedError` (403).
 */
export async function payOut(agent: Crossborder, usdAccountId: string, bankAccountId: string, amount: number): Promise<AgentAction> {
  return agent.agents.me.transferOut({ source: { accountId: usdAccountId }, destination: { accountId: bankAccountId }, amount });
}

/**
 * The agent exchanges $25.00 into the customer's EUR account: a quote first (the rate and the fees), then its
 * execution, an action under the policy like a transfer (it counts the quote's total sending amount).
 */
export async function exchangeToEur(agent: Crossborder, usdAccountId: string, eurAccountId: string): Promise<AgentAction> {
  const quote = await agent.agents.me.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usdAccountId },
    destination: { destinationType: 'ACCOUNT', accountId: eurAccountId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 2_500,
  });
  return agent.agents.me.quotes.execute(quote.id);
}

/**
 * The platform's webhook handler: an action held for approval arrives as `AGENT_ACTION.PENDING_APPROVAL` (verify
 * the delivery first, see the webhooks guide). Here a rule decides; a real platform asks the customer. Approved,
 * the action runs once (`APPROVED` with its transaction, or `FAILED` if it no longer can: the quote expired, the
 * funds are short); rejected, it never runs.
 */
export async function onAgentEvent(cb: Crossborder, event: WebhookEvent | UnknownEvent, limit: number): Promise<AgentAction | undefined> {
  if (event.type !== 'AGENT_ACTION.PENDING_APPROVAL') return undefined;
  const action = event.data;
  if ((action.transferDetails?.amount ?? Infinity) <= limit) return cb.agents.approveAction(action.agentId, action.id);
  return cb.agents.rejectAction(action.agentId, action.id, { reason: 'USER_CANCELLATION' });
}
