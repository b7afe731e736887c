/**
 * Agents (production's `/agents`): programs acting for one customer under a policy, connected by redeeming a
 * device code for a Bearer credential, and calling `/agents/me` with it.
 *
 * - A device code works once and for {@link DEVICE_CODE_TTL_MS}; a new one (only while the agent is not connected)
 *   invalidates the earlier unredeemed ones. Redeeming answers the agent's `accessToken` once: the world keeps
 *   its SHA-256 only, so a state export carries no usable credential.
 * - The policy, as production's document states it: a paused agent, a missing permission or an internal account
 *   outside `allowedAccountIds` is refused 403; so is an amount beyond the per-transaction limit (an account
 *   rule's first), or one that would pass the daily or monthly limit or the daily transaction count. Within them,
 *   an action runs at once (`APPROVED`, with its transaction) unless the execution mode (an account rule's first)
 *   is `APPROVAL_REQUIRED` or the amount is above `approvalThresholds`: then it waits `PENDING_APPROVAL`
 *   (`AGENT_ACTION.PENDING_APPROVAL` is sent) until the platform approves (it runs, once) or rejects it (it never
 *   runs). Amounts in another currency are converted at the sandbox's rate.
 * - The policy's check and the usage it counts are one synchronous step ({@link admit}): concurrent actions never
 *   both pass a limit. A pending action holds its usage until it is rejected or fails. The action then runs
 *   through the platform's own handlers (transfer-in, transfer-out, quote execution), which check the funds and
 *   debit in one synchronous step: an agent's transfers move the same balances and make the same transactions.
 * @module
 */
import type {
  Agent,
  AgentAction,
  AgentCreateParams,
  AgentDeviceCode,
  AgentPolicyUpdateParams,
  AgentUpdateParams,
  QuoteCreateParams,
  Transaction,
  TransferInCreateParams,
  TransferOutCreateParams,
} from '../../generated/types';
import { iso } from './clock';
import { now, nowIso, type Call, type Ctx } from './context';
import { CURRENCIES, rateBetween } from './currencies';
import { SandboxError, invalidInput, notFound } from './errors';
import { findExternalAccount, findInternalAccount } from './finders';
import { sandboxCurrency } from './faults';
import { assertExecutable } from './payments';
import { isWalletChallenge, type Reply } from './reply';
import type { AgentActionRec, AgentRec, DeviceCodeRec, ExternalAccountRec, InternalAccountRec, QuoteRec } from './state';
import { secretDigest } from './tokens';

export type { AgentActionRec, AgentRec, DeviceCodeRec } from './state';

/** How long a device code can be redeemed (production's example: a day). */
export const DEVICE_CODE_TTL_MS = 24 * 60 * 60_000;

/** The platform's handler that runs an action, given its request as a call of its own. */
export type Runner = (call: Call) => Reply | Promise<Reply>;

/** The platform handlers an agent's actions run through (routes/transactions.ts, routes/quotes.ts). */
export interface Runners {
  transferIn: Runner;
  transferOut: Runner;
  executeQuote: Runner;
}

const day = (ms: number) => iso(ms).slice(0, 10);
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

/** Resets the agent's daily and monthly counters once their reset date has come. */
function rollUsage(ctx: Ctx, agent: AgentRec): void {
  const today = day(now(ctx));
  const usage = agent.data.usage;
  if (usage.dailyResetDate === undefined || usage.dailyResetDate <= today) {
    usage.dailySpend = 0;
    usage.dailyTransactionCount = 0;
    usage.dailyResetDate = nextDay(today);
  }
  const month = today.slice(0, 7);
  if (usage.monthlyResetMonth === undefined || usage.monthlyResetMonth <= month) {
    usage.monthlySpend = 0;
    usage.monthlyResetMonth = nextMonth(month);
  }
}

/** The agent as answered: a copy, its usage current. */
export function agentView(ctx: Ctx, agent: AgentRec): Agent {
  rollUsage(ctx, agent);
  return structuredClone(agent.data);
}

