/**
 * The sandbox's in-memory world. Records keep the API object (`data`, answered as is) next to the
 * bookkeeping the API never shows (ordering keys, magic outcomes, key material).
 * @module
 */
import type {
  Agent,
  AgentAction,
  AgentDeviceCode,
  Card,
  CardTransaction,
  ApiToken,
  BulkCustomerImportJob,
  BeneficialOwner,
  Credential,
  CredentialType,
  DelegatedKey,
  Document,
  Customer,
  ExternalAccount,
  IncomingTransaction,
  Invitation,
  InternalAccount,
  OutgoingTransaction,
  PayerDataField,
  PlatformConfig,
  Quote,
  Stablecoin,
  StablecoinOperation,
  StablecoinProviderAccount,
  Verification,
} from '../../generated/types';
import type { Answer } from './reply';
import type { FailureReason } from './magic';
import type { Ordered } from './pagination';

/** A stored API object with its ordering keys. */
export interface Rec<T> extends Ordered {
  data: T;
}

/** A document as the world keeps it: the answer's fields and what was received of its file. */
export interface DocumentRec extends Rec<Document> {
  /** The file's size in bytes, its content type as stored, and its SHA-256 (hex). */
  file: { size: number; contentType: string; sha256: string };
  /** The id sequence when its file was last uploaded or replaced: a verification made after it (a higher `seq`) was submitted with it. */
  uploadSeq: number;
  /** Set when the document was deleted: reads answer 404. */
  deleted?: boolean;
}

/** An API token as the world keeps it: the answer's fields (never the secret) and the secret's SHA-256, hex. */
export interface TokenRec extends Rec<ApiToken> {
  secretSha256: string;
  /** Set when the token was deleted: reads answer 404 and its credentials are refused. */
  deleted?: boolean;
}

/** A stablecoin provider account link: the answer's fields and the API client id (never the secret). */
export interface StablecoinProviderAccountRec extends Rec<StablecoinProviderAccount> {
  apiClientId: string;
}

/**
 * A stablecoin mint or burn. `dueMs` is when a PROCESSING operation settles or a PENDING_FUNDING one
 * expires; `debited` is the fiat a mint took from an internal account (smallest unit of its currency).
 */
export interface StablecoinOperationRec extends Rec<StablecoinOperation> {
  dueMs?: number;
  debited?: { accountId: string; amount: number };
}

/** An internal account; `suffix` is shared with its `EmbeddedWallet:` id. */
export interface InternalAccountRec extends Rec<InternalAccount> {
  suffix: string;
  currency: string;
}

/** An external account; `identifier` is what the magic values (`MAGIC.failures`, …) are compared with. */
export interface ExternalAccountRec extends Rec<ExternalAccount> {
  identifier: string | undefined;
}

/** Where a quote's money goes, resolved when it was made. */
export type QuoteTarget =
  { kind: 'internal'; accountId: string } | { kind: 'external'; accountId: string } | { kind: 'uma'; umaAddress: string; localAccountId: string | undefined };

/** A quote and what executing it will do. */
export interface QuoteRec extends Rec<Quote> {
  expiresMs: number;
  /** Internal account debited on execute (absent for an external, direct-pull source). */
  debitAccountId: string | undefined;
  target: QuoteTarget;
  /** Magic outcome of the payment: fail with this reason, stay processing, or complete. */
  outcome: FailureReason | 'STUCK' | 'COMPLETE';
}

/** A transaction; `debited`/`credit` say which balances it moved, so failures can undo exactly that. */
export interface TransactionRec extends Rec<IncomingTransaction | OutgoingTransaction> {
  quoteId?: string | undefined;
  /** Internal account and amount debited when the payment started. */
  debited?: { accountId: string; amount: number } | undefined;
  /** Internal account and amount to credit when it completes. */
  credit?: { accountId: string; amount: number } | undefined;
  /** Each status the transaction had, with when (the sandbox inspector's timeline). */
  timeline?: { status: string; at: string }[] | undefined;
  /** Approval flow state of an incoming payment held for approval. */
  approval?: 'AWAITING_WEBHOOK' | 'DEFERRED' | 'MANUAL' | undefined;
  // --- Money operations of production (transfer-out, cancel, sandbox send) ---
  /** A transfer-out's magic outcome (a quote's payment keeps it on the quote): fail with this reason, stay processing, or complete. */
  outcome?: FailureReason | 'STUCK' | 'COMPLETE' | undefined;
}

