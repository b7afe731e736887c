/**
 * Public names of the API's shapes, taken from the generated component types so that they are the
 * document's, plus the query types of list and lookup methods (date filters accept `Date` too).
 * @module
 */
import type { ValidationIssue } from './core/errors';
import type { components, OperationQueries } from './generated/types';

type Schemas = components['schemas'];
type DateFilter = 'createdAfter' | 'createdBefore' | 'updatedAfter' | 'updatedBefore' | 'startDate' | 'endDate';
/** The query of an operation, with date-time filters accepting a `Date` as well as an ISO string. */
type QueryOf<Id extends keyof OperationQueries> = {
  [K in keyof OperationQueries[Id]]: K extends DateFilter ? OperationQueries[Id][K] | Date : OperationQueries[Id][K];
};

/** Machine-readable error code; 404 codes name the missing resource. @useDeclaredType */
export type ErrorCode = Schemas['ErrorCode'];
/** Body of every non-2xx answer of the service. @interface */
export type ErrorBody = Schemas['Error'];
/** A fiat (ISO 4217) or crypto (ticker) currency. @interface */
export type Currency = Schemas['Currency'];
/** An amount in the smallest unit of its currency. @interface */
export type CurrencyAmount = Schemas['CurrencyAmount'];
/** Postal address. @interface */
export type Address = Schemas['Address'];

/** An {@link IndividualCustomer} or a {@link BusinessCustomer}, told apart by `customerType`. @useDeclaredType */
export type Customer = Schemas['Customer'];
/** A customer that is a natural person. @interface */
export type IndividualCustomer = Schemas['IndividualCustomer'];
/** A customer that is a business (KYB applies). @interface */
export type BusinessCustomer = Schemas['BusinessCustomer'];
/** Legal details of a business customer. @interface */
export type BusinessInfo = Schemas['BusinessInfo'];
/** Body of `POST /customers`, by `customerType`. @useDeclaredType */
export type CustomerCreateParams = Schemas['CustomerCreateParams'];
/** Fields to change; omitted fields stay as they are. `region` cannot be changed. @interface */
export type CustomerUpdateParams = Schemas['CustomerUpdateParams'];
/** Query of `cb.customers.list()`: filters, `limit` and `cursor`. Date filters take a `Date` or an ISO string. @interface */
export type CustomerListParams = QueryOf<'listCustomers'>;

/** A balance held by the service for a customer or, when `customerId` is empty, for the platform. @interface */
export type InternalAccount = Schemas['InternalAccount'];
/** Query of `cb.internalAccounts.list()`: `customerId`, `currency`, `limit`, `cursor`. @interface */
export type InternalAccountListParams = QueryOf<'listInternalAccounts'>;
/** Body of the signed wallet privacy update. @interface */
export type InternalAccountUpdateParams = Schemas['InternalAccountUpdateParams'];
/** Body of the signed wallet export; send the same body on the signed retry. @interface */
export type InternalAccountExportParams = Schemas['InternalAccountExportParams'];
/** Result of a wallet export. @interface */
export type WalletExport = Schemas['WalletExport'];

/** A payment destination outside the service, owned by a customer or (with `customerId` null) the platform. @interface */
export type ExternalAccount = Schemas['ExternalAccount'];
/** Account details, by `accountType`. @useDeclaredType */
export type ExternalAccountInfo = Schemas['ExternalAccountInfo'];
/** Body to register an external account for a customer (or the platform when `customerId` is omitted). @interface */
export type ExternalAccountCreateParams = Schemas['ExternalAccountCreateParams'];
/** Query of `cb.externalAccounts.list()`: `customerId`, `currency`, `limit`, `cursor`. @interface */
export type ExternalAccountListParams = QueryOf<'listExternalAccounts'>;
/** Body to register an external account of the platform. @interface */
export type PlatformExternalAccountCreateParams = Schemas['PlatformExternalAccountCreateParams'];
/** Query of `cb.platform.externalAccounts.list()`. @interface */
export type PlatformExternalAccountListParams = QueryOf<'listPlatformExternalAccounts'>;

/** Configuration of the platform (the API client). @interface */
export type PlatformConfig = Schemas['PlatformConfig'];
/** Fields to change; omitted fields stay as they are. @interface */
export type PlatformConfigUpdateParams = Schemas['PlatformConfigUpdateParams'];

/** A priced offer to move funds; valid until `expiresAt` (typically 1 to 5 minutes). @interface */
export type Quote = Schemas['Quote'];
/** PENDING, then PROCESSING on execute, then COMPLETED or FAILED; PENDING becomes EXPIRED at `expiresAt`. @useDeclaredType */
export type QuoteStatus = Schemas['QuoteStatus'];
/** Body of `POST /quotes`. @interface */
export type QuoteCreateParams = Schemas['QuoteCreateParams'];
/** Body of `POST /transfer-in`. @interface */
export type TransferInCreateParams = Schemas['TransferInCreateParams'];