/** `amount` of `from` in the smallest unit of `to`, rounded up (400 for a currency the sandbox cannot convert). */
function convert(amount: number, from: string, to: string, field: string): number {
  if (from === to) return amount;
  const a = CURRENCIES.get(from);
  const b = CURRENCIES.get(to);
  if (!a || !b) throw new SandboxError(400, 'INVALID_CURRENCY', `The sandbox cannot convert ${from} to ${to} for the agent's policy.`, { field });
  const rate = rateBetween(a, b);
  const n = BigInt(amount) * rate.num;
  return Number((n + rate.den - 1n) / rate.den);
}

function newDeviceCode(ctx: Ctx, agentId: string): AgentDeviceCode {
  const { seq } = ctx.ids.next('AgentDeviceCode');
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const code = `GRID-AGENT-${ctx.random.pick(alphabet, 4)}-${ctx.random.pick(alphabet, 4)}`;
  const expiresMs = now(ctx) + DEVICE_CODE_TTL_MS;
  const data: AgentDeviceCode = { code, agentId, expiresAt: iso(expiresMs), redeemed: false };
  ctx.world.agentDeviceCodes.set(code, { seq, createdMs: now(ctx), data, expiresMs });
  return { ...data };
}

/** Creates an agent for a customer, not connected, with its first device code. */
export function createAgent(ctx: Ctx, body: AgentCreateParams): { agent: Agent; deviceCode: AgentDeviceCode } {
  const customer = ctx.world.customers.get(body.customerId);
  if (!customer || customer.data.isDeleted) throw invalidInput('customerId', `Customer ${body.customerId} was not found.`);
  checkPolicyCurrencies(body.policy.spendingLimits.currency, body.policy.approvalThresholds?.currency);
  const { id, seq } = ctx.ids.next('Agent');
  const at = nowIso(ctx);
  const data: Agent = {
    id,
    name: body.name,
    customerId: customer.data.id,
    isPaused: false,
    isConnected: false,
    policy: structuredClone(body.policy),
    usage: { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 },
    createdAt: at,
    updatedAt: at,
  };
  const rec: AgentRec = { seq, createdMs: now(ctx), data, quoteIds: [] };
  ctx.world.agents.set(id, rec);
  return { agent: agentView(ctx, rec), deviceCode: newDeviceCode(ctx, id) };
}

function checkPolicyCurrencies(limits: string | undefined, threshold: string | undefined): void {
  if (limits !== undefined && !CURRENCIES.has(limits))
    throw new SandboxError(400, 'INVALID_CURRENCY', `The sandbox holds no ${limits}.`, { field: 'policy.spendingLimits.currency' });
  if (threshold !== undefined && !CURRENCIES.has(threshold))
    throw new SandboxError(400, 'INVALID_CURRENCY', `The sandbox holds no ${threshold}.`, { field: 'policy.approvalThresholds.currency' });
}

/** A live agent, or 404 `AGENT_NOT_FOUND`. */
export function findAgent(ctx: Ctx, id: string): AgentRec {
  const agent = ctx.world.agents.get(id);
  if (!agent || agent.deleted) throw notFound('AGENT_NOT_FOUND', 'Agent', id);
  return agent;
}

/** Renames, pauses or resumes an agent. */
export function updateAgent(ctx: Ctx, id: string, body: AgentUpdateParams): Agent {
  const agent = findAgent(ctx, id);
  if (body.name !== undefined) agent.data.name = body.name;
  if (body.isPaused !== undefined) agent.data.isPaused = body.isPaused;
  agent.data.updatedAt = nowIso(ctx);
  return agentView(ctx, agent);
}

