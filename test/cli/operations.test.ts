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
import { OPERATION_COUNT, operations as OPERATIONS } from '../../src/generated/operations';
import { cli, envFor, json, packed, startSandbox, type Sandbox } from './helpers';

let sandbox: Sandbox;
let env: Record<string, string>;
let dir: string;
/** The operations run, by the request log of the sandbox (method and path template). */
// Each run may take 90 s: up to ten bins start at once here, on 2 cores shared with other work (one was killed at
// the helper's default 30 s so, a command that had answered).
const RUN_MS = 90_000;
const run = (...args: string[]) => cli([...args, '--json'], { env, timeoutMs: RUN_MS });

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
  /** The operations run by the tests of this block, in order; the last one checks that every operation of the document ran. */
  const ran = new Set<string>();
  const op = async <T = Record<string, unknown>>(name: string, ...args: string[]) => {
    const result = json<T>(await run(...args));
    ran.add(name);
    return result;
  };

  it('runs every operation of the document, each once, with --json output parsed', async () => {
    const [ada, temp, providers, platformAccount] = await Promise.all([
      op<{ id: string; umaAddress: string; fullName: string }>(
        'createCustomer',
        'customers',
        'create',
        '--customer-type',
        'INDIVIDUAL',
        '--region',
        'US',
        '--full-name',
        'Ada Lovelace',
        '--birth-date',
        '1990-12-10',
        '--nationality',
        'GB',
        '--currencies',
        'USD,EUR',
      ),
      op<{ id: string }>(
        'createCustomer',
        'customers',
        'create',
        '--data',
        JSON.stringify({ customerType: 'BUSINESS', region: 'US', businessInfo: { legalName: 'Temp Ltd' } }),
      ),
      op<{ data: unknown[] }>('listUmaProviders', 'uma-providers', 'list', '--limit', '2'),
      op<{ id: string }>(
        'createPlatformExternalAccount',
        'platform',
        'external-accounts',
        'create',
        '--currency',
        'USD',
        '--account-info',
        JSON.stringify({
          accountType: 'USD_ACCOUNT',
          accountNumber: '000999888777',
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Example Platform Inc.' },
        }),
      ),
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
      op<{ id: string }>(
        'createExternalAccount',
        'external-accounts',
        'create',
        '--customer-id',
        ada.id,
        '--currency',
        'USD',
        '--account-info',
        JSON.stringify({
          accountType: 'USD_ACCOUNT',
          accountNumber: '000123456789',
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
        }),
      ),
      op('updateConfig', 'config', 'update', '--supported-currencies', JSON.stringify(config.supportedCurrencies)),
      op<{ lookupId: string }>('lookupUmaReceiver', 'receiver', 'uma', 'lookup', '$bob@receiver.example', '--customer-id', ada.id),
      op<{ id: string; status: string }>(
        'sandboxReceiveUmaPayment',
        'sandbox',
        'uma',
        'receive',
        '--sender-uma-address',
        '$sam@sandbox.uma.example',
        '--receiving-currency-code',
        'USD',
        '--receiving-currency-amount',
        '13131313',
        '--customer-id',
        ada.id,
      ),
      op<{ id: string }>(
        'sandboxReceiveUmaPayment',
        'sandbox',
        'uma',
        'receive',
        '--sender-uma-address',
        '$sue@sandbox.uma.example',
        '--receiving-currency-code',
        'USD',
        '--receiving-currency-amount',
        '13131313',
        '--customer-id',
        ada.id,
      ),
      op<{ code: string }>('createInvitation', 'invitations', 'create', '--inviter-uma', ada.umaAddress, '--first-name', 'Bob', '--amount-to-send', '2000'),
      op<{ data: unknown[] }>('listVerifications', 'verifications', 'list', '--customer-id', ada.id),
      op('listExternalAccounts', 'external-accounts', 'list', '--customer-id', ada.id),
      op<{ id: string }>('createCredential', 'auth', 'credentials', 'create', '--type', 'EMAIL_OTP', '--account-id', walletId),
    ]);
    expect(funded.balance.amount).toBe(1_000_000);
    expect(held1.status).toBe('PENDING');
    expect(invitation.code).toEqual(expect.any(String));
    expect(verifications.data.length).toBeGreaterThan(0);
    // Production's operations on invitations and customers (issue 34 §2): the CSV import takes a file's path.
    const csvPath = join(dir, 'customers.csv');
    writeFileSync(
      csvPath,
      'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n$csv.one@platform.example,csv-1,INDIVIDUAL,Csv One,1990-01-01,1 Main St,Austin,TX,78701,US\n',
    );
    const second = await op<{ code: string }>('createInvitation', 'invitations', 'create', '--inviter-uma', ada.umaAddress);
    const [readInvitation, claimed, cancelled, terms, upload] = await Promise.all([
      op<{ code: string }>('getInvitation', 'invitations', 'retrieve', second.code),
      op<{ status: string; inviteeUma: string }>('claimInvitation', 'invitations', 'claim', invitation.code, '--invitee-uma', '$grace@wallet.example'),
      op<{ status: string }>('cancelInvitation', 'invitations', 'cancel', second.code),
      op<{ version: string }>('getEndUserTerms', 'end-user-terms', 'retrieve'),
      op<{ jobId: string; status: string }>('uploadCustomersCsv', 'bulk', 'csv', 'upload', '--file', csvPath),
    ]);
    expect(readInvitation.code).toBe(second.code);
    expect([claimed.status, claimed.inviteeUma, cancelled.status, terms.version, upload.status]).toEqual([
      'CLAIMED',
      '$grace@wallet.example',
      'CANCELLED',
      'V1',
      'PENDING',
    ]);
    const importJob = await op<{ id: string; progress: { total: number } }>('getBulkCustomerImportJob', 'bulk', 'jobs', 'retrieve', upload.jobId);
    expect([importJob.id, importJob.progress.total]).toEqual([upload.jobId, 1]);
    const [quote, approved, rejected, , transferIn, , credentials] = await Promise.all([
      op<{ id: string }>(
        'createQuote',
        'quotes',
        'create',
        '--source',
        JSON.stringify({ sourceType: 'ACCOUNT', accountId: usd.id }),
        '--destination',
        JSON.stringify({ destinationType: 'UMA_ADDRESS', umaAddress: '$bob@receiver.example', currency: 'MXN' }),
        '--locked-currency-side',
        'SENDING',
        '--locked-currency-amount',
        '10000',
        '--lookup-id',
        lookup.lookupId,
        '--sender-customer-info',
        '{"FULL_NAME":"Ada"}',
      ),
      op<{ status: string }>('approveTransaction', 'transactions', 'approve', held1.id, '--receiver-customer-info', '{"FULL_NAME":"Ada"}'),
      op<{ status: string }>('rejectTransaction', 'transactions', 'reject', held2.id, '--reason', 'test'),
      op('lookupExternalAccountReceiver', 'receiver', 'external-account', 'lookup', bank.id, '--customer-id', ada.id),
      op<{ id: string }>(
        'createTransferIn',
        'transfer-in',
        'create',
        '--source',
        JSON.stringify({ accountId: bank.id }),
        '--destination',
        JSON.stringify({ accountId: usd.id }),
        '--amount',
        '2500',
      ),
      op('challengeCredential', 'auth', 'credentials', 'challenge', otp.id),
      op<{ data: unknown[] }>('listCredentials', 'auth', 'credentials', 'list', '--account-id', walletId),
    ]);
    expect([approved.status, rejected.status]).toEqual(['COMPLETED', 'REJECTED']);
    expect(transferIn.id).toMatch(/^Transaction:/);
    expect(credentials.data).toHaveLength(1);
    // KYC/KYB (production's operations): a business, its control person, a submission, the hosted link.
    const business = await op<{ id: string }>(
      'createCustomer',
      'customers',
      'create',
      '--data',
      JSON.stringify({
        customerType: 'BUSINESS',
        region: 'US',
        businessInfo: { legalName: 'Acme Ltd', taxId: '12-3456789', incorporatedOn: '2019-03-01' },
        address: { line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' },
      }),
    );
    const person = {
      firstName: 'Jane',
      lastName: 'Smith',
      birthDate: '1978-06-15',
      nationality: 'US',
      address: { line1: '1 Main St', postalCode: '78701', country: 'US' },
      idType: 'SSN',
      identifier: '123-45-6789',
    };
    const owner = await op<{ id: string; kycStatus: string }>(
      'createBeneficialOwner',
      'beneficial-owners',
      'create',
      '--customer-id',
      business.id,
      '--roles',
      'UBO',
      '--ownership-percentage',
      '60',
      '--personal-info',
      JSON.stringify(person),
    );
    expect(owner.kycStatus).toBe('APPROVED');
    const [owners, oneOwner, missing, link] = await Promise.all([
      op<{ data: { id: string }[] }>('listBeneficialOwners', 'beneficial-owners', 'list', '--customer-id', business.id),
      op<{ id: string }>('getBeneficialOwner', 'beneficial-owners', 'retrieve', owner.id),
      op<{ id: string; verificationStatus: string; errors: { type: string }[] }>('createVerification', 'verifications', 'create', '--customer-id', business.id),
      op<{ kycUrl: string; provider: string }>(
        'createCustomerKycLink',
        'customers',
        'kyc-link',
        'create',
        business.id,
        '--redirect-uri',
        'https://app.example/done',
      ),
    ]);
    expect(owners.data.map((o) => o.id)).toEqual([owner.id]);
    expect(oneOwner.id).toBe(owner.id);
    expect([missing.verificationStatus, missing.errors.map((e) => e.type)]).toEqual(['RESOLVE_ERRORS', ['MISSING_CONTROL_PERSON']]);
    expect([new URL(link.kycUrl).searchParams.get('redirectUri'), link.provider]).toEqual(['https://app.example/done', 'SUMSUB']);
    const controlling = await op<{ roles: string[] }>('updateBeneficialOwner', 'beneficial-owners', 'update', owner.id, '--roles', 'UBO,CONTROL_PERSON');
    expect(controlling.roles).toEqual(['UBO', 'CONTROL_PERSON']);
    expect((await op<{ verificationStatus: string }>('getVerification', 'verifications', 'retrieve', missing.id)).verificationStatus).toBe('APPROVED');
    // A wallet session saved by verify (mode 0600), then the signed operations answered by the CLI itself.
    const sessionFile = join(dir, 'session.json');
    const [retrievedQuote, transactions, oneTransaction, session] = await Promise.all([
      op<{ id: string }>('getQuote', 'quotes', 'retrieve', quote.id),
      op<{ data: unknown[] }>('listTransactions', 'transactions', 'list', '--customer-id', ada.id, '--limit', '2'),
      op<{ id: string }>('getTransaction', 'transactions', 'retrieve', held1.id),
      op<{ id: string; encryptedSessionSigningKey: string }>(
        'verifyCredential',
        'auth',
        'credentials',
        'verify',
        otp.id,
        '--type',
        'EMAIL_OTP',
        '--otp',
        '000000',
        '--save-session',
        sessionFile,
      ),
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
      op<{ encryptedWalletCredentials?: string }>(
        'exportInternalAccount',
        'internal-accounts',
        'export',
        walletId,
        '--client-public-key',
        uncompressedKey(),
        ...key,
      ),
      op<{ id: string; type: string }>(
        'createCredential',
        'auth',
        'credentials',
        'create',
        '--type',
        'PASSKEY',
        '--account-id',
        walletId,
        '--nickname',
        'laptop',
        '--challenge',
        'Y2hhbGxlbmdl',
        '--attestation',
        JSON.stringify({ credentialId: 'Y3JlZC1pZC0x', clientDataJson: 'e30', attestationObject: 'o2M' }),
        ...key,
      ),
      op<{ data: { id: string }[] }>('listSessions', 'auth', 'sessions', 'list', '--account-id', walletId),
    ]);
    expect(executed.transactionId).toMatch(/^Transaction:/);
    expect(privacy.privateEnabled).toBe(true);
    expect(exported).toBeTypeOf('object');
    expect(passkey.type).toBe('PASSKEY');
    expect(sessions.data.map((s) => s.id)).toContain(session.id);
    // Production's money group (issue 34 §2): the wallet's account is signed for, as its quotes are.
    // A payee whose payments stay PROCESSING (MAGIC.stuckProcessing), so that the transfer-out can still be cancelled.
    const stuck = await op<{ id: string }>(
      'createExternalAccount',
      'external-accounts',
      'create',
      '--customer-id',
      ada.id,
      '--currency',
      'USD',
      '--account-info',
      JSON.stringify({
        accountType: 'USD_ACCOUNT',
        accountNumber: '4000000000000098',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      }),
    );
    const [out, [platformUsd], [platformUsdc], rates, jit] = await Promise.all([
      op<{ id: string; status: string }>(
        'createTransferOut',
        'transfer-out',
        'create',
        '--source',
        JSON.stringify({ accountId: usd.id }),
        '--destination',
        JSON.stringify({ accountId: stuck.id }),
        '--amount',
        '1000',
        ...key,
      ),
      op<{ data: { id: string }[] }>('listPlatformInternalAccounts', 'platform', 'internal-accounts', 'list', '--currency', 'USD').then((r) => r.data),
      op<{ data: { id: string }[] }>('listPlatformInternalAccounts', 'platform', 'internal-accounts', 'list', '--currency', 'USDC').then((r) => r.data),
      op<{ data: { destinationCurrency: { code: string } }[] }>(
        'getExchangeRates',
        'exchange-rates',
        'retrieve',
        '--source-currency',
        'USD',
        '--destination-currency',
        'EUR',
      ),
      op<{ id: string }>(
        'createQuote',
        'quotes',
        'create',
        '--source',
        '{"sourceType":"REALTIME_FUNDING","currency":"USD"}',
        '--destination',
        JSON.stringify({ destinationType: 'ACCOUNT', accountId: platformAccount.id }),
        '--locked-currency-side',
        'SENDING',
        '--locked-currency-amount',
        '5000',
      ),
    ]);
    expect(out.status).toBe('PROCESSING');
    expect(platformUsd!.id).toMatch(/^InternalAccount:/);
    expect(rates.data.map((r) => r.destinationCurrency.code)).toEqual(['EUR']);
    const [confirmed, fee, sent] = await Promise.all([
      op<{ receiptDeliveryConfirmedAt: string }>(
        'confirmReceiptDelivery',
        'transactions',
        'confirm',
        out.id,
        '--receipt-delivery-confirmed-at',
        '2025-10-13T09:00:00Z',
      ),
      op<{ networkFeeAsset: string }>(
        'estimateCryptoWithdrawalFee',
        'crypto',
        'estimate-withdrawal-fee',
        'estimate',
        '--internal-account-id',
        platformUsdc!.id,
        '--currency',
        'USDC',
        '--crypto-network',
        'SOLANA',
        '--amount',
        '1000000',
        '--destination-address',
        '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
      ),
      op<{ id: string; status: string }>('sandboxSend', 'sandbox', 'send', '--quote-id', jit.id, '--currency-code', 'USD'),
    ]);
    expect([confirmed.receiptDeliveryConfirmedAt, fee.networkFeeAsset, sent.status]).toEqual(['2025-10-13T09:00:00Z', 'SOL', 'PROCESSING']);
    expect((await op<{ status: string }>('cancelTransaction', 'transactions', 'cancel', out.id, '--reason', 'REQUESTED_AFTER_HOURS')).status).toBe('FAILED');
    // No webhookEndpoint here: the sandbox answers production's 400, which the command reports.
    const noEndpoint = await run('sandbox', 'webhooks', 'test', 'send');
    expect([noEndpoint.code, noEndpoint.err]).toEqual([5, expect.stringContaining('WEBHOOK_ENDPOINT_NOT_SET')]); // 5: refused
    ran.add('sendTestWebhook');
    const revoked = await run('auth', 'credentials', 'revoke', passkey.id, ...key);
    expect(revoked.code).toBe(0);
    ran.add('revokeCredential');
    // Production's session refresh (signed by the saved session; the new one saved in turn) and delegated keys (signed twice).
    const refreshedFile = join(dir, 'refreshed.json');
    const refreshed = await op<{ id: string; expiresAt: string }>(
      'refreshAuthSession',
      'auth',
      'sessions',
      'refresh',
      session.id,
      '--save-session',
      refreshedFile,
      ...key,
    );
    expect(refreshed.id).not.toBe(session.id);
    const savedRefresh = JSON.parse(readFileSync(refreshedFile, 'utf8')) as { id: string; credentialId: string };
    expect([savedRefresh.id, savedRefresh.credentialId]).toEqual([refreshed.id, otp.id]);
    const delegated = await op<{ id: string; status: string; fundingSourceId: string }>(
      'createDelegatedKey',
      'auth',
      'delegated-keys',
      'create',
      '--card-id',
      'Card:1',
      '--internal-account-id',
      walletId,
      '--nickname',
      'cli',
      '--session-key',
      refreshedFile,
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
    // Production's operations on one external account (issue 34): wallets prove ownership (the sandbox
    // takes `sandbox-signed:<messageToSign>` as the wallet's signature), then accounts are read and deleted.
    const spark = (address: string) => JSON.stringify({ accountType: 'SPARK_WALLET', address });
    const [customerWallet, platformWallet] = await Promise.all([
      op<{ id: string; status: string }>(
        'createExternalAccount',
        'external-accounts',
        'create',
        '--customer-id',
        ada.id,
        '--currency',
        'BTC',
        '--ownership-type',
        'FIRST_PARTY',
        '--account-info',
        spark('sp1qclicustomerwallet000000000000000000000'),
      ),
      op<{ id: string; status: string }>(
        'createPlatformExternalAccount',
        'platform',
        'external-accounts',
        'create',
        '--currency',
        'BTC',
        '--ownership-type',
        'FIRST_PARTY',
        '--account-info',
        spark('sp1qcliplatformwallet000000000000000000000'),
      ),
    ]);
    expect([customerWallet.status, platformWallet.status]).toEqual(['PENDING_OWNERSHIP_VERIFICATION', 'PENDING_OWNERSHIP_VERIFICATION']);
    const [customerChallenge, platformChallenge] = await Promise.all([
      op<{ messageToSign: string }>(
        'createExternalAccountOwnershipChallenge',
        'external-accounts',
        'challenge',
        'create',
        customerWallet.id,
        '--method',
        'WALLET_SIGNATURE',
      ),
      op<{ messageToSign: string }>(
        'createPlatformExternalAccountOwnershipChallenge',
        'platform',
        'external-accounts',
        'challenge',
        'create',
        platformWallet.id,
        '--method',
        'WALLET_SIGNATURE',
      ),
    ]);
    const [customerVerified, platformVerified, bankRead, platformRead] = await Promise.all([
      op<{ status: string }>(
        'verifyExternalAccountOwnership',
        'external-accounts',
        'verify',
        customerWallet.id,
        '--body-signature',
        `sandbox-signed:${customerChallenge.messageToSign}`,
      ),
      op<{ status: string }>(
        'verifyPlatformExternalAccountOwnership',
        'platform',
        'external-accounts',
        'verify',
        platformWallet.id,
        '--body-signature',
        `sandbox-signed:${platformChallenge.messageToSign}`,
      ),
      op<{ id: string }>('getCustomerExternalAccountById', 'external-accounts', 'retrieve', bank.id),
      op<{ id: string; customerId: string | null }>('getPlatformExternalAccountById', 'platform', 'external-accounts', 'retrieve', platformAccount.id),
    ]);
    expect([customerVerified.status, platformVerified.status]).toEqual(['ACTIVE', 'ACTIVE']);
    expect(bankRead.id).toBe(bank.id);
    expect(platformRead).toMatchObject({ id: platformAccount.id, customerId: null });
    const deletes = await Promise.all([run('external-accounts', 'delete', bank.id), run('platform', 'external-accounts', 'delete', platformAccount.id)]);
    expect(deletes.map((d) => d.code)).toEqual([0, 0]);
    ran.add('deleteCustomerExternalAccountById').add('deletePlatformExternalAccountById');
    // API tokens (the secret printed once, by create), discoveries and VASPs.
    const token = await op<{ id: string; clientSecret: string; permissions: string[] }>(
      'createToken',
      'tokens',
      'create',
      '--name',
      'cli',
      '--permissions',
      'VIEW,TRANSACT',
    );
    expect(token.permissions).toEqual(['VIEW', 'TRANSACT']);
    expect(token.clientSecret).toMatch(/^[0-9a-f]{36}$/);
    const [tokens, oneToken, banks, vasps] = await Promise.all([
      op<{ data: { id: string; clientSecret?: string }[] }>('listTokens', 'tokens', 'list', '--name', 'cli'),
      op<{ id: string; clientSecret?: string }>('getTokenById', 'tokens', 'retrieve', token.id),
      op<{ data: { bankName: string }[] }>('getDiscoveries', 'discoveries', 'list', '--country', 'PH', '--currency', 'PHP'),
      op<{ data: { vaspName: string }[] }>('listVasps', 'vasps', 'list', '--limit', '2'),
    ]);
    expect([tokens.data.map((t) => t.id), oneToken.id, oneToken.clientSecret]).toEqual([[token.id], token.id, undefined]);
    expect(banks.data.map((b) => b.bankName)).toEqual(['BDO Unibank', 'BPI']);
    expect(vasps.data.map((v) => v.vaspName)).toEqual(['Kraken', 'Coinbase']);
    const deletedToken = await run('tokens', 'delete', token.id);
    expect(deletedToken.code).toBe(0);
    ran.add('deleteTokenById');
    // Stablecoins: link the provider account, register a token, a mint paid from Ada's USD account; a burn to a
    // bank account that does not exist is refused (404), and runs the command all the same.
    const providerAccount = await op<{ id: string; status: string }>(
      'linkStablecoinProviderAccount',
      'stablecoin-provider-accounts',
      'link',
      '--provider',
      'BRALE',
      '--api-client-id',
      'cli',
      '--api-client-secret',
      'cli-secret',
    );
    const coin = await op<{ id: string; stablecoinProviderAccountId: string }>(
      'registerStablecoin',
      'stablecoins',
      'register',
      '--provider-token-identifier',
      'CLI',
      '--network-token-identifier',
      'btkn1cli',
      '--network',
      'SPARK',
    );
    expect(coin.stablecoinProviderAccountId).toBe(providerAccount.id);
    await op('sandboxFundInternalAccount', 'sandbox', 'internal-accounts', 'fund', usd.id, '--amount', '100');
    const mint = await op<{ id: string; status: string; source: { accountId: string } }>(
      'createStablecoinMint',
      'stablecoins',
      'mint',
      coin.id,
      '--amount',
      '1000000',
      '--funding-source',
      JSON.stringify({ type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }),
      '--destination',
      JSON.stringify({ accountId: usd.id }),
    );
    expect([mint.status, mint.source.accountId]).toEqual(['PROCESSING', usd.id]);
    const burn = await run(
      'stablecoins',
      'burn',
      coin.id,
      '--amount',
      '500000000',
      '--source',
      JSON.stringify({ type: 'PROVIDER_INTERNAL_BALANCE' }),
      '--destination',
      JSON.stringify({ type: 'EXTERNAL_ACCOUNT', externalAccountId: 'ExternalAccount:none', rail: 'ACH_CREDIT' }),
    );
    expect([burn.code, `${burn.out}${burn.err}`.includes('"code":"EXTERNAL_ACCOUNT_NOT_FOUND"')]).toEqual([4, true]);
    ran.add('createStablecoinBurn');
    const [coins, oneCoin, operations, oneOperation, links, oneLink] = await Promise.all([
      op<{ data: { id: string }[] }>('listStablecoins', 'stablecoins', 'list', '--provider', 'BRALE'),
      op<{ id: string }>('getStablecoin', 'stablecoins', 'retrieve', coin.id),
      op<{ data: { id: string }[] }>('listStablecoinOperations', 'stablecoins', 'list-operations', coin.id, '--operation-type', 'MINT'),
      op<{ id: string; operationType: string }>('getStablecoinOperation', 'stablecoins', 'retrieve-operation', mint.id),
      op<{ data: { id: string }[] }>('listStablecoinProviderAccounts', 'stablecoin-provider-accounts', 'list', '--status', 'ACTIVE'),
      op<{ id: string; status: string }>('getStablecoinProviderAccount', 'stablecoin-provider-accounts', 'retrieve', providerAccount.id),
    ]);
    expect([coins.data.map((c) => c.id), oneCoin.id, operations.data.map((o) => o.id), oneOperation.operationType]).toEqual([
      [coin.id],
      coin.id,
      [mint.id],
      'MINT',
    ]);
    expect([links.data.map((l) => l.id), oneLink.status]).toEqual([[providerAccount.id], 'ACTIVE']);
    // Documents: --file sends the bytes of the file at the path, under its name.
    const scanPath = join(dir, 'scan.pdf');
    writeFileSync(
      scanPath,
      Uint8Array.from({ length: 256 }, (_, i) => i),
    );
    const document = await op<{ id: string; fileName: string }>(
      'uploadDocument',
      'documents',
      'upload',
      '--file',
      scanPath,
      '--document-holder',
      ada.id,
      '--document-type',
      'PASSPORT',
      '--country',
      'US',
    );
    expect(document.fileName).toBe('scan.pdf');
    const [documents, oneDocument, replacedDocument] = await Promise.all([
      op<{ data: { id: string }[] }>('listDocuments', 'documents', 'list', '--document-holder', ada.id),
      op<{ id: string }>('getDocument', 'documents', 'retrieve', document.id),
      op<{ id: string; documentType: string }>(
        'replaceDocument',
        'documents',
        'replace',
        document.id,
        '--file',
        scanPath,
        '--document-type',
        'NATIONAL_ID',
        '--country',
        'US',
      ),
    ]);
    expect([documents.data.map((d) => d.id), oneDocument.id, replacedDocument.documentType]).toEqual([[document.id], document.id, 'NATIONAL_ID']);
    const deletedDocument = await run('documents', 'delete', document.id);
    expect(deletedDocument.code).toBe(0);
    ran.add('deleteDocument');
    // Cards: a KYC-approved cardholder's funded USD account; a card issued, listed, retrieved (provisioned: ACTIVE),
    // limited and revealed; then each of the sandbox's ten card simulations, with the balance each one moves.
    const cardholder = await op<{ id: string; kycStatus: string }>(
      'createCustomer',
      'customers',
      'create',
      '--data',
      JSON.stringify({
        customerType: 'INDIVIDUAL',
        region: 'US',
        fullName: 'Grace Hopper',
        birthDate: '1906-12-09',
        nationality: 'US',
        address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
        currencies: ['USD'],
      }),
    );
    expect(cardholder.kycStatus).toBe('APPROVED');
    const cardAccount = json<{ data: { id: string }[] }>(await run('internal-accounts', 'list', '--customer-id', cardholder.id, '--currency', 'USD')).data[0]!;
    const cardBalance = async () =>
      json<{ data: { balance: { amount: number } }[] }>(await run('internal-accounts', 'list', '--customer-id', cardholder.id, '--currency', 'USD')).data[0]!
        .balance.amount;
    expect(json<{ balance: { amount: number } }>(await run('sandbox', 'fund-internal-account', cardAccount.id, '--amount', '10000')).balance.amount).toBe(
      10_000,
    );
    const card = await op<{ id: string; state: string; cardholderId: string; fundingSources: string[]; maxSpendPerTransaction: number }>(
      'createCard',
      'cards',
      'create',
      '--cardholder-id',
      cardholder.id,
      '--form',
      'VIRTUAL',
      '--funding-sources',
      cardAccount.id,
      '--max-spend-per-transaction',
      '5000',
      '--platform-card-id',
      'cli-card',
    );
    expect([card.state, card.cardholderId, card.fundingSources, card.maxSpendPerTransaction]).toEqual(['PROCESSING', cardholder.id, [cardAccount.id], 5_000]);
    const [cards, oneCard, revealed] = await Promise.all([
      op<{ data: { id: string; platformCardId: string }[] }>('listCards', 'cards', 'list', '--cardholder-id', cardholder.id),
      op<{ id: string; state: string }>('getCardById', 'cards', 'retrieve', card.id),
      // A secret effect: the CLI prints the frame's address (docs/cards.md), with --json the answer as the service
      // gave it, one JSON value (docs/cli.md), and nothing on stderr.
      run('cards', 'reveal', card.id),
    ]);
    expect([cards.data.map((c) => [c.id, c.platformCardId]), oneCard.state]).toEqual([[[card.id, 'cli-card']], 'ACTIVE']);
    expect([revealed.code, revealed.err]).toEqual([0, '']);
    const reveal = JSON.parse(revealed.out) as Record<string, string>;
    expect(Object.keys(reveal).sort()).toEqual(['expiresAt', 'panEmbedUrl']);
    expect(revealed.out.trim()).toBe(JSON.stringify(reveal));
    expect(reveal.panEmbedUrl).toMatch(new RegExp(`^https://[^/]+/iframe/${encodeURIComponent(card.id)}\\?t=[0-9a-f]{16,}$`));
    expect(Date.parse(reveal.expiresAt!)).toBeGreaterThan(Date.now());
    ran.add('revealCard');
    const limited = await op<{ maxSpendPerTransaction: number; state: string }>(
      'updateCardById',
      'cards',
      'update',
      card.id,
      '--max-spend-per-transaction',
      '6000',
    );
    expect([limited.maxSpendPerTransaction, limited.state]).toEqual([6_000, 'ACTIVE']);
    const usdCode = JSON.stringify({ code: 'USD' });
    const coffee = JSON.stringify({ descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' });
    const authorized = await op<{ issuerTransactionToken: string }>(
      'sandboxSimulateCardAuthorization',
      'sandbox',
      'simulate-card-authorization',
      card.id,
      '--amount',
      '1250',
      '--currency',
      usdCode,
      '--merchant',
      coffee,
    );
    expect(await cardBalance()).toBe(8_750);
    // The card transaction the authorization made: a platform learns its id from the CARD_TRANSACTION.AUTHORIZED
    // webhook; here, from the sandbox's state, by the issuer transaction token the answer carried.
    const stateExport = await cli(['sandbox', 'state', 'export', '--url', sandbox.url], { env });
    expect(stateExport.code).toBe(0);
    const cardTransactions = (
      JSON.parse(stateExport.out) as { world: { cardTransactions: [string, { data: { id: string; issuerTransactionToken: string } }][] } }
    ).world.cardTransactions;
    const cardTransactionId = cardTransactions.find(([, r]) => r.data.issuerTransactionToken === authorized.issuerTransactionToken)![1].data.id;
    expect(cardTransactionId).toMatch(/^CardTransaction:/);
    const onTransaction = ['--card-transaction-id', cardTransactionId];
    const steps: [id: string, command: string, args: string[], balance: number][] = [
      ['sandboxSimulateCardAuthorizationAdvice', 'simulate-card-authorization-advice', [...onTransaction, '--amount', '2000'], 8_000], // the hold grows to 20.00
      ['sandboxSimulateCardClearing', 'simulate-card-clearing', [...onTransaction, '--amount', '2000'], 8_000], // settled as held
      ['sandboxSimulateCardReturn', 'simulate-card-return', [...onTransaction, '--amount', '2000'], 10_000], // all of it back: REFUNDED
      ['sandboxSimulateCardReturnReversal', 'simulate-card-return-reversal', onTransaction, 8_000], // pulled again
    ];
    for (const [id, command, args, balance] of steps) {
      const answered = await op<{ issuerTransactionToken: string }>(id, 'sandbox', command, card.id, ...args);
      expect([id, answered.issuerTransactionToken, await cardBalance()]).toEqual([id, authorized.issuerTransactionToken, balance]);
    }
    const others = await Promise.all([
      op<{ issuerTransactionToken: string }>(
        'sandboxSimulateCardFinancialAuthorization',
        'sandbox',
        'simulate-card-financial-authorization',
        card.id,
        '--amount',
        '1500',
        '--currency',
        usdCode,
        '--merchant',
        JSON.stringify({ descriptor: 'ATM WITHDRAWAL 24TH ST', mcc: '6011' }),
      ),
      op<{ issuerTransactionToken: string }>(
        'sandboxSimulateCardCreditAuthorization',
        'sandbox',
        'simulate-card-credit-authorization',
        card.id,
        '--amount',
        '2500',
        '--currency',
        usdCode,
        '--merchant',
        JSON.stringify({ descriptor: 'ACME MARKETPLACE' }),
      ),
      op<{ issuerTransactionToken: string }>(
        'sandboxSimulateCardFinancialCreditAuthorization',
        'sandbox',
        'simulate-card-financial-credit-authorization',
        card.id,
        '--amount',
        '4000',
        '--currency',
        usdCode,
        '--merchant',
        JSON.stringify({ descriptor: 'ACME PAYOUTS' }),
      ),
      op<{ issuerTransactionToken: string }>(
        'sandboxSimulateCardCreditAuthorizationAdvice',
        'sandbox',
        'simulate-card-credit-authorization-advice',
        card.id,
        '--amount',
        '100',
        '--currency',
        usdCode,
        '--merchant',
        JSON.stringify({ descriptor: 'ACME' }),
      ),
      op<{ issuerTransactionToken: string }>(
        'sandboxSimulateCardBalanceInquiry',
        'sandbox',
        'simulate-card-balance-inquiry',
        card.id,
        '--merchant',
        JSON.stringify({ descriptor: 'SHELL OIL 12345678', mcc: '5541', country: 'US' }),
      ),
    ]);
    // Five new issuer transaction tokens; -15.00 +25.00 +40.00 +1.00, and the balance inquiry moves nothing.
    expect(new Set([authorized, ...others].map((a) => a.issuerTransactionToken)).size).toBe(6);
    for (const a of others) expect(a.issuerTransactionToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await cardBalance()).toBe(13_100);
  }, 420_000); // 90 runs of the bin on a shared machine: 91 s for 36 at 2 cores under load

  // Strong Customer Authentication and contact verification (docs/quotes-and-fx.md): a customer of an EEA region is
  // an SCA customer; the sandbox's one code is 123456 (src/sandbox/domain/magic.ts). Contact verified, factors
  // enrolled, a login, a held payment authorized, a beneficiary trusted and untrusted, a 2FA reset, a security event.
  it('SCA and contact verification: enroll, login, a held quote authorized, trust, reset, events', async () => {
    const CODE = '123456';
    const IP = ['--end-user-ip-address', '203.0.113.42'];
    const ORIGIN = 'https://sandbox.crossborder.example';
    const marie = await op<{ id: string; contactVerification: { email: string; phone: string } }>(
      'createCustomer',
      'customers',
      'create',
      '--data',
      JSON.stringify({
        customerType: 'INDIVIDUAL',
        region: 'FR',
        fullName: 'Marie Curie',
        birthDate: '1990-12-10',
        nationality: 'FR',
        address: { line1: '1 rue Pierre et Marie Curie', city: 'Paris', postalCode: '75005', country: 'FR' },
        currencies: ['EUR'],
      }),
    );
    expect(marie.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const who = ['--customer-id', marie.id]; // the SCA commands take the customer as a query field
    const eur = json<{ data: { id: string }[] }>(await run('internal-accounts', 'list', '--customer-id', marie.id, '--currency', 'EUR')).data[0]!;
    const iban = (number: string, swift: string) => JSON.stringify({ accountType: 'EUR_ACCOUNT', iban: number, swiftCode: swift });
    const [funded, payee, trusted] = await Promise.all([
      op<{ balance: { amount: number } }>('sandboxFundInternalAccount', 'sandbox', 'internal-accounts', 'fund', eur.id, '--amount', '100000'),
      op<{ id: string }>(
        'createExternalAccount',
        'external-accounts',
        'create',
        '--customer-id',
        marie.id,
        '--currency',
        'EUR',
        '--account-info',
        iban('DE89370400440532013000', 'DEUTDEFF'),
      ),
      op<{ id: string }>(
        'createExternalAccount',
        'external-accounts',
        'create',
        '--customer-id',
        marie.id,
        '--currency',
        'EUR',
        '--account-info',
        iban('FR7630006000011234567890189', 'AGRIFRPP'),
      ),
    ]);
    expect(funded.balance.amount).toBe(100_000);
    // Contact verification: a code sent, then confirmed (the two at once would race on the customer).
    await op('sendCustomerEmailVerification', 'customers', 'verify-email', marie.id);
    const email = await op<{ contactVerification: { email: string; phone: string } }>(
      'confirmCustomerEmailVerification',
      'customers',
      'confirm-email',
      marie.id,
      '--code',
      CODE,
    );
    expect(email.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
    await op('sendCustomerPhoneVerification', 'customers', 'verify-phone', marie.id);
    const phone = await op<{ contactVerification: { email: string; phone: string } }>(
      'confirmCustomerPhoneVerification',
      'customers',
      'confirm-phone',
      marie.id,
      '--code',
      CODE,
    );
    expect(phone.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    // Factors: SMS_OTP always; TOTP enrolled with its secret and the code; a passkey enrolled, then deleted.
    expect(await op('listScaFactors', 'sca', 'factors', 'list', ...who)).toEqual({ factors: [{ factor: 'SMS_OTP' }] });
    const totp = await op<{ type: string; secret: string; totpUri: string }>('startScaFactorEnrollment', 'sca', 'factors', 'enroll', ...who, '--type', 'TOTP');
    expect([totp.type, totp.totpUri]).toEqual(['TOTP', expect.stringMatching(/^otpauth:\/\/totp\/Crossborder:/)]);
    const totpDone = await op<{ type: string; recoveryCodes: string[] }>(
      'confirmScaFactorEnrollment',
      'sca',
      'factors',
      'confirm',
      ...who,
      '--type',
      'TOTP',
      '--secret',
      totp.secret,
      '--code',
      CODE,
    );
    expect([totpDone.type, new Set(totpDone.recoveryCodes).size]).toEqual(['TOTP', 8]);
    const passkeyStart = await op<{ type: string; allowedOrigins: string[] }>(
      'startScaFactorEnrollment',
      'sca',
      'factors',
      'enroll',
      ...who,
      '--type',
      'PASSKEY',
    );
    expect(passkeyStart.allowedOrigins).toEqual([ORIGIN]);
    const passkey = await op<{ factor: { factor: string; credentialId: string } }>(
      'confirmScaFactorEnrollment',
      'sca',
      'factors',
      'confirm',
      ...who,
      '--type',
      'PASSKEY',
      '--origin',
      ORIGIN,
      '--credential',
      JSON.stringify({ id: 'cli-cred', type: 'public-key' }),
    );
    expect(passkey.factor.factor).toBe('PASSKEY');
    const removed = await run('sca', 'factors', 'delete', passkey.factor.credentialId, ...who);
    expect(removed.code).toBe(0);
    ran.add('deleteScaFactor');
    const factors = await op<{ factors: { factor: string }[] }>('listScaFactors', 'sca', 'factors', 'list', ...who);
    expect(factors.factors.map((f) => f.factor)).toEqual(['SMS_OTP', 'TOTP']);
    // A login by SMS (the phone is verified): a challenge, then the code.
    const login = await op<{ challengeId: string }>('startScaLogin', 'sca', 'login', 'start', ...who, '--factor', 'SMS_OTP');
    expect(login.challengeId).toMatch(/^ScaChallenge:/);
    const session = await op<{ status: string; sessionExpiresAt: string }>(
      'completeScaLogin',
      'sca',
      'login',
      'complete',
      ...who,
      '--factor',
      'SMS_OTP',
      '--challenge-id',
      login.challengeId,
      '--code',
      CODE,
      ...IP,
    );
    expect([session.status, Date.parse(session.sessionExpiresAt) > Date.now()]).toEqual(['SUCCESS', true]);
    // A payment waits: executing the quote moves nothing and says which quote and challenge; authorize releases it.
    const quote = await op<{ id: string; totalSendingAmount: number; transactionId: string }>(
      'createQuote',
      'quotes',
      'create',
      '--source',
      JSON.stringify({ sourceType: 'ACCOUNT', accountId: eur.id }),
      '--destination',
      JSON.stringify({ destinationType: 'ACCOUNT', accountId: payee.id, currency: 'EUR' }),
      '--locked-currency-side',
      'SENDING',
      '--locked-currency-amount',
      '10000',
    );
    const held = await run('quotes', 'execute', quote.id);
    ran.add('executeQuote');
    expect([held.code, held.out]).toEqual([9, '']); // 9: held for the customer's SCA; nothing printed on stdout
    expect(JSON.parse(held.err)).toMatchObject({
      error: 'ScaRequiredError',
      message: expect.stringContaining(`Quote ${quote.id} needs Strong Customer Authentication: satisfy its SMS_OTP challenge`),
      quoteId: quote.id,
      scaChallenge: { factor: 'SMS_OTP', id: expect.any(String) },
    });
    const balanceOf = async () =>
      json<{ data: { balance: { amount: number } }[] }>(await run('internal-accounts', 'list', '--customer-id', marie.id, '--currency', 'EUR')).data[0]!.balance
        .amount;
    const [heldTransaction, before] = await Promise.all([
      op<{ status: string }>('getTransaction', 'transactions', 'retrieve', quote.transactionId),
      balanceOf(),
    ]);
    expect([heldTransaction.status, before]).toEqual(['PENDING_AUTHORIZATION', 100_000]);
    const resent = await run('quotes', 'resend-authorization', quote.id);
    expect(resent.code).toBe(0);
    ran.add('resendQuoteScaCode');
    const released = await op<{ id: string; status: string; scaChallenge?: unknown }>('authorizeQuote', 'quotes', 'authorize', quote.id, '--code', CODE, ...IP);
    expect([released.id, released.status, released.scaChallenge]).toEqual([quote.id, 'PROCESSING', undefined]);
    expect(await balanceOf()).toBe(100_000 - quote.totalSendingAmount);
    // A trusted beneficiary (an SMS challenge, then its code), then untrusted the same way.
    const trust = await op<{ scaChallenge: { id: string; factor: string } }>('startBeneficiaryTrust', 'external-accounts', 'trust', trusted.id);
    expect(trust.scaChallenge.factor).toBe('SMS_OTP');
    expect(
      await op('confirmBeneficiaryTrust', 'external-accounts', 'confirm-trust', trusted.id, '--challenge-id', trust.scaChallenge.id, '--code', CODE),
    ).toEqual({ trusted: true });
    const untrust = await op<{ scaChallenge: { id: string } }>('startBeneficiaryUntrust', 'external-accounts', 'untrust', trusted.id);
    expect(untrust.scaChallenge.id).not.toBe(trust.scaChallenge.id);
    expect(
      await op('confirmBeneficiaryUntrust', 'external-accounts', 'confirm-untrust', trusted.id, '--challenge-id', untrust.scaChallenge.id, '--code', CODE),
    ).toEqual({ trusted: false });
    // A 2FA reset of the TOTP factor: liveness passes 30 s of sandbox time later, then completing removes the factor.
    const reset = await op<{ resetId: string }>('startTwoFactorReset', 'sca', 'resets', 'start', ...who, '--factor', 'TOTP');
    expect(reset.resetId).toMatch(/^TwoFactorReset:/);
    expect((await op<{ status: string }>('getTwoFactorResetStatus', 'sca', 'resets', 'retrieve', reset.resetId, ...who)).status).toBe('INITIATED');
    expect((await cli(['sandbox', 'clock', 'advance', '30s', '--url', sandbox.url], { env, timeoutMs: RUN_MS })).code).toBe(0);
    expect((await run('sca', 'resets', 'complete', reset.resetId, ...who)).code).toBe(0);
    ran.add('completeTwoFactorReset');
    expect(await op('getTwoFactorResetStatus', 'sca', 'resets', 'retrieve', reset.resetId, ...who)).toMatchObject({ status: 'COMPLETED', factor: 'TOTP' });
    expect((await op<{ factors: { factor: string }[] }>('listScaFactors', 'sca', 'factors', 'list', ...who)).factors.map((f) => f.factor)).toEqual(['SMS_OTP']);
    // A security event: the first failed login attempt is counted, nothing locked yet.
    expect(await op('recordSecurityEvent', 'sca', 'events', 'record', ...who, '--event-type', 'FAILED_LOGIN_ATTEMPT')).toEqual({
      eventType: 'FAILED_LOGIN_ATTEMPT',
      suspended: false,
      lockedUntil: null,
      failedAttempts: 1,
    });
  }, 420_000); // ~40 runs of the bin, mostly one after the other: 91 s, and 174 s at a heavier load, at 2 cores

  // Agents (as test/sandbox/ops-agents.test.ts runs them): the platform creates one for a customer, a new device code
  // replaces the first, the agent software redeems it for its credential, and the CLI then runs as the agent with
  // CROSSBORDER_AGENT_TOKEN in place of the platform's credentials. Above the approval threshold an action waits for
  // the platform, which approves one and rejects another.
  it('agents: create, device code, redeem; as the agent quotes, transfers, accounts, actions; approvals; delete', async () => {
    const owner = await op<{ id: string }>(
      'createCustomer',
      'customers',
      'create',
      '--data',
      JSON.stringify({
        customerType: 'INDIVIDUAL',
        region: 'US',
        fullName: 'Agent Owner',
        birthDate: '1990-12-10',
        nationality: 'US',
        address: { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
        currencies: ['USD', 'EUR'],
      }),
    );
    const accountsOf = async (currency: string) =>
      json<{ data: { id: string; balance: { amount: number } }[] }>(await run('internal-accounts', 'list', '--customer-id', owner.id, '--currency', currency))
        .data[0]!;
    const [usd, eur] = await Promise.all([accountsOf('USD'), accountsOf('EUR')]);
    const usdAccount = (n: string) =>
      JSON.stringify({
        accountType: 'USD_ACCOUNT',
        accountNumber: n,
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Agent Owner' },
      });
    const [, bank] = await Promise.all([
      op('sandboxFundInternalAccount', 'sandbox', 'internal-accounts', 'fund', usd.id, '--amount', '200000'),
      op<{ id: string }>(
        'createExternalAccount',
        'external-accounts',
        'create',
        '--customer-id',
        owner.id,
        '--currency',
        'USD',
        '--account-info',
        usdAccount('000123456789'),
      ),
    ]);
    const policy = {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000, dailyTransactionLimit: 10 },
      approvalThresholds: { currency: 'USD', amount: 40_000 },
    };
    const created = await op<{
      agent: { id: string; name: string; customerId: string; isConnected: boolean };
      deviceCode: { code: string; redeemed: boolean };
    }>('createAgent', 'agents', 'create', '--name', 'Payroll bot', '--customer-id', owner.id, '--policy', JSON.stringify(policy));
    const { agent } = created;
    expect([agent.name, agent.customerId, agent.isConnected, created.deviceCode.redeemed]).toEqual(['Payroll bot', owner.id, false, false]);
    // A new device code invalidates the first; its status, then redeemed once for the agent's credential.
    const device = await op<{ code: string; agentId: string }>('regenerateAgentDeviceCode', 'agents', 'create-device-code', agent.id);
    expect([device.agentId, device.code === created.deviceCode.code]).toEqual([agent.id, false]);
    expect(await op('getAgentDeviceCodeStatus', 'agents', 'get-device-code-status', device.code)).toEqual({ code: device.code, redeemed: false });
    const redeemed = await op<{ agentId: string; accessToken: string }>('redeemAgentDeviceCode', 'agents', 'redeem-device-code', device.code);
    expect([redeemed.agentId, redeemed.accessToken]).toEqual([agent.id, expect.stringMatching(/^gat_[0-9a-f]{40}$/)]);
    // The platform's view: listed, connected, renamed, a lower approval threshold.
    const [agents, connected, renamed] = await Promise.all([
      op<{ data: { id: string }[] }>('listAgents', 'agents', 'list', '--customer-id', owner.id),
      op<{ id: string; isConnected: boolean }>('getAgentById', 'agents', 'retrieve', agent.id),
      op<{ name: string }>('updateAgent', 'agents', 'update', agent.id, '--name', 'Renamed bot'),
    ]);
    expect([agents.data.map((a) => a.id), connected.isConnected, renamed.name]).toEqual([[agent.id], true, 'Renamed bot']);
    const lowered = await op<{ policy: { approvalThresholds: { amount: number }; permissions: string[] } }>(
      'updateAgentPolicy',
      'agents',
      'update-policy',
      agent.id,
      '--approval-thresholds',
      JSON.stringify({ currency: 'USD', amount: 20_000 }),
    );
    expect([lowered.policy.approvalThresholds.amount, lowered.policy.permissions]).toEqual([20_000, policy.permissions]);
    // As the agent: its credential from the environment, no platform credentials beside it.
    const agentEnv = { CROSSBORDER_BASE_URL: sandbox.url, CROSSBORDER_ENVIRONMENT: 'sandbox', CROSSBORDER_AGENT_TOKEN: redeemed.accessToken };
    const asAgent = (...args: string[]) => cli([...args, '--json'], { env: agentEnv, timeoutMs: RUN_MS });
    const me = async <T = Record<string, unknown>>(name: string, ...args: string[]) => {
      const result = json<T>(await asAgent('agents', 'me', ...args));
      ran.add(name);
      return result;
    };
    const [self, internal, external] = await Promise.all([
      me<{ id: string; name: string }>('getAgentMe', 'retrieve'),
      me<{ data: { id: string; customerId: string }[] }>('agentListInternalAccounts', 'internal-accounts', 'list'),
      me<{ data: { id: string }[] }>('agentListExternalAccounts', 'external-accounts', 'list'),
    ]);
    // Created after the list (beside it, the list could hold it or not).
    const extra = await me<{ id: string; customerId: string }>(
      'agentCreateExternalAccount',
      'external-accounts',
      'create',
      '--currency',
      'USD',
      '--account-info',
      usdAccount('000987654321'),
    );
    expect([self.id, self.name]).toEqual([agent.id, 'Renamed bot']);
    expect(internal.data.map((a) => [a.id, a.customerId]).sort()).toEqual(
      [
        [usd.id, owner.id],
        [eur.id, owner.id],
      ].sort(),
    );
    expect([external.data.map((a) => a.id), extra.customerId]).toEqual([[bank.id], owner.id]);
    expect((await me<{ id: string }>('agentGetExternalAccount', 'external-accounts', 'retrieve', extra.id)).id).toBe(extra.id);
    expect((await asAgent('agents', 'me', 'external-accounts', 'delete', extra.id)).code).toBe(0);
    ran.add('agentDeleteExternalAccount');
    // A quote of the agent's own, executed within the policy at once.
    const quote = await me<{ id: string; transactionId: string; totalSendingAmount: number }>(
      'agentCreateQuote',
      'quotes',
      'create',
      '--source',
      JSON.stringify({ sourceType: 'ACCOUNT', accountId: usd.id }),
      '--destination',
      JSON.stringify({ destinationType: 'ACCOUNT', accountId: eur.id }),
      '--locked-currency-side',
      'SENDING',
      '--locked-currency-amount',
      '4000',
    );
    expect((await me<{ id: string }>('agentGetQuote', 'quotes', 'retrieve', quote.id)).id).toBe(quote.id);
    const executed = await me<{ status: string; type: string; transaction: { id: string } }>('agentExecuteQuote', 'quotes', 'execute', quote.id);
    expect([executed.status, executed.type, executed.transaction.id]).toEqual(['APPROVED', 'EXECUTE_QUOTE', quote.transactionId]);
    // Transfers: one in, at once; two out above the threshold, which wait for the platform.
    const transfer = (from: string, to: string, amount: string) => [
      '--source',
      JSON.stringify({ accountId: from }),
      '--destination',
      JSON.stringify({ accountId: to }),
      '--amount',
      amount,
    ];
    const incoming = await me<{ status: string; type: string }>('agentCreateTransferIn', 'transfer-in', ...transfer(bank.id, usd.id, '1000'));
    expect([incoming.status, incoming.type]).toEqual(['APPROVED', 'TRANSFER_IN']);
    const first = await me<{ id: string; status: string; type: string }>('agentCreateTransferOut', 'transfer-out', ...transfer(usd.id, bank.id, '30000'));
    const second = await me<{ id: string; status: string }>('agentCreateTransferOut', 'transfer-out', ...transfer(usd.id, bank.id, '25000'));
    expect([first.status, first.type, second.status]).toEqual(['PENDING_APPROVAL', 'TRANSFER_OUT', 'PENDING_APPROVAL']);
    const [transactions, transaction, actions, action] = await Promise.all([
      me<{ data: { id: string }[] }>('agentListTransactions', 'transactions', 'list'),
      me<{ id: string }>('agentGetTransaction', 'transactions', 'retrieve', quote.transactionId),
      me<{ data: { id: string }[] }>('agentListActions', 'actions', 'list', '--status', 'PENDING_APPROVAL'),
      me<{ id: string; status: string }>('agentGetAction', 'actions', 'retrieve', first.id),
    ]);
    expect(transactions.data.map((t) => t.id)).toContain(quote.transactionId);
    expect([transaction.id, actions.data.map((a) => a.id).sort(), action.status]).toEqual([
      quote.transactionId,
      [first.id, second.id].sort(),
      'PENDING_APPROVAL',
    ]);
    // The platform decides: the first approved (it runs once), the second rejected (nothing moves).
    const approvals = await op<{ data: { id: string }[] }>('listAgentApprovals', 'agents', 'list-approvals', '--agent-id', agent.id);
    expect(approvals.data.map((a) => a.id).sort()).toEqual([first.id, second.id].sort());
    const beforeDecisions = (await accountsOf('USD')).balance.amount;
    const approved = await op<{ status: string; transaction: { type: string } }>('approveAgentAction', 'agents', 'approve-action', agent.id, first.id);
    expect([approved.status, approved.transaction.type]).toEqual(['APPROVED', 'OUTGOING']);
    const rejection = await op<{ status: string; rejectionReason: string }>(
      'rejectAgentAction',
      'agents',
      'reject-action',
      agent.id,
      second.id,
      '--reason',
      'Not today',
    );
    expect([rejection.status, rejection.rejectionReason]).toEqual(['REJECTED', 'Not today']);
    expect((await accountsOf('USD')).balance.amount).toBe(beforeDecisions - 30_000);
    // Deleted: the agent's credential no longer works (3: credentials refused).
    expect((await run('agents', 'delete', agent.id)).code).toBe(0);
    ran.add('deleteAgent');
    expect((await asAgent('agents', 'me', 'retrieve')).code).toBe(3);
  }, 420_000); // ~35 runs of the bin, mostly one after the other: 92 s and 103 s at 2 cores under load

  it('ran every operation of the document, once or more, and nothing else', () => {
    expect([...ran].filter((id) => !(id in OPERATIONS))).toEqual([]);
    expect(Object.keys(OPERATIONS).filter((id) => !ran.has(id))).toEqual([]);
    expect(ran.size).toBe(OPERATION_COUNT);
  });

  it('--all streams every item as one JSON line each; a table without --json', async () => {
    await Promise.all(['A', 'B', 'C'].map((n) => run('customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--full-name', `Paged ${n}`)));
    const all = await cli(['customers', 'list', '--limit', '1', '--all', '--json'], { env });
    const lines = all.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { fullName?: string }); // business customers have none
    expect(
      lines
        .map((c) => c.fullName ?? '')
        .filter((n) => n.startsWith('Paged'))
        .sort(),
    ).toEqual(['Paged A', 'Paged B', 'Paged C']);
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
    const fromStdin = await cli(['customers', 'create', '--data', '-', '--json'], {
      env,
      input: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'From Stdin' }),
    });
    expect(json<{ fullName: string }>(fromStdin).fullName).toBe('From Stdin');
    expect((await cli(['customers', 'create', '--no-such-flag', 'x'], { env })).code).toBe(2);
    const noCredentials = await cli(['customers', 'list'], { env: { CROSSBORDER_BASE_URL: sandbox.url } });
    expect([noCredentials.code, noCredentials.err]).toEqual([
      2,
      'crossborder-sdk: ConfigurationError: missing credentials: set CROSSBORDER_TOKEN_ID and CROSSBORDER_CLIENT_SECRET, or give --profile NAME (a profile of the config file)\n',
    ]);
    // Nothing answers: the outcome of a write is unknown, and the key to retry with is printed.
    const secret = 'cb-secret-never-printed-4f1c';
    const down = await cli(['quotes', 'execute', 'Quote:x', '--max-retries', '0'], {
      env: { ...env, CROSSBORDER_CLIENT_SECRET: secret, CROSSBORDER_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(down.code).toBe(7);
    expect(`${down.out}${down.err}`).not.toContain(secret);
    expect(down.err).toMatch(/Retry with the same key: --idempotency-key [0-9a-f-]{36}/);
  }, 60_000);

  it('--profile reads the config file, and refuses one others may read', async () => {
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({ profiles: { local: { tokenId: 'sandbox', clientSecret: 'sandbox', baseUrl: sandbox.url, environment: 'sandbox' } } }),
      { mode: 0o600 },
    );
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
    expect(readFileSync(join(packed.pkg, 'dist', 'cli.js'), 'utf8')).toMatch(/from ["']commander["']/);
  });
});

/** A P-256 public key (uncompressed, hex) for the export's clientPublicKey. */
function uncompressedKey(): string {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh.getPublicKey('hex');
}

describe("help and errors in the shell's words", () => {
  it('a missing required field says "is required" with its flag; a body-less export names --client-public-key', async () => {
    // The last API request the sandbox logged (its log is bounded: a count can fall as old entries leave it).
    const apiRequests = async () =>
      JSON.stringify(
        json<{ data: { path: string }[] }>(await cli(['sandbox', 'requests', '--url', sandbox.url, '--json']))
          .data.filter((e) => !e.path.startsWith('/_sandbox'))
          .at(-1),
      );
    const sent = await apiRequests();
    const quote = await cli(
      [
        'quotes',
        'create',
        '--source',
        JSON.stringify({ sourceType: 'ACCOUNT', accountId: 'InternalAccount:x' }),
        '--locked-currency-side',
        'SENDING',
        '--locked-currency-amount',
        '100',
      ],
      { env },
    );
    expect(quote.code).toBe(2);
    expect(quote.err).toContain('--destination is required');
    // A field inside a JSON flag, which only one variant of the source requires: named with its flag.
    const nested = await cli(
      [
        'quotes',
        'create',
        '--source',
        JSON.stringify({ sourceType: 'ACCOUNT' }),
        '--destination',
        JSON.stringify({ destinationType: 'ACCOUNT', accountId: 'ExternalAccount:x' }),
        '--locked-currency-side',
        'SENDING',
        '--locked-currency-amount',
        '100',
      ],
      { env },
    );
    expect([nested.code, nested.err]).toEqual([2, 'crossborder-sdk: source.accountId (in --source) is required\n']);
    const exported = await cli(['internal-accounts', 'export', 'InternalAccount:x'], { env });
    expect(exported.code).toBe(2);
    expect(exported.err).toContain('--client-public-key is required');
    expect(await apiRequests()).toBe(sent);
  }, 30_000);

  it("a closed set lists its values; an open set's unknown value is sent as given, with a warning listing the known ones", async () => {
    const closed = await cli(['customers', 'create', '--customer-type', 'ROBOT', '--region', 'US'], { env });
    expect(closed.code).toBe(2);
    expect(closed.err).toContain("--customer-type must be one of INDIVIDUAL, BUSINESS; got 'ROBOT'");
    const side = await cli(['quotes', 'create', '--locked-currency-side', 'SIDEWAYS'], { env });
    expect(side.err).toContain("--locked-currency-side must be one of SENDING, RECEIVING; got 'SIDEWAYS'");
    const open = await cli(
      [
        'quotes',
        'create',
        '--source',
        JSON.stringify({ sourceType: 'ACCOUNT', accountId: 'InternalAccount:none' }),
        '--destination',
        JSON.stringify({ destinationType: 'ACCOUNT', accountId: 'ExternalAccount:none' }),
        '--locked-currency-side',
        'SENDING',
        '--locked-currency-amount',
        '100',
        '--purpose-of-payment',
        'CHARITY',
      ],
      { env },
    );
    expect(open.err).toMatch(
      /warning: --purpose-of-payment 'CHARITY' is not one of the values known to this version \(GIFT, SELF, .*OTHER\); it is sent as given/,
    );
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

  it.each([['nosuch', '--help'], ['nosuch'], ['custmers', 'list', '--help'], ['customers', 'retreive', 'Customer:x']])(
    'an unknown command is an error naming the closest: %s',
    async (...args) => {
      const ran = await cli(args);
      expect(ran.code).toBe(2);
      expect(ran.out).toBe('');
      expect(ran.err).toMatch(/unknown command '\S+( \S+)?'; the closest is '[a-z -]+'/);
      if (args[0] === 'custmers') expect(ran.err).toContain("the closest is 'customers'");
      if (args[1] === 'retreive') expect(ran.err).toContain("the closest is 'customers retrieve'");
    },
  );
});
