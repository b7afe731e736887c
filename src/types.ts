/**
 * Public names of the API's shapes, taken from the generated component types so that they are the
 * document's, plus the query types of list and lookup methods (date filters accept `Date` too).
 * @module
 */
import type { components, operations } from './generated/types';

type Schemas = components['schemas'];
type DateFilter = 'createdAfter' | 'createdBefore' | 'updatedAfter' | 'updatedBefore' | 'startDate' | 'endDate';
/** The query of an operation, with date-time filters accepting a `Date` as well as an ISO string. */
type QueryOf<Id extends keyof operations> = {
  [K in keyof NonNullable<operations[Id]['parameters']['query']>]: K extends DateFilter
    ? NonNullable<operations[Id]['parameters']['query']>[K] | Date
    : NonNullable<operations[Id]['parameters']['query']>[K];
};

export type ErrorCode = Schemas['ErrorCode'];
export type ErrorBody = Schemas['Error'];
export type Currency = Schemas['Currency'];
export type CurrencyAmount = Schemas['CurrencyAmount'];
export type Address = Schemas['Address'];

export type Customer = Schemas['Customer'];
export type IndividualCustomer = Schemas['IndividualCustomer'];
export type BusinessCustomer = Schemas['BusinessCustomer'];
export type BusinessInfo = Schemas['BusinessInfo'];
export type CustomerCreateParams = Schemas['CustomerCreateParams'];
export type CustomerUpdateParams = Schemas['CustomerUpdateParams'];
export type CustomerListParams = QueryOf<'listCustomers'>;

export type InternalAccount = Schemas['InternalAccount'];
export type InternalAccountListParams = QueryOf<'listInternalAccounts'>;
export type InternalAccountUpdateParams = Schemas['InternalAccountUpdateParams'];
export type InternalAccountExportParams = Schemas['InternalAccountExportParams'];
export type WalletExport = Schemas['WalletExport'];

export type ExternalAccount = Schemas['ExternalAccount'];
export type ExternalAccountInfo = Schemas['ExternalAccountInfo'];
export type ExternalAccountCreateParams = Schemas['ExternalAccountCreateParams'];
export type ExternalAccountListParams = QueryOf<'listExternalAccounts'>;
export type PlatformExternalAccountCreateParams = Schemas['PlatformExternalAccountCreateParams'];
export type PlatformExternalAccountListParams = QueryOf<'listPlatformExternalAccounts'>;

export type PlatformConfig = Schemas['PlatformConfig'];
export type PlatformConfigUpdateParams = Schemas['PlatformConfigUpdateParams'];

export type Quote = Schemas['Quote'];
export type QuoteStatus = Schemas['QuoteStatus'];
export type QuoteCreateParams = Schemas['QuoteCreateParams'];
export type TransferInCreateParams = Schemas['TransferInCreateParams'];

export type Transaction = Schemas['Transaction'];
export type IncomingTransaction = Schemas['IncomingTransaction'];
export type OutgoingTransaction = Schemas['OutgoingTransaction'];
export type TransactionStatus = Schemas['TransactionStatus'];
export type FailureReason = Schemas['FailureReason'];
export type TransactionListParams = QueryOf<'listTransactions'>;
export type TransactionRejectParams = Schemas['TransactionRejectParams'];
export type TransactionApproveParams = Schemas['TransactionApproveParams'];

export type ReceiverLookup = Schemas['ReceiverLookup'];
export type ReceiverLookupParams = QueryOf<'lookupUmaReceiver'>;
export type ExternalAccountLookupParams = QueryOf<'lookupExternalAccountReceiver'>;

export type Invitation = Schemas['Invitation'];
export type InvitationCreateParams = Schemas['InvitationCreateParams'];
export type Verification = Schemas['Verification'];
export type VerificationListParams = QueryOf<'listVerifications'>;
export type UmaProvider = Schemas['UmaProvider'];
export type UmaProviderListParams = QueryOf<'listUmaProviders'>;

export type SandboxUmaReceiveParams = Schemas['SandboxUmaReceiveParams'];
export type SandboxFundParams = Schemas['SandboxFundParams'];

export type Credential = Schemas['Credential'];
export type CredentialType = Schemas['CredentialType'];
export type CredentialCreateParams = Schemas['CredentialCreateParams'];
export type CredentialListParams = QueryOf<'listCredentials'>;
export type CredentialChallengeParams = Schemas['CredentialChallengeParams'];
export type PasskeyChallenge = Schemas['PasskeyChallenge'];
export type CredentialVerifyParams = Schemas['CredentialVerifyParams'];
export type WalletSessionInfo = Schemas['WalletSession'];
export type Session = Schemas['Session'];
export type SessionListParams = QueryOf<'listSessions'>;
export type SignatureChallengeBody = Schemas['SignatureChallenge'];

export type WebhookEvent = Schemas['WebhookEvent'];

/** A list the service does not paginate: `{ data }`. */
export interface DataList<T> {
  data: T[];
}