/** Merges a policy update: `permissions` replaces the list, `spendingLimits` field by field, the rest whole. */
export function updatePolicy(ctx: Ctx, id: string, body: AgentPolicyUpdateParams): Agent {
  const agent = findAgent(ctx, id);
  checkPolicyCurrencies(body.spendingLimits?.currency, body.approvalThresholds?.currency);
  const policy = agent.data.policy;
  if (body.permissions !== undefined) policy.permissions = [...body.permissions];
  if (body.defaultExecutionMode !== undefined) policy.defaultExecutionMode = body.defaultExecutionMode;
  if (body.spendingLimits !== undefined) {
    for (const [key, value] of Object.entries(body.spendingLimits)) if (value !== undefined) (policy.spendingLimits as Record<string, unknown>)[key] = value;
  }
  if (body.accountRestrictions !== undefined) policy.accountRestrictions = structuredClone(body.accountRestrictions);
  if (body.approvalThresholds !== undefined) policy.approvalThresholds = structuredClone(body.approvalThresholds);
  agent.data.updatedAt = nowIso(ctx);
  return agentView(ctx, agent);
}

/** Deletes an agent: reads answer 404 and its credential is refused from now on. */
export function deleteAgent(ctx: Ctx, id: string): void {
  const agent = findAgent(ctx, id);
  agent.deleted = true;
  agent.tokenSha256 = undefined;
}

/** A new device code for an agent not connected yet (409 otherwise); the earlier unredeemed codes stop working. */
export function regenerateDeviceCode(ctx: Ctx, id: string): AgentDeviceCode {
  const agent = findAgent(ctx, id);
  if (agent.data.isConnected) {
    throw new SandboxError(409, 'AGENT_ALREADY_CONNECTED', `Agent ${id} is connected already: its device code was redeemed.`, { agentId: id });
  }
  for (const rec of ctx.world.agentDeviceCodes.values()) if (rec.data.agentId === id && !rec.data.redeemed) rec.invalidated = true;
  return newDeviceCode(ctx, id);
}

function findCode(ctx: Ctx, code: string): DeviceCodeRec {
  const rec = ctx.world.agentDeviceCodes.get(code);
  const agent = rec ? ctx.world.agents.get(rec.data.agentId) : undefined;
  if (!rec || !agent || agent.deleted) throw notFound('DEVICE_CODE_NOT_FOUND', 'Device code', code);
  return rec;
}

/** Whether a device code was redeemed. */
export function deviceCodeStatus(ctx: Ctx, code: string): { code: string; redeemed: boolean } {
  const rec = findCode(ctx, code);
  return { code: rec.data.code, redeemed: rec.data.redeemed };
}

/**
 * Redeems a device code, once and before it expires (400 otherwise): the agent is connected and its credential is
 * answered this once (the world keeps its SHA-256).
 */
export function redeemDeviceCode(ctx: Ctx, code: string): { agentId: string; agentName: string; accessToken: string; policy: Agent['policy'] } {
  const rec = findCode(ctx, code);
  if (rec.data.redeemed) throw new SandboxError(400, 'DEVICE_CODE_ALREADY_REDEEMED', `Device code ${code} was redeemed already.`, { code });
  if (rec.invalidated || now(ctx) >= rec.expiresMs) {
    throw new SandboxError(400, 'DEVICE_CODE_EXPIRED', `Device code ${code} has expired${rec.invalidated ? ' (a newer one was issued)' : ''}.`, { code });
  }
  const agent = findAgent(ctx, rec.data.agentId);
  const accessToken = `gat_${ctx.random.hex(40)}`;
  rec.data.redeemed = true;
  agent.tokenSha256 = secretDigest(accessToken);
  agent.data.isConnected = true;
  agent.data.updatedAt = nowIso(ctx);
  return { agentId: agent.data.id, agentName: agent.data.name, accessToken, policy: structuredClone(agent.data.policy) };
}

/** The agent whose Bearer credential the call carries, or 401. */
export function callingAgent(ctx: Ctx, call: Pick<Call, 'header'>): AgentRec {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(call.header('authorization') ?? '');
  const digest = match ? secretDigest(match[1]!) : undefined;
  if (digest !== undefined) for (const agent of ctx.world.agents.values()) if (!agent.deleted && agent.tokenSha256 === digest) return agent;
  throw new SandboxError(
    401,
    'UNAUTHORIZED',
    "The agent's credential is missing or unknown: send `Authorization: Bearer <accessToken>` of a redeemed device code.",
    undefined,
    {
      'WWW-Authenticate': 'Bearer realm="crossborder-sandbox"',
    },
  );
}

