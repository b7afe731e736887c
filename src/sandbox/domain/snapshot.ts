/**
 * Reads of the world as the API renders it, always deep copies: the whole state (for tests), an
 * account's balance, and one resource by its id (what `POST /_sandbox/webhooks/trigger` sends).
 * @module
 */
import type {
  Agent,
  AgentAction,
  ApiToken,
  Card,
  CardTransaction,
  Document,
  BulkCustomerImportJob,
  BeneficialOwner,
  Credential,
  Customer,
  DelegatedKey,
  ExternalAccount,
  InternalAccount,
  Invitation,
  PlatformConfig,
  Quote,
  Session,
  Transaction,
  Verification,
} from '../../generated/types';
import { iso } from './clock';
import { walletId } from './finders';
import type { SessionRec, World } from './state';

/** Everything the sandbox holds, as the API would render it (deep copies). */
export interface SandboxSnapshot {
  config: PlatformConfig;
  customers: Customer[];
  /** The customers' internal accounts. */
  internalAccounts: InternalAccount[];
  /** The platform's own internal accounts (one per currency). */
  platformInternalAccounts: InternalAccount[];
  externalAccounts: ExternalAccount[];
  quotes: Quote[];
  transactions: Transaction[];
  invitations: Invitation[];
  verifications: Verification[];
  beneficialOwners: BeneficialOwner[];
  credentials: Credential[];
  sessions: (Session & { revoked: boolean })[];
  /** CSV customer imports (production's bulk jobs). */
  bulkImports: BulkCustomerImportJob[];
  /** Delegated signing keys, in every status. */
  delegatedKeys: DelegatedKey[];
  /** The platform's API tokens not deleted, as reads answer them (no secret). */
  tokens: ApiToken[];
  /** Cards, in every state. */
  cards: Card[];
  /** Card transactions (production's `type: CARD` transactions), sent by webhook only. */
  cardTransactions: CardTransaction[];
  /** Verification documents not deleted, each with what was received of its file (size, content type, SHA-256). */
  documents: Array<Document & { file: { size: number; contentType: string; sha256: string } }>;
  /** Agents not deleted, as reads answer them (never their credential). */
  agents: Agent[];
  /** Agents' actions as stored (reads add their quote and transaction as they are now). */
  agentActions: AgentAction[];
}

/** Read-only view of the sandbox's state, for tests. Every read is a fresh deep copy. */
export interface SandboxState {
  /** The whole state; compare two snapshots to prove a request changed nothing. */
  snapshot(): SandboxSnapshot;
  /** The balance of an internal account (`InternalAccount:` or `EmbeddedWallet:` id), or undefined. */
  balance(accountId: string): number | undefined;
}

/** A session as the API renders it (`GET /auth/sessions`). */
export function sessionData(s: SessionRec): Session {
  return { id: s.id, accountId: walletId(s.walletSuffix), type: s.type, createdAt: iso(s.createdMs), expiresAt: iso(s.expiresMs) };
}

/** The state view over whatever world `world()` returns now (a reset replaces it). */
export function stateView(world: () => World): SandboxState {
  return {
    snapshot() {
      const w = world();
      const data = <T>(records: Iterable<{ data: T }>) => [...records].map((r) => r.data);
      return structuredClone({
        config: w.config,
        customers: data(w.customers.values()),
        internalAccounts: data([...w.internalAccounts.values()].filter((a) => a.data.customerId)),
        platformInternalAccounts: data([...w.internalAccounts.values()].filter((a) => !a.data.customerId)),
        externalAccounts: data(w.externalAccounts.values()),
        quotes: data(w.quotes.values()),
        transactions: data(w.transactions.values()),
        invitations: data(w.invitations.values()),
        verifications: data(w.verifications.values()),
        beneficialOwners: data(w.beneficialOwners.values()),
        credentials: data(w.credentials.values()),
        sessions: [...w.sessions.values()].map((s) => ({ ...sessionData(s), revoked: s.revoked })),
        bulkImports: data(w.bulkImports.values()),
        delegatedKeys: data(w.delegatedKeys.values()),
        tokens: data([...w.tokens.values()].filter((t) => !t.deleted)),
        cards: data(w.cards.values()),
        cardTransactions: data(w.cardTransactions.values()),
        agents: data([...w.agents.values()].filter((a) => !a.deleted)),
        agentActions: data(w.agentActions.values()),
        documents: [...w.documents.values()].filter((d) => !d.deleted).map((d) => ({ ...d.data, file: { ...d.file } })),
      });
    },
    balance(accountId) {
      const suffix = accountId.slice(accountId.indexOf(':') + 1);
      return world().internalAccounts.get(`InternalAccount:${suffix}`)?.data.balance.amount;
    },
  };
}

/** A resource of the world by its id (an invitation by its code), as the API renders it; undefined when there is none. */
export function resourceData(w: World, id: string): unknown {
  for (const map of [w.transactions, w.customers, w.verifications, w.beneficialOwners, w.quotes, w.externalAccounts, w.internalAccounts, w.bulkImports] as Map<
    string,
    { data: unknown }
  >[]) {
    const rec = map.get(id);
    if (rec) return structuredClone(rec.data);
  }
  for (const inv of w.invitations.values()) if ((inv as { data: { code: string } }).data.code === id) return structuredClone((inv as { data: unknown }).data);
  return undefined;
}
