/**
 * Agents (production's `/agents`): the platform's management of them, their device codes and the approval of
 * their actions, and the agent's own calls under `/agents/me` (with its Bearer credential, under its policy).
 * The rules are in domain/agents.ts; an agent's transfers and quote executions run through the platform's own
 * handlers, and its reads through the platform's lists scoped to its customer.
 * @module
 */
import type {
  AgentActionRejectParams,
  AgentCreateParams,
  AgentPolicyUpdateParams,
  AgentUpdateParams,
  ExternalAccountCreateParams,
  QuoteCreateParams,
  TransferInCreateParams,
  TransferOutCreateParams,
} from '../../generated/types';
import {
  actionView,
  agentQuote,
  agentView,
  approveAction,
  callingAgent,
  createAgent,
  deleteAgent,
  deviceCodeStatus,
  executeSubmission,
  findAction,
  findAgent,
  ownExternal,
  quoteBody,
  redeemDeviceCode,
  regenerateDeviceCode,
  rejectAction,
  requirePermission,
  submitAction,
  transferInSubmission,
  transferOutSubmission,
  updateAgent,
  updatePolicy,
  type Runners,
} from '../domain/agents';
import type { Call, Ctx, Handler } from '../domain/context';
import { notFound } from '../domain/errors';
import { paginate, within } from '../domain/pagination';
import { ok, type Reply } from '../domain/reply';
import { accountRoutes } from './accounts';
import { quoteRoutes } from './quotes';
import { transactionRoutes } from './transactions';

/** The platform handlers an agent's actions run through, each given the ctx of the call. */
const runners = (ctx: Ctx): Runners => ({
  transferIn: (call) => transactionRoutes.createTransferIn(ctx, call),
  transferOut: (call) => transactionRoutes.createTransferOut(ctx, call),
  executeQuote: (call) => quoteRoutes.executeQuote(ctx, call),
});

const list: Handler = (ctx, call) => {
  const q = call.query as {
    customerId?: string;
    isPaused?: boolean;
    isConnected?: boolean;
    createdAfter?: string;
    createdBefore?: string;
    updatedAfter?: string;
    updatedBefore?: string;
    limit?: number;
    cursor?: string;
  };
  const matches = [...ctx.world.agents.values()].filter(
    (a) =>
      !a.deleted &&
      (q.customerId === undefined || a.data.customerId === q.customerId) &&
      (q.isPaused === undefined || a.data.isPaused === q.isPaused) &&
      (q.isConnected === undefined || a.data.isConnected === q.isConnected) &&
      within(a.data.createdAt, q.createdAfter, q.createdBefore) &&
      within(a.data.updatedAt, q.updatedAfter, q.updatedBefore),
  );
  return ok(paginate(matches, q, (a) => agentView(ctx, a)));
};

const listApprovals: Handler = (ctx, call) => {
  const q = call.query as {
    agentId?: string;
    customerId?: string;
    startDate?: string;
    endDate?: string;
    limit?: number;
    cursor?: string;
    sortOrder?: 'asc' | 'desc';
  };
  const matches = [...ctx.world.agentActions.values()].filter(
    (a) =>
      a.data.status === 'PENDING_APPROVAL' &&
      (q.agentId === undefined || a.data.agentId === q.agentId) &&
      (q.customerId === undefined || a.data.customerId === q.customerId) &&
      within(a.data.createdAt, q.startDate, q.endDate),
  );
  return ok(paginate(matches, q, (a) => actionView(ctx, a)));
};

/** A platform list scoped to the calling agent's customer. */
const scoped =
  (handler: Handler, permission?: string): Handler =>
  (ctx, call) => {
    const agent = callingAgent(ctx, call);
    if (permission !== undefined) requirePermission(agent, permission);
    return handler(ctx, { ...call, query: { ...call.query, customerId: agent.data.customerId } });
  };

const meTransaction: Handler = (ctx, call) => {
  const agent = callingAgent(ctx, call);
  requirePermission(agent, 'VIEW_TRANSACTIONS');
  const tx = ctx.world.transactions.get(call.params.transactionId!);
  if (!tx || tx.data.customerId !== agent.data.customerId) throw notFound('TRANSACTION_NOT_FOUND', 'Transaction', call.params.transactionId!);
  return ok(tx.data);
};

const meCreateQuote: Handler = async (ctx, call) => {
  const agent = callingAgent(ctx, call);
  requirePermission(agent, 'CREATE_QUOTES');
  const body = call.body as QuoteCreateParams;
  const sent = quoteBody(ctx, agent, body);
  const reply = await quoteRoutes.createQuote(ctx, { ...call, body: sent, json: sent });
  const quoteId = (reply.body as { id: string }).id;
  agent.quoteIds.push(quoteId);
  // immediatelyExecute: the execution is the agent's action, under its policy (it may wait for approval).
  if (body.immediatelyExecute === true) await submitAction(ctx, agent, runners(ctx), executeSubmission(ctx, agent, quoteId), call);
  return ok(agentQuote(ctx, agent, quoteId).data, 201);
};