/** An {@link IncomingTransaction} or an {@link OutgoingTransaction}, told apart by `type`. @useDeclaredType */
export type Transaction = Schemas['Transaction'];
/** A payment received by a customer or the platform (UMA payment, transfer-in, sandbox simulation). @interface */
export type IncomingTransaction = Schemas['IncomingTransaction'];
/** A payment sent by a customer or the platform, created from a quote. @interface */
export type OutgoingTransaction = Schemas['OutgoingTransaction'];
/** CREATED (lookup made), PENDING (quote made), PROCESSING (funded and initiated), COMPLETED, REJECTED (refused by the receiver and refunded), FAILED, REFUNDED, EXPIRED (quote expired unexecuted). @useDeclaredType */
export type TransactionStatus = Schemas['TransactionStatus'];
/** Why a transaction failed. @useDeclaredType */
export type FailureReason = Schemas['FailureReason'];
/** Query of `cb.transactions.list()`: filters, `sortOrder`, `limit` and `cursor`. Date filters take a `Date` or an ISO string. @interface */
export type TransactionListParams = QueryOf<'listTransactions'>;
/** Optional body of the reject call. @interface */
export type TransactionRejectParams = Schemas['TransactionRejectParams'];
/** Optional body of the approve call. @interface */
export type TransactionApproveParams = Schemas['TransactionApproveParams'];

/** What a receiver accepts; its `lookupId` is passed to `POST /quotes`. @interface */
export type ReceiverLookup = Schemas['ReceiverLookup'];
/** Query of `cb.receiver.lookupUma()`. @interface */
export type ReceiverLookupParams = QueryOf<'lookupUmaReceiver'>;
/** Query of `cb.receiver.lookupExternalAccount()`. @interface */
export type ExternalAccountLookupParams = QueryOf<'lookupExternalAccountReceiver'>;

/** An UMA invitation; `amountToSend` is for display, the inviter platform sends the payment itself once claimed. @interface */
export type Invitation = Schemas['Invitation'];
/** Body of `POST /invitations`. @interface */
export type InvitationCreateParams = Schemas['InvitationCreateParams'];
/** A KYC/KYB verification of a customer. @interface */
export type Verification = Schemas['Verification'];
/** Query of `cb.verifications.list()`. @interface */
export type VerificationListParams = QueryOf<'listVerifications'>;
/** An UMA provider and what it supports. @interface */
export type UmaProvider = Schemas['UmaProvider'];
/** Query of `cb.umaProviders.list()`. @interface */
export type UmaProviderListParams = QueryOf<'listUmaProviders'>;

/** Body of the simulated incoming UMA payment; give `receiverUmaAddress` or `customerId`. @interface */
export type SandboxUmaReceiveParams = Schemas['SandboxUmaReceiveParams'];
/** Body of the sandbox funding call. @interface */
export type SandboxFundParams = Schemas['SandboxFundParams'];

/** A wallet credential (AuthMethod); verifying it issues a session. @interface */
export type Credential = Schemas['Credential'];
/** How a wallet user authenticates: `PASSKEY`, `OAUTH` or `EMAIL_OTP`. @useDeclaredType */
export type CredentialType = Schemas['CredentialType'];
/** Body of `POST /auth/credentials`, by `type`. @useDeclaredType */
export type CredentialCreateParams = Schemas['CredentialCreateParams'];
/** Query of `cb.auth.credentials.list()`: the wallet `accountId`. @interface */
export type CredentialListParams = QueryOf<'listCredentials'>;
/** PASSKEY challenge body; EMAIL_OTP sends no body. @interface */
export type CredentialChallengeParams = Schemas['CredentialChallengeParams'];
/** PASSKEY `/challenge` answer - the credential plus the WebAuthn challenge and the `requestId` for `/verify`. @interface */
export type PasskeyChallenge = Schemas['PasskeyChallenge'];
/** Body of `/verify`, by `type`. @useDeclaredType */
export type CredentialVerifyParams = Schemas['CredentialVerifyParams'];
/** A new wallet session; decrypt `encryptedSessionSigningKey` with the private key matching `clientPublicKey`. @interface */
export type WalletSessionInfo = Schemas['WalletSession'];
/** An active wallet session. @interface */
export type Session = Schemas['Session'];
/** Query of `cb.auth.sessions.list()`: the wallet `accountId`. @interface */
export type SessionListParams = QueryOf<'listSessions'>;
/** 202 answer of a wallet action that needs a session signature. Sign `payloadToSign` exactly as received and repeat the identical request with `Service-Wallet-Signature` and `Request-Id` before `expiresAt`. @interface */
export type SignatureChallengeBody = Schemas['SignatureChallenge'];

/** Body of every webhook delivery, by `type`. Delivered at least once and retried with backoff until a 2xx; deduplicate by `id` and verify `X-Service-Signature` over the raw body first. @useDeclaredType */
export type WebhookEvent = Schemas['WebhookEvent'] & {
  /** What in this verified delivery differs from the document (absent when it matches): never a reason to refuse it. */
  issues?: ValidationIssue[] | undefined;
};

/** A list the service does not paginate: `{ data }`. */
export interface DataList<T> {
  data: T[];
}