/** A receiver lookup, kept for the quotes that cite it. */
export interface LookupRec {
  id: string;
  createdMs: number;
  receiverUmaAddress?: string | undefined;
  accountId?: string | undefined;
  currencies: string[];
  requiredPayerDataFields: PayerDataField[];
}

/** A KYC/KYB verification of a customer: made with it, and by each `POST /verifications`. */
export type VerificationRec = Rec<Verification>;

/** A wallet credential. */
export interface CredentialRec extends Rec<Credential> {
  walletSuffix: string;
  /** When the last EMAIL_OTP `/challenge` sent a code (the 30 s rate limit). */
  lastOtpChallengeMs?: number | undefined;
  /** `iss`/`sub` of the OAUTH token registered, which later tokens must match. */
  oauthSubject?: string | undefined;
  /** EMAIL_OTP / SMS_OTP: the target of the last `otpEncryptionTargetBundle` issued, until a code sealed to it is used. */
  otpTarget?: { privateKey: Uint8Array; issuedMs: number } | undefined;
}

/** A wallet session; only the public half of its key is kept. */
export interface SessionRec extends Ordered {
  id: string;
  walletSuffix: string;
  credentialId: string;
  type: CredentialType;
  /** Compressed P-256 public key, lower-case hex: the `publicKey` of the stamps it signs. */
  publicKey: string;
  expiresMs: number;
  revoked: boolean;
}

/** A 202 challenge of the signed-retry pattern, waiting for its signed repeat. */
export interface SignedChallengeRec {
  requestId: string;
  payloadToSign: string;
  expiresMs: number;
  walletSuffix: string;
  /** The request that got the challenge: the repeat must be identical. */
  method: string;
  path: string;
  body: string;
  used: boolean;
  /** Secure OTP login: the key the repeat must be signed with (bound into the verification token), instead of a session's. */
  boundPublicKey?: string | undefined;
  /** A flow of several signed legs (a delegated key): what the route keeps from this leg to the next. */
  carry?: Record<string, string> | undefined;
  /** The one session that may sign the repeat (a refresh's own session; a flow's first signer). */
  sessionId?: string | undefined;
}

// --- Delegated signing keys (production's `/auth/delegated-keys`) ---------------------------------
/**
 * A delegated key: the API object, and the wallet it signs for. Only the public half of the key is
 * kept (the service custodies the private half; the sandbox has nothing to sign with it).
 */
export interface DelegatedKeyRec extends Rec<DelegatedKey> {
  walletSuffix: string;
}
// -----------------------------------------------------------------------------------------------

/** A PASSKEY `/challenge`, waiting for `/verify`. */
export interface PasskeyChallengeRec {
  requestId: string;
  credentialId: string;
  clientPublicKey: string;
  challenge: string;
  expiresMs: number;
  used: boolean;
}

// --- Ownership verification of self-custody wallets (production's external-account /challenge and /verify) ---
/**
 * The ownership challenge in flight for one external account (a new challenge replaces it; `/verify` or
 * the LIVENESS outcome consumes it). Keyed by the external account's id.
 */
export interface OwnershipChallengeRec {
  accountId: string;
  /** `WALLET_SIGNATURE` or `LIVENESS`. */
  method: string;
  /** The challenge's own nonce: a later challenge has another, so a stale outcome is told apart. */
  nonce: string;
  /** WALLET_SIGNATURE: the exact message the wallet must sign. */
  messageToSign?: string | undefined;
  /** LIVENESS: the hosted flow's address. */
  verificationLink?: string | undefined;
  issuedMs: number;
  expiresMs: number;
}

