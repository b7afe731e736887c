/**
 * The guides' command lines run as written. Every ```sh block marked `<!-- cli: NAME -->` in a guide
 * is run, verbatim, by bash in a fresh project that has the packed tarball installed (its bin linked
 * in node_modules/.bin, as npm links it, so `npx crossborder-sdk` runs it without the network), with
 * the README's `CROSSBORDER_*` variables pointing at a local sandbox on 127.0.0.1 and the shell
 * variables the guide names set from the sandbox's state. Each step checks what the command printed
 * and what it did to the sandbox; every marked block has a step, and every step a block.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Crossborder } from 'crossborder-sdk';
import { createClock, createSandbox, type Sandbox } from 'crossborder-sdk/sandbox';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PAYROLL_POLICY } from '../../examples/guides/agents/connect';
import { makeConsumer } from '../setup/packed';
import { read } from './markdown';

/** The guides whose command lines run here. */
const GUIDES = ['docs/customers-and-kyc.md', 'docs/quotes-and-fx.md', 'docs/wallet.md', 'docs/agents.md'];

/** `<!-- cli: NAME -->` then a ```sh block: NAME → the block's text. */
function cliBlocks(markdown: string): Map<string, string> {
  return new Map([...markdown.matchAll(/<!-- cli: (\S+) -->\n```sh\n([\s\S]*?)```\n/g)].map((m) => [m[1]!, m[2]!]));
}

const blocks = new Map<string, { guide: string; code: string }>();
for (const guide of GUIDES) for (const [name, code] of cliBlocks(read(guide))) blocks.set(name, { guide, code });

