/**
 * Every operation of the document, once, through the command table of the packed bin, against the
 * HTTP sandbox started by the same bin: `--json` parsed, wallet commands signed with a saved session,
 * errors with their exit code, request id and retry key, profiles refused when others may read them.
 */
import { createECDH } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_COUNT } from '../../src/generated/operations';
import { cli, envFor, json, packed, startSandbox, type Sandbox } from './helpers';

let sandbox: Sandbox;
let env: Record<string, string>;
let dir: string;
/** The operations run, by the request log of the sandbox (method and path template). */
const run = (...args: string[]) => cli([...args, '--json'], { env });

beforeAll(async () => {
  sandbox = await startSandbox(['--quiet']);
  env = envFor(sandbox);
  dir = mkdtempSync(join(tmpdir(), 'cb-cli-ops-'));
});
afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe('resource commands from the operation table', () => {
  it('runs all 41 operations, each once, with --json output parsed', async () => {
    const ran = new Set<string>();
    const op = async <T = Record<string, unknown>>(name: string, ...args: string[]) => {
      const result = json<T>(await run(...args));
      ran.add(name);
      return result;
    };
    const [ada, temp, providers, platformAccount] = await Promise.all([
      op<{ id: string; umaAddress: string; fullName: string }>('createCustomer', 'customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--full-name', 'Ada Lovelace', '--birth-date', '1990-12-10', '--nationality', 'GB', '--currencies', 'USD,EUR'),
      op<{ id: string }>('createCustomer', 'customers', 'create', '--data', JSON.stringify({ customerType: 'BUSINESS', region: 'US', businessInfo: { legalName: 'Temp Ltd' } })),
      op<{ data: unknown[] }>('listUmaProviders', 'uma-providers', 'list', '--limit', '2'),
      op<{ id: string }>('createPlatformExternalAccount', 'platform', 'external-accounts', 'create', '--currency', 'USD', '--account-info', JSON.stringify({ accountType: 'USD_ACCOUNT', accountNumber: '000999888777', routingNumber: '021000021' })),
    ]);
    expect(ada.fullName).toBe('Ada Lovelace');
    expect(providers.data.length).toBeLessThanOrEqual(2);
    expect(platformAccount.id).toMatch(/^ExternalAccount:/);
    const [retrieved, updated, deleted, customers, accounts, platformList, config] = await Promise.all([
      op<{ id: string }>('getCustomer', 'customers', 'retrieve', ada.id),
      op<{ fullName: string }>('updateCustomer', 'customers', 'update', ada.id, '--customer-type', 'INDIVIDUAL', '--full-name', 'Ada King'),
      op<{ isDeleted: boolean }>('deleteCustomer', 'customers', 'delete', temp.id),
      op<{ data: { id: string }[] }>('listCustomers', 'customers', 'list', '--customer-type', 'INDIVIDUAL'),
      op<{ data: { id: string; balance: { currency: { code: string } } }[] }>('listInternalAccounts', 'internal-accounts', 'list', '--customer-id', ada.id),
      op<{ data: unknown[] }>('listPlatformExternalAccounts', 'platform', 'external-accounts', 'list'),
      op<{ supportedCurrencies: unknown }>('getConfig', 'config', 'retrieve'),
    ]);
    expect(retrieved.id).toBe(ada.id);
    expect(updated.fullName).toBe('Ada King');
    expect(deleted.isDeleted).toBe(true);
    expect(customers.data.map((c) => c.id)).toEqual([ada.id]);
    expect(platformList.data).toHaveLength(1);
    const usd = accounts.data.find((a) => a.balance.currency.code === 'USD')!;
    const walletId = usd.id.replace('InternalAccount:', 'EmbeddedWallet:');
    const [funded, bank, , lookup, held1, held2, invitation, verifications, , otp] = await Promise.all([
      op<{ balance: { amount: number } }>('sandboxFundInternalAccount', 'sandbox', 'internal-accounts', 'fund', usd.id, '--amount', '1000000'),
      op<{ id: string }>('createExternalAccount', 'external-accounts', 'create', '--customer-id', ada.id, '--currency', 'USD', '--account-info', JSON.stringify({ accountType: 'USD_ACCOUNT', accountNumber: '000123456789', routingNumber: '021000021' })),
      op('updateConfig', 'config', 'update', '--supported-currencies', JSON.stringify(config.supportedCurrencies)),
      op<{ lookupId: string }>('lookupUmaReceiver', 'receiver', 'uma', 'lookup', '$bob@receiver.example', '--customer-id', ada.id),
      op<{ id: string; status: string }>('sandboxReceiveUmaPayment', 'sandbox', 'uma', 'receive', '--sender-uma-address', '$sam@sandbox.uma.example', '--receiving-currency-code', 'USD', '--receiving-currency-amount', '13131313', '--customer-id', ada.id),
      op<{ id: string }>('sandboxReceiveUmaPayment', 'sandbox', 'uma', 'receive', '--sender-uma-address', '$sue@sandbox.uma.example', '--receiving-currency-code', 'USD', '--receiving-currency-amount', '13131313', '--customer-id', ada.id),
      op<{ code: string }>('createInvitation', 'invitations', 'create', '--inviter-uma', ada.umaAddress, '--first-name', 'Bob', '--amount-to-send', '2000'),
      op<{ data: unknown[] }>('listVerifications', 'verifications', 'list', '--customer-id', ada.id),
      op('listExternalAccounts', 'external-accounts', 'list', '--customer-id', ada.id),
      op<{ id: string }>('createCredential', 'auth', 'credentials', 'create', '--type', 'EMAIL_OTP', '--account-id', walletId),
    ]);
    expect(funded.balance.amount).toBe(1_000_000);
    expect(held1.status).toBe('PENDING');
    expect(invitation.code).toEqual(expect.any(String));
    expect(verifications.data.length).toBeGreaterThan(0);
    const [quote, approved, rejected, , transferIn, , credentials] = await Promise.all([
      op<{ id: string }>('createQuote', 'quotes', 'create', '--source', JSON.stringify({ sourceType: 'ACCOUNT', accountId: usd.id }), '--destination', JSON.stringify({ destinationType: 'UMA_ADDRESS', umaAddress: '$bob@receiver.example', currency: 'MXN' }), '--locked-currency-side', 'SENDING', '--locked-currency-amount', '10000', '--lookup-id', lookup.lookupId, '--sender-customer-info', '{"FULL_NAME":"Ada"}'),
      op<{ status: string }>('approveTransaction', 'transactions', 'approve', held1.id, '--receiver-customer-info', '{"FULL_NAME":"Ada"}'),
      op<{ status: string }>('rejectTransaction', 'transactions', 'reject', held2.id, '--reason', 'test'),
      op('lookupExternalAccountReceiver', 'receiver', 'external-account', 'lookup', bank.id, '--customer-id', ada.id),
      op<{ id: string }>('createTransferIn', 'transfer-in', 'create', '--source', JSON.stringify({ accountId: bank.id }), '--destination', JSON.stringify({ accountId: usd.id }), '--amount', '2500'),
      op('challengeCredential', 'auth', 'credentials', 'challenge', otp.id),
      op<{ data: unknown[] }>('listCredentials', 'auth', 'credentials', 'list', '--account-id', walletId),
    ]);
    expect([approved.status, rejected.status]).toEqual(['COMPLETED', 'REJECTED']);
    expect(transferIn.id).toMatch(/^Transaction:/);
    expect(credentials.data).toHaveLength(1);
    // A wallet session saved by verify (mode 0600), then the signed operations answered by the CLI itself.
    const sessionFile = join(dir, 'session.json');
    const [retrievedQuote, transactions, oneTransaction, session] = await Promise.all([
      op<{ id: string }>('getQuote', 'quotes', 'retrieve', quote.id),
      op<{ data: unknown[] }>('listTransactions', 'transactions', 'list', '--customer-id', ada.id, '--limit', '2'),
      op<{ id: string }>('getTransaction', 'transactions', 'retrieve', held1.id),
      op<{ id: string; encryptedSessionSigningKey: string }>('verifyCredential', 'auth', 'credentials', 'verify', otp.id, '--type', 'EMAIL_OTP', '--otp', '000000', '--save-session', sessionFile),
    ]);
    expect(retrievedQuote.id).toBe(quote.id);
    expect(transactions.data).toHaveLength(2);
    expect(oneTransaction.id).toBe(held1.id);
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(sessionFile, 'utf8')) as { id: string; privateKey: string; publicKey: string };
    expect(saved.id).toBe(session.id);
    expect(saved.privateKey).toMatch(/^[0-9a-f]{64}$/);
    // Unsigned, a wallet write answers the challenge: exit 8, with the requestId to relay.
    const unsigned = await run('internal-accounts', 'update', walletId, '--private-enabled', 'true');
    expect(unsigned.code).toBe(8);
    expect(JSON.parse(unsigned.err)).toMatchObject({ error: 'SignatureRequiredError', challenge: { requestId: expect.any(String) } });
    const key = ['--session-key', sessionFile];
    // The quote is funded from the wallet's account, which now has a credential: executing it is signed too.
    const [executed, privacy, exported, passkey, sessions] = await Promise.all([
      op<{ status: string; transactionId: string }>('executeQuote', 'quotes', 'execute', quote.id, ...key),
      op<{ privateEnabled: boolean }>('updateInternalAccount', 'internal-accounts', 'update', walletId, '--private-enabled', 'true', ...key),
      op<{ encryptedWalletCredentials?: string }>('exportInternalAccount', 'internal-accounts', 'export', walletId, '--client-public-key', uncompressedKey(), ...key),
      op<{ id: string; type: string }>('createCredential', 'auth', 'credentials', 'create', '--type', 'PASSKEY', '--account-id', walletId, '--nickname', 'laptop', '--challenge', 'Y2hhbGxlbmdl', '--attestation', JSON.stringify({ credentialId: 'Y3JlZC1pZC0x', clientDataJson: 'e30', attestationObject: 'o2M' }), ...key),
      op<{ data: { id: string }[] }>('listSessions', 'auth', 'sessions', 'list', '--account-id', walletId),
    ]);
    expect(executed.transactionId).toMatch(/^Transaction:/);
    expect(privacy.privateEnabled).toBe(true);
    expect(exported).toBeTypeOf('object');
    expect(passkey.type).toBe('PASSKEY');
    expect(sessions.data.map((s) => s.id)).toContain(session.id);
    const revoked = await run('auth', 'credentials', 'revoke', passkey.id, ...key);
    expect(revoked.code).toBe(0);
    ran.add('revokeCredential');
    // Production's session refresh (signed by the saved session; the new one saved in turn) and delegated keys (signed twice).
    const refreshedFile = join(dir, 'refreshed.json');
    const refreshed = await op<{ id: string; expiresAt: string }>('refreshAuthSession', 'auth', 'sessions', 'refresh', session.id, '--save-session', refreshedFile, ...key);
    expect(refreshed.id).not.toBe(session.id);
    const savedRefresh = JSON.parse(readFileSync(refreshedFile, 'utf8')) as { id: string; credentialId: string };
    expect([savedRefresh.id, savedRefresh.credentialId]).toEqual([refreshed.id, otp.id]);
    const delegated = await op<{ id: string; status: string; fundingSourceId: string }>(
      'createDelegatedKey', 'auth', 'delegated-keys', 'create', '--card-id', 'Card:1', '--internal-account-id', walletId, '--nickname', 'cli', '--session-key', refreshedFile,
    );
    expect(delegated.status).toBe('ACTIVE');
    const [keys, oneKey] = await Promise.all([
      op<{ data: { id: string }[] }>('listDelegatedKeys', 'auth', 'delegated-keys', 'list', '--account-id', walletId),
      op<{ id: string }>('getDelegatedKeyById', 'auth', 'delegated-keys', 'retrieve', delegated.id),
    ]);
    expect([keys.data.map((k) => k.id), oneKey.id]).toEqual([[delegated.id], delegated.id]);
    const revokedKey = await run('auth', 'delegated-keys', 'revoke', delegated.id);
    expect(revokedKey.code).toBe(0);
    ran.add('revokeDelegatedKey');
    const endSession = await run('auth', 'sessions', 'revoke', session.id, ...key);
    expect(endSession.code).toBe(0);
    ran.add('revokeSession');
    expect(ran.size).toBe(OPERATION_COUNT);
  }, 180_000);

  it('--all streams every item as one JSON line each; a table without --json', async () => {
    await Promise.all(['A', 'B', 'C'].map((n) => run('customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--full-name', `Paged ${n}`)));
    const all = await cli(['customers', 'list', '--limit', '1', '--all', '--json'], { env });
    const lines = all.out.trim().split('\n').map((l) => JSON.parse(l) as { fullName: string });
    expect(lines.map((c) => c.fullName).filter((n) => n.startsWith('Paged')).sort()).toEqual(['Paged A', 'Paged B', 'Paged C']);
    const table = await cli(['customers', 'list', '--limit', '50'], { env });
    expect(table.code).toBe(0);
    expect(table.out.split('\n')[0]).toMatch(/^ID\s+PLATFORMCUSTOMERID\s+CUSTOMERTYPE/);
    expect(table.out).toMatch(/Customer:\S+\s+\S+\s+INDIVIDUAL/);
  }, 60_000);

  it('errors: exit code by class, the request id; a --data body from stdin; unknown flags are usage errors', async () => {
    const missing = await cli(['customers', 'retrieve', 'Customer:nope'], { env });
    expect(missing.code).toBe(4);
    expect(missing.err).toMatch(/^crossborder-sdk: NotFoundError: .*CUSTOMER_NOT_FOUND/);
    expect(missing.err).toMatch(/request id: req_\w+/);
    const fromStdin = await cli(['customers', 'create', '--data', '-', '--json'], { env, input: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'From Stdin' }) });
    expect(json<{ fullName: string }>(fromStdin).fullName).toBe('From Stdin');
    expect((await cli(['customers', 'create', '--no-such-flag', 'x'], { env })).code).toBe(2);
    const noCredentials = await cli(['customers', 'list'], { env: { CROSSBORDER_BASE_URL: sandbox.url } });
    expect([noCredentials.code, noCredentials.err]).toEqual([2, 'crossborder-sdk: ConfigurationError: missing credentials: set CROSSBORDER_TOKEN_ID and CROSSBORDER_CLIENT_SECRET, or give --profile NAME (a profile of the config file)\n']);
    // Nothing answers: the outcome of a write is unknown, and the key to retry with is printed.
    const secret = 'cb-secret-never-printed-4f1c';
    const down = await cli(['quotes', 'execute', 'Quote:x', '--max-retries', '0'], { env: { ...env, CROSSBORDER_CLIENT_SECRET: secret, CROSSBORDER_BASE_URL: 'http://127.0.0.1:9' } });
    expect(down.code).toBe(7);
    expect(`${down.out}${down.err}`).not.toContain(secret);
    expect(down.err).toMatch(/Retry with the same key: --idempotency-key [0-9a-f-]{36}/);
  }, 60_000);

  it('--profile reads the config file, and refuses one others may read', async () => {
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { local: { tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: sandbox.url, environment: 'sandbox' } } }), { mode: 0o600 });
    const ok = await cli(['config', 'retrieve', '--profile', 'local', '--json'], { env: { CROSSBORDER_CONFIG: file } });
    expect(json<{ supportedCurrencies: unknown[] }>(ok).supportedCurrencies.length).toBeGreaterThan(0);
    chmodSync(file, 0o644);
    const refused = await cli(['config', 'retrieve', '--profile', 'local'], { env: { CROSSBORDER_CONFIG: file } });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${file} is readable by others (mode 0644)`);
  }, 30_000);

  it('the library entries do not load the CLI or its parser', () => {
    for (const entry of ['index.js', 'index.cjs', 'wallet.js', 'sandbox.js', 'errors.js']) {
      const text = readFileSync(join(packed.pkg, 'dist', entry), 'utf8');
      expect({ entry, commander: text.includes('commander') }).toEqual({ entry, commander: false });
    }
    expect(readFileSync(join(packed.pkg, 'dist', 'cli.js'), 'utf8')).toMatch(/from "commander"/);
  });
});

/** A P-256 public key (uncompressed, hex) for the export's clientPublicKey. */
function uncompressedKey(): string {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh.getPublicKey('hex');
}

describe('help and errors in the shell\'s words', () => {
  it('a missing required field says "is required" with its flag; a body-less export names --client-public-key', async () => {
    const apiRequests = async () => json<{ data: { path: string }[] }>(await cli(['sandbox', 'requests', '--url', sandbox.url, '--json'])).data.filter((e) => !e.path.startsWith('/_sandbox')).length;
    const sent = await apiRequests();
    const quote = await cli(['quotes', 'create', '--source', JSON.stringify({ sourceType: 'ACCOUNT', accountId: 'InternalAccount:x' }), '--locked-currency-side', 'SENDING', '--locked-currency-amount', '100'], { env });
    expect(quote.code).toBe(2);
    expect(quote.err).toContain('--destination is required');
    // A field inside a JSON flag, which only one variant of the source requires: named with its flag.
    const nested = await cli(['quotes', 'create', '--source', JSON.stringify({ sourceType: 'ACCOUNT' }), '--destination', JSON.stringify({ destinationType: 'ACCOUNT', accountId: 'ExternalAccount:x' }), '--locked-currency-side', 'SENDING', '--locked-currency-amount', '100'], { env });
    expect([nested.code, nested.err]).toEqual([2, 'crossborder-sdk: source.accountId (in --source) is required\n']);
    const exported = await cli(['internal-accounts', 'export', 'InternalAccount:x'], { env });
    expect(exported.code).toBe(2);
    expect(exported.err).toContain('--client-public-key is required');
    expect(await apiRequests()).toBe(sent);
  }, 30_000);

  it('a closed set lists its values; an open set\'s unknown value is sent as given, with a warning listing the known ones', async () => {
    const closed = await cli(['customers', 'create', '--customer-type', 'ROBOT', '--region', 'US'], { env });
    expect(closed.code).toBe(2);
    expect(closed.err).toContain("--customer-type must be one of INDIVIDUAL, BUSINESS; got 'ROBOT'");
    const side = await cli(['quotes', 'create', '--locked-currency-side', 'SIDEWAYS'], { env });
    expect(side.err).toContain("--locked-currency-side must be one of SENDING, RECEIVING; got 'SIDEWAYS'");
    const open = await cli([
      'quotes', 'create',
      '--source', JSON.stringify({ sourceType: 'ACCOUNT', accountId: 'InternalAccount:none' }),
      '--destination', JSON.stringify({ destinationType: 'ACCOUNT', accountId: 'ExternalAccount:none' }),
      '--locked-currency-side', 'SENDING', '--locked-currency-amount', '100', '--purpose-of-payment', 'CHARITY',
    ], { env });
    expect(open.err).toMatch(/warning: --purpose-of-payment 'CHARITY' is not one of the values known to this version \(GIFT, SELF, .*OTHER\); it is sent as given/);
    // Sent: the service answered (the accounts do not exist), with its request id.
    expect(open.code).toBe(4);
    expect(open.err).toMatch(/request id: req_\w+/);
  }, 30_000);

  it('--help marks required flags and the unit of amounts', async () => {
    const help = await cli(['quotes', 'create', '--help']);
    expect(help.code).toBe(0);
    const text = help.out.replace(/\n\s+/g, ' ');
    expect(text).toMatch(/--destination <json>\s+body field destination \(required\)/);
    expect(text).toMatch(/--locked-currency-amount <value>\s+body field lockedCurrencyAmount \(required\), in minor units of the currency/);
    expect(text).toMatch(/--description <value>\s+body field description(?! \(required\))/);
  });

  it.each([['nosuch', '--help'], ['nosuch'], ['custmers', 'list', '--help'], ['customers', 'retreive', 'Customer:x']])('an unknown command is an error naming the closest: %s', async (...args) => {
    const ran = await cli(args);
    expect(ran.code).toBe(2);
    expect(ran.out).toBe('');
    expect(ran.err).toMatch(/unknown command '\S+( \S+)?'; the closest is '[a-z -]+'/);
    if (args[0] === 'custmers') expect(ran.err).toContain("the closest is 'customers'");
    if (args[1] === 'retreive') expect(ran.err).toContain("the closest is 'customers retrieve'");
  });
});
