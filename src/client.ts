/**
 * `Crossborder`: the client users construct. Every resource hangs off it; every call goes through
 * the one pipeline in `src/core/`.
 * @module
 */
import { CoreClient } from './core/client';
import type { ClientOptions } from './core/options';
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
export class Crossborder extends CoreClient {
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
    super(options);
    this.customers = new Customers(this);
    this.internalAccounts = new InternalAccounts(this);
    this.externalAccounts = new ExternalAccounts(this);
    this.platform = new Platform(this);
    this.config = new Config(this);
    this.quotes = new Quotes(this);
    this.transferIn = new TransferIn(this);
    this.transactions = new Transactions(this);
    this.receiver = new Receiver(this);
    this.invitations = new Invitations(this);
    this.verifications = new Verifications(this);
    this.umaProviders = new UmaProviders(this);
    this.sandbox = new Sandbox(this);
    this.auth = new Auth(this);
    this.webhooks = new Webhooks(this);
  }
}