/** 403 unless the agent is active and holds `permission`. */
export function requirePermission(agent: AgentRec, permission: string): void {
  if (agent.data.isPaused) throw new SandboxError(403, 'AGENT_PAUSED', `Agent ${agent.data.id} is paused.`, { agentId: agent.data.id });
  if (!agent.data.policy.permissions.includes(permission)) {
    throw new SandboxError(403, 'AGENT_PERMISSION_DENIED', `Agent ${agent.data.id}'s policy does not grant ${permission}.`, { permission });
  }
}

/** An internal account of the agent's customer (another's answers 404, as production's). */
export function ownInternal(ctx: Ctx, agent: AgentRec, id: string): InternalAccountRec {
  const account = findInternalAccount(ctx, id);
  if (account.data.customerId !== agent.data.customerId) throw notFound('ACCOUNT_NOT_FOUND', 'Internal account', id);
  return account;
}

/** An external account of the agent's customer (another's answers 404, as production's). */
export function ownExternal(ctx: Ctx, agent: AgentRec, id: string): ExternalAccountRec {
  const account = findExternalAccount(ctx, id);
  if (account.data.customerId !== agent.data.customerId) throw notFound('ACCOUNT_NOT_FOUND', 'External account', id);
  return account;
}

/** What an action asks of the policy. */
interface Ask {
  permission: string;
  /** The customer's internal account the action uses. */
  accountId: string;
  amount: number;
  currency: string;
}

/**
 * The policy's decision on an action, and the usage it counts: one synchronous step, so that concurrent actions
 * never both pass a limit. Throws 403 beyond the policy; answers whether the action waits for approval and the
 * amount counted (in the limits' currency), which {@link release} gives back.
 */
export function admit(ctx: Ctx, agent: AgentRec, ask: Ask): { approval: boolean; spend: number } {
  requirePermission(agent, ask.permission);
  const { policy } = agent.data;
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  if (allowed != null && !allowed.includes(ask.accountId)) {
    throw new SandboxError(403, 'AGENT_ACCOUNT_NOT_ALLOWED', `Agent ${agent.data.id} may not use account ${ask.accountId}.`, { accountId: ask.accountId });
  }
  const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === ask.accountId);
  const limits = policy.spendingLimits;
  const spend = convert(ask.amount, ask.currency, limits.currency, 'amount');
  rollUsage(ctx, agent);
  const usage = agent.data.usage;
  const beyond = (limit: string, max: number, would: number) =>
    new SandboxError(403, 'AGENT_SPENDING_LIMIT_EXCEEDED', `The action would pass agent ${agent.data.id}'s ${limit} (${max} ${limits.currency}).`, {
      limit,
      max,
      would,
      currency: limits.currency,
    });
  const perTransaction = rule?.perTransactionLimit ?? limits.perTransactionLimit;
  if (spend > perTransaction) throw beyond('perTransactionLimit', perTransaction, spend);
  if (limits.dailyTransactionLimit !== undefined && usage.dailyTransactionCount + 1 > limits.dailyTransactionLimit) {
    throw new SandboxError(403, 'AGENT_SPENDING_LIMIT_EXCEEDED', `Agent ${agent.data.id} made its ${limits.dailyTransactionLimit} transactions of today.`, {
      limit: 'dailyTransactionLimit',
      max: limits.dailyTransactionLimit,
    });
  }
  if (limits.dailyLimit != null && usage.dailySpend + spend > limits.dailyLimit) throw beyond('dailyLimit', limits.dailyLimit, usage.dailySpend + spend);
  if (limits.monthlyLimit != null && usage.monthlySpend + spend > limits.monthlyLimit)
    throw beyond('monthlyLimit', limits.monthlyLimit, usage.monthlySpend + spend);
  const mode = rule?.executionMode ?? policy.defaultExecutionMode;
  const threshold = policy.approvalThresholds;
  const above = threshold?.amount != null && convert(ask.amount, ask.currency, threshold.currency ?? limits.currency, 'amount') > threshold.amount;
  usage.dailySpend += spend;
  usage.monthlySpend += spend;
  usage.dailyTransactionCount += 1;
  return { approval: mode === 'APPROVAL_REQUIRED' || above, spend };
}

