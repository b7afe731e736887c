/**
 * `Crossborder`: the client users construct. Every resource hangs off it; every call goes through
 * the one pipeline in `src/core/`.
 * @module
 */
// @ts-nocheck

import type { APIPromise } from './core/api-promise';
import { CoreClient, type CallInput, type Operation } from './core/client';
import type { ClientOptions, Environment, SignedRequestOptions } from './core/options';
import { ExternalAccounts, InternalAccounts, Platform } from './resources/accounts';
import { Auth } from './resources/auth';
import { Customers } from './resources/customers';
import { Config, Invitations, Receiver, Sandbox, UmaProviders, Verifications } from './resources/misc';
import { Quotes, TransferIn } from './resources/quotes';
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
export class Crossborder {
  /** `sandbox`, `production`, or `unknown` (a `baseUrl` given without an environment: the service decides). */
  readonly environment: Environment | 'unknown';
  /** Base address including the version segment `/2025-10-13`. */
  readonly baseUrl: string;
  /** Retries after the first attempt, for failures that are safe to repeat. */
  readonly maxRetries: number;
  /** Per-attempt timeout in ms. */
  readonly timeout: number;
  /** The service's webhook public key (PEM or hex), if configured. */
  readonly webhookPublicKey: string | undefined;
  /** The pipeline: private, so the client's surface is its resources. */
  readonly #core: CoreClient;
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
  /** Incoming and outgoing payments. */
  readonly transactions: Transactions;
  /** Receiver lookups (UMA address, external account). */
  readonly receiver: Receiver;
  /** UMA invitations. */
  readonly invitations: Invitations;
  /** KYC/KYB verifications. */
  readonly verifications: Verifications;
  /** UMA providers. */
  readonly umaProviders: UmaProviders;
  /** Sandbox-only simulations. */
  readonly sandbox: Sandbox;
  /** Wallet credentials and sessions. */
  readonly auth: Auth;
  /** Webhook verification and typed events. */
  readonly webhooks: Webhooks;

  constructor(options: ClientOptions = {}) {
    const core = new CoreClient(options);
    this.#core = core;
    this.environment = core.environment;
    this.baseUrl = core.baseUrl;
    this.maxRetries = core.maxRetries;
    this.timeout = core.timeout;
    this.webhookPublicKey = core.webhookPublicKey;
    this.customers = new Customers(core);
    this.internalAccounts = new InternalAccounts(core);
    this.externalAccounts = new ExternalAccounts(core);
    this.platform = new Platform(core);
    this.config = new Config(core);
    this.quotes = new Quotes(core);
    this.transferIn = new TransferIn(core);
    this.transactions = new Transactions(core);
    this.receiver = new Receiver(core);
    this.invitations = new Invitations(core);
    this.verifications = new Verifications(core);
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
    return this.#core.request<T>(method, path, input, options);
  }
}

// Not on the type (so not in autocompletion), but there for `util.inspect` and `JSON.stringify`:
// short, and never the credentials.
Object.defineProperties(Crossborder.prototype, {
  [Symbol.for('nodejs.util.inspect.custom')]: {
    value(this: Crossborder) {
      return `Crossborder { environment: '${this.environment}', baseUrl: '${this.baseUrl}' }`;
    },
  },
  toJSON: {
    value(this: Crossborder) {
      return { environment: this.environment, baseUrl: this.baseUrl, maxRetries: this.maxRetries, timeout: this.timeout };
    },
  },
});
