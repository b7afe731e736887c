/**
 * Public names of the API's shapes, taken from the generated component types so that they are the
 * document's, plus the query types of list and lookup methods (date filters accept `Date` too).
 * @module
 */
import type { ValidationIssue } from './core/errors';
import type { QueryOf } from './core/plan';
import type { WebhookEvent as DocumentWebhookEvent } from './generated/named';

/**
 * Every shape of the document by its own name (`Customer`, `Address`, `QuoteCreateParams`,
 * `IncomingPaymentPendingEvent`, …), generated from `openapi/openapi.yaml` with its description:
 * hovers and type errors show these names.
 */
export type * from './generated/named';

/** Query of `cb.customers.list()`: filters, `limit` and `cursor`. Date filters take a `Date` or an ISO string. @interface */
export type CustomerListParams = QueryOf<'listCustomers'>;
/** Query of `cb.internalAccounts.list()`: `customerId`, `currency`, `limit`, `cursor`. @interface */
export type InternalAccountListParams = QueryOf<'listInternalAccounts'>;
/** Query of `cb.externalAccounts.list()`: `customerId`, `currency`, `limit`, `cursor`. @interface */
export type ExternalAccountListParams = QueryOf<'listExternalAccounts'>;
/** Query of `cb.platform.externalAccounts.list()`. @interface */
export type PlatformExternalAccountListParams = QueryOf<'listPlatformExternalAccounts'>;
/** Query of `cb.transactions.list()`: filters, `sortOrder`, `limit` and `cursor`. Date filters take a `Date` or an ISO string. @interface */
export type TransactionListParams = QueryOf<'listTransactions'>;
/** Query of `cb.receiver.lookupUma()`. @interface */
export type ReceiverLookupParams = QueryOf<'lookupUmaReceiver'>;
/** Query of `cb.receiver.lookupExternalAccount()`. @interface */
export type ExternalAccountLookupParams = QueryOf<'lookupExternalAccountReceiver'>;
/** Query of `cb.verifications.list()`. @interface */
export type VerificationListParams = QueryOf<'listVerifications'>;
/** Query of `cb.beneficialOwners.list()`: the business `customerId` (required), `limit`, `cursor`. @interface */
export type BeneficialOwnerListParams = QueryOf<'listBeneficialOwners'>;
/** Query of `cb.tokens.list()`: `name`, creation and update times (`Date` or ISO string), `limit`, `cursor`. @interface */
export type TokenListParams = QueryOf<'listTokens'>;
/** Query of `cb.cards.list()`: `cardholderId`, `accountId`, `platformCardId`, `state`, `sortOrder`, `limit`, `cursor`. @interface */
export type CardListParams = QueryOf<'listCards'>;
/** Query of `cb.discoveries.list()`: the corridor's `country` and `currency`, each optional. @interface */
export type DiscoveryListParams = QueryOf<'getDiscoveries'>;
/** Query of `cb.vasps.list()`: `limit`, `cursor`. @interface */
export type VaspListParams = QueryOf<'listVasps'>;
/** Query of `cb.stablecoins.list()`: `issuanceStatus`, `gridOperationsStatus`, `provider`, `limit`, `cursor`. @interface */
export type StablecoinListParams = QueryOf<'listStablecoins'>;
/** Query of `cb.stablecoins.listOperations()`: `operationType` (`MINT` or `BURN`), `limit`, `cursor`. @interface */
export type StablecoinOperationListParams = QueryOf<'listStablecoinOperations'>;
/** Query of `cb.stablecoinProviderAccounts.list()`: `provider`, `status`, `limit`, `cursor`. @interface */
export type StablecoinProviderAccountListParams = QueryOf<'listStablecoinProviderAccounts'>;
/** Query of `cb.documents.list()`: the `documentHolder` (a customer or beneficial owner id), `limit`, `cursor`. @interface */
export type DocumentListParams = QueryOf<'listDocuments'>;
/** Query of `cb.umaProviders.list()`. @interface */
export type UmaProviderListParams = QueryOf<'listUmaProviders'>;
/** Query of `cb.auth.credentials.list()`: the wallet `accountId`. @interface */
export type CredentialListParams = QueryOf<'listCredentials'>;
/** Query of `cb.auth.sessions.list()`: the wallet `accountId`. @interface */
export type SessionListParams = QueryOf<'listSessions'>;
/** Query of `cb.auth.delegatedKeys.list()`: the wallet `accountId`, the card `fundingSourceId`, or both. @interface */
export type DelegatedKeyListParams = QueryOf<'listDelegatedKeys'>;

/** Query of `cb.agents.list()`: `customerId`, `isPaused`, `isConnected`, creation and update times (`Date` or ISO string), `limit`, `cursor`. @interface */
export type AgentListParams = QueryOf<'listAgents'>;
/** Query of `cb.agents.listApprovals()`: `agentId`, `customerId`, `startDate`, `endDate`, `sortOrder`, `limit`, `cursor`. @interface */
export type AgentApprovalListParams = QueryOf<'listAgentApprovals'>;
/** Query of `cb.agents.me.transactions.list()`: the filters of `cb.transactions.list()` but the customer's. @interface */
export type AgentTransactionListParams = QueryOf<'agentListTransactions'>;
/** Query of `cb.agents.me.actions.list()`: `status`, `limit`, `cursor`. @interface */
export type AgentActionListParams = QueryOf<'agentListActions'>;
/** Query of `cb.agents.me.internalAccounts.list()`: `currency`, `type`, `limit`, `cursor`. @interface */
export type AgentInternalAccountListParams = QueryOf<'agentListInternalAccounts'>;
/** Query of `cb.agents.me.externalAccounts.list()`: `currency`, `limit`, `cursor`. @interface */
export type AgentExternalAccountListParams = QueryOf<'agentListExternalAccounts'>;

/** Query of `cb.platform.internalAccounts.list()`: `currency`, `type`. @interface */
export type PlatformInternalAccountListParams = QueryOf<'listPlatformInternalAccounts'>;
/** Query of `cb.exchangeRates.list()`: `sourceCurrency`, `destinationCurrency` (one or more), `sendingAmount`. @interface */
export type ExchangeRateListParams = QueryOf<'getExchangeRates'>;

/** Body of every webhook delivery, by `type`. Delivered at least once and retried with backoff until a 2xx; deduplicate by `id` and verify `X-Service-Signature` over the raw body first. @useDeclaredType */
export type WebhookEvent = DocumentWebhookEvent & {
  /** What in this verified delivery differs from the document (absent when it matches): never a reason to refuse it. */
  issues?: ValidationIssue[] | undefined;
};

/** A list the service does not paginate: `{ data }`. */
export interface DataList<T> {
  data: T[];
}