/** Gives back the usage an action counted (it was rejected, or could not run), within the same day and month. */
function release(ctx: Ctx, agent: AgentRec, action: Pick<AgentActionRec, 'spend' | 'createdMs'>): void {
  rollUsage(ctx, agent);
  const usage = agent.data.usage;
  if (day(action.createdMs) === day(now(ctx))) {
    usage.dailySpend = Math.max(0, usage.dailySpend - action.spend);
    usage.dailyTransactionCount = Math.max(0, usage.dailyTransactionCount - 1);
  }
  if (day(action.createdMs).slice(0, 7) === day(now(ctx)).slice(0, 7)) usage.monthlySpend = Math.max(0, usage.monthlySpend - action.spend);
}

/** An action as answered: its quote and transaction as they are now. */
export function actionView(ctx: Ctx, action: AgentActionRec): AgentAction {
  const data: AgentAction = { ...action.data };
  const quote = action.request.quoteId === undefined ? undefined : ctx.world.quotes.get(action.request.quoteId);
  if (quote) data.quote = structuredClone(quote.data);
  const tx = action.transactionId === undefined ? undefined : ctx.world.transactions.get(action.transactionId);
  if (tx) data.transaction = structuredClone<Transaction>(tx.data);
  return data;
}

/** An action of `agentId` (or of any agent), or 404 `AGENT_ACTION_NOT_FOUND`. */
export function findAction(ctx: Ctx, id: string, agentId?: string): AgentActionRec {
  const action = ctx.world.agentActions.get(id);
  if (!action || (agentId !== undefined && action.data.agentId !== agentId)) throw notFound('AGENT_ACTION_NOT_FOUND', 'Agent action', id);
  return action;
}

/** A call of the platform's handler for a stored request (no wallet signature: none is kept). */
function innerCall(request: AgentActionRec['request'], header: Call['header'] = () => undefined): Call {
  const body = request.body;
  return {
    method: 'POST',
    path: '',
    params: request.quoteId === undefined ? {} : { quoteId: request.quoteId },
    query: {},
    body,
    json: body,
    rawBody: body === undefined ? '' : JSON.stringify(body),
    header,
  };
}

/** The transaction a successful run made. */
function transactionOf(ctx: Ctx, action: AgentActionRec, reply: Reply): string | undefined {
  if (action.request.quoteId !== undefined) return ctx.world.quotes.get(action.request.quoteId)?.data.transactionId;
  return (reply.body as { id?: string } | undefined)?.id;
}

function runnerOf(runners: Runners, type: string): Runner {
  return type === 'EXECUTE_QUOTE' ? runners.executeQuote : type === 'TRANSFER_IN' ? runners.transferIn : runners.transferOut;
}

/** The submission of an action: what it is, what it runs, and what it asks of the policy. */
interface Submission {
  type: 'EXECUTE_QUOTE' | 'TRANSFER_IN' | 'TRANSFER_OUT';
  request: AgentActionRec['request'];
  ask: Ask;
  transferDetails?: AgentAction['transferDetails'];
}

/**
 * Submits an action under the agent's policy: refused (403) beyond it; else held `PENDING_APPROVAL` (the webhook is
 * sent) or run at once through the platform's handler and recorded `APPROVED` with its transaction. A run that
 * fails at once answers its error, records nothing and gives the usage back.
 */
