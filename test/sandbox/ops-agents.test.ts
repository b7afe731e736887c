/**
 * Production's agents (`/agents` and the agent's own `/agents/me`) through the SDK, against the in-process
 * sandbox (msw) and the sandbox over HTTP on 127.0.0.1: the platform creates an agent, the agent software redeems
 * its device code (once, before it expires) for its credential, and a second client made with that credential
 * (`agentToken`) acts as the agent. The policy is enforced: permissions, accounts, spending limits (refused 403),
 * and approval (execution mode, thresholds: the action waits until the platform approves, then runs once, or
 * rejects it). Agent transfers move the same balances and make the same transactions as the platform's. The
 * agent's credential is planted and searched for in the request log, snapshot and state export.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  Crossborder,
  NotFoundError,
  PermissionDeniedError,
  type AgentPolicy,
  type APIError,
  type WebhookEvent,
} from '../../src/index';
import { sandboxWorlds, type World } from '../helpers/worlds';

const worlds = sandboxWorlds('api.agents-ops.example');

const POLICY: AgentPolicy = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000, dailyTransactionLimit: 10 },
  approvalThresholds: { currency: 'USD', amount: 20_000 },
};

async function rejected(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    return error as APIError;
  }
  throw new Error('expected the call to be refused');
}

describe.each(worlds)('agents against the sandbox, %s', (_name, makeWorld) => {
  let world: World;
  let cb: Crossborder;

  beforeAll(async () => {
    world = await makeWorld();
    cb = new Crossborder({
      tokenId: 'tok_agents',
      clientSecret: 'sk_agents',
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      webhookPublicKey: world.sandbox.webhookPublicKey.pem,
    });
  });
  afterEach(() => {
    world.sandbox.reset();
    world.hooks.length = 0;
  });
  afterAll(() => world.close());

  const balance = (accountId: string) => world.sandbox.state.balance(accountId);
  const asAgent = (agentToken: string) => new Crossborder({ agentToken, environment: 'sandbox', baseUrl: world.baseUrl, maxRetries: 0 });

  /** A customer with a funded USD account, an EUR account and a USD bank account. */
  async function customer(funds = 200_000) {
    const c = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      currencies: ['USD', 'EUR'],
    } as never);
    const usd = (await cb.internalAccounts.list({ customerId: c.id, currency: 'USD' })).data[0]!;
    const eur = (await cb.internalAccounts.list({ customerId: c.id, currency: 'EUR' })).data[0]!;
    if (funds > 0) await cb.sandbox.fundInternalAccount(usd.id, { amount: funds });
    const bank = await cb.externalAccounts.create({
      customerId: c.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    return { customer: c, usd, eur, bank };
  }

  /** An agent of a fresh customer, connected: the platform's view, and a client holding its credential. */
  async function connected(policy: AgentPolicy = POLICY, funds?: number) {
    const who = await customer(funds);
    const { agent, deviceCode } = await cb.agents.create({ name: 'Payroll bot', customerId: who.customer.id, policy });
    const { accessToken } = await cb.agents.redeemDeviceCode(deviceCode.code);
    return { ...who, agent, accessToken, me: asAgent(accessToken).agents.me };
  }

  async function events(): Promise<WebhookEvent[]> {
    await world.sandbox.webhooks.flush();
    const out: WebhookEvent[] = [];
    for (const h of world.hooks) out.push((await cb.webhooks.unwrap(h.body, h.headers)) as WebhookEvent);
    return out;
  }

  it('create, device code, redeem once, and the agent acts with its own credential; list, update, pause, delete', async () => {
    const who = await customer();
    const { agent, deviceCode } = await cb.agents.create({ name: 'Payroll bot', customerId: who.customer.id, policy: POLICY });
    expect(agent).toMatchObject({ name: 'Payroll bot', customerId: who.customer.id, isPaused: false, isConnected: false, policy: POLICY });
    expect(agent.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0, monthlySpend: 0 });
    expect(deviceCode).toMatchObject({ agentId: agent.id, redeemed: false });
    const lifetime = Date.parse(deviceCode.expiresAt) - Date.parse(agent.createdAt);
    expect(lifetime >= 24 * 3_600_000 && lifetime < 24 * 3_600_000 + 5_000).toBe(true);
    expect(await cb.agents.getDeviceCodeStatus(deviceCode.code)).toEqual({ code: deviceCode.code, redeemed: false });

    // The agent software redeems with no credential at all (the document's `security: []`): none is asked for,
    // and no Authorization header is sent.
    const authorization: (string | null)[] = [];
    const software = new Crossborder({
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      fetch: (url, init) => {
        authorization.push(new Headers(init?.headers).get('authorization'));
        return fetch(url, init);
      },
    });
    await expect(software.agents.list()).rejects.toThrow(/Missing tokenId/); // any other operation still needs one
    if (world.baseUrl.startsWith('http://127.0.0.1')) {
      // Over HTTP, a path with no operation, or another method on the redemption's path, still takes the
      // platform's credential: 401 before 404, as production answers. The redemption takes none.
      for (const [method, path] of [
        ['GET', '/nowhere'],
        ['GET', `/agents/device-codes/${deviceCode.code}/redeem`],
        ['DELETE', `/agents/device-codes/${deviceCode.code}/redeem`],
      ] as const) {
        const answer = await fetch(`${world.baseUrl}/2025-10-13${path}`, { method });
        expect([method, path, answer.status]).toEqual([method, path, 401]);
      }
    }
    const redeemed = await software.agents.redeemDeviceCode(deviceCode.code);
    expect(authorization).toEqual([null]);
    expect(redeemed).toMatchObject({ agentId: agent.id, agentName: 'Payroll bot', policy: POLICY });
    expect(redeemed.accessToken).toMatch(/^gat_[0-9a-f]{40}$/);
    const again = await rejected(cb.agents.redeemDeviceCode(deviceCode.code));
    expect([again.status, again.code]).toEqual([400, 'DEVICE_CODE_ALREADY_REDEEMED']);
    expect((await cb.agents.getDeviceCodeStatus(deviceCode.code)).redeemed).toBe(true);
    const connectedAgain = await rejected(cb.agents.createDeviceCode(agent.id));
    expect(connectedAgain).toBeInstanceOf(ConflictError);

    const me = asAgent(redeemed.accessToken).agents.me;
    expect(await me.retrieve()).toMatchObject({ id: agent.id, isConnected: true });
    expect((await cb.agents.retrieve(agent.id)).isConnected).toBe(true);
    expect((await cb.agents.list({ customerId: who.customer.id, isConnected: true })).data.map((a) => a.id)).toEqual([agent.id]);
    expect((await cb.agents.list({ isConnected: false })).data).toEqual([]);

    expect(await cb.agents.update(agent.id, { name: 'Renamed', isPaused: true })).toMatchObject({ name: 'Renamed', isPaused: true });
    const paused = await rejected(me.transferOut({ source: { accountId: who.usd.id }, destination: { accountId: who.bank.id }, amount: 100 }));
    expect([paused.status, paused.code]).toEqual([403, 'AGENT_PAUSED']);
    expect(balance(who.usd.id)).toBe(200_000);

    await cb.agents.delete(agent.id);
    expect(await rejected(cb.agents.retrieve(agent.id))).toBeInstanceOf(NotFoundError);
    expect(await rejected(me.retrieve())).toBeInstanceOf(AuthenticationError);
  });

  it('a device code expires after a day, and a new one invalidates the earlier; the platform credential is not the agent one', async () => {
    const who = await customer();
    const { agent, deviceCode } = await cb.agents.create({ name: 'bot', customerId: who.customer.id, policy: POLICY });
    const second = await cb.agents.createDeviceCode(agent.id);
    expect(second.code).not.toBe(deviceCode.code);
    const stale = await rejected(cb.agents.redeemDeviceCode(deviceCode.code));
    expect([stale.status, stale.code]).toEqual([400, 'DEVICE_CODE_EXPIRED']);
    world.sandbox.clock.advance(24 * 3_600_000);
    const expired = await rejected(cb.agents.redeemDeviceCode(second.code));
    expect([expired.status, expired.code]).toEqual([400, 'DEVICE_CODE_EXPIRED']);
    const third = await cb.agents.createDeviceCode(agent.id);
    expect((await cb.agents.redeemDeviceCode(third.code)).agentId).toBe(agent.id);
    expect(await rejected(cb.agents.redeemDeviceCode('GRID-AGENT-NOPE-NOPE'))).toBeInstanceOf(NotFoundError);

    // The platform's Basic credentials do not make a call an agent's, and an unknown token is refused.
    expect(await rejected(cb.agents.me.retrieve())).toBeInstanceOf(AuthenticationError);
    expect(await rejected(asAgent('gat_unknown').agents.me.retrieve())).toBeInstanceOf(AuthenticationError);
  });

  it('within the policy an agent transfer runs at once: the same balances and transaction as the platform, usage counted', async () => {
    const { usd, bank, agent, me } = await connected();
    const action = await me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 12_550 });
    expect(action).toMatchObject({
      agentId: agent.id,
      status: 'APPROVED',
      type: 'TRANSFER_OUT',
      transferDetails: { amount: 12_550, currency: 'USD', sourceAccountId: usd.id, destinationAccountId: bank.id },
      transaction: { type: 'OUTGOING', status: 'PROCESSING', receivedAmount: { amount: 12_550 } },
    });
    expect(balance(usd.id)).toBe(200_000 - 12_550);
    // The platform sees the same transaction, and so does the agent.
    const tx = await cb.transactions.retrieve(action.transaction!.id);
    expect(tx).toMatchObject({ id: action.transaction!.id, customerId: agent.customerId });
    expect((await me.transactions.retrieve(tx.id)).id).toBe(tx.id);
    expect((await me.transactions.list()).data.map((t) => t.id)).toContain(tx.id);
    expect((await me.retrieve()).usage).toMatchObject({ dailySpend: 12_550, dailyTransactionCount: 1, monthlySpend: 12_550 });
    expect((await me.actions.retrieve(action.id)).status).toBe('APPROVED');

    const inAction = await me.transferIn({ source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: 1_000 });
    expect(inAction).toMatchObject({ status: 'APPROVED', type: 'TRANSFER_IN', transaction: { type: 'INCOMING' } });
  });

  it('above the approval threshold it waits: webhook, approvals list, nothing moves; approved it runs once, rejected never', async () => {
    await cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
    const { usd, bank, agent, me } = await connected();
    const pending = await me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 30_000 });
    expect(pending).toMatchObject({ status: 'PENDING_APPROVAL', type: 'TRANSFER_OUT' });
    expect(pending.transaction).toBeUndefined();
    expect(balance(usd.id)).toBe(200_000);
    const hook = (await events()).find((e) => e.type === 'AGENT_ACTION.PENDING_APPROVAL');
    expect(hook?.data).toMatchObject({ id: pending.id, status: 'PENDING_APPROVAL', transferDetails: { amount: 30_000 } });
    expect((await cb.agents.listApprovals({ agentId: agent.id })).data.map((a) => a.id)).toEqual([pending.id]);

    const approved = await cb.agents.approveAction(agent.id, pending.id);
    expect(approved).toMatchObject({ status: 'APPROVED', transaction: { type: 'OUTGOING', receivedAmount: { amount: 30_000 } } });
    expect(balance(usd.id)).toBe(170_000);
    const twice = await rejected(cb.agents.approveAction(agent.id, pending.id));
    expect([twice.status, twice.code]).toEqual([409, 'AGENT_ACTION_NOT_PENDING']);
    expect(balance(usd.id)).toBe(170_000);
    expect((await me.actions.retrieve(pending.id)).transaction?.id).toBe(approved.transaction!.id);

    const second = await me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 25_000 });
    expect((await me.retrieve()).usage.dailySpend).toBe(55_000);
    const rejection = await cb.agents.rejectAction(agent.id, second.id, { reason: 'Not today' });
    expect(rejection).toMatchObject({ status: 'REJECTED', rejectionReason: 'Not today' });
    expect(await rejected(cb.agents.approveAction(agent.id, second.id))).toBeInstanceOf(ConflictError);
    expect(balance(usd.id)).toBe(170_000);
    // A rejected action gives its usage back.
    expect((await me.retrieve()).usage).toMatchObject({ dailySpend: 30_000, dailyTransactionCount: 1 });
    expect((await me.actions.list({ status: 'REJECTED' })).data.map((a) => a.id)).toEqual([second.id]);
    expect((await cb.agents.listApprovals()).data).toEqual([]);
  });

  it('APPROVAL_REQUIRED holds every action; an account rule overrides the mode and the per-transaction limit', async () => {
    const { usd, bank, agent, me } = await connected({ ...POLICY, defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const small = await me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 100 });
    expect(small.status).toBe('PENDING_APPROVAL');
    await cb.agents.updatePolicy(agent.id, {
      accountRestrictions: { accountRules: [{ accountId: usd.id, executionMode: 'AUTO', perTransactionLimit: 1_000 }] },
    });
    expect((await me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 100 })).status).toBe('APPROVED');
    const over = await rejected(me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 1_001 }));
    expect([over.status, over.code, (over.details as { limit?: string }).limit]).toEqual([403, 'AGENT_SPENDING_LIMIT_EXCEEDED', 'perTransactionLimit']);
  });

  it('beyond the limits, a permission or the allowed accounts it is refused 403 and nothing moves; another customer is 404', async () => {
    const { usd, eur, bank, agent, me } = await connected({
      ...POLICY,
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 60_000, dailyTransactionLimit: 3 },
      approvalThresholds: { currency: 'USD', amount: null },
    });
    const out = (amount: number) => me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount });
    const perTx = await rejected(out(50_001));
    expect(perTx).toBeInstanceOf(PermissionDeniedError);
    expect([perTx.code, (perTx.details as { limit?: string }).limit]).toEqual(['AGENT_SPENDING_LIMIT_EXCEEDED', 'perTransactionLimit']);
    expect((await out(40_000)).status).toBe('APPROVED');
    const daily = await rejected(out(20_001));
    expect((daily.details as { limit?: string }).limit).toBe('dailyLimit');
    expect((await out(10_000)).status).toBe('APPROVED');
    expect((await out(1)).status).toBe('APPROVED');
    const count = await rejected(out(1));
    expect((count.details as { limit?: string }).limit).toBe('dailyTransactionLimit');
    expect(balance(usd.id)).toBe(200_000 - 50_001);
    // The next day the counters start again.
    world.sandbox.clock.advance(24 * 3_600_000);
    expect((await me.retrieve()).usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0, monthlySpend: expect.any(Number) });
    expect((await out(1)).status).toBe('APPROVED');

    await cb.agents.updatePolicy(agent.id, { permissions: ['VIEW_TRANSACTIONS'] });
    const permission = await rejected(out(1));
    expect([permission.status, permission.code]).toEqual([403, 'AGENT_PERMISSION_DENIED']);
    expect(await rejected(me.externalAccounts.list())).toBeInstanceOf(PermissionDeniedError);
    await cb.agents.updatePolicy(agent.id, { permissions: POLICY.permissions, accountRestrictions: { allowedAccountIds: [eur.id] } });
    const account = await rejected(out(1));
    expect([account.status, account.code]).toEqual([403, 'AGENT_ACCOUNT_NOT_ALLOWED']);

    const other = await customer();
    const theirs = await rejected(me.transferOut({ source: { accountId: other.usd.id }, destination: { accountId: other.bank.id }, amount: 1 }));
    expect(theirs).toBeInstanceOf(NotFoundError);
    expect(await rejected(me.externalAccounts.retrieve(other.bank.id))).toBeInstanceOf(NotFoundError);
    expect(balance(other.usd.id)).toBe(200_000);
  });

  it('concurrent actions never pass a limit together: the check and the usage are one step', async () => {
    const { usd, bank, me } = await connected({
      ...POLICY,
      spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 30_000 },
      approvalThresholds: { amount: null },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 10_000 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r.reason as APIError).status === 403)).toBe(true);
    expect(balance(usd.id)).toBe(170_000);
  });

  it("quotes: the agent's own only; executed within the policy at once, beyond it after approval, FAILED when it expired", async () => {
    const { usd, eur, agent, me } = await connected({ ...POLICY, approvalThresholds: { currency: 'USD', amount: 5_000 } });
    const quote = await me.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'ACCOUNT', accountId: eur.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 4_000,
    } as never);
    expect((await me.quotes.retrieve(quote.id)).id).toBe(quote.id);
    const action = await me.quotes.execute(quote.id);
    expect(action).toMatchObject({ status: 'APPROVED', type: 'EXECUTE_QUOTE', quote: { id: quote.id }, transaction: { id: quote.transactionId } });
    expect(balance(usd.id)).toBe(200_000 - quote.totalSendingAmount);
    expect(await rejected(me.quotes.execute(quote.id))).toBeInstanceOf(ConflictError);

    const platformQuote = await cb.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'ACCOUNT', accountId: eur.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    } as never);
    expect(await rejected(me.quotes.retrieve(platformQuote.id))).toBeInstanceOf(NotFoundError);

    const big = await me.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'ACCOUNT', accountId: eur.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    } as never);
    const held = await me.quotes.execute(big.id);
    expect(held).toMatchObject({ status: 'PENDING_APPROVAL', quote: { id: big.id, status: 'PENDING' } });
    const before = balance(usd.id);
    world.sandbox.clock.advance(6 * 60_000);
    const failed = await cb.agents.approveAction(agent.id, held.id);
    expect(failed.status).toBe('FAILED');
    expect(balance(usd.id)).toBe(before);
  });

  it("the agent's external accounts: create (its customer's), list, retrieve, delete", async () => {
    const { customer: c, bank, me } = await connected();
    const created = await me.externalAccounts.create({
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000987654321',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    expect(created.customerId).toBe(c.id);
    expect((await me.externalAccounts.list()).data.map((a) => a.id).sort()).toEqual([bank.id, created.id].sort());
    expect((await me.externalAccounts.retrieve(created.id)).id).toBe(created.id);
    await me.externalAccounts.delete(created.id);
    expect((await me.externalAccounts.list()).data.map((a) => a.id)).toEqual([bank.id]);
    const internal = (await me.internalAccounts.list()).data;
    expect(internal.every((a) => a.customerId === c.id) && internal.length === 2).toBe(true);
    const wrong = await rejected(
      me.externalAccounts.create({
        customerId: 'Customer:someone-else',
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: '000987654322',
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
        },
      }),
    );
    expect(wrong.status).toBe(404);
  });

  it('a state export keeps agents, device codes and pending actions (approved after import), never the credential', async () => {
    const { usd, bank, agent, accessToken, me } = await connected();
    const pending = await me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 30_000 });
    const { deviceCode } = await cb.agents.create({ name: 'second', customerId: agent.customerId, policy: POLICY });
    const saved = JSON.parse(JSON.stringify(world.sandbox.exportState()));
    const printed = [JSON.stringify(saved), JSON.stringify(world.logged), JSON.stringify(world.sandbox.state.snapshot())].join('\n');
    expect(printed).toContain(agent.id);
    expect(printed.includes(accessToken)).toBe(false);
    expect(printed.includes(accessToken.slice(4, 28))).toBe(false);
    world.sandbox.reset();
    expect(await rejected(me.retrieve())).toBeInstanceOf(AuthenticationError);
    world.sandbox.importState(saved);
    expect((await me.retrieve()).id).toBe(agent.id);
    expect((await cb.agents.getDeviceCodeStatus(deviceCode.code)).redeemed).toBe(false);
    expect((await cb.agents.approveAction(agent.id, pending.id)).status).toBe('APPROVED');
    expect(balance(usd.id)).toBe(170_000);
    expect(world.sandbox.state.snapshot().agentActions.map((a) => a.status)).toEqual(['APPROVED']);
  });

  it('the redeem answer is masked in the debug log; agentToken is refused beside platform credentials', async () => {
    const who = await customer();
    const { deviceCode } = await cb.agents.create({ name: 'bot', customerId: who.customer.id, policy: POLICY });
    const lines: string[] = [];
    const line = (m: string, d?: unknown) => lines.push(`${m} ${JSON.stringify(d ?? {})}`);
    const logged = new Crossborder({
      tokenId: 'tok_agents',
      clientSecret: 'sk_agents',
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      logLevel: 'debug',
      logger: { debug: line, info: line, warn: line, error: line },
    });
    const { accessToken } = await logged.agents.redeemDeviceCode(deviceCode.code);
    expect(lines.some((l) => l.includes('/redeem'))).toBe(true);
    expect(lines.join('\n').includes(accessToken)).toBe(false);
    const agentLines: string[] = [];
    const agentLine = (m: string, d?: unknown) => agentLines.push(`${m} ${JSON.stringify(d ?? {})}`);
    const agentClient = new Crossborder({
      agentToken: accessToken,
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      logLevel: 'debug',
      logger: { debug: agentLine, info: agentLine, warn: agentLine, error: agentLine },
    });
    await agentClient.agents.me.retrieve();
    expect(agentLines.length).toBeGreaterThan(0);
    expect(agentLines.join('\n').includes(accessToken)).toBe(false);
    expect(() => new Crossborder({ agentToken: accessToken, tokenId: 't', clientSecret: 's' })).toThrow(/^Give either tokenId and clientSecret or agentToken/);
    expect(await rejected(asAgent(accessToken).customers.list())).toBeInstanceOf(AuthenticationError);
  });
});
