/**
 * Every method of every resource: the exact request on the wire (method, path, query, body,
 * headers) and the typed result, against msw answering the document's own examples. The last test
 * enumerates the document's operations and fails on any that no method reaches.
 */
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { useMswServer } from '../helpers/msw';
import { Crossborder } from '../../src/client';
import type { DocumentReplaceRequest, DocumentUploadRequest } from '../../src/types';
import { operations } from '../../src/generated/operations';
import { documentOperations, matchOperation, requestExample, responseExample } from '../helpers/document';

const BASE = 'https://api.test.invalid';
const mswServer = useMswServer();

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
  headers: Headers;
}

const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: BASE, environment: 'sandbox', maxRetries: 0 });
/** The agent's client: its credential (a redeemed device code's accessToken) and no platform credential. */
const AGENT_TOKEN = 'gat_0123456789abcdef0123456789abcdef01234567';
const agent = new Crossborder({ agentToken: AGENT_TOKEN, baseUrl: BASE, environment: 'sandbox', maxRetries: 0 });
const CUSTOMER = 'Customer:019542f5-b3e7-1d02-0000-000000000001';
const ACCOUNT = 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002';
const WALLET = 'EmbeddedWallet:019542f5-b3e7-1d02-0000-000000000002';
const QUOTE = 'Quote:019542f5-b3e7-1d02-0000-000000000006';
const TX = 'Transaction:019542f5-b3e7-1d02-0000-000000000005';
const EXT = 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000003';
const CRED = 'AuthMethod:019542f5-b3e7-1d02-0000-000000000010';
const SESSION = 'Session:019542f5-b3e7-1d02-0000-000000000011';
const DELEGATED_KEY = 'DelegatedKey:019542f5-b3e7-1d02-0000-000000000021';
const TOKEN = 'Token:019542f5-b3e7-1d02-0000-000000000001';
const STABLECOIN = 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002';
const STABLECOIN_OP = 'StablecoinOperation:019542f5-b3e7-1d02-0000-000000000301';
const PROVIDER_ACCOUNT = 'StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001';
const CARD = 'Card:019542f5-b3e7-1d02-0000-000000000010';
const DOCUMENT = 'Document:019542f5-b3e7-1d02-0000-000000000001';
const AGENT = 'Agent:019542f5-b3e7-1d02-0000-000000000001';
const ACTION = 'AgentAction:019542f5-b3e7-1d02-0000-000000000099';
const DEVICE_CODE = 'GRID-AGENT-X7K9-M2P4';
const enc = encodeURIComponent;

interface Case {
  op: keyof typeof operations;
  call: () => PromiseLike<unknown>;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  status?: number;
  response?: unknown;
  /** A multipart/form-data body (the CSV import, a document): its fields, a file part as its text. */
  form?: Record<string, string>;
  /** The file part's name and type (the CSV import's `file.csv`, `text/csv` when not given). */
  file?: [name: string, type: string];
  /** Made with the agent's client: `Authorization: Bearer <agentToken>`, no platform credential. */
  asAgent?: true;
}