export async function submitAction(ctx: Ctx, agent: AgentRec, runners: Runners, submission: Submission, call: Call): Promise<Reply> {
  const { approval, spend } = admit(ctx, agent, submission.ask);
  const customer = ctx.world.customers.get(agent.data.customerId)?.data;
  const makeRecord = (status: AgentAction['status']): AgentActionRec => {
    const { id, seq } = ctx.ids.next('AgentAction');
    const at = nowIso(ctx);
    return {
      seq,
      createdMs: now(ctx),
      data: {
        id,
        agentId: agent.data.id,
        customerId: agent.data.customerId,
        platformCustomerId: customer?.platformCustomerId ?? '',
        status,
        type: submission.type,
        ...(submission.transferDetails ? { transferDetails: submission.transferDetails } : {}),
        createdAt: at,
        updatedAt: at,
      },
      request: submission.request,
      spend,
    };
  };
  if (approval) {
    const action = makeRecord('PENDING_APPROVAL');
    ctx.world.agentActions.set(action.data.id, action);
    const view = actionView(ctx, action);
    ctx.webhooks.emit('AGENT_ACTION.PENDING_APPROVAL', view);
    return { status: 201, body: view };
  }
  const startedMs = now(ctx);
  let reply: Reply;
  try {
    reply = await runnerOf(runners, submission.type)(innerCall(submission.request, call.header));
  } catch (error) {
    release(ctx, agent, { spend, createdMs: startedMs });
    throw error;
  }
  if (isWalletChallenge(reply.status, reply.body)) {
    // A wallet challenge: nothing ran; the agent signs and calls again.
    release(ctx, agent, { spend, createdMs: startedMs });
    return reply;
  }
  const action = makeRecord('APPROVED');
  action.transactionId = transactionOf(ctx, action, reply);
  ctx.world.agentActions.set(action.data.id, action);
  return { status: 201, body: actionView(ctx, action) };
}

/** 409 unless the action waits for approval. */
function assertPending(action: AgentActionRec): void {
  if (action.data.status !== 'PENDING_APPROVAL') {
    throw new SandboxError(409, 'AGENT_ACTION_NOT_PENDING', `Agent action ${action.data.id} is ${action.data.status}, not PENDING_APPROVAL.`, {
      id: action.data.id,
      status: action.data.status,
    });
  }
}

/**
 * Approves a pending action: it is marked `APPROVED` before it runs (a second approval is 409, so it runs once),
 * then runs through the platform's handler; `FAILED` (its usage given back) when it cannot (the quote expired,
 * the funds are short).
 */
export async function approveAction(ctx: Ctx, runners: Runners, agentId: string, actionId: string): Promise<AgentAction> {
  const agent = findAgent(ctx, agentId);
  const action = findAction(ctx, actionId, agent.data.id);
  assertPending(action);
  action.data.status = 'APPROVED';
  action.data.updatedAt = nowIso(ctx);
  let reply: Reply | undefined;
  try {
    reply = await runnerOf(runners, String(action.data.type))(innerCall(action.request));
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
  }
  if (reply === undefined || reply.status < 200 || reply.status > 201) {
    action.data.status = 'FAILED';
    release(ctx, agent, action);
  } else {
    action.transactionId = transactionOf(ctx, action, reply);
  }
  action.data.updatedAt = nowIso(ctx);
  return actionView(ctx, action);
}

/** Rejects a pending action: it never runs, and its usage is given back. */
export function rejectAction(ctx: Ctx, agentId: string, actionId: string, reason: string | undefined): AgentAction {
  const agent = findAgent(ctx, agentId);
  const action = findAction(ctx, actionId, agent.data.id);
  assertPending(action);
  action.data.status = 'REJECTED';
  if (reason !== undefined) action.data.rejectionReason = reason;
  action.data.updatedAt = nowIso(ctx);
  release(ctx, agent, action);
  return actionView(ctx, action);
}