/** How long an `Idempotency-Key` answer is replayed (the service's window: 24 hours of the sandbox clock). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60_000;

/**
 * A remembered answer to an `Idempotency-Key`: the request's fingerprint (SHA-256 of method, path, body), when it
 * was first seen, and its answer (a promise while the first request runs; the settled answer after, which
 * a state export keeps, so a sandbox restarted with `--state` replays it for the rest of the window).
 */
export interface IdempotencyRec {
  fingerprint: string;
  storedMs: number;
  response: Answer | Promise<Answer>;
}

/** True while a key stored at `storedMs` is still replayed at `atMs`. */
export function withinIdempotencyWindow(storedMs: number, atMs: number): boolean {
  return atMs - storedMs < IDEMPOTENCY_WINDOW_MS;
}

/** A card as the world keeps it (domain/cards.ts). */
export type CardRec = Rec<Card>;

/** An agent as the world keeps it (domain/agents.ts): the SHA-256 of its credential, never the credential. */
export interface AgentRec extends Rec<Agent> {
  /** SHA-256 (hex) of the `accessToken` its device code's redemption answered; absent until then. */
  tokenSha256?: string | undefined;
  /** The quotes it created (`/agents/me/quotes`): the only ones it reads and executes. */
  quoteIds: string[];
  /** Set when the agent was deleted: reads answer 404 and its credential is refused. */
  deleted?: boolean;
}

/** A device code as the world keeps it, by code. */
export interface DeviceCodeRec extends Rec<AgentDeviceCode> {
  /** Sandbox time (ms) from which it cannot be redeemed. */
  expiresMs: number;
  /** Set when a newer code was issued for its agent. */
  invalidated?: boolean;
}

/** An agent's action as the world keeps it: what it runs, and the usage it counted. */
export interface AgentActionRec extends Rec<AgentAction> {
  /** What runs when it is approved: a transfer's body, or the quote to execute. */
  request: { body?: unknown; quoteId?: string };
  /** The amount it counted against the agent's limits, in their currency. */
  spend: number;
  /** The transaction its run made. */
  transactionId?: string | undefined;
}

/** A card transaction as the world keeps it (domain/cards.ts). */
export interface CardTransactionRec extends Rec<CardTransaction> {
  /** Sandbox time (ms) at which a delayed pull (descriptor suffix `005`) is confirmed. */
  pullConfirmMs?: number;
}

/**
 * The Strong Customer Authentication of one customer (domain/sca.ts): its enrolled factors, the enrollments,
 * login and trust it waits the proof of, its session, lockout, 2FA resets and trusted beneficiaries. Never a
 * secret: a started TOTP enrollment is kept as its secret's SHA-256.
 */
export interface ScaRec {
  customerId: string;
  /** Enrolled TOTP and PASSKEY factors (SMS_OTP needs no enrollment). */
  factors: { factor: string; credentialId?: string; name?: string }[];
  /** SHA-256 (hex) of the secrets of TOTP enrollments started and not confirmed (the last five). */
  pendingTotp: string[];
  pendingPasskey: boolean;
  /** The contact channels (`email`, `phone`) a verification code was sent to and not confirmed. */
  contactCodes: string[];
  /** The login started and not completed. */
  login?: { factor: string; challengeId?: string; expiresMs: number };
  /** Sandbox time at which the SCA login session ends. */
  sessionExpiresMs?: number;
  failedAttempts: number;
  lockedUntilMs?: number;
  suspended: boolean;
  resets: { resetId: string; factor: string; startedMs: number; expiresMs: number; completedMs?: number }[];
  /** Trusted beneficiaries (external account ids). */
  trusted: string[];
  /** The trust or untrust started and not confirmed. */
  trustChallenge?: { accountId: string; action: 'trust' | 'untrust'; challengeId: string; expiresMs: number };
}

/** A CSV customer import: the job as answered, and the rows it has not processed yet. */
export interface BulkImportRec extends Rec<BulkCustomerImportJob> {
  /** Rows still to process, in file order: each row's cells by column name and its `correlationId`. */
  rows: { correlationId: string; cells: Record<string, string> }[];
  /** Why the whole file cannot be imported (a required column missing): every row fails with it. */
  fileProblem?: { column: string; message: string } | undefined;
}

