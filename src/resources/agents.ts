/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): every
 * method of the agent classes is one operation. `Agents` (`cb.agents`) is the management class with `me`, the
 * agent's own calls; `AgentMe` (`cb.agents.me`) is those calls with their nested classes. They only hold.
 * @module
 */
import { AgentActions, AgentExternalAccounts, AgentInternalAccounts, AgentManagement, AgentQuotes, AgentSelf, AgentTransactions } from '../generated/resources';

export { AgentActions, AgentExternalAccounts, AgentInternalAccounts, AgentManagement, AgentQuotes, AgentSelf, AgentTransactions };

/**
 * The calling agent's own calls (`/agents/me`), with its credential: a client made with
 * `new Crossborder({ agentToken })`. Its profile and transfers, and its transactions, quotes, actions and accounts.
 */
export class AgentMe extends AgentSelf {
  /** The transactions of the agent's customer. */
  readonly transactions: AgentTransactions = new AgentTransactions(this._client);
  /** The agent's quotes, executed under its policy. */
  readonly quotes: AgentQuotes = new AgentQuotes(this._client);
  /** What the agent submitted, and the platform's decisions. */
  readonly actions: AgentActions = new AgentActions(this._client);
  /** The internal accounts of the agent's customer. */
  readonly internalAccounts: AgentInternalAccounts = new AgentInternalAccounts(this._client);
  /** The external accounts of the agent's customer. */
  readonly externalAccounts: AgentExternalAccounts = new AgentExternalAccounts(this._client);
}

/**
 * The platform's agents: create, list, read, update, delete, their policies and device codes, and the
 * approval of what they submit beyond their policy ({@link AgentManagement}); `me` is the agent's own calls.
 */
export class Agents extends AgentManagement {
  /** The calling agent's own calls (`/agents/me`), made with a client holding the agent's credential. */
  readonly me: AgentMe = new AgentMe(this._client);
}