const date = new Date('2025-01-01T00:00:00.000Z');
const cases: Case[] = [
  { op: 'createCustomer', call: () => cb.customers.create(requestExample('createCustomer')), path: '/customers', body: requestExample('createCustomer') },
  {
    op: 'listCustomers',
    call: () =>
      cb.customers.list({
        platformCustomerId: 'p-1',
        customerType: 'INDIVIDUAL',
        createdAfter: date,
        createdBefore: '2025-02-01T00:00:00Z',
        updatedAfter: date,
        updatedBefore: date,
        limit: 5,
        cursor: 'c1',
        region: 'US',
        currency: 'USD',
        umaAddress: '$ada@x.example',
        isIncludingDeleted: true,
      }),
    path: '/customers',
    query: {
      platformCustomerId: 'p-1',
      customerType: 'INDIVIDUAL',
      createdAfter: date.toISOString(),
      createdBefore: '2025-02-01T00:00:00Z',
      updatedAfter: date.toISOString(),
      updatedBefore: date.toISOString(),
      limit: '5',
      cursor: 'c1',
      region: 'US',
      currency: 'USD',
      umaAddress: '$ada@x.example',
      isIncludingDeleted: 'true',
    },
  },
  { op: 'getCustomer', call: () => cb.customers.retrieve(CUSTOMER), path: `/customers/${enc(CUSTOMER)}` },
  {
    op: 'updateCustomer',
    call: () => cb.customers.update(CUSTOMER, requestExample('updateCustomer')),
    path: `/customers/${enc(CUSTOMER)}`,
    body: requestExample('updateCustomer'),
  },
  { op: 'deleteCustomer', call: () => cb.customers.delete(CUSTOMER), path: `/customers/${enc(CUSTOMER)}` },
  { op: 'getEndUserTerms', call: () => cb.customers.endUserTerms(), path: '/customers/end-user-terms' },
  {
    op: 'uploadCustomersCsv',
    call: () => cb.customers.importCsv(requestExample('uploadCustomersCsv') as { file: string }),
    path: '/customers/bulk/csv',
    form: requestExample('uploadCustomersCsv') as Record<string, string>,
    status: 202,
  },
  {
    op: 'getBulkCustomerImportJob',
    call: () => cb.customers.retrieveImportJob('Job:019542f5-b3e7-1d02-0000-000000000006'),
    path: `/customers/bulk/jobs/${enc('Job:019542f5-b3e7-1d02-0000-000000000006')}`,
  },
  {
    op: 'listInternalAccounts',
    call: () => cb.internalAccounts.list({ currency: 'USD', customerId: CUSTOMER }),
    path: '/customers/internal-accounts',
    query: { currency: 'USD', customerId: CUSTOMER },
  },
  {
    op: 'updateInternalAccount',
    call: () => cb.internalAccounts.update(ACCOUNT, { privateEnabled: true }, { signature: 'stamp', requestId: 'req-1' }),
    path: `/internal-accounts/${enc(ACCOUNT)}`,
    body: { privateEnabled: true },
    headers: { 'service-wallet-signature': 'stamp', 'request-id': 'req-1' },
  },
  {
    op: 'exportInternalAccount',
    call: () => cb.internalAccounts.export(ACCOUNT, requestExample('exportInternalAccount'), { signature: 'stamp', requestId: 'req-2' }),
    path: `/internal-accounts/${enc(ACCOUNT)}/export`,
    body: requestExample('exportInternalAccount'),
    headers: { 'service-wallet-signature': 'stamp', 'request-id': 'req-2' },
  },
  {
    op: 'createExternalAccount',
    call: () => cb.externalAccounts.create(requestExample('createExternalAccount', 'usdBank')),
    path: '/customers/external-accounts',
    body: requestExample('createExternalAccount', 'usdBank'),
    status: 201,
  },
  {
    op: 'listExternalAccounts',
    call: () => cb.externalAccounts.list({ customerId: CUSTOMER, limit: 100 }),
    path: '/customers/external-accounts',
    query: { customerId: CUSTOMER, limit: '100' },
  },
  {
    op: 'createPlatformExternalAccount',
    call: () => cb.platform.externalAccounts.create(requestExample('createPlatformExternalAccount')),
    path: '/platform/external-accounts',
    body: requestExample('createPlatformExternalAccount'),
  },
  {
    op: 'listPlatformExternalAccounts',
    call: () => cb.platform.externalAccounts.list({ currency: 'USD' }),
    path: '/platform/external-accounts',
    query: { currency: 'USD' },
  },
  { op: 'getCustomerExternalAccountById', call: () => cb.externalAccounts.retrieve(EXT), path: `/customers/external-accounts/${enc(EXT)}` },
  { op: 'deleteCustomerExternalAccountById', call: () => cb.externalAccounts.delete(EXT), path: `/customers/external-accounts/${enc(EXT)}`, status: 204 },
  {
    op: 'createExternalAccountOwnershipChallenge',
    call: () => cb.externalAccounts.challenge(EXT, requestExample('createExternalAccountOwnershipChallenge')),
    path: `/customers/external-accounts/${enc(EXT)}/challenge`,
    body: requestExample('createExternalAccountOwnershipChallenge'),
    status: 201,
  },
  {
    op: 'verifyExternalAccountOwnership',
    call: () => cb.externalAccounts.verify(EXT, requestExample('verifyExternalAccountOwnership')),
    path: `/customers/external-accounts/${enc(EXT)}/verify`,
    body: requestExample('verifyExternalAccountOwnership'),
  },
  { op: 'getPlatformExternalAccountById', call: () => cb.platform.externalAccounts.retrieve(EXT), path: `/platform/external-accounts/${enc(EXT)}` },
  {
    op: 'deletePlatformExternalAccountById',
    call: () => cb.platform.externalAccounts.delete(EXT),
    path: `/platform/external-accounts/${enc(EXT)}`,
    status: 204,
  },
  {
    op: 'createPlatformExternalAccountOwnershipChallenge',
    call: () => cb.platform.externalAccounts.challenge(EXT, { method: 'LIVENESS' }),
    path: `/platform/external-accounts/${enc(EXT)}/challenge`,
    body: { method: 'LIVENESS' },
    status: 201,
  },
  {
    op: 'verifyPlatformExternalAccountOwnership',
    call: () => cb.platform.externalAccounts.verify(EXT, { signature: 'c2lnbmF0dXJl', signatureScheme: 'electrum' }),
    path: `/platform/external-accounts/${enc(EXT)}/verify`,
    body: { signature: 'c2lnbmF0dXJl', signatureScheme: 'electrum' },
  },
  { op: 'getConfig', call: () => cb.config.retrieve(), path: '/config' },
  { op: 'updateConfig', call: () => cb.config.update(requestExample('updateConfig')), path: '/config', body: requestExample('updateConfig') },
  {
    op: 'createQuote',
    call: () => cb.quotes.create(requestExample('createQuote'), { idempotencyKey: 'k-quote' }),
    path: '/quotes',
    body: requestExample('createQuote'),
    headers: { 'idempotency-key': 'k-quote' },
  },
  { op: 'getQuote', call: () => cb.quotes.retrieve(QUOTE), path: `/quotes/${enc(QUOTE)}` },
  {
    op: 'executeQuote',
    call: () => cb.quotes.execute(QUOTE, { idempotencyKey: 'k-exec' }),
    path: `/quotes/${enc(QUOTE)}/execute`,
    headers: { 'idempotency-key': 'k-exec' },
  },
  {
    op: 'createTransferIn',
    call: () => cb.transferIn.create(requestExample('createTransferIn'), { idempotencyKey: 'k-in' }),
    path: '/transfer-in',
    body: requestExample('createTransferIn'),
    headers: { 'idempotency-key': 'k-in' },
  },
  {
    op: 'listTransactions',
    call: () =>
      cb.transactions.list({
        customerId: CUSTOMER,
        platformCustomerId: 'p-1',
        senderAccountIdentifier: ACCOUNT,
        receiverAccountIdentifier: EXT,
        status: 'COMPLETED',
        type: 'OUTGOING',
        reference: 'REF-1',
        startDate: date,
        endDate: '2025-12-31T23:59:59Z',
        limit: 50,
        cursor: 'c2',
        sortOrder: 'asc',
      }),
    path: '/transactions',
    query: {
      customerId: CUSTOMER,
      platformCustomerId: 'p-1',
      senderAccountIdentifier: ACCOUNT,
      receiverAccountIdentifier: EXT,
      status: 'COMPLETED',
      type: 'OUTGOING',
      reference: 'REF-1',
      startDate: date.toISOString(),
      endDate: '2025-12-31T23:59:59Z',
      limit: '50',
      cursor: 'c2',
      sortOrder: 'asc',
    },
  },
  { op: 'getTransaction', call: () => cb.transactions.retrieve(TX), path: `/transactions/${enc(TX)}` },
  {
    op: 'rejectTransaction',
    call: () => cb.transactions.reject(TX, { reason: 'sanctions hit' }),
    path: `/transactions/${enc(TX)}/reject`,
    body: { reason: 'sanctions hit' },
  },
  {
    op: 'approveTransaction',
    call: () => cb.transactions.approve(TX, requestExample('approveTransaction')),
    path: `/transactions/${enc(TX)}/approve`,
    body: requestExample('approveTransaction'),
  },
  {
    op: 'lookupUmaReceiver',
    call: () => cb.receiver.lookupUma('$alice@bank.example', { senderUmaAddress: '$ada@x.example', customerId: CUSTOMER }),
    path: '/receiver/uma/%24alice%40bank.example',
    query: { senderUmaAddress: '$ada@x.example', customerId: CUSTOMER },
  },
  {
    op: 'lookupExternalAccountReceiver',
    call: () => cb.receiver.lookupExternalAccount(EXT, { customerId: CUSTOMER }),
    path: `/receiver/external-account/${enc(EXT)}`,
    query: { customerId: CUSTOMER },
  },
  {
    op: 'createInvitation',
    call: () => cb.invitations.create(requestExample('createInvitation')),
    path: '/invitations',
    body: requestExample('createInvitation'),
  },
  { op: 'getInvitation', call: () => cb.invitations.retrieve('INV-7Q2K9X'), path: '/invitations/INV-7Q2K9X' },
  {
    op: 'claimInvitation',
    call: () => cb.invitations.claim('INV-7Q2K9X', requestExample('claimInvitation')),
    path: '/invitations/INV-7Q2K9X/claim',
    body: requestExample('claimInvitation'),
  },
  { op: 'cancelInvitation', call: () => cb.invitations.cancel('INV-7Q2K9X'), path: '/invitations/INV-7Q2K9X/cancel' },
  {
    op: 'listVerifications',
    call: () => cb.verifications.list({ customerId: CUSTOMER, verificationStatus: 'RESOLVE_ERRORS' }),
    path: '/verifications',
    query: { customerId: CUSTOMER, verificationStatus: 'RESOLVE_ERRORS' },
  },
  // Production's KYC/KYB operations (issue 34).
  {
    op: 'createVerification',
    call: () => cb.verifications.create(requestExample('createVerification')),
    path: '/verifications',
    body: requestExample('createVerification'),
  },
  { op: 'getVerification', call: () => cb.verifications.retrieve('Verification:v1'), path: `/verifications/${enc('Verification:v1')}` },
  {
    op: 'createBeneficialOwner',
    call: () => cb.beneficialOwners.create(requestExample('createBeneficialOwner')),
    path: '/beneficial-owners',
    body: requestExample('createBeneficialOwner'),
    status: 201,
  },
  {
    op: 'listBeneficialOwners',
    call: () => cb.beneficialOwners.list({ customerId: CUSTOMER, limit: 5 }),
    path: '/beneficial-owners',
    query: { customerId: CUSTOMER, limit: '5' },
  },
  { op: 'getBeneficialOwner', call: () => cb.beneficialOwners.retrieve('BeneficialOwner:b1'), path: `/beneficial-owners/${enc('BeneficialOwner:b1')}` },
  {
    op: 'updateBeneficialOwner',
    call: () => cb.beneficialOwners.update('BeneficialOwner:b1', requestExample('updateBeneficialOwner')),
    path: `/beneficial-owners/${enc('BeneficialOwner:b1')}`,
    body: requestExample('updateBeneficialOwner'),
  },
  {
    op: 'createCustomerKycLink',
    call: () => cb.customers.createKycLink(CUSTOMER, requestExample('createCustomerKycLink')),
    path: `/customers/${enc(CUSTOMER)}/kyc-link`,
    body: requestExample('createCustomerKycLink'),
    status: 201,
  },
  {
    op: 'listUmaProviders',
    call: () => cb.umaProviders.list({ countryCode: 'BR', currencyCode: 'BRL', hasBlockedProviders: false, sortOrder: 'desc', limit: 10 }),
    path: '/uma-providers',
    query: { countryCode: 'BR', currencyCode: 'BRL', hasBlockedProviders: 'false', sortOrder: 'desc', limit: '10' },
  },
  {
    op: 'sandboxReceiveUmaPayment',
    call: () => cb.sandbox.receiveUmaPayment(requestExample('sandboxReceiveUmaPayment')),
    path: '/sandbox/uma/receive',
    body: requestExample('sandboxReceiveUmaPayment'),
  },
  {
    op: 'sandboxFundInternalAccount',
    call: () => cb.sandbox.fundInternalAccount(ACCOUNT, { amount: 100_000 }),
    path: `/sandbox/internal-accounts/${enc(ACCOUNT)}/fund`,
    body: { amount: 100_000 },
  },
  {
    op: 'createCredential',
    call: () => cb.auth.credentials.create(requestExample('createCredential', 'emailOtp')),
    path: '/auth/credentials',
    body: requestExample('createCredential', 'emailOtp'),
    status: 201,
  },
  { op: 'listCredentials', call: () => cb.auth.credentials.list({ accountId: WALLET }), path: '/auth/credentials', query: { accountId: WALLET } },
  {
    op: 'challengeCredential',
    call: () => cb.auth.credentials.challenge(CRED, requestExample('challengeCredential')),
    path: `/auth/credentials/${enc(CRED)}/challenge`,
    body: requestExample('challengeCredential'),
  },
  {
    op: 'verifyCredential',
    call: () => cb.auth.credentials.verify(CRED, requestExample('verifyCredential', 'passkey'), { requestId: 'req-pk' }),
    path: `/auth/credentials/${enc(CRED)}/verify`,
    body: requestExample('verifyCredential', 'passkey'),
    headers: { 'request-id': 'req-pk' },
  },
  {
    op: 'revokeCredential',
    call: () => cb.auth.credentials.revoke(CRED, { signature: 's', requestId: 'req-3' }),
    path: `/auth/credentials/${enc(CRED)}`,
    status: 204,
    headers: { 'service-wallet-signature': 's', 'request-id': 'req-3' },
  },
  { op: 'listSessions', call: () => cb.auth.sessions.list({ accountId: WALLET }), path: '/auth/sessions', query: { accountId: WALLET } },
  {
    op: 'revokeSession',
    call: () => cb.auth.sessions.revoke(SESSION, { signature: 's', requestId: 'req-4' }),
    path: `/auth/sessions/${enc(SESSION)}`,
    status: 204,
    headers: { 'service-wallet-signature': 's', 'request-id': 'req-4' },
  },
  // Production's money group (issue 34 §2)
  {
    op: 'createTransferOut',
    call: () => cb.transferOut.create(requestExample('createTransferOut'), { idempotencyKey: 'k-out' }),
    path: '/transfer-out',
    body: requestExample('createTransferOut'),
    headers: { 'idempotency-key': 'k-out' },
    status: 201,
  },
  {
    op: 'confirmReceiptDelivery',
    call: () => cb.transactions.confirm(TX, requestExample('confirmReceiptDelivery')),
    path: `/transactions/${enc(TX)}/confirm`,
    body: requestExample('confirmReceiptDelivery'),
  },
  {
    op: 'cancelTransaction',
    call: () => cb.transactions.cancel(TX, { reason: 'REQUESTED_AFTER_HOURS' }),
    path: `/transactions/${enc(TX)}/cancel`,
    body: { reason: 'REQUESTED_AFTER_HOURS' },
  },
  {
    op: 'listPlatformInternalAccounts',
    call: () => cb.platform.internalAccounts.list({ currency: 'USD', type: 'INTERNAL_FIAT' }),
    path: '/platform/internal-accounts',
    query: { currency: 'USD', type: 'INTERNAL_FIAT' },
  },
  {
    op: 'getExchangeRates',
    call: () => cb.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: ['EUR'], sendingAmount: 5_000 }),
    path: '/exchange-rates',
    query: { sourceCurrency: 'USD', destinationCurrency: 'EUR', sendingAmount: '5000' },
  },
  {
    op: 'estimateCryptoWithdrawalFee',
    call: () => cb.crypto.estimateWithdrawalFee(requestExample('estimateCryptoWithdrawalFee')),
    path: '/crypto/estimate-withdrawal-fee',
    body: requestExample('estimateCryptoWithdrawalFee'),
  },
  { op: 'sandboxSend', call: () => cb.sandbox.send(requestExample('sandboxSend')), path: '/sandbox/send', body: requestExample('sandboxSend') },
  { op: 'sendTestWebhook', call: () => cb.sandbox.sendTestWebhook(), path: '/sandbox/webhooks/test' },
  // Production's session refresh and delegated keys (issue 34 §2).
  {
    op: 'refreshAuthSession',
    call: () => cb.auth.sessions.refresh(SESSION, requestExample('refreshAuthSession', 'refresh'), { signature: 's', requestId: 'req-5' }),
    path: `/auth/sessions/${enc(SESSION)}/refresh`,
    body: requestExample('refreshAuthSession', 'refresh'),
    status: 201,
    headers: { 'service-wallet-signature': 's', 'request-id': 'req-5' },
  },
  {
    op: 'createDelegatedKey',
    call: () => cb.auth.delegatedKeys.create(requestExample('createDelegatedKey', 'create'), { signature: 's', requestId: 'req-6' }),
    path: '/auth/delegated-keys',
    body: requestExample('createDelegatedKey', 'create'),
    status: 201,
    headers: { 'service-wallet-signature': 's', 'request-id': 'req-6' },
  },
  {
    op: 'listDelegatedKeys',
    call: () => cb.auth.delegatedKeys.list({ accountId: WALLET, fundingSourceId: 'CardFundingSource:1' }),
    path: '/auth/delegated-keys',
    query: { accountId: WALLET, fundingSourceId: 'CardFundingSource:1' },
  },
  { op: 'getDelegatedKeyById', call: () => cb.auth.delegatedKeys.retrieve(DELEGATED_KEY), path: `/auth/delegated-keys/${enc(DELEGATED_KEY)}` },
  { op: 'revokeDelegatedKey', call: () => cb.auth.delegatedKeys.revoke(DELEGATED_KEY), path: `/auth/delegated-keys/${enc(DELEGATED_KEY)}`, status: 204 },
  { op: 'createToken', call: () => cb.tokens.create(requestExample('createToken')), path: '/tokens', body: requestExample('createToken'), status: 201 },
  {
    op: 'listTokens',
    call: () =>
      cb.tokens.list({
        name: 'Sandbox read-only',
        createdAfter: date,
        createdBefore: '2025-02-01T00:00:00Z',
        updatedAfter: date,
        updatedBefore: date,
        limit: 5,
        cursor: 'c1',
      }),
    path: '/tokens',
    query: {
      name: 'Sandbox read-only',
      createdAfter: '2025-01-01T00:00:00.000Z',
      createdBefore: '2025-02-01T00:00:00Z',
      updatedAfter: '2025-01-01T00:00:00.000Z',
      updatedBefore: '2025-01-01T00:00:00.000Z',
      limit: '5',
      cursor: 'c1',
    },
  },
  { op: 'getTokenById', call: () => cb.tokens.retrieve(TOKEN), path: `/tokens/${enc(TOKEN)}` },
  { op: 'deleteTokenById', call: () => cb.tokens.delete(TOKEN), path: `/tokens/${enc(TOKEN)}`, status: 204 },
  { op: 'createCard', call: () => cb.cards.create(requestExample('createCard')), path: '/cards', body: requestExample('createCard'), status: 201 },
  {
    op: 'listCards',
    call: () =>
      cb.cards.list({
        cardholderId: CUSTOMER,
        accountId: 'InternalAccount:1',
        platformCardId: 'card-1',
        state: 'FROZEN',
        sortOrder: 'asc',
        limit: 5,
        cursor: 'c1',
      }),
    path: '/cards',
    query: { cardholderId: CUSTOMER, accountId: 'InternalAccount:1', platformCardId: 'card-1', state: 'FROZEN', sortOrder: 'asc', limit: '5', cursor: 'c1' },
    response: { data: [responseExample('createCard', '201')], hasMore: false },
  },
  { op: 'getCardById', call: () => cb.cards.retrieve(CARD), path: `/cards/${enc(CARD)}`, response: responseExample('createCard', '201') },
  {
    op: 'updateCardById',
    call: () => cb.cards.update(CARD, { maxSpendPerTransaction: null }),
    path: `/cards/${enc(CARD)}`,
    body: { maxSpendPerTransaction: null },
    response: responseExample('createCard', '201'),
  },
  {
    op: 'revealCard',
    call: () => cb.cards.reveal(CARD),
    path: `/cards/${enc(CARD)}/reveal`,
    response: { panEmbedUrl: 'https://embed.example/iframe?t=abc', expiresAt: '2026-05-08T14:16:00Z' },
  },
  {
    op: 'sandboxSimulateCardAuthorization',
    call: () => cb.sandbox.simulateCardAuthorization(CARD, requestExample('sandboxSimulateCardAuthorization')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/authorization`,
    body: requestExample('sandboxSimulateCardAuthorization'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardClearing',
    call: () => cb.sandbox.simulateCardClearing(CARD, requestExample('sandboxSimulateCardClearing')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/clearing`,
    body: requestExample('sandboxSimulateCardClearing'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardReturn',
    call: () => cb.sandbox.simulateCardReturn(CARD, requestExample('sandboxSimulateCardReturn')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/return`,
    body: requestExample('sandboxSimulateCardReturn'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardBalanceInquiry',
    call: () => cb.sandbox.simulateCardBalanceInquiry(CARD, requestExample('sandboxSimulateCardBalanceInquiry')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/balance_inquiry`,
    body: requestExample('sandboxSimulateCardBalanceInquiry'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardCreditAuthorization',
    call: () => cb.sandbox.simulateCardCreditAuthorization(CARD, requestExample('sandboxSimulateCardCreditAuthorization')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/credit_authorization`,
    body: requestExample('sandboxSimulateCardCreditAuthorization'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardFinancialAuthorization',
    call: () => cb.sandbox.simulateCardFinancialAuthorization(CARD, requestExample('sandboxSimulateCardFinancialAuthorization')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/financial_authorization`,
    body: requestExample('sandboxSimulateCardFinancialAuthorization'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardFinancialCreditAuthorization',
    call: () => cb.sandbox.simulateCardFinancialCreditAuthorization(CARD, requestExample('sandboxSimulateCardFinancialCreditAuthorization')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/financial_credit_authorization`,
    body: requestExample('sandboxSimulateCardFinancialCreditAuthorization'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardAuthorizationAdvice',
    call: () => cb.sandbox.simulateCardAuthorizationAdvice(CARD, requestExample('sandboxSimulateCardAuthorizationAdvice')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/authorization_advice`,
    body: requestExample('sandboxSimulateCardAuthorizationAdvice'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardCreditAuthorizationAdvice',
    call: () => cb.sandbox.simulateCardCreditAuthorizationAdvice(CARD, requestExample('sandboxSimulateCardCreditAuthorizationAdvice')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/credit_authorization_advice`,
    body: requestExample('sandboxSimulateCardCreditAuthorizationAdvice'),
    status: 202,
  },
  {
    op: 'sandboxSimulateCardReturnReversal',
    call: () => cb.sandbox.simulateCardReturnReversal(CARD, requestExample('sandboxSimulateCardReturnReversal')),
    path: `/sandbox/cards/${enc(CARD)}/simulate/return_reversal`,
    body: requestExample('sandboxSimulateCardReturnReversal'),
    status: 202,
  },
  {
    op: 'getDiscoveries',
    call: () => cb.discoveries.list({ country: 'PH', currency: 'PHP' }),
    path: '/discoveries',
    query: { country: 'PH', currency: 'PHP' },
  },
  { op: 'listVasps', call: () => cb.vasps.list({ limit: 2, cursor: 'c1' }), path: '/vasps', query: { limit: '2', cursor: 'c1' } },
  {
    op: 'registerStablecoin',
    call: () => cb.stablecoins.register(requestExample('registerStablecoin')),
    path: '/stablecoins',
    body: requestExample('registerStablecoin'),
    status: 201,
  },
  {
    op: 'listStablecoins',
    call: () => cb.stablecoins.list({ issuanceStatus: 'PROVISIONED', gridOperationsStatus: 'ENABLED', provider: 'BRALE', limit: 3, cursor: 'c1' }),
    path: '/stablecoins',
    query: { issuanceStatus: 'PROVISIONED', gridOperationsStatus: 'ENABLED', provider: 'BRALE', limit: '3', cursor: 'c1' },
  },
  { op: 'getStablecoin', call: () => cb.stablecoins.retrieve(STABLECOIN), path: `/stablecoins/${enc(STABLECOIN)}` },
  {
    op: 'createStablecoinMint',
    call: () => cb.stablecoins.mint(STABLECOIN, requestExample('createStablecoinMint')),
    path: `/stablecoins/${enc(STABLECOIN)}/mints`,
    body: requestExample('createStablecoinMint'),
    status: 201,
  },
  {
    op: 'createStablecoinBurn',
    call: () => cb.stablecoins.burn(STABLECOIN, requestExample('createStablecoinBurn')),
    path: `/stablecoins/${enc(STABLECOIN)}/burns`,
    body: requestExample('createStablecoinBurn'),
    status: 201,
  },
  {
    op: 'listStablecoinOperations',
    call: () => cb.stablecoins.listOperations(STABLECOIN, { operationType: 'BURN', limit: 2 }),
    path: `/stablecoins/${enc(STABLECOIN)}/operations`,
    query: { operationType: 'BURN', limit: '2' },
  },
  { op: 'getStablecoinOperation', call: () => cb.stablecoins.retrieveOperation(STABLECOIN_OP), path: `/stablecoin-operations/${enc(STABLECOIN_OP)}` },
  {
    op: 'linkStablecoinProviderAccount',
    call: () => cb.stablecoinProviderAccounts.link(requestExample('linkStablecoinProviderAccount')),
    path: '/stablecoin-provider-accounts',
    body: requestExample('linkStablecoinProviderAccount'),
    status: 201,
  },
  {
    op: 'listStablecoinProviderAccounts',
    call: () => cb.stablecoinProviderAccounts.list({ provider: 'BRALE', status: 'ACTIVE' }),
    path: '/stablecoin-provider-accounts',
    query: { provider: 'BRALE', status: 'ACTIVE' },
  },
  {
    op: 'getStablecoinProviderAccount',
    call: () => cb.stablecoinProviderAccounts.retrieve(PROVIDER_ACCOUNT),
    path: `/stablecoin-provider-accounts/${enc(PROVIDER_ACCOUNT)}`,
  },
  {
    op: 'uploadDocument',
    call: () => cb.documents.upload(requestExample('uploadDocument') as DocumentUploadRequest),
    path: '/documents',
    form: requestExample('uploadDocument') as Record<string, string>,
    file: ['file.bin', 'application/octet-stream'],
    status: 201,
  },
  {
    op: 'uploadDocument',
    call: () =>
      cb.documents.upload({
        file: { name: 'passport.pdf', data: new TextEncoder().encode('%PDF-1.7'), type: 'application/pdf' },
        documentHolder: CUSTOMER,
        documentType: 'PASSPORT',
        country: 'US',
      }),
    path: '/documents',
    form: { file: '%PDF-1.7', documentHolder: CUSTOMER, documentType: 'PASSPORT', country: 'US' },
    file: ['passport.pdf', 'application/pdf'],
    status: 201,
  },
  {
    op: 'listDocuments',
    call: () => cb.documents.list({ documentHolder: CUSTOMER, limit: 2 }),
    path: '/documents',
    query: { documentHolder: CUSTOMER, limit: '2' },
  },
  { op: 'getDocument', call: () => cb.documents.retrieve(DOCUMENT), path: `/documents/${enc(DOCUMENT)}` },
  {
    op: 'replaceDocument',
    call: () => cb.documents.replace(DOCUMENT, requestExample('replaceDocument') as DocumentReplaceRequest),
    path: `/documents/${enc(DOCUMENT)}`,
    form: requestExample('replaceDocument') as Record<string, string>,
    file: ['file.bin', 'application/octet-stream'],
  },
  { op: 'deleteDocument', call: () => cb.documents.delete(DOCUMENT), path: `/documents/${enc(DOCUMENT)}`, status: 204 },
  // Production's contact verification and Strong Customer Authentication: the customer goes as ?customerId=.
  { op: 'sendCustomerEmailVerification', call: () => cb.customers.verifyEmail(CUSTOMER), path: `/customers/${enc(CUSTOMER)}/verify-email`, status: 204 },
  {
    op: 'confirmCustomerEmailVerification',
    call: () => cb.customers.confirmEmail(CUSTOMER, { code: '123456' }),
    path: `/customers/${enc(CUSTOMER)}/verify-email/confirm`,
    body: { code: '123456' },
  },
  { op: 'sendCustomerPhoneVerification', call: () => cb.customers.verifyPhone(CUSTOMER), path: `/customers/${enc(CUSTOMER)}/verify-phone`, status: 204 },
  {
    op: 'confirmCustomerPhoneVerification',
    call: () => cb.customers.confirmPhone(CUSTOMER, { code: '123456' }),
    path: `/customers/${enc(CUSTOMER)}/verify-phone/confirm`,
    body: { code: '123456' },
  },
  {
    op: 'listScaFactors',
    call: () => cb.sca.factors.list(CUSTOMER),
    path: '/sca/factors',
    query: { customerId: CUSTOMER },
  },
  {
    op: 'startScaFactorEnrollment',
    call: () => cb.sca.factors.enroll(CUSTOMER, { type: 'TOTP' }),
    path: '/sca/factors',
    query: { customerId: CUSTOMER },
    body: { type: 'TOTP' },
  },
  {
    op: 'confirmScaFactorEnrollment',
    call: () => cb.sca.factors.confirm(CUSTOMER, requestExample('confirmScaFactorEnrollment')),
    path: '/sca/factors/confirm',
    query: { customerId: CUSTOMER },
    body: requestExample('confirmScaFactorEnrollment'),
  },
  {
    op: 'deleteScaFactor',
    call: () => cb.sca.factors.delete(CUSTOMER, 'ScaCredential:1'),
    path: `/sca/factors/${enc('ScaCredential:1')}`,
    query: { customerId: CUSTOMER },
    status: 204,
  },
  {
    op: 'startScaLogin',
    call: () => cb.sca.login.start(CUSTOMER, { factor: 'SMS_OTP' }),
    path: '/sca/login/start',
    query: { customerId: CUSTOMER },
    body: { factor: 'SMS_OTP' },
  },
  {
    op: 'completeScaLogin',
    call: () => cb.sca.login.complete(CUSTOMER, requestExample('completeScaLogin')),
    path: '/sca/login/complete',
    query: { customerId: CUSTOMER },
    body: requestExample('completeScaLogin'),
  },
  {
    op: 'recordSecurityEvent',
    call: () => cb.sca.events.record(CUSTOMER, { eventType: 'FAILED_LOGIN_ATTEMPT' }),
    path: '/sca/record-event',
    query: { customerId: CUSTOMER },
    body: { eventType: 'FAILED_LOGIN_ATTEMPT' },
  },
  {
    op: 'startTwoFactorReset',
    call: () => cb.sca.resets.start(CUSTOMER, { factor: 'TOTP' }),
    path: '/sca/factors/reset',
    query: { customerId: CUSTOMER },
    body: { factor: 'TOTP' },
    status: 201,
  },
  {
    op: 'getTwoFactorResetStatus',
    call: () => cb.sca.resets.retrieve(CUSTOMER, 'TwoFactorReset:1'),
    path: `/sca/factors/reset/${enc('TwoFactorReset:1')}`,
    query: { customerId: CUSTOMER },
  },
  {
    op: 'completeTwoFactorReset',
    call: () => cb.sca.resets.complete(CUSTOMER, 'TwoFactorReset:1', requestExample('completeTwoFactorReset')),
    path: `/sca/factors/reset/${enc('TwoFactorReset:1')}/complete`,
    query: { customerId: CUSTOMER },
    body: requestExample('completeTwoFactorReset'),
    status: 204,
  },
  { op: 'startBeneficiaryTrust', call: () => cb.externalAccounts.trust(EXT), path: `/customers/external-accounts/${enc(EXT)}/trust` },
  {
    op: 'confirmBeneficiaryTrust',
    call: () => cb.externalAccounts.confirmTrust(EXT, requestExample('confirmBeneficiaryTrust')),
    path: `/customers/external-accounts/${enc(EXT)}/trust/confirm`,
    body: requestExample('confirmBeneficiaryTrust'),
  },
  { op: 'startBeneficiaryUntrust', call: () => cb.externalAccounts.untrust(EXT), path: `/customers/external-accounts/${enc(EXT)}/untrust` },
  {
    op: 'confirmBeneficiaryUntrust',
    call: () => cb.externalAccounts.confirmUntrust(EXT, requestExample('confirmBeneficiaryUntrust')),
    path: `/customers/external-accounts/${enc(EXT)}/untrust/confirm`,
    body: requestExample('confirmBeneficiaryUntrust'),
  },
  {
    op: 'authorizeQuote',
    call: () => cb.quotes.authorize(QUOTE, { code: '123456', endUserIpAddress: '203.0.113.42' }),
    path: `/quotes/${enc(QUOTE)}/authorize`,
    body: { code: '123456', endUserIpAddress: '203.0.113.42' },
  },
  { op: 'resendQuoteScaCode', call: () => cb.quotes.resendAuthorization(QUOTE), path: `/quotes/${enc(QUOTE)}/authorize/resend`, status: 204 },
  // Production's agents: the platform manages them with its credential; `agents.me` is the agent's, with its own.
  { op: 'createAgent', call: () => cb.agents.create(requestExample('createAgent')), path: '/agents', body: requestExample('createAgent'), status: 201 },
  {
    op: 'listAgents',
    call: () =>
      cb.agents.list({
        customerId: CUSTOMER,
        isPaused: false,
        isConnected: true,
        createdAfter: date,
        createdBefore: '2025-02-01T00:00:00Z',
        updatedAfter: date,
        updatedBefore: date,
        limit: 7,
        cursor: 'c3',
      }),
    path: '/agents',
    query: {
      customerId: CUSTOMER,
      isPaused: 'false',
      isConnected: 'true',
      createdAfter: date.toISOString(),
      createdBefore: '2025-02-01T00:00:00Z',
      updatedAfter: date.toISOString(),
      updatedBefore: date.toISOString(),
      limit: '7',
      cursor: 'c3',
    },
  },
  { op: 'getAgentById', call: () => cb.agents.retrieve(AGENT), path: `/agents/${enc(AGENT)}` },
  {
    op: 'updateAgent',
    call: () => cb.agents.update(AGENT, requestExample('updateAgent')),
    path: `/agents/${enc(AGENT)}`,
    body: requestExample('updateAgent'),
  },
  { op: 'deleteAgent', call: () => cb.agents.delete(AGENT), path: `/agents/${enc(AGENT)}`, status: 204 },
  {
    op: 'updateAgentPolicy',
    call: () => cb.agents.updatePolicy(AGENT, requestExample('updateAgentPolicy')),
    path: `/agents/${enc(AGENT)}/policy`,
    body: requestExample('updateAgentPolicy'),
  },
  { op: 'regenerateAgentDeviceCode', call: () => cb.agents.createDeviceCode(AGENT), path: `/agents/${enc(AGENT)}/device-codes`, status: 201 },
  { op: 'getAgentDeviceCodeStatus', call: () => cb.agents.getDeviceCodeStatus(DEVICE_CODE), path: `/agents/device-codes/${DEVICE_CODE}/status` },
  { op: 'redeemAgentDeviceCode', call: () => cb.agents.redeemDeviceCode(DEVICE_CODE), path: `/agents/device-codes/${DEVICE_CODE}/redeem` },
  // The agent software redeems its code with a client holding no platform credential.
  {
    op: 'redeemAgentDeviceCode',
    call: () => agent.agents.redeemDeviceCode(DEVICE_CODE),
    path: `/agents/device-codes/${DEVICE_CODE}/redeem`,
    asAgent: true,
  },
  {
    op: 'listAgentApprovals',
    call: () =>
      cb.agents.listApprovals({
        agentId: AGENT,
        customerId: CUSTOMER,
        startDate: date,
        endDate: '2025-12-31T23:59:59Z',
        limit: 4,
        cursor: 'c4',
        sortOrder: 'desc',
      }),
    path: '/agents/approvals',
    query: {
      agentId: AGENT,
      customerId: CUSTOMER,
      startDate: date.toISOString(),
      endDate: '2025-12-31T23:59:59Z',
      limit: '4',
      cursor: 'c4',
      sortOrder: 'desc',
    },
  },
  { op: 'approveAgentAction', call: () => cb.agents.approveAction(AGENT, ACTION), path: `/agents/${enc(AGENT)}/actions/${enc(ACTION)}/approve` },
  {
    op: 'rejectAgentAction',
    call: () => cb.agents.rejectAction(AGENT, ACTION, requestExample('rejectAgentAction')),
    path: `/agents/${enc(AGENT)}/actions/${enc(ACTION)}/reject`,
    body: requestExample('rejectAgentAction'),
  },
  { op: 'getAgentMe', call: () => agent.agents.me.retrieve(), path: '/agents/me', asAgent: true },
  {
    op: 'agentCreateTransferIn',
    call: () => agent.agents.me.transferIn(requestExample('agentCreateTransferIn'), { idempotencyKey: 'k-agent-in' }),
    path: '/agents/me/transfer-in',
    body: requestExample('agentCreateTransferIn'),
    headers: { 'idempotency-key': 'k-agent-in' },
    status: 201,
    asAgent: true,
  },
  {
    op: 'agentCreateTransferOut',
    call: () => agent.agents.me.transferOut(requestExample('agentCreateTransferOut'), { idempotencyKey: 'k-agent-out' }),
    path: '/agents/me/transfer-out',
    body: requestExample('agentCreateTransferOut'),
    headers: { 'idempotency-key': 'k-agent-out' },
    status: 201,
    asAgent: true,
  },
  {
    op: 'agentListTransactions',
    call: () =>
      agent.agents.me.transactions.list({
        accountIdentifier: ACCOUNT,
        senderAccountIdentifier: ACCOUNT,
        receiverAccountIdentifier: EXT,
        status: 'COMPLETED',
        type: 'OUTGOING',
        reference: 'REF-2',
        startDate: date,
        endDate: '2025-12-31T23:59:59Z',
        limit: 9,
        cursor: 'c5',
        sortOrder: 'asc',
      }),
    path: '/agents/me/transactions',
    query: {
      accountIdentifier: ACCOUNT,
      senderAccountIdentifier: ACCOUNT,
      receiverAccountIdentifier: EXT,
      status: 'COMPLETED',
      type: 'OUTGOING',
      reference: 'REF-2',
      startDate: date.toISOString(),
      endDate: '2025-12-31T23:59:59Z',
      limit: '9',
      cursor: 'c5',
      sortOrder: 'asc',
    },
    asAgent: true,
  },
  { op: 'agentGetTransaction', call: () => agent.agents.me.transactions.retrieve(TX), path: `/agents/me/transactions/${enc(TX)}`, asAgent: true },
  {
    op: 'agentCreateQuote',
    call: () => agent.agents.me.quotes.create(requestExample('agentCreateQuote'), { idempotencyKey: 'k-agent-quote' }),
    path: '/agents/me/quotes',
    body: requestExample('agentCreateQuote'),
    headers: { 'idempotency-key': 'k-agent-quote' },
    status: 201,
    asAgent: true,
  },
  { op: 'agentGetQuote', call: () => agent.agents.me.quotes.retrieve(QUOTE), path: `/agents/me/quotes/${enc(QUOTE)}`, asAgent: true },
  {
    op: 'agentExecuteQuote',
    call: () => agent.agents.me.quotes.execute(QUOTE, { idempotencyKey: 'k-agent-exec', signature: 'stamp', requestId: 'req-agent' }),
    path: `/agents/me/quotes/${enc(QUOTE)}/execute`,
    headers: { 'idempotency-key': 'k-agent-exec', 'service-wallet-signature': 'stamp', 'request-id': 'req-agent' },
    asAgent: true,
  },
  {
    op: 'agentListActions',
    call: () => agent.agents.me.actions.list({ status: 'PENDING_APPROVAL', limit: 3, cursor: 'c6' }),
    path: '/agents/me/actions',
    query: { status: 'PENDING_APPROVAL', limit: '3', cursor: 'c6' },
    asAgent: true,
  },
  { op: 'agentGetAction', call: () => agent.agents.me.actions.retrieve(ACTION), path: `/agents/me/actions/${enc(ACTION)}`, asAgent: true },
  {
    op: 'agentListInternalAccounts',
    call: () => agent.agents.me.internalAccounts.list({ currency: 'USD', type: 'INTERNAL_FIAT', limit: 2, cursor: 'c7' }),
    path: '/agents/me/internal-accounts',
    query: { currency: 'USD', type: 'INTERNAL_FIAT', limit: '2', cursor: 'c7' },
    asAgent: true,
  },
  {
    op: 'agentListExternalAccounts',
    call: () => agent.agents.me.externalAccounts.list({ currency: 'EUR', limit: 6, cursor: 'c8' }),
    path: '/agents/me/external-accounts',
    query: { currency: 'EUR', limit: '6', cursor: 'c8' },
    asAgent: true,
  },
  {
    op: 'agentCreateExternalAccount',
    call: () => agent.agents.me.externalAccounts.create(requestExample('agentCreateExternalAccount')),
    path: '/agents/me/external-accounts',
    body: requestExample('agentCreateExternalAccount'),
    status: 201,
    asAgent: true,
  },
  {
    op: 'agentGetExternalAccount',
    call: () => agent.agents.me.externalAccounts.retrieve(EXT),
    path: `/agents/me/external-accounts/${enc(EXT)}`,
    asAgent: true,
  },
  {
    op: 'agentDeleteExternalAccount',
    call: () => agent.agents.me.externalAccounts.delete(EXT),
    path: `/agents/me/external-accounts/${enc(EXT)}`,
    status: 204,
    asAgent: true,
  },
];

function answer(c: Case): { status: number; body: unknown } {
  const status = c.status ?? 200;
  if (status === 204) return { status, body: undefined };
  return { status, body: c.response ?? responseExample(c.op, String(status)) };
}

describe('every method sends the documented request and returns the typed result', () => {
  it.each(cases.map((c) => [c.op, c] as const))('%s', async (_name, c) => {
    const seen: Seen[] = [];
    const { status, body } = answer(c);
    mswServer.use(
      http.all(`${BASE}/2025-10-13/*`, async ({ request }) => {
        const url = new URL(request.url);
        seen.push({
          method: request.method,
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          body: await request.text(),
          headers: request.headers,
        });
        return body === undefined ? new HttpResponse(null, { status }) : HttpResponse.json(body as object, { status, headers: { 'x-request-id': 'req_wire' } });
      }),
    );
    const result = await c.call();
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    const op = operations[c.op];
    expect(req.method).toBe(op.method);
    expect(matchOperation(req.method, req.path)).toBe(c.op);
    expect(req.path).toBe(`/2025-10-13${c.path}`);
    expect(req.query).toEqual(c.query ?? {});
    if (c.form !== undefined) {
      const type = req.headers.get('content-type')!;
      expect(type).toMatch(/^multipart\/form-data; boundary=/);
      const form = await new Response(req.body, { headers: { 'content-type': type } }).formData();
      const file = form.get('file') as File;
      expect([file.name, file.type]).toEqual(c.file ?? ['file.csv', 'text/csv']);
      const fields: Record<string, string> = {};
      for (const [name, value] of form) fields[name] = typeof value === 'string' ? value : await value.text();
      expect(fields).toEqual(c.form);
    } else if (c.body === undefined) {
      expect(req.body).toBe('');
      expect(req.headers.get('content-type')).toBeNull();
    } else {
      expect(req.body).toBe(JSON.stringify(c.body));
      expect(req.headers.get('content-type')).toBe('application/json');
    }
    // An operation the document marks `security: []` (redeeming a device code) is sent without a credential.
    if (op.anonymous) expect(req.headers.get('authorization')).toBeNull();
    else if (c.asAgent) {
      expect(req.headers.get('authorization')).toBe(`Bearer ${AGENT_TOKEN}`);
      // No platform credential anywhere in the request: not its Basic form, its token id or secret.
      for (const [name, value] of req.headers) expect([name, value.includes(btoa('tok:sec')) || /\b(tok|sec)\b/.test(value)]).toEqual([name, false]);
    } else expect(req.headers.get('authorization')).toBe(`Basic ${btoa('tok:sec')}`);
    expect(req.headers.has('idempotency-key')).toBe(op.idempotent);
    for (const [name, value] of Object.entries(c.headers ?? {})) expect(req.headers.get(name)).toBe(value);
    if (!c.headers?.['service-wallet-signature']) expect(req.headers.has('service-wallet-signature')).toBe(false);
    if (op.paginated) expect((result as { data: unknown }).data).toEqual((body as { data: unknown }).data);
    else expect(result).toEqual(body);
  });

  it('every operation of the document is reached by a method', () => {
    const reached = new Set(cases.map((c) => c.op));
    const missing = documentOperations().filter((o) => !reached.has(o.id as keyof typeof operations));
    expect(missing).toEqual([]);
    expect(Object.keys(operations).sort()).toEqual(
      documentOperations()
        .map((o) => o.id)
        .sort(),
    );
  });
});

describe('every paginated list walks all pages with for await', () => {
  const lists: [keyof typeof operations, () => AsyncIterable<unknown>, string][] = [
    ['listCustomers', () => cb.customers.list({ limit: 1 }), '/customers'],
    ['listInternalAccounts', () => cb.internalAccounts.list({ limit: 1 }), '/customers/internal-accounts'],
    ['listExternalAccounts', () => cb.externalAccounts.list({ limit: 1 }), '/customers/external-accounts'],
    ['listPlatformExternalAccounts', () => cb.platform.externalAccounts.list({ limit: 1 }), '/platform/external-accounts'],
    ['listTransactions', () => cb.transactions.list({ limit: 1 }), '/transactions'],
    ['listVerifications', () => cb.verifications.list({ limit: 1 }), '/verifications'],
    ['listUmaProviders', () => cb.umaProviders.list({ limit: 1 }), '/uma-providers'],
    ['listBeneficialOwners', () => cb.beneficialOwners.list({ customerId: CUSTOMER, limit: 1 }), '/beneficial-owners'],
    ['listTokens', () => cb.tokens.list({ limit: 1 }), '/tokens'],
    ['listCards', () => cb.cards.list({ limit: 1 }), '/cards'],
    ['listVasps', () => cb.vasps.list({ limit: 1 }), '/vasps'],
    ['listStablecoins', () => cb.stablecoins.list({ limit: 1 }), '/stablecoins'],
    ['listStablecoinOperations', () => cb.stablecoins.listOperations(STABLECOIN, { limit: 1 }), `/stablecoins/${enc(STABLECOIN)}/operations`],
    ['listStablecoinProviderAccounts', () => cb.stablecoinProviderAccounts.list({ limit: 1 }), '/stablecoin-provider-accounts'],
    ['listDocuments', () => cb.documents.list({ limit: 1 }), '/documents'],
    ['listAgents', () => cb.agents.list({ limit: 1 }), '/agents'],
    ['listAgentApprovals', () => cb.agents.listApprovals({ limit: 1 }), '/agents/approvals'],
    ['agentListTransactions', () => agent.agents.me.transactions.list({ limit: 1 }), '/agents/me/transactions'],
    ['agentListActions', () => agent.agents.me.actions.list({ limit: 1 }), '/agents/me/actions'],
    ['agentListInternalAccounts', () => agent.agents.me.internalAccounts.list({ limit: 1 }), '/agents/me/internal-accounts'],
    ['agentListExternalAccounts', () => agent.agents.me.externalAccounts.list({ limit: 1 }), '/agents/me/external-accounts'],
  ];
  it('covers every paginated operation', () => {
    const paginated = Object.values(operations)
      .filter((o) => o.paginated)
      .map((o) => o.id)
      .sort();
    expect(lists.map(([id]) => id).sort()).toEqual(paginated);
  });
  it.each(lists)('%s', async (id, list, path) => {
    const item = (responseExample(id, '200') as { data: unknown[] }).data[0];
    const cursors: (string | null)[] = [];
    mswServer.use(
      http.get(`${BASE}/2025-10-13${path}`, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        cursors.push(cursor);
        const page = cursor === null ? 0 : Number(cursor);
        const hasMore = page < 2;
        return HttpResponse.json({ data: [item], hasMore, ...(hasMore ? { nextCursor: String(page + 1) } : {}), totalCount: 3 });
      }),
    );
    const items: unknown[] = [];
    for await (const x of list()) items.push(x);
    expect(items).toEqual([item, item, item]);
    expect(cursors).toEqual([null, '1', '2']);
  });
});