const meExecuteQuote: Handler = async (ctx, call) => {
  const agent = callingAgent(ctx, call);
  const reply = await submitAction(ctx, agent, runners(ctx), executeSubmission(ctx, agent, call.params.quoteId!), call);
  // Production answers 200 for an execution.
  return reply.status === 201 ? ok(reply.body, 200) : reply;
};

const meTransferIn: Handler = (ctx, call) => {
  const agent = callingAgent(ctx, call);
  return submitAction(ctx, agent, runners(ctx), transferInSubmission(ctx, agent, call.body as TransferInCreateParams), call);
};

const meTransferOut: Handler = (ctx, call) => {
  const agent = callingAgent(ctx, call);
  return submitAction(ctx, agent, runners(ctx), transferOutSubmission(ctx, agent, call.body as TransferOutCreateParams), call);
};

const meActions: Handler = (ctx, call) => {
  const agent = callingAgent(ctx, call);
  const q = call.query as { status?: string; limit?: number; cursor?: string };
  const matches = [...ctx.world.agentActions.values()].filter(
    (a) => a.data.agentId === agent.data.id && (q.status === undefined || a.data.status === q.status),
  );
  return ok(paginate(matches, q, (a) => actionView(ctx, a)));
};

/** An external-account call of the agent: its customer's accounts only, with MANAGE_EXTERNAL_ACCOUNTS. */
const meExternal =
  (handler: Handler): Handler =>
  (ctx, call) => {
    const agent = callingAgent(ctx, call);
    requirePermission(agent, 'MANAGE_EXTERNAL_ACCOUNTS');
    ownExternal(ctx, agent, call.params.externalAccountId!);
    return handler(ctx, call);
  };

const meCreateExternal: Handler = (ctx, call) => {
  const agent = callingAgent(ctx, call);
  requirePermission(agent, 'MANAGE_EXTERNAL_ACCOUNTS');
  const body = call.body as ExternalAccountCreateParams;
  if (body.customerId !== undefined && body.customerId !== agent.data.customerId) throw notFound('CUSTOMER_NOT_FOUND', 'Customer', body.customerId);
  const json = { ...(call.json as object), customerId: agent.data.customerId };
  return accountRoutes.createExternalAccount(ctx, { ...call, body: { ...body, customerId: agent.data.customerId }, json } satisfies Call);
};

/** The agent routes. */
export const agentRoutes = {
  createAgent: (ctx, call) => ok(createAgent(ctx, call.body as AgentCreateParams), 201),
  listAgents: list,
  getAgentById: (ctx, call) => ok(agentView(ctx, findAgent(ctx, call.params.agentId!))),
  updateAgent: (ctx, call) => ok(updateAgent(ctx, call.params.agentId!, call.body as AgentUpdateParams)),
  deleteAgent: (ctx, call): Reply => {
    deleteAgent(ctx, call.params.agentId!);
    return { status: 204 };
  },
  updateAgentPolicy: (ctx, call) => ok(updatePolicy(ctx, call.params.agentId!, call.body as AgentPolicyUpdateParams)),
  regenerateAgentDeviceCode: (ctx, call) => ok(regenerateDeviceCode(ctx, call.params.agentId!), 201),
  getAgentDeviceCodeStatus: (ctx, call) => ok(deviceCodeStatus(ctx, call.params.code!)),
  redeemAgentDeviceCode: (ctx, call) => ok(redeemDeviceCode(ctx, call.params.code!)),
  listAgentApprovals: listApprovals,
  approveAgentAction: async (ctx, call) => ok(await approveAction(ctx, runners(ctx), call.params.agentId!, call.params.actionId!)),
  rejectAgentAction: (ctx, call) =>
    ok(rejectAction(ctx, call.params.agentId!, call.params.actionId!, (call.body as AgentActionRejectParams | undefined)?.reason)),
  getAgentMe: (ctx, call) => ok(agentView(ctx, callingAgent(ctx, call))),
  agentListTransactions: scoped(transactionRoutes.listTransactions, 'VIEW_TRANSACTIONS'),
  agentGetTransaction: meTransaction,
  agentCreateQuote: meCreateQuote,
  agentGetQuote: (ctx, call) => ok(agentQuote(ctx, callingAgent(ctx, call), call.params.quoteId!).data),
  agentExecuteQuote: meExecuteQuote,
  agentListActions: meActions,
  agentGetAction: (ctx, call) => ok(actionView(ctx, findAction(ctx, call.params.actionId!, callingAgent(ctx, call).data.id))),
  agentCreateTransferIn: meTransferIn,
  agentCreateTransferOut: meTransferOut,
  agentListInternalAccounts: scoped(accountRoutes.listInternalAccounts),
  agentListExternalAccounts: scoped(accountRoutes.listExternalAccounts, 'MANAGE_EXTERNAL_ACCOUNTS'),
  agentGetExternalAccount: meExternal(accountRoutes.getCustomerExternalAccountById),
  agentCreateExternalAccount: meCreateExternal,
  agentDeleteExternalAccount: meExternal(accountRoutes.deleteCustomerExternalAccountById),
} satisfies Record<string, Handler>;