/** Everything the sandbox knows. */
export interface World {
  config: PlatformConfig;
  customers: Map<string, Rec<Customer>>;
  internalAccounts: Map<string, InternalAccountRec>;
  externalAccounts: Map<string, ExternalAccountRec>;
  quotes: Map<string, QuoteRec>;
  transactions: Map<string, TransactionRec>;
  lookups: Map<string, LookupRec>;
  /** By invitation code. */
  invitations: Map<string, Rec<Invitation>>;
  verifications: Map<string, VerificationRec>;
  // KYC/KYB (production's operations): the people of business customers, by id.
  /** Beneficial owners, directors, officers and control persons of business customers. */
  beneficialOwners: Map<string, Rec<BeneficialOwner>>;
  credentials: Map<string, CredentialRec>;
  sessions: Map<string, SessionRec>;
  signedChallenges: Map<string, SignedChallengeRec>;
  passkeyChallenges: Map<string, PasskeyChallengeRec>;
  idempotency: Map<string, IdempotencyRec>;
  // Production's operations on customers: CSV imports, by job id.
  bulkImports: Map<string, BulkImportRec>;
  /** Ownership challenges in flight, by external account id. */
  ownershipChallenges: Map<string, OwnershipChallengeRec>;
  // Delegated signing keys (production's `/auth/delegated-keys`), by id.
  delegatedKeys: Map<string, DelegatedKeyRec>;
  /** The platform's API tokens (production's `/tokens`), by id; deleted ones stay, marked, so their credentials are refused. */
  tokens: Map<string, TokenRec>;
  /** Stablecoin provider account links (production's `/stablecoin-provider-accounts`), by id. */
  stablecoinProviderAccounts: Map<string, StablecoinProviderAccountRec>;
  /** Registered stablecoins (production's `/stablecoins`), by id. */
  stablecoins: Map<string, Rec<Stablecoin>>;
  /** Stablecoin mints and burns, by id. */
  stablecoinOperations: Map<string, StablecoinOperationRec>;
  /** Cards (production's `/cards`), by id; a closed card stays, CLOSED. */
  cards: Map<string, CardRec>;
  /** Card transactions made by the card simulations (production's `type: CARD` transactions), by id. */
  cardTransactions: Map<string, CardTransactionRec>;
  /** Agents (production's `/agents`), by id; a deleted one stays, marked. */
  agents: Map<string, AgentRec>;
  /** Agents' device codes, by code. */
  agentDeviceCodes: Map<string, DeviceCodeRec>;
  /** Agents' actions (production's `AgentAction`), by id. */
  agentActions: Map<string, AgentActionRec>;
  /** Verification documents (production's `/documents`), by id; deleted ones stay, marked. */
  documents: Map<string, DocumentRec>;
  /** Strong Customer Authentication of EEA customers (production's `/sca/…`), by customer id. */
  sca: Map<string, ScaRec>;
}

/** An empty world around `config`. */
export function createWorld(config: PlatformConfig): World {
  return {
    config,
    customers: new Map(),
    internalAccounts: new Map(),
    externalAccounts: new Map(),
    quotes: new Map(),
    transactions: new Map(),
    lookups: new Map(),
    invitations: new Map(),
    verifications: new Map(),
    beneficialOwners: new Map(),
    credentials: new Map(),
    sessions: new Map(),
    signedChallenges: new Map(),
    passkeyChallenges: new Map(),
    idempotency: new Map(),
    bulkImports: new Map(),
    ownershipChallenges: new Map(),
    // Delegated signing keys.
    delegatedKeys: new Map(),
    tokens: new Map(),
    stablecoinProviderAccounts: new Map(),
    stablecoins: new Map(),
    stablecoinOperations: new Map(),
    cards: new Map(),
    cardTransactions: new Map(),
    agents: new Map(),
    agentDeviceCodes: new Map(),
    agentActions: new Map(),
    documents: new Map(),
    sca: new Map(),
  };
}

/** The part after `Prefix:` of an id. */
export function idSuffix(id: string): string {
  return id.slice(id.indexOf(':') + 1);
}
