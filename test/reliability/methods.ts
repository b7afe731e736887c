/**
 * Every method of the client as a table (operation → call), and valid inputs for each generated
 * from the document's schemas: shared by the fuzz, fault and secrets suites.
 */
import fc from 'fast-check';
import type { Crossborder } from '../../src/client';
import { operations, type OperationId } from '../../src/generated/operations';
import * as generated from '../../src/generated/zod.gen';
import { arbitraryOf, jsonSchemaOf, type JsonSchema } from './schema-arbitrary';

export type Op = (typeof operations)[OperationId];
export type Part = 'path' | 'query' | 'body';
export interface Input {
  path?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  options: Record<string, unknown>;
}

export type Method = (cb: Crossborder, a: Input) => PromiseLike<unknown> & Partial<AsyncIterable<unknown>>;

const p = (a: Input, name: string) => a.path?.[name] as any;

const q = (a: Input) => a.query as any;

const b = (a: Input) => a.body as any;

/** Every operation → the method that reaches it, with the input split as the method takes it. */
export const METHODS: Record<OperationId, Method> = {
  listCustomers: (cb, a) => cb.customers.list(q(a), a.options),
  createCustomer: (cb, a) => cb.customers.create(b(a), a.options),
  getCustomer: (cb, a) => cb.customers.retrieve(p(a, 'customerId'), a.options),
  updateCustomer: (cb, a) => cb.customers.update(p(a, 'customerId'), b(a), a.options),
  deleteCustomer: (cb, a) => cb.customers.delete(p(a, 'customerId'), a.options),
  getEndUserTerms: (cb, a) => cb.customers.endUserTerms(a.options),
  uploadCustomersCsv: (cb, a) => cb.customers.importCsv(b(a), a.options),
  getBulkCustomerImportJob: (cb, a) => cb.customers.retrieveImportJob(p(a, 'jobId'), a.options),
  listInternalAccounts: (cb, a) => cb.internalAccounts.list(q(a), a.options),
  updateInternalAccount: (cb, a) => cb.internalAccounts.update(p(a, 'accountId'), b(a), a.options),
  exportInternalAccount: (cb, a) => cb.internalAccounts.export(p(a, 'accountId'), b(a), a.options),
  listExternalAccounts: (cb, a) => cb.externalAccounts.list(q(a), a.options),
  createExternalAccount: (cb, a) => cb.externalAccounts.create(b(a), a.options),
  listPlatformExternalAccounts: (cb, a) => cb.platform.externalAccounts.list(q(a), a.options),
  createPlatformExternalAccount: (cb, a) => cb.platform.externalAccounts.create(b(a), a.options),
  getCustomerExternalAccountById: (cb, a) => cb.externalAccounts.retrieve(p(a, 'externalAccountId'), a.options),
  deleteCustomerExternalAccountById: (cb, a) => cb.externalAccounts.delete(p(a, 'externalAccountId'), a.options),
  createExternalAccountOwnershipChallenge: (cb, a) => cb.externalAccounts.challenge(p(a, 'externalAccountId'), b(a), a.options),
  verifyExternalAccountOwnership: (cb, a) => cb.externalAccounts.verify(p(a, 'externalAccountId'), b(a), a.options),
  getPlatformExternalAccountById: (cb, a) => cb.platform.externalAccounts.retrieve(p(a, 'externalAccountId'), a.options),
  deletePlatformExternalAccountById: (cb, a) => cb.platform.externalAccounts.delete(p(a, 'externalAccountId'), a.options),
  createPlatformExternalAccountOwnershipChallenge: (cb, a) => cb.platform.externalAccounts.challenge(p(a, 'externalAccountId'), b(a), a.options),
  verifyPlatformExternalAccountOwnership: (cb, a) => cb.platform.externalAccounts.verify(p(a, 'externalAccountId'), b(a), a.options),
  getConfig: (cb, a) => cb.config.retrieve(a.options),
  updateConfig: (cb, a) => cb.config.update(b(a), a.options),
  createQuote: (cb, a) => cb.quotes.create(b(a), a.options),
  getQuote: (cb, a) => cb.quotes.retrieve(p(a, 'quoteId'), a.options),
  executeQuote: (cb, a) => cb.quotes.execute(p(a, 'quoteId'), a.options),
  createTransferIn: (cb, a) => cb.transferIn.create(b(a), a.options),
  listTransactions: (cb, a) => cb.transactions.list(q(a), a.options),
  getTransaction: (cb, a) => cb.transactions.retrieve(p(a, 'transactionId'), a.options),
  rejectTransaction: (cb, a) => cb.transactions.reject(p(a, 'transactionId'), b(a), a.options),
  approveTransaction: (cb, a) => cb.transactions.approve(p(a, 'transactionId'), b(a), a.options),
  lookupUmaReceiver: (cb, a) => cb.receiver.lookupUma(p(a, 'receiverUmaAddress'), q(a), a.options),
  lookupExternalAccountReceiver: (cb, a) => cb.receiver.lookupExternalAccount(p(a, 'accountId'), q(a), a.options),
  createInvitation: (cb, a) => cb.invitations.create(b(a), a.options),
  getInvitation: (cb, a) => cb.invitations.retrieve(p(a, 'invitationCode'), a.options),
  claimInvitation: (cb, a) => cb.invitations.claim(p(a, 'invitationCode'), b(a), a.options),
  cancelInvitation: (cb, a) => cb.invitations.cancel(p(a, 'invitationCode'), a.options),
  listVerifications: (cb, a) => cb.verifications.list(q(a), a.options),
  createVerification: (cb, a) => cb.verifications.create(b(a), a.options),
  getVerification: (cb, a) => cb.verifications.retrieve(p(a, 'verificationId'), a.options),
  createBeneficialOwner: (cb, a) => cb.beneficialOwners.create(b(a), a.options),
  listBeneficialOwners: (cb, a) => cb.beneficialOwners.list(q(a), a.options),
  getBeneficialOwner: (cb, a) => cb.beneficialOwners.retrieve(p(a, 'beneficialOwnerId'), a.options),
  updateBeneficialOwner: (cb, a) => cb.beneficialOwners.update(p(a, 'beneficialOwnerId'), b(a), a.options),
  createCustomerKycLink: (cb, a) => cb.customers.createKycLink(p(a, 'customerId'), b(a), a.options),
  listUmaProviders: (cb, a) => cb.umaProviders.list(q(a), a.options),
  sandboxReceiveUmaPayment: (cb, a) => cb.sandbox.receiveUmaPayment(b(a), a.options),
  sandboxFundInternalAccount: (cb, a) => cb.sandbox.fundInternalAccount(p(a, 'accountId'), b(a), a.options),
  listCredentials: (cb, a) => cb.auth.credentials.list(q(a), a.options),
  createCredential: (cb, a) => cb.auth.credentials.create(b(a), a.options),
  revokeCredential: (cb, a) => cb.auth.credentials.revoke(p(a, 'id'), a.options),
  challengeCredential: (cb, a) => cb.auth.credentials.challenge(p(a, 'id'), b(a), a.options),
  verifyCredential: (cb, a) => cb.auth.credentials.verify(p(a, 'id'), b(a), a.options),
  listSessions: (cb, a) => cb.auth.sessions.list(q(a), a.options),
  revokeSession: (cb, a) => cb.auth.sessions.revoke(p(a, 'id'), a.options),
  // Production's money group (issue 34 §2)
  createTransferOut: (cb, a) => cb.transferOut.create(b(a), a.options),
  confirmReceiptDelivery: (cb, a) => cb.transactions.confirm(p(a, 'transactionId'), b(a), a.options),
  cancelTransaction: (cb, a) => cb.transactions.cancel(p(a, 'transactionId'), b(a), a.options),
  listPlatformInternalAccounts: (cb, a) => cb.platform.internalAccounts.list(q(a), a.options),
  getExchangeRates: (cb, a) => cb.exchangeRates.list(q(a), a.options),
  estimateCryptoWithdrawalFee: (cb, a) => cb.crypto.estimateWithdrawalFee(b(a), a.options),
  sandboxSend: (cb, a) => cb.sandbox.send(b(a), a.options),
  sendTestWebhook: (cb, a) => cb.sandbox.sendTestWebhook(a.options),
  refreshAuthSession: (cb, a) => cb.auth.sessions.refresh(p(a, 'id'), b(a), a.options),
  createDelegatedKey: (cb, a) => cb.auth.delegatedKeys.create(b(a), a.options),
  listDelegatedKeys: (cb, a) => cb.auth.delegatedKeys.list(q(a), a.options),
  getDelegatedKeyById: (cb, a) => cb.auth.delegatedKeys.retrieve(p(a, 'id'), a.options),
  revokeDelegatedKey: (cb, a) => cb.auth.delegatedKeys.revoke(p(a, 'id'), a.options),
  createToken: (cb, a) => cb.tokens.create(b(a), a.options),
  listTokens: (cb, a) => cb.tokens.list(q(a), a.options),
  getTokenById: (cb, a) => cb.tokens.retrieve(p(a, 'tokenId'), a.options),
  deleteTokenById: (cb, a) => cb.tokens.delete(p(a, 'tokenId'), a.options),
  uploadDocument: (cb, a) => cb.documents.upload(b(a), a.options),
  listDocuments: (cb, a) => cb.documents.list(q(a), a.options),
  getDocument: (cb, a) => cb.documents.retrieve(p(a, 'documentId'), a.options),
  replaceDocument: (cb, a) => cb.documents.replace(p(a, 'documentId'), b(a), a.options),
  deleteDocument: (cb, a) => cb.documents.delete(p(a, 'documentId'), a.options),
  getDiscoveries: (cb, a) => cb.discoveries.list(q(a), a.options),
  listVasps: (cb, a) => cb.vasps.list(q(a), a.options),
  registerStablecoin: (cb, a) => cb.stablecoins.register(b(a), a.options),
  listStablecoins: (cb, a) => cb.stablecoins.list(q(a), a.options),
  getStablecoin: (cb, a) => cb.stablecoins.retrieve(p(a, 'stablecoinId'), a.options),
  createStablecoinMint: (cb, a) => cb.stablecoins.mint(p(a, 'stablecoinId'), b(a), a.options),
  createStablecoinBurn: (cb, a) => cb.stablecoins.burn(p(a, 'stablecoinId'), b(a), a.options),
  listStablecoinOperations: (cb, a) => cb.stablecoins.listOperations(p(a, 'stablecoinId'), q(a), a.options),
  getStablecoinOperation: (cb, a) => cb.stablecoins.retrieveOperation(p(a, 'stablecoinOperationId'), a.options),
  linkStablecoinProviderAccount: (cb, a) => cb.stablecoinProviderAccounts.link(b(a), a.options),
  listStablecoinProviderAccounts: (cb, a) => cb.stablecoinProviderAccounts.list(q(a), a.options),
  getStablecoinProviderAccount: (cb, a) => cb.stablecoinProviderAccounts.retrieve(p(a, 'stablecoinProviderAccountId'), a.options),
  createCard: (cb, a) => cb.cards.create(b(a), a.options),
  listCards: (cb, a) => cb.cards.list(q(a), a.options),
  getCardById: (cb, a) => cb.cards.retrieve(p(a, 'id'), a.options),
  updateCardById: (cb, a) => cb.cards.update(p(a, 'id'), b(a), a.options),
  revealCard: (cb, a) => cb.cards.reveal(p(a, 'id'), a.options),
  sandboxSimulateCardAuthorization: (cb, a) => cb.sandbox.simulateCardAuthorization(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardClearing: (cb, a) => cb.sandbox.simulateCardClearing(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardReturn: (cb, a) => cb.sandbox.simulateCardReturn(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardBalanceInquiry: (cb, a) => cb.sandbox.simulateCardBalanceInquiry(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardCreditAuthorization: (cb, a) => cb.sandbox.simulateCardCreditAuthorization(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardFinancialAuthorization: (cb, a) => cb.sandbox.simulateCardFinancialAuthorization(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardFinancialCreditAuthorization: (cb, a) => cb.sandbox.simulateCardFinancialCreditAuthorization(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardAuthorizationAdvice: (cb, a) => cb.sandbox.simulateCardAuthorizationAdvice(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardCreditAuthorizationAdvice: (cb, a) => cb.sandbox.simulateCardCreditAuthorizationAdvice(p(a, 'id'), b(a), a.options),
  sandboxSimulateCardReturnReversal: (cb, a) => cb.sandbox.simulateCardReturnReversal(p(a, 'id'), b(a), a.options),
  sendCustomerEmailVerification: (cb, a) => cb.customers.verifyEmail(p(a, 'customerId'), a.options),
  confirmCustomerEmailVerification: (cb, a) => cb.customers.confirmEmail(p(a, 'customerId'), b(a), a.options),
  sendCustomerPhoneVerification: (cb, a) => cb.customers.verifyPhone(p(a, 'customerId'), a.options),
  confirmCustomerPhoneVerification: (cb, a) => cb.customers.confirmPhone(p(a, 'customerId'), b(a), a.options),
  listScaFactors: (cb, a) => cb.sca.factors.list(q(a)?.customerId, a.options),
  startScaFactorEnrollment: (cb, a) => cb.sca.factors.enroll(q(a)?.customerId, b(a), a.options),
  confirmScaFactorEnrollment: (cb, a) => cb.sca.factors.confirm(q(a)?.customerId, b(a), a.options),
  deleteScaFactor: (cb, a) => cb.sca.factors.delete(q(a)?.customerId, p(a, 'credentialId'), a.options),
  startScaLogin: (cb, a) => cb.sca.login.start(q(a)?.customerId, b(a), a.options),
  completeScaLogin: (cb, a) => cb.sca.login.complete(q(a)?.customerId, b(a), a.options),
  recordSecurityEvent: (cb, a) => cb.sca.events.record(q(a)?.customerId, b(a), a.options),
  startTwoFactorReset: (cb, a) => cb.sca.resets.start(q(a)?.customerId, b(a), a.options),
  getTwoFactorResetStatus: (cb, a) => cb.sca.resets.retrieve(q(a)?.customerId, p(a, 'resetId'), a.options),
  completeTwoFactorReset: (cb, a) => cb.sca.resets.complete(q(a)?.customerId, p(a, 'resetId'), b(a), a.options),
  startBeneficiaryTrust: (cb, a) => cb.externalAccounts.trust(p(a, 'externalAccountId'), a.options),
  confirmBeneficiaryTrust: (cb, a) => cb.externalAccounts.confirmTrust(p(a, 'externalAccountId'), b(a), a.options),
  startBeneficiaryUntrust: (cb, a) => cb.externalAccounts.untrust(p(a, 'externalAccountId'), a.options),
  confirmBeneficiaryUntrust: (cb, a) => cb.externalAccounts.confirmUntrust(p(a, 'externalAccountId'), b(a), a.options),
  authorizeQuote: (cb, a) => cb.quotes.authorize(p(a, 'quoteId'), b(a), a.options),
  resendQuoteScaCode: (cb, a) => cb.quotes.resendAuthorization(p(a, 'quoteId'), a.options),
  createAgent: (cb, a) => cb.agents.create(b(a), a.options),
  listAgents: (cb, a) => cb.agents.list(q(a), a.options),
  getAgentById: (cb, a) => cb.agents.retrieve(p(a, 'agentId'), a.options),
  updateAgent: (cb, a) => cb.agents.update(p(a, 'agentId'), b(a), a.options),
  deleteAgent: (cb, a) => cb.agents.delete(p(a, 'agentId'), a.options),
  updateAgentPolicy: (cb, a) => cb.agents.updatePolicy(p(a, 'agentId'), b(a), a.options),
  regenerateAgentDeviceCode: (cb, a) => cb.agents.createDeviceCode(p(a, 'agentId'), a.options),
  getAgentDeviceCodeStatus: (cb, a) => cb.agents.getDeviceCodeStatus(p(a, 'code'), a.options),
  redeemAgentDeviceCode: (cb, a) => cb.agents.redeemDeviceCode(p(a, 'code'), a.options),
  listAgentApprovals: (cb, a) => cb.agents.listApprovals(q(a), a.options),
  approveAgentAction: (cb, a) => cb.agents.approveAction(p(a, 'agentId'), p(a, 'actionId'), a.options),
  rejectAgentAction: (cb, a) => cb.agents.rejectAction(p(a, 'agentId'), p(a, 'actionId'), b(a), a.options),
  getAgentMe: (cb, a) => cb.agents.me.retrieve(a.options),
  agentCreateTransferIn: (cb, a) => cb.agents.me.transferIn(b(a), a.options),
  agentCreateTransferOut: (cb, a) => cb.agents.me.transferOut(b(a), a.options),
  agentListTransactions: (cb, a) => cb.agents.me.transactions.list(q(a), a.options),
  agentGetTransaction: (cb, a) => cb.agents.me.transactions.retrieve(p(a, 'transactionId'), a.options),
  agentCreateQuote: (cb, a) => cb.agents.me.quotes.create(b(a), a.options),
  agentGetQuote: (cb, a) => cb.agents.me.quotes.retrieve(p(a, 'quoteId'), a.options),
  agentExecuteQuote: (cb, a) => cb.agents.me.quotes.execute(p(a, 'quoteId'), a.options),
  agentListActions: (cb, a) => cb.agents.me.actions.list(q(a), a.options),
  agentGetAction: (cb, a) => cb.agents.me.actions.retrieve(p(a, 'actionId'), a.options),
  agentListInternalAccounts: (cb, a) => cb.agents.me.internalAccounts.list(q(a), a.options),
  agentListExternalAccounts: (cb, a) => cb.agents.me.externalAccounts.list(q(a), a.options),
  agentGetExternalAccount: (cb, a) => cb.agents.me.externalAccounts.retrieve(p(a, 'externalAccountId'), a.options),
  agentCreateExternalAccount: (cb, a) => cb.agents.me.externalAccounts.create(b(a), a.options),
  agentDeleteExternalAccount: (cb, a) => cb.agents.me.externalAccounts.delete(p(a, 'externalAccountId'), a.options),
};
export const IDS = Object.keys(operations) as OperationId[];

// ---------------------------------------------------------------------------------------------
// Schemas and arbitraries.

export interface Zod {
  safeParse(v: unknown): { success: boolean };
}
/** A schema of the operation table: the zod schema itself, or its name in the generated module. */
export function schemaOf(ref: unknown): Zod | undefined {
  if (ref === undefined) return undefined;
  const schema = typeof ref === 'string' ? (generated as Record<string, unknown>)[ref] : ref;
  if (!schema) throw new Error(`no schema ${String(ref)}`);
  return schema as Zod;
}

export const schemas = Object.fromEntries(
  IDS.map((id) => {
    const op = operations[id];
    const parts = {} as Record<Part, { zod: Zod; json: JsonSchema } | undefined>;
    for (const part of ['path', 'query', 'body'] as Part[]) {
      const s = schemaOf((op.params as Record<Part, unknown>)[part]);
      parts[part] = s ? { zod: s, json: jsonSchemaOf(s) } : undefined;
    }
    return [id, parts];
  }),
) as Record<OperationId, Record<Part, { zod: Zod; json: JsonSchema } | undefined>>;

/** Header-safe token characters (what an Idempotency-Key or Request-Id can carry on the wire). */
export const token = (min = 1, max = 40) =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:~'), minLength: min, maxLength: max });
const base64url = () =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 1, maxLength: 60 });
let requestIds = 0;

/**
 * Path parameters that are empty or a dot segment (`.`, `..`) cannot be put in a URL path as one
 * segment; the SDK does not refuse them yet (see "path parameters that cannot be one segment"), so
 * the valid generator leaves them out rather than fail on that one known bug every run.
 */
export const segmentSafe = (v: unknown) => !isObjectRecord(v) || Object.values(v).every((x) => typeof x !== 'string' || (x !== '' && x !== '.' && x !== '..'));
function isObjectRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const partArbitrary = (id: OperationId, part: Part) => {
  const s = schemas[id][part]!;
  const files = part === 'body' ? operations[id].multipart : undefined;
  return arbitraryOf(s.json)
    .filter((v) => s.zod.safeParse(v).success && (part !== 'path' || segmentSafe(v)))
    .map((v) => (files ? fileFieldsAsText(v as Record<string, unknown>, files) : v));
};

/**
 * A file field the document leaves untyped (a document's `file`: any content the SDK can send) gets the JSON
 * of the value drawn, as text: the fuzz reads each multipart part back as its text.
 */
function fileFieldsAsText(body: Record<string, unknown>, files: Readonly<Record<string, string>>): Record<string, unknown> {
  const out = { ...body };
  for (const field of Object.keys(files)) if (field in out && typeof out[field] !== 'string') out[field] = JSON.stringify(out[field]) ?? 'null';
  return out;
}

/** Some `date-time` query strings become `Date` objects (the SDK sends them as ISO strings). */
function withDates(id: OperationId, query: Record<string, unknown>, pick: boolean[]): Record<string, unknown> {
  const props = schemas[id].query!.json.properties ?? {};
  const out = { ...query };
  let i = 0;
  for (const [k, v] of Object.entries(out)) if (props[k]?.format === 'date-time' && typeof v === 'string' && pick[i++ % pick.length]) out[k] = new Date(v);
  return out;
}

/** A query the operation needs a field of (SCA's `customerId` beside a body) is always given; any other may be left out. */
function optionalUnlessRequired<T>(schema: { required?: unknown }, arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return Array.isArray(schema.required) && schema.required.length > 0 ? arb : fc.option(arb, { nil: undefined });
}

const validInputs = new Map<OperationId, fc.Arbitrary<Input>>();

/** A valid input for the operation (built once per operation: arbitraries compile regexes). */
export function validInput(id: OperationId): fc.Arbitrary<Input> {
  let arb = validInputs.get(id);
  if (!arb) validInputs.set(id, (arb = buildValidInput(id)));
  return arb;
}

function buildValidInput(id: OperationId): fc.Arbitrary<Input> {
  const op = operations[id];
  const s = schemas[id];
  return fc
    .record({
      path: s.path ? partArbitrary(id, 'path') : fc.constant(undefined),
      query: s.query
        ? optionalUnlessRequired(
            s.query.json,
            fc
              .tuple(partArbitrary(id, 'query'), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }))
              .map(([v, pick]) => withDates(id, v as Record<string, unknown>, pick)),
          )
        : fc.constant(undefined),
      body: s.body ? (op.bodyRequired ? partArbitrary(id, 'body') : fc.option(partArbitrary(id, 'body'), { nil: undefined })) : fc.constant(undefined),
      key: op.idempotent ? fc.option(token(1, 64), { nil: undefined }) : fc.constant(undefined),
      relay: op.signed ? fc.option(base64url(), { nil: undefined }) : fc.constant(undefined),
      header: fc.option(token(1, 20), { nil: undefined }),
    })
    .map(({ path, query, body, key, relay, header }) => {
      const options: Record<string, unknown> = {};
      if (key !== undefined) options.idempotencyKey = key;
      if (relay !== undefined) Object.assign(options, { signature: relay, requestId: `req-${++requestIds}` });
      if (id === 'verifyCredential' && (body as { type?: string })?.type === 'PASSKEY') options.requestId = `pk-${++requestIds}`;
      if (header !== undefined) options.headers = { 'X-Fuzz': header };
      return { path: path as Record<string, unknown> | undefined, query: query, body, options };
    });
}

export const anyValidCase = fc.constantFrom(...IDS).chain((id) => validInput(id).map((input) => ({ id, input })));