/** The submission of a transfer-out: accounts of the agent's customer, the source's currency. */
export function transferOutSubmission(ctx: Ctx, agent: AgentRec, body: TransferOutCreateParams): Submission {
  const source = ownInternal(ctx, agent, body.source.accountId);
  const destination = ownExternal(ctx, agent, body.destination.accountId);
  if (body.amount === undefined) throw invalidInput('amount', 'Give the amount to transfer, in the smallest unit of the currency.');
  return {
    type: 'TRANSFER_OUT',
    request: { body },
    ask: { permission: 'CREATE_TRANSFERS', accountId: source.data.id, amount: body.amount, currency: source.currency },
    transferDetails: { amount: body.amount, currency: source.currency, sourceAccountId: source.data.id, destinationAccountId: destination.data.id },
  };
}

/** The submission of a transfer-in: accounts of the agent's customer, the destination's currency. */
export function transferInSubmission(ctx: Ctx, agent: AgentRec, body: TransferInCreateParams): Submission {
  const source = ownExternal(ctx, agent, body.source.accountId);
  const destination = ownInternal(ctx, agent, body.destination.accountId);
  return {
    type: 'TRANSFER_IN',
    request: { body },
    ask: { permission: 'CREATE_TRANSFERS', accountId: destination.data.id, amount: body.amount, currency: destination.currency },
    transferDetails: { amount: body.amount, currency: destination.currency, sourceAccountId: source.data.id, destinationAccountId: destination.data.id },
  };
}

/** A quote this agent created, or 404 `QUOTE_NOT_FOUND`. */
export function agentQuote(ctx: Ctx, agent: AgentRec, quoteId: string): QuoteRec {
  const quote = agent.quoteIds.includes(quoteId) ? ctx.world.quotes.get(quoteId) : undefined;
  if (!quote) throw notFound('QUOTE_NOT_FOUND', 'Quote', quoteId);
  return quote;
}

/** The submission of a quote's execution: executable now (409 otherwise), its sending amount. */
export function executeSubmission(ctx: Ctx, agent: AgentRec, quoteId: string): Submission {
  const quote = agentQuote(ctx, agent, quoteId);
  assertExecutable(ctx, quote);
  return {
    type: 'EXECUTE_QUOTE',
    request: { quoteId: quote.data.id },
    ask: {
      permission: 'EXECUTE_QUOTES',
      accountId: quote.debitAccountId ?? (quote.data.source as { accountId?: string }).accountId ?? '',
      amount: quote.data.totalSendingAmount,
      currency: sandboxCurrency(quote.data.sendingCurrency),
    },
  };
}

/** 404 unless every account a quote names belongs to the agent's customer; the body with its customer. */
export function quoteBody(ctx: Ctx, agent: AgentRec, body: QuoteCreateParams): QuoteCreateParams {
  const own = (id: string) => (id.startsWith('ExternalAccount:') ? ownExternal(ctx, agent, id) : ownInternal(ctx, agent, id));
  const source = body.source;
  if (source.sourceType === 'ACCOUNT') own(source.accountId);
  if (source.sourceType === 'REALTIME_FUNDING' && source.customerId !== undefined && source.customerId !== agent.data.customerId) {
    throw notFound('CUSTOMER_NOT_FOUND', 'Customer', source.customerId);
  }
  if (body.destination.destinationType === 'ACCOUNT') own(body.destination.accountId);
  const allowed = agent.data.policy.accountRestrictions?.allowedAccountIds;
  if (source.sourceType === 'ACCOUNT' && allowed != null && !source.accountId.startsWith('ExternalAccount:') && !allowed.includes(source.accountId)) {
    throw new SandboxError(403, 'AGENT_ACCOUNT_NOT_ALLOWED', `Agent ${agent.data.id} may not use account ${source.accountId}.`, {
      accountId: source.accountId,
    });
  }
  const sourceWithCustomer = source.sourceType === 'REALTIME_FUNDING' ? { ...source, customerId: agent.data.customerId } : source;
  return { ...body, source: sourceWithCustomer, immediatelyExecute: false };
}
