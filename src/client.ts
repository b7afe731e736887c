/**
 * `Crossborder`: the client users construct. Every resource hangs off it; every call goes through
 * the one pipeline in `src/core/`.
 * @module
 */
import type { APIPromise } from './core/api-promise';
import { ClientInfo, CrossborderCore, type CallInput, type Operation } from './core/client';
import { openTelemetry, type WorkTelemetry } from './core/telemetry';
import { logging, requestChecks, responseChecks } from './core/parts';
import { requestHooks } from './core/hooks';
import { request } from './core/request';
import type { ClientOptions, SignedRequestOptions } from './core/options';
import { ExternalAccounts, InternalAccounts, Platform } from './resources/accounts';
import { Auth } from './resources/auth';
import { Customers } from './resources/customers';
import { Crypto, ExchangeRates } from './resources/exchange-rates';
import { Config } from './resources/config';
import { Invitations } from './resources/invitations';
import { Receiver } from './resources/receiver';
import { Sandbox } from './resources/sandbox';
import { UmaProviders } from './resources/uma-providers';
import { Verifications } from './resources/verifications';
import { BeneficialOwners } from './resources/beneficial-owners';
import { Tokens } from './resources/tokens';
import { Agents } from './resources/agents';
import { Cards } from './resources/cards';
import { Sca } from './resources/sca';
import { Documents } from './resources/documents';
import { Discoveries, Vasps } from './resources/directories';
import { Stablecoins, StablecoinProviderAccounts } from './resources/stablecoins';
import { Quotes, TransferIn, TransferOut } from './resources/quotes';
import { Transactions } from './resources/transactions';
import { Webhooks } from './resources/webhooks';

/**
 * Client of the Cross-Border Payments and Embedded Wallet Service.
 *
 * ```ts
 * const cb = new Crossborder({ tokenId, clientSecret, environment: 'sandbox' });
 * for await (const customer of cb.customers.list({ limit: 50 })) console.log(customer.id);
 * ```
 */
export class Crossborder extends ClientInfo {
  /** The pipeline: private, so the client's surface is its resources. */
  readonly #core: CrossborderCore;
  /** Customers (individual or business). */
  readonly customers: Customers;
  /** Internal accounts and embedded wallets. */
  readonly internalAccounts: InternalAccounts;
  /** External accounts of customers. */
  readonly externalAccounts: ExternalAccounts;
  /** Platform-level resources (`cb.platform.externalAccounts`). */
  readonly platform: Platform;
  /** Platform configuration. */
  readonly config: Config;
  /** FX quotes. */
  readonly quotes: Quotes;
  /** Transfers from an external into an internal account. */
  readonly transferIn: TransferIn;
  /** Transfers from an internal to an external account, same currency. */
  readonly transferOut: TransferOut;
  /** Exchange rates per corridor, before quoting. */
  readonly exchangeRates: ExchangeRates;
  /** Crypto withdrawal fee estimates. */
  readonly crypto: Crypto;
  /** Incoming and outgoing payments. */
  readonly transactions: Transactions;
  /** Receiver lookups (UMA address, external account). */
  readonly receiver: Receiver;
  /** UMA invitations. */
  readonly invitations: Invitations;
  /** KYC/KYB verifications. */
  readonly verifications: Verifications;
  /** Beneficial owners of business customers (KYB). */
  readonly beneficialOwners: BeneficialOwners;
  /** The platform's API tokens (a token's secret is in its create answer only). */
  readonly tokens: Tokens;
  /** Cards issued to customers, funded by their internal accounts (a card's number is shown by `reveal` only). */
  readonly cards: Cards;
  /** Strong Customer Authentication of EU customers: factors, logins, resets, security events. */
  readonly sca: Sca;
  /** Verification documents of customers and beneficial owners (multipart uploads). */
  readonly documents: Documents;
  /** Agents acting for a customer under a policy, and (`agents.me`, with an agent's credential) their own calls. */
  readonly agents: Agents;
  /** Receiving institutions of each corridor. */
  readonly discoveries: Discoveries;
  /** Virtual Asset Service Providers recognized for counterparty declarations. */
  readonly vasps: Vasps;
  /** Stablecoins the platform issues through a provider: register, mint, burn, and their operations. */
  readonly stablecoins: Stablecoins;
  /** The platform's linked accounts at stablecoin providers (their secrets are never answered). */
  readonly stablecoinProviderAccounts: StablecoinProviderAccounts;
  /** UMA providers. */
  readonly umaProviders: UmaProviders;
  /** Sandbox-only simulations. */
  readonly sandbox: Sandbox;
  /** Wallet credentials and sessions. */
  readonly auth: Auth;
  /** Webhook verification and typed events. */
  readonly webhooks: Webhooks;

  /** The client's OpenTelemetry recorder: what `crossborder-sdk/payouts` records a batch's spans with, under which its requests' spans go. */
  get telemetry(): WorkTelemetry {
    return this.#core.telemetry;
  }

  constructor(options: ClientOptions = {}) {
    // Every behaviour on: the optional parts of a core are all here.
    const core = new CrossborderCore(options, { telemetry: openTelemetry, requestChecks, responseChecks, logging, hooks: requestHooks });
    super(core); // the public fields, inspect and toJSON: the core's, written once in ClientInfo
    this.#core = core;
    this.customers = new Customers(core);
    this.internalAccounts = new InternalAccounts(core);
    this.externalAccounts = new ExternalAccounts(core);
    this.platform = new Platform(core);
    this.config = new Config(core);
    this.quotes = new Quotes(core);
    this.transferIn = new TransferIn(core);
    this.transferOut = new TransferOut(core);
    this.exchangeRates = new ExchangeRates(core);
    this.crypto = new Crypto(core);
    this.transactions = new Transactions(core);
    this.receiver = new Receiver(core);
    this.invitations = new Invitations(core);
    this.verifications = new Verifications(core);
    this.beneficialOwners = new BeneficialOwners(core);
    this.tokens = new Tokens(core);
    this.cards = new Cards(core);
    this.sca = new Sca(core);
    this.documents = new Documents(core);
    this.agents = new Agents(core);
    this.discoveries = new Discoveries(core);
    this.vasps = new Vasps(core);
    this.stablecoins = new Stablecoins(core);
    this.stablecoinProviderAccounts = new StablecoinProviderAccounts(core);
    this.umaProviders = new UmaProviders(core);
    this.sandbox = new Sandbox(core);
    this.auth = new Auth(core);
    this.webhooks = new Webhooks(core);
  }

  /**
   * Calls any operation of the API by method and path: the escape hatch for operations this SDK does
   * not wrap yet. Path parameters go in `input.path` (substituted into `{name}` placeholders), then
   * `query`, `body`; the call goes through the same pipeline (auth, retries, errors, signed retry).
   *
   * ```ts
   * const quote = await cb.request<Quote>('GET', '/quotes/{quoteId}', { path: { quoteId } });
   * ```
   */
  request<T = unknown>(method: Operation['method'], path: string, input: CallInput = {}, options: SignedRequestOptions = {}): APIPromise<T> {
    return request<T>(this.#core, method, path, input, options);
  }
}