const ADDRESS = { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' };

let dir: string;
let sandbox: Sandbox;
let url: string;
let cb: Crossborder;

/**
 * Runs the block NAME with bash (`set -eo pipefail`): its output, or the failure with both streams. A variable
 * given as undefined is left out of the environment (the platform's credentials, for a shell that holds only an agent's).
 */
async function runBlock(name: string, vars: Record<string, string | undefined> = {}): Promise<string> {
  const block = blocks.get(name);
  if (!block) throw new Error(`no <!-- cli: ${name} --> block in ${GUIDES.join(', ')}`);
  const all: Record<string, string | undefined> = {
    PATH: `${join(dir, 'node_modules', '.bin')}:${process.env.PATH}`,
    HOME: dir,
    npm_config_update_notifier: 'false',
    CROSSBORDER_BASE_URL: url,
    CROSSBORDER_TOKEN_ID: 'docs',
    CROSSBORDER_CLIENT_SECRET: 'docs',
    ...vars,
  };
  const env = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
  try {
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -eo pipefail\n${block.code}`], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    return stdout;
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`${block.guide} <!-- cli: ${name} --> exited ${e.code}:\n${block.code}\nstdout: ${e.stdout}\nstderr: ${e.stderr}`);
  }
}

/** The value of a field in the CLI's table of one object (`name   value`). */
function field(out: string, name: string): string {
  const line = out.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in:\n${out}`);
  return line.slice(name.length).trim();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crossborder-cli-guides-'));
  const packed = inject('packed');
  makeConsumer(packed, dir);
  // What `npm install` does with the package's bin: a link in node_modules/.bin, executable.
  const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', 'crossborder-sdk', 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const binFile = join(dir, 'node_modules', 'crossborder-sdk', pkg.bin['crossborder-sdk']!);
  chmodSync(binFile, 0o755);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(binFile, join(dir, 'node_modules', '.bin', 'crossborder-sdk'));
  // A frozen clock: only the test moves it, so a transfer is still in flight when the next command runs.
  sandbox = createSandbox({ clock: createClock(undefined, { frozen: true }) });
  url = (await sandbox.listen()).url;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  cb = new Crossborder({ tokenId: 'docs', clientSecret: 'docs', baseUrl: url, maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const individual = () =>
  cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace', birthDate: '1990-12-10', nationality: 'GB', address: ADDRESS });
const accountOf = async (customerId: string, currency: string) => (await cb.internalAccounts.list({ customerId, currency })).data[0]!;

describe("the guides' command lines, run as written against the local sandbox", { timeout: 180_000 }, () => {
  it('every marked block has a step here, and every step a block', () => {
    expect([...blocks.keys()].sort()).toEqual(
      [
        'terms',
        'kyc-link',
        'kyb',
        'csv-upload',
        'csv-job',
        'documents',
        'invitation-claim',
        'invitation-cancel',
        'ownership-challenge',
        'ownership-verify',
        'rates',
        'transfer-out',
        'transfer-out-cancel',
        'crypto-fee',
        'directories',
        'stablecoin-mint',
        'wallet-login',
        'session-refresh',
        'delegated-keys',
        'delegated-key-revoke',
        'agents-create',
        'agents-connect',
        'agents-act',
        'agents-act-wait',
        'agents-approve',
      ].sort(),
    );
    // Each guide's blocks that call the CLI are marked, so none is left out of this test.
    for (const guide of GUIDES) {
      const marked = [...cliBlocks(read(guide)).values()];
      const all = [...read(guide).matchAll(/```sh\n([\s\S]*?)```\n/g)].map((m) => m[1]!).filter((code) => code.includes('crossborder-sdk'));
      expect(
        all.filter((code) => !marked.includes(code)),
        guide,
      ).toEqual([]);
    }
  });

  it('customers-and-kyc: end-user terms', async () => {
    const out = await runBlock('terms');
    expect(field(out, 'version')).toBe('V1');
    expect(field(out, 'url')).toBe('https://www.lightspark.com/legal/grid/enduserterms');
  });

  it('customers-and-kyc: a document uploaded from a file, then listed', async () => {
    writeFileSync(join(dir, 'passport.pdf'), '%PDF-1.7\n% a passport scan\n');
    const customer = await individual();
    const out = await runBlock('documents', { CUSTOMER_ID: customer.id });
    expect(out).toContain('PASSPORT');
    expect(out).toContain(customer.id);
  });

  it('customers-and-kyc: a hosted KYC link', async () => {
    const customer = await individual();
    const out = await runBlock('kyc-link', { CUSTOMER_ID: customer.id });
    expect(decodeURIComponent(field(out, 'kycUrl'))).toContain('https://app.example.com/onboarding/done');
  });

  it('customers-and-kyc: KYB, missing owner and control person, then one owner who controls it: APPROVED', async () => {
    const business = await cb.customers.create({
      customerType: 'BUSINESS',
      region: 'US',
      businessInfo: { legalName: 'Acme Widgets LLC', taxId: '12-3456789', incorporatedOn: '2019-03-01' },
      address: ADDRESS,
    });
    const out = await runBlock('kyb', { BUSINESS_ID: business.id });
    expect(out).toContain('RESOLVE_ERRORS');
    expect(out).toContain('MISSING_CONTROL_PERSON');
    expect(out).toContain('APPROVED');
    expect((await cb.customers.retrieve(business.id)).kycStatus).toBe('APPROVED');
    const owners = (await cb.beneficialOwners.list({ customerId: business.id })).data;
    expect(owners.map((o) => [o.roles, o.ownershipPercentage, o.personalInfo.lastName])).toEqual([[['UBO', 'CONTROL_PERSON'], 60, 'Smith']]);
    expect(out).toContain(owners[0]!.id);
  });

  it('customers-and-kyc: the sample CSV, uploaded from the installed package; its job reads COMPLETED with three customers', async () => {
    const before = sandbox.state.snapshot().customers.length;
    const uploaded = await runBlock('csv-upload');
    const jobId = field(uploaded, 'jobId');
    expect(jobId).toMatch(/^Job:/);
    sandbox.clock.advance(1_000);
    const job = await runBlock('csv-job', { JOB_ID: jobId });
    expect(field(job, 'status')).toBe('COMPLETED');
    expect(sandbox.state.snapshot().customers.length).toBe(before + 3);
    expect((await cb.customers.list({ platformCustomerId: 'biz-2001' })).data[0]).toMatchObject({
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Acme Widgets, LLC' },
    });
  });

  it('customers-and-kyc: an invitation read and claimed; another cancelled', async () => {
    await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ivy Inviter', umaAddress: '$ivy@yourplatform.example' });
    const invitation = await cb.invitations.create({ inviterUma: '$ivy@yourplatform.example' });
    const out = await runBlock('invitation-claim', { CODE: invitation.code });
    expect(out).toContain('PENDING'); // read before the claim
    expect(out).toContain('CLAIMED');
    expect(await cb.invitations.retrieve(invitation.code)).toMatchObject({ status: 'CLAIMED', inviteeUma: '$grace@wallet.example' });
    const other = await cb.invitations.create({ inviterUma: '$ivy@yourplatform.example' });
    expect(field(await runBlock('invitation-cancel', { CODE: other.code }), 'status')).toBe('CANCELLED');
    expect((await cb.invitations.retrieve(other.code)).status).toBe('CANCELLED');
  });

  it("customers-and-kyc: ownership, the challenge's message signed and verified: ACTIVE", async () => {
    const customer = await individual();
    const wallet = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'BTC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qdocsclientwallet0000000000000000000000000' },
    });
    const challenge = await runBlock('ownership-challenge', { WALLET_ACCOUNT_ID: wallet.id });
    const message = field(challenge, 'messageToSign');
    expect(message).toMatch(/^I verify that I control this wallet\. Nonce: /);
    const verified = await runBlock('ownership-verify', { WALLET_ACCOUNT_ID: wallet.id, SIGNATURE: `sandbox-signed:${message}` });
    expect(field(verified, 'status')).toBe('ACTIVE');
    expect((await cb.externalAccounts.retrieve(wallet.id)).status).toBe('ACTIVE');
  });

  it('quotes-and-fx: exchange rates for two corridors, priced as a quote made at once', async () => {
    const out = await runBlock('rates');
    const { data } = await cb.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: ['GBP', 'EUR'], sendingAmount: 10_000 });
    expect(data).toHaveLength(2);
    for (const rate of data) expect(out).toContain(String(rate.exchangeRate));
    expect(out).toContain('FASTER_PAYMENTS');
    expect(out).toContain('SEPA_INSTANT');
  });

  it('quotes-and-fx: the receiving institutions of a corridor and the VASPs, as tables', async () => {
    const out = await runBlock('directories');
    const banks = (await cb.discoveries.list({ country: 'PH', currency: 'PHP' })).data ?? [];
    expect(banks.length).toBeGreaterThan(0);
    for (const bank of banks) expect(out).toContain(bank.bankName);
    const vasps: string[] = [];
    for await (const vasp of cb.vasps.list()) vasps.push(vasp.vaspName);
    expect(vasps.length).toBeGreaterThan(1);
    for (const name of vasps) expect(out).toContain(name);
  });

  it('quotes-and-fx: a stablecoin mint paid from an internal account, then its operations listed', async () => {
    const customer = await individual();
    const usd = await accountOf(customer.id, 'USD');
    await cb.sandbox.fundInternalAccount(usd.id, { amount: 5_000 });
    const wallet = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'BTC',
      accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1pgss9qvzc8e2yfz3lwsz8ra6zxj6yqjk8hy0mnhvxm3a5ccgzyyaqmqyjdxz' },
    });
    await cb.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'cli-guide', apiClientSecret: 'cli-guide-secret' });
    const coin = await cb.stablecoins.register({ providerTokenIdentifier: 'CLIG', networkTokenIdentifier: 'btkn1cliguide', network: 'SPARK' });
    const out = await runBlock('stablecoin-mint', { STABLECOIN_ID: coin.id, ACCOUNT_ID: usd.id, WALLET_ID: wallet.id });
    const mintId = field(out, 'id');
    expect(mintId).toMatch(/^StablecoinOperation:/);
    expect(field(out, 'status')).toBe('PROCESSING');
    expect(sandbox.state.balance(usd.id)).toBe(5_000 - 100);
    expect(out.match(/StablecoinOperation:/g)?.length).toBeGreaterThanOrEqual(2); // the list that follows names it too
  });

  it("quotes-and-fx: transfer-out to the customer's own bank account, then another cancelled and refunded", async () => {
    const customer = await individual();
    const usd = await accountOf(customer.id, 'USD');
    await cb.sandbox.fundInternalAccount(usd.id, { amount: 50_000 });
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
    const out = await runBlock('transfer-out', { ACCOUNT_ID: usd.id, BANK_ACCOUNT_ID: bank.id });
    const txId = field(out, 'id');
    expect(txId).toMatch(/^Transaction:/);
    expect(field(out, 'status')).toBe('PROCESSING');
    expect(sandbox.state.balance(usd.id)).toBe(50_000 - 12_550);
    const tx = await cb.transactions.retrieve(txId);
    expect(tx.receivedAmount?.amount).toBe(12_550);

    const cancelled = await runBlock('transfer-out-cancel', { TRANSACTION_ID: txId });
    expect(field(cancelled, 'status')).toBe('FAILED');
    expect(field(cancelled, 'failureReason')).toBe('CANCELLED');
    expect(sandbox.state.balance(usd.id)).toBe(50_000);
  });

  it('quotes-and-fx: a USDC withdrawal fee on Solana', async () => {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace', currencies: ['USD', 'USDC'] });
    const usdc = await accountOf(customer.id, 'USDC');
    const out = await runBlock('crypto-fee', { USDC_ACCOUNT_ID: usdc.id });
    expect([field(out, 'networkFeeAsset'), field(out, 'totalFee'), field(out, 'netAmount')]).toEqual([
      'SOL',
      expect.stringMatching(/5000|0\.005/),
      expect.stringMatching(/995000|0\.995/),
    ]);
  });

  it('wallet: a session saved by the CLI, refreshed, a delegated key made with two signatures, listed and revoked', async () => {
    const customer = await individual();
    const walletId = (await accountOf(customer.id, 'USD')).id.replace(/^InternalAccount:/, 'EmbeddedWallet:');
    const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
    await runBlock('wallet-login', { CREDENTIAL_ID: credential.id });
    const session = JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as { id: string };
    expect(session.id).toMatch(/^Session:/);

    await runBlock('session-refresh', { SESSION_ID: session.id });
    const refreshed = JSON.parse(readFileSync(join(dir, 'refreshed.json'), 'utf8')) as { id: string };
    expect(refreshed.id).not.toBe(session.id);
    expect((await cb.auth.sessions.list({ accountId: walletId })).data.map((s) => s.id)).toEqual(expect.arrayContaining([session.id, refreshed.id]));

    const out = await runBlock('delegated-keys', { CARD_ID: 'Card:docs-1', WALLET_ID: walletId });
    const [key] = (await cb.auth.delegatedKeys.list({ accountId: walletId })).data;
    expect(key).toMatchObject({ status: 'ACTIVE' });
    expect(out).toContain(key!.id);
    await runBlock('delegated-key-revoke', { DELEGATED_KEY_ID: key!.id });
    expect((await cb.auth.delegatedKeys.retrieve(key!.id)).status).toBe('REVOKED');
  });
  // The agents guide's blocks, in its order: each step starts from what the one before left (the agent, its credential, the held action).
  const agents = {} as { customerId: string; agentId: string; token: string; usd: string; eur: string; bank: string; quoteTotal: number; heldId: string };
  const agentClient = () => new Crossborder({ agentToken: agents.token, baseUrl: url, maxRetries: 0 });

  it('agents: an agent created with the policy of the guide, its device code read, then redeemed for a credential that is the agent', async () => {
    const customer = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region: 'US',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      address: ADDRESS,
      currencies: ['USD', 'EUR'],
    });
    agents.customerId = customer.id;
    const created = await runBlock('agents-create', { CUSTOMER_ID: customer.id });
    const code = field(created, 'deviceCode');
    expect(code).toMatch(/^GRID-AGENT-/);
    agents.agentId = (JSON.parse(field(created, 'agent')) as { id: string }).id;
    expect((await cb.agents.list({ customerId: customer.id })).data.map((a) => a.id)).toEqual([agents.agentId]);
    // The command line's policy is the one the TypeScript example states.
    expect(await cb.agents.retrieve(agents.agentId)).toMatchObject({
      name: 'Payroll bot',
      customerId: customer.id,
      isConnected: false,
      policy: PAYROLL_POLICY,
    });
    expect(await cb.agents.getDeviceCodeStatus(code)).toMatchObject({ code, redeemed: false });

    const connected = await runBlock('agents-connect', { CODE: code });
    expect(field(connected, 'redeemed')).toBe('false'); // the status, read before the redeem
    expect(field(connected, 'agentId')).toBe(agents.agentId);
    agents.token = field(connected, 'accessToken');
    expect(agents.token).toMatch(/^gat_\S+$/);
    expect(await cb.agents.getDeviceCodeStatus(code)).toMatchObject({ code, redeemed: true });
    expect(await cb.agents.retrieve(agents.agentId)).toMatchObject({ isConnected: true });
    expect((await agentClient().agents.me.retrieve()).id).toBe(agents.agentId);
  });

  it('agents: as the agent, with its credential alone: $125.50 out runs, a quote priced; then executed, and $300.00 out waits', async () => {
    const usd = await accountOf(agents.customerId, 'USD');
    await cb.sandbox.fundInternalAccount(usd.id, { amount: 100_000 });
    const bank = await cb.externalAccounts.create({
      customerId: agents.customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    Object.assign(agents, { usd: usd.id, eur: (await accountOf(agents.customerId, 'EUR')).id, bank: bank.id });
    const accounts = { USD_ACCOUNT_ID: agents.usd, EUR_ACCOUNT_ID: agents.eur, BANK_ACCOUNT_ID: agents.bank };
    const agent = agentClient();

    // The agent's software: its own credential, from the redeem, and no platform credentials in its environment.
    const acted = await runBlock('agents-act', {
      CROSSBORDER_TOKEN_ID: undefined,
      CROSSBORDER_CLIENT_SECRET: undefined,
      AGENT_TOKEN: agents.token,
      ...accounts,
    });
    expect([field(acted, 'id'), field(acted, 'isConnected')]).toEqual([agents.agentId, 'true']); // `agents me retrieve` first
    const [paid, ...others] = (await agent.agents.me.actions.list()).data;
    expect(others).toEqual([]);
    expect(paid).toMatchObject({
      status: 'APPROVED',
      type: 'TRANSFER_OUT',
      transferDetails: { amount: 12_550, sourceAccountId: agents.usd, destinationAccountId: agents.bank },
    });
    expect(acted).toContain(paid!.id);
    expect(await cb.transactions.retrieve(paid!.transaction!.id)).toMatchObject({ type: 'OUTGOING', receivedAmount: { amount: 12_550 } });
    expect(sandbox.state.balance(agents.usd)).toBe(100_000 - 12_550);
    const quoteId = /^id +(Quote:\S+)$/m.exec(acted)?.[1];
    expect(quoteId, acted).toBeDefined();
    const quote = await cb.quotes.retrieve(quoteId!);
    expect(quote).toMatchObject({ status: 'PENDING', source: { accountId: agents.usd }, destination: { accountId: agents.eur } });
    agents.quoteTotal = quote.totalSendingAmount;
    expect(agents.quoteTotal).toBeGreaterThanOrEqual(2_500);

    // The same shell later: the agent's credential exported, the platform's still there (the agent's takes their place).
    const waited = await runBlock('agents-act-wait', { CROSSBORDER_AGENT_TOKEN: agents.token, QUOTE_ID: quoteId!, ...accounts });
    const actions = (await agent.agents.me.actions.list()).data.filter((a) => a.id !== paid!.id);
    const executed = actions.find((a) => a.type === 'EXECUTE_QUOTE');
    const held = actions.find((a) => a.type === 'TRANSFER_OUT');
    expect(actions).toHaveLength(2);
    expect(executed).toMatchObject({ status: 'APPROVED', quote: { id: quoteId } });
    expect(executed!.transaction?.id).toBe(quote.transactionId);
    expect(held).toMatchObject({ status: 'PENDING_APPROVAL', transferDetails: { amount: 30_000 } });
    expect(held!.transaction).toBeUndefined();
    // Nothing moved for the held one; the quote's total did.
    expect(sandbox.state.balance(agents.usd)).toBe(100_000 - 12_550 - agents.quoteTotal);
    // Printed by the transfer-out, then by the list of the actions waiting.
    expect(waited.split(held!.id).length - 1).toBe(2);
    expect((await cb.agents.listApprovals({ agentId: agents.agentId })).data.map((a) => a.id)).toEqual([held!.id]);
    agents.heldId = held!.id;
  });

  it('agents: the platform approves the held $300.00 (it runs once) and rejects another, $450.00 (nothing moves)', async () => {
    const agent = agentClient();
    const other = await agent.agents.me.transferOut({ source: { accountId: agents.usd }, destination: { accountId: agents.bank }, amount: 45_000 });
    expect(other.status).toBe('PENDING_APPROVAL');
    const before = 100_000 - 12_550 - agents.quoteTotal;
    expect(sandbox.state.balance(agents.usd)).toBe(before); // held: nothing moved

    // The shell that acted as the agent still holds its credential: the block drops it.
    const out = await runBlock('agents-approve', {
      CROSSBORDER_AGENT_TOKEN: agents.token,
      AGENT_ID: agents.agentId,
      ACTION_ID: agents.heldId,
      OTHER_ACTION_ID: other.id,
    });
    expect(out).toContain(other.id); // listed before the decisions
    const approved = await agent.agents.me.actions.retrieve(agents.heldId);
    expect(approved).toMatchObject({ status: 'APPROVED', transaction: { type: 'OUTGOING', receivedAmount: { amount: 30_000 } } });
    expect(out).toContain(approved.transaction!.id);
    const rejected = await agent.agents.me.actions.retrieve(other.id);
    expect(rejected).toMatchObject({ status: 'REJECTED', rejectionReason: 'USER_CANCELLATION' });
    expect(rejected.transaction).toBeUndefined();
    // Approved ran once, rejected never: one transaction of $300.00, none of $450.00, the balance down by $300.00 only.
    const amounts = (await cb.transactions.list({ customerId: agents.customerId })).data.map((t) => t.receivedAmount?.amount);
    expect(amounts.filter((a) => a === 30_000)).toHaveLength(1);
    expect(amounts).not.toContain(45_000);
    expect(sandbox.state.balance(agents.usd)).toBe(before - 30_000);
    expect((await cb.agents.listApprovals({ agentId: agents.agentId })).data).toEqual([]);
    // The rejected amount went back to the limits: what ran is counted.
    expect((await agent.agents.me.retrieve()).usage).toMatchObject({ dailySpend: 12_550 + agents.quoteTotal + 30_000, dailyTransactionCount: 3 });
  });
});
