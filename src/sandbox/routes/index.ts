/**
 * Every operation's handler, keyed by operationId. `satisfies RouteTable` makes the compiler
 * refuse a table that misses an operation of the document.
 * @module
 */
import type { RouteTable } from '../domain/context';
import { accountRoutes } from './accounts';
import { customerRoutes } from './customers';
import { invitationRoutes } from './invitations';
import { kycRoutes } from './kyc';
import { platformRoutes } from './platform';
import { quoteRoutes } from './quotes';
import { transactionRoutes } from './transactions';
import { walletRoutes } from './wallet';
import { tokenRoutes } from './tokens';
import { documentRoutes } from './documents';
import { directoryRoutes } from './directories';
import { stablecoinRoutes } from './stablecoins';
import { cardRoutes } from './cards';
import { scaRoutes } from './sca';
import { agentRoutes } from './agents';

/** The sandbox's route table. */
export const routes = {
  ...customerRoutes,
  ...accountRoutes,
  ...quoteRoutes,
  ...transactionRoutes,
  ...platformRoutes,
  ...invitationRoutes,
  ...walletRoutes,
  ...kycRoutes,
  ...tokenRoutes,
  ...documentRoutes,
  ...directoryRoutes,
  ...stablecoinRoutes,
  ...cardRoutes,
  ...scaRoutes,
  ...agentRoutes,
} satisfies RouteTable;
