/**
 * A resource method's result is its operation's (issue 26): each method's return type must equal the
 * result the generated types give its operation (`ResultOf<'createQuote'>`: the JSON body of its 2xx
 * answers but the 202 challenge), or the items of its list. A method that declares another result (a
 * wider, a narrower, or another named type) fails here, even where the compiler would let it pass.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { APIPromise } from '../../src/core/api-promise';
import type { ItemOf, ResultOf } from '../../src/core/plan';
import type { PagePromise } from '../../src/core/pagination';
import type { OperationId } from '../../src/generated/operations';
import type { Crossborder } from '../../src/client';

type Call<Id extends OperationId> = APIPromise<ResultOf<Id>>;
type List<Id extends OperationId> = PagePromise<ItemOf<Id>>;
type R<F extends (...args: never[]) => unknown> = ReturnType<F>;

describe('each resource method returns what its operation answers', () => {
  it('customers', () => {
    type C = Crossborder['customers'];
    expectTypeOf<R<C['create']>>().toEqualTypeOf<Call<'createCustomer'>>();
    expectTypeOf<R<C['retrieve']>>().toEqualTypeOf<Call<'getCustomer'>>();
    expectTypeOf<R<C['update']>>().toEqualTypeOf<Call<'updateCustomer'>>();
    expectTypeOf<R<C['delete']>>().toEqualTypeOf<Call<'deleteCustomer'>>();
    expectTypeOf<R<C['list']>>().toEqualTypeOf<List<'listCustomers'>>();
  });

  it('accounts', () => {
    type I = Crossborder['internalAccounts'];
    expectTypeOf<R<I['list']>>().toEqualTypeOf<List<'listInternalAccounts'>>();
    expectTypeOf<R<I['update']>>().toEqualTypeOf<Call<'updateInternalAccount'>>();
    expectTypeOf<R<I['export']>>().toEqualTypeOf<Call<'exportInternalAccount'>>();
    type E = Crossborder['externalAccounts'];
    expectTypeOf<R<E['create']>>().toEqualTypeOf<Call<'createExternalAccount'>>();
    expectTypeOf<R<E['list']>>().toEqualTypeOf<List<'listExternalAccounts'>>();
    type P = Crossborder['platform']['externalAccounts'];
    expectTypeOf<R<P['create']>>().toEqualTypeOf<Call<'createPlatformExternalAccount'>>();
    expectTypeOf<R<P['list']>>().toEqualTypeOf<List<'listPlatformExternalAccounts'>>();
  });

  it('config, receiver, invitations, verifications, UMA providers, sandbox', () => {
    expectTypeOf<R<Crossborder['config']['retrieve']>>().toEqualTypeOf<Call<'getConfig'>>();
    expectTypeOf<R<Crossborder['config']['update']>>().toEqualTypeOf<Call<'updateConfig'>>();
    expectTypeOf<R<Crossborder['receiver']['lookupUma']>>().toEqualTypeOf<Call<'lookupUmaReceiver'>>();
    expectTypeOf<R<Crossborder['receiver']['lookupExternalAccount']>>().toEqualTypeOf<Call<'lookupExternalAccountReceiver'>>();
    expectTypeOf<R<Crossborder['invitations']['create']>>().toEqualTypeOf<Call<'createInvitation'>>();
    expectTypeOf<R<Crossborder['verifications']['list']>>().toEqualTypeOf<List<'listVerifications'>>();
    expectTypeOf<R<Crossborder['verifications']['create']>>().toEqualTypeOf<Call<'createVerification'>>();
    expectTypeOf<R<Crossborder['verifications']['retrieve']>>().toEqualTypeOf<Call<'getVerification'>>();
    type B = Crossborder['beneficialOwners'];
    expectTypeOf<R<B['create']>>().toEqualTypeOf<Call<'createBeneficialOwner'>>();
    expectTypeOf<R<B['list']>>().toEqualTypeOf<List<'listBeneficialOwners'>>();
    expectTypeOf<R<B['retrieve']>>().toEqualTypeOf<Call<'getBeneficialOwner'>>();
    expectTypeOf<R<B['update']>>().toEqualTypeOf<Call<'updateBeneficialOwner'>>();
    expectTypeOf<R<Crossborder['customers']['createKycLink']>>().toEqualTypeOf<Call<'createCustomerKycLink'>>();
    expectTypeOf<R<Crossborder['umaProviders']['list']>>().toEqualTypeOf<List<'listUmaProviders'>>();
    expectTypeOf<R<Crossborder['sandbox']['receiveUmaPayment']>>().toEqualTypeOf<Call<'sandboxReceiveUmaPayment'>>();
    expectTypeOf<R<Crossborder['sandbox']['fundInternalAccount']>>().toEqualTypeOf<Call<'sandboxFundInternalAccount'>>();
  });

  it('quotes, transfer-in, transactions', () => {
    type Q = Crossborder['quotes'];
    expectTypeOf<R<Q['create']>>().toEqualTypeOf<Call<'createQuote'>>();
    expectTypeOf<R<Q['retrieve']>>().toEqualTypeOf<Call<'getQuote'>>();
    expectTypeOf<R<Q['execute']>>().toEqualTypeOf<Call<'executeQuote'>>();
    // createAndExecute resolves to what its last step (the execute) answers.
    expectTypeOf<R<Q['createAndExecute']>>().toEqualTypeOf<Promise<ResultOf<'executeQuote'>>>();
    expectTypeOf<R<Crossborder['transferIn']['create']>>().toEqualTypeOf<Call<'createTransferIn'>>();
    type T = Crossborder['transactions'];
    expectTypeOf<R<T['list']>>().toEqualTypeOf<List<'listTransactions'>>();
    expectTypeOf<R<T['retrieve']>>().toEqualTypeOf<Call<'getTransaction'>>();
    expectTypeOf<R<T['reject']>>().toEqualTypeOf<Call<'rejectTransaction'>>();
    expectTypeOf<R<T['approve']>>().toEqualTypeOf<Call<'approveTransaction'>>();
  });

  it("production's money group: transfer-out, confirm, cancel, platform accounts, rates, fees, sandbox send and test webhook", () => {
    expectTypeOf<R<Crossborder['transferOut']['create']>>().toEqualTypeOf<Call<'createTransferOut'>>();
    expectTypeOf<R<Crossborder['transactions']['confirm']>>().toEqualTypeOf<Call<'confirmReceiptDelivery'>>();
    expectTypeOf<R<Crossborder['transactions']['cancel']>>().toEqualTypeOf<Call<'cancelTransaction'>>();
    expectTypeOf<R<Crossborder['platform']['internalAccounts']['list']>>().toEqualTypeOf<Call<'listPlatformInternalAccounts'>>();
    expectTypeOf<R<Crossborder['exchangeRates']['list']>>().toEqualTypeOf<Call<'getExchangeRates'>>();
    expectTypeOf<R<Crossborder['crypto']['estimateWithdrawalFee']>>().toEqualTypeOf<Call<'estimateCryptoWithdrawalFee'>>();
    expectTypeOf<R<Crossborder['sandbox']['send']>>().toEqualTypeOf<Call<'sandboxSend'>>();
    expectTypeOf<R<Crossborder['sandbox']['sendTestWebhook']>>().toEqualTypeOf<Call<'sendTestWebhook'>>();
  });

  it('auth: credentials and sessions', () => {
    type C = Crossborder['auth']['credentials'];
    expectTypeOf<R<C['create']>>().toEqualTypeOf<Call<'createCredential'>>();
    expectTypeOf<R<C['list']>>().toEqualTypeOf<Call<'listCredentials'>>();
    expectTypeOf<R<C['challenge']>>().toEqualTypeOf<Call<'challengeCredential'>>();
    expectTypeOf<R<C['verify']>>().toEqualTypeOf<Call<'verifyCredential'>>();
    expectTypeOf<R<C['revoke']>>().toEqualTypeOf<Call<'revokeCredential'>>();
    type S = Crossborder['auth']['sessions'];
    expectTypeOf<R<S['list']>>().toEqualTypeOf<Call<'listSessions'>>();
    expectTypeOf<R<S['revoke']>>().toEqualTypeOf<Call<'revokeSession'>>();
    expectTypeOf<R<S['refresh']>>().toEqualTypeOf<Call<'refreshAuthSession'>>();
    type D = Crossborder['auth']['delegatedKeys'];
    expectTypeOf<R<D['create']>>().toEqualTypeOf<Call<'createDelegatedKey'>>();
    expectTypeOf<R<D['list']>>().toEqualTypeOf<Call<'listDelegatedKeys'>>();
    expectTypeOf<R<D['retrieve']>>().toEqualTypeOf<Call<'getDelegatedKeyById'>>();
    expectTypeOf<R<D['revoke']>>().toEqualTypeOf<Call<'revokeDelegatedKey'>>();
    expectTypeOf<ResultOf<'revokeDelegatedKey'>>().toEqualTypeOf<void>();
    expectTypeOf<ResultOf<'createDelegatedKey'>>().not.toHaveProperty('payloadToSign');
    type T = Crossborder['tokens'];
    expectTypeOf<R<T['create']>>().toEqualTypeOf<Call<'createToken'>>();
    expectTypeOf<R<T['list']>>().toEqualTypeOf<List<'listTokens'>>();
    expectTypeOf<R<T['retrieve']>>().toEqualTypeOf<Call<'getTokenById'>>();
    expectTypeOf<R<T['delete']>>().toEqualTypeOf<Call<'deleteTokenById'>>();
    expectTypeOf<ResultOf<'deleteTokenById'>>().toEqualTypeOf<void>();
    expectTypeOf<R<Crossborder['discoveries']['list']>>().toEqualTypeOf<Call<'getDiscoveries'>>();
    expectTypeOf<R<Crossborder['vasps']['list']>>().toEqualTypeOf<List<'listVasps'>>();
    type SC = Crossborder['stablecoins'];
    expectTypeOf<R<SC['register']>>().toEqualTypeOf<Call<'registerStablecoin'>>();
    expectTypeOf<R<SC['list']>>().toEqualTypeOf<List<'listStablecoins'>>();
    expectTypeOf<R<SC['retrieve']>>().toEqualTypeOf<Call<'getStablecoin'>>();
    expectTypeOf<R<SC['mint']>>().toEqualTypeOf<Call<'createStablecoinMint'>>();
    expectTypeOf<R<SC['burn']>>().toEqualTypeOf<Call<'createStablecoinBurn'>>();
    expectTypeOf<R<SC['listOperations']>>().toEqualTypeOf<List<'listStablecoinOperations'>>();
    expectTypeOf<R<SC['retrieveOperation']>>().toEqualTypeOf<Call<'getStablecoinOperation'>>();
    type SP = Crossborder['stablecoinProviderAccounts'];
    expectTypeOf<R<SP['link']>>().toEqualTypeOf<Call<'linkStablecoinProviderAccount'>>();
    expectTypeOf<R<SP['list']>>().toEqualTypeOf<List<'listStablecoinProviderAccounts'>>();
    expectTypeOf<R<SP['retrieve']>>().toEqualTypeOf<Call<'getStablecoinProviderAccount'>>();
    expectTypeOf<ResultOf<'getStablecoinProviderAccount'>>().not.toHaveProperty('apiClientSecret');
  });

  it('cards and the card simulations', () => {
    type K = Crossborder['cards'];
    expectTypeOf<R<K['create']>>().toEqualTypeOf<Call<'createCard'>>();
    expectTypeOf<R<K['list']>>().toEqualTypeOf<List<'listCards'>>();
    expectTypeOf<R<K['retrieve']>>().toEqualTypeOf<Call<'getCardById'>>();
    expectTypeOf<R<K['update']>>().toEqualTypeOf<Call<'updateCardById'>>();
    expectTypeOf<R<K['reveal']>>().toEqualTypeOf<Call<'revealCard'>>();
    type S = Crossborder['sandbox'];
    expectTypeOf<R<S['simulateCardAuthorization']>>().toEqualTypeOf<Call<'sandboxSimulateCardAuthorization'>>();
    expectTypeOf<R<S['simulateCardClearing']>>().toEqualTypeOf<Call<'sandboxSimulateCardClearing'>>();
    expectTypeOf<R<S['simulateCardReturn']>>().toEqualTypeOf<Call<'sandboxSimulateCardReturn'>>();
    expectTypeOf<R<S['simulateCardBalanceInquiry']>>().toEqualTypeOf<Call<'sandboxSimulateCardBalanceInquiry'>>();
    expectTypeOf<R<S['simulateCardCreditAuthorization']>>().toEqualTypeOf<Call<'sandboxSimulateCardCreditAuthorization'>>();
    expectTypeOf<R<S['simulateCardFinancialAuthorization']>>().toEqualTypeOf<Call<'sandboxSimulateCardFinancialAuthorization'>>();
    expectTypeOf<R<S['simulateCardFinancialCreditAuthorization']>>().toEqualTypeOf<Call<'sandboxSimulateCardFinancialCreditAuthorization'>>();
    expectTypeOf<R<S['simulateCardAuthorizationAdvice']>>().toEqualTypeOf<Call<'sandboxSimulateCardAuthorizationAdvice'>>();
    expectTypeOf<R<S['simulateCardCreditAuthorizationAdvice']>>().toEqualTypeOf<Call<'sandboxSimulateCardCreditAuthorizationAdvice'>>();
    expectTypeOf<R<S['simulateCardReturnReversal']>>().toEqualTypeOf<Call<'sandboxSimulateCardReturnReversal'>>();
  });

  it('contact verification and Strong Customer Authentication', () => {
    type C = Crossborder['customers'];
    expectTypeOf<R<C['verifyEmail']>>().toEqualTypeOf<Call<'sendCustomerEmailVerification'>>();
    expectTypeOf<R<C['confirmEmail']>>().toEqualTypeOf<Call<'confirmCustomerEmailVerification'>>();
    expectTypeOf<R<C['verifyPhone']>>().toEqualTypeOf<Call<'sendCustomerPhoneVerification'>>();
    expectTypeOf<R<C['confirmPhone']>>().toEqualTypeOf<Call<'confirmCustomerPhoneVerification'>>();
    type F = Crossborder['sca']['factors'];
    expectTypeOf<R<F['list']>>().toEqualTypeOf<Call<'listScaFactors'>>();
    expectTypeOf<R<F['enroll']>>().toEqualTypeOf<Call<'startScaFactorEnrollment'>>();
    expectTypeOf<R<F['confirm']>>().toEqualTypeOf<Call<'confirmScaFactorEnrollment'>>();
    expectTypeOf<R<F['delete']>>().toEqualTypeOf<Call<'deleteScaFactor'>>();
    type L = Crossborder['sca']['login'];
    expectTypeOf<R<L['start']>>().toEqualTypeOf<Call<'startScaLogin'>>();
    expectTypeOf<R<L['complete']>>().toEqualTypeOf<Call<'completeScaLogin'>>();
    expectTypeOf<R<Crossborder['sca']['events']['record']>>().toEqualTypeOf<Call<'recordSecurityEvent'>>();
    type X = Crossborder['sca']['resets'];
    expectTypeOf<R<X['start']>>().toEqualTypeOf<Call<'startTwoFactorReset'>>();
    expectTypeOf<R<X['retrieve']>>().toEqualTypeOf<Call<'getTwoFactorResetStatus'>>();
    expectTypeOf<R<X['complete']>>().toEqualTypeOf<Call<'completeTwoFactorReset'>>();
    type E = Crossborder['externalAccounts'];
    expectTypeOf<R<E['trust']>>().toEqualTypeOf<Call<'startBeneficiaryTrust'>>();
    expectTypeOf<R<E['confirmTrust']>>().toEqualTypeOf<Call<'confirmBeneficiaryTrust'>>();
    expectTypeOf<R<E['untrust']>>().toEqualTypeOf<Call<'startBeneficiaryUntrust'>>();
    expectTypeOf<R<E['confirmUntrust']>>().toEqualTypeOf<Call<'confirmBeneficiaryUntrust'>>();
    type Q = Crossborder['quotes'];
    expectTypeOf<R<Q['authorize']>>().toEqualTypeOf<Call<'authorizeQuote'>>();
    expectTypeOf<R<Q['resendAuthorization']>>().toEqualTypeOf<Call<'resendQuoteScaCode'>>();
    // The document's 204s: nothing to read.
    expectTypeOf<ResultOf<'sendCustomerEmailVerification'>>().toEqualTypeOf<void>();
    expectTypeOf<ResultOf<'sendCustomerPhoneVerification'>>().toEqualTypeOf<void>();
    expectTypeOf<ResultOf<'completeTwoFactorReset'>>().toEqualTypeOf<void>();
    expectTypeOf<ResultOf<'resendQuoteScaCode'>>().toEqualTypeOf<void>();
  });

  it("agents: the platform's management and the agent's own calls", () => {
    type A = Crossborder['agents'];
    expectTypeOf<R<A['create']>>().toEqualTypeOf<Call<'createAgent'>>();
    expectTypeOf<R<A['list']>>().toEqualTypeOf<List<'listAgents'>>();
    expectTypeOf<R<A['retrieve']>>().toEqualTypeOf<Call<'getAgentById'>>();
    expectTypeOf<R<A['update']>>().toEqualTypeOf<Call<'updateAgent'>>();
    expectTypeOf<R<A['delete']>>().toEqualTypeOf<Call<'deleteAgent'>>();
    expectTypeOf<R<A['updatePolicy']>>().toEqualTypeOf<Call<'updateAgentPolicy'>>();
    expectTypeOf<R<A['createDeviceCode']>>().toEqualTypeOf<Call<'regenerateAgentDeviceCode'>>();
    expectTypeOf<R<A['getDeviceCodeStatus']>>().toEqualTypeOf<Call<'getAgentDeviceCodeStatus'>>();
    expectTypeOf<R<A['redeemDeviceCode']>>().toEqualTypeOf<Call<'redeemAgentDeviceCode'>>();
    expectTypeOf<R<A['listApprovals']>>().toEqualTypeOf<List<'listAgentApprovals'>>();
    expectTypeOf<R<A['approveAction']>>().toEqualTypeOf<Call<'approveAgentAction'>>();
    expectTypeOf<R<A['rejectAction']>>().toEqualTypeOf<Call<'rejectAgentAction'>>();
    type M = Crossborder['agents']['me'];
    expectTypeOf<R<M['retrieve']>>().toEqualTypeOf<Call<'getAgentMe'>>();
    expectTypeOf<R<M['transferIn']>>().toEqualTypeOf<Call<'agentCreateTransferIn'>>();
    expectTypeOf<R<M['transferOut']>>().toEqualTypeOf<Call<'agentCreateTransferOut'>>();
    expectTypeOf<R<M['transactions']['list']>>().toEqualTypeOf<List<'agentListTransactions'>>();
    expectTypeOf<R<M['transactions']['retrieve']>>().toEqualTypeOf<Call<'agentGetTransaction'>>();
    expectTypeOf<R<M['quotes']['create']>>().toEqualTypeOf<Call<'agentCreateQuote'>>();
    expectTypeOf<R<M['quotes']['retrieve']>>().toEqualTypeOf<Call<'agentGetQuote'>>();
    expectTypeOf<R<M['quotes']['execute']>>().toEqualTypeOf<Call<'agentExecuteQuote'>>();
    expectTypeOf<R<M['actions']['list']>>().toEqualTypeOf<List<'agentListActions'>>();
    expectTypeOf<R<M['actions']['retrieve']>>().toEqualTypeOf<Call<'agentGetAction'>>();
    expectTypeOf<R<M['internalAccounts']['list']>>().toEqualTypeOf<List<'agentListInternalAccounts'>>();
    expectTypeOf<R<M['externalAccounts']['list']>>().toEqualTypeOf<List<'agentListExternalAccounts'>>();
    expectTypeOf<R<M['externalAccounts']['retrieve']>>().toEqualTypeOf<Call<'agentGetExternalAccount'>>();
    expectTypeOf<R<M['externalAccounts']['create']>>().toEqualTypeOf<Call<'agentCreateExternalAccount'>>();
    expectTypeOf<R<M['externalAccounts']['delete']>>().toEqualTypeOf<Call<'agentDeleteExternalAccount'>>();
    expectTypeOf<ResultOf<'deleteAgent'>>().toEqualTypeOf<void>();
    expectTypeOf<ResultOf<'agentDeleteExternalAccount'>>().toEqualTypeOf<void>();
    // A page's items are what the matching retrieve answers.
    expectTypeOf<ItemOf<'listAgents'>>().toEqualTypeOf<ResultOf<'getAgentById'>>();
    expectTypeOf<ItemOf<'agentListTransactions'>>().toEqualTypeOf<ResultOf<'agentGetTransaction'>>();
    expectTypeOf<ItemOf<'agentListActions'>>().toEqualTypeOf<ResultOf<'agentGetAction'>>();
    expectTypeOf<ItemOf<'agentListExternalAccounts'>>().toEqualTypeOf<ResultOf<'agentGetExternalAccount'>>();
    // The redeemed credential is the result of redeeming, and of nothing else the platform reads.
    expectTypeOf<ResultOf<'redeemAgentDeviceCode'>>().toHaveProperty('accessToken').toEqualTypeOf<string>();
    expectTypeOf<ResultOf<'getAgentDeviceCodeStatus'>>().not.toHaveProperty('accessToken');
    expectTypeOf<ResultOf<'getAgentById'>>().not.toHaveProperty('accessToken');
  });

  it("the results are the document's: a 204 is void, a 202 challenge is never a result", () => {
    expectTypeOf<ResultOf<'revokeSession'>>().toEqualTypeOf<void>();
    expectTypeOf<ResultOf<'verifyCredential'>>().not.toHaveProperty('payloadToSign');
    expectTypeOf<ResultOf<'createQuote'>>().toHaveProperty('expiresAt').toEqualTypeOf<string>();
    expectTypeOf<ItemOf<'listCustomers'>>().toEqualTypeOf<ResultOf<'getCustomer'>>();
  });
});
