/**
 * Stablecoin issuance (production's `/stablecoins`, `/stablecoin-operations`, `/stablecoin-provider-accounts`):
 * provider account links, registered stablecoins, mints and burns; the lifecycle and the money are in
 * domain/stablecoins.ts. Production requires an `Idempotency-Key` on the four creates, and so does the sandbox: the
 * document marks it required there, and the serving pipeline refuses a request without one (the SDK sends one on
 * every call).
 * @module
 */
import type { StablecoinBurnParams, StablecoinMintParams, StablecoinProviderAccountLinkParams, StablecoinRegisterParams } from '../../generated/types';
import type { Handler } from '../domain/context';
import { paginate, type PageParams } from '../domain/pagination';
import { ok } from '../domain/reply';
import {
  burnStablecoin,
  findProviderAccount,
  findStablecoin,
  findStablecoinOperation,
  linkProviderAccount,
  mintStablecoin,
  registerStablecoin,
} from '../domain/stablecoins';

const link: Handler = (ctx, call) => ok(linkProviderAccount(ctx, call.body as StablecoinProviderAccountLinkParams), 201);

const listLinks: Handler = (ctx, call) => {
  const q = call.query as PageParams & { provider?: string; status?: string };
  const matches = [...ctx.world.stablecoinProviderAccounts.values()].filter(
    (r) => (q.provider === undefined || r.data.provider === q.provider) && (q.status === undefined || r.data.status === q.status),
  );
  return ok(paginate(matches, q, (r) => r.data));
};

const retrieveLink: Handler = (ctx, call) => ok(findProviderAccount(ctx, call.params.stablecoinProviderAccountId!).data);

const register: Handler = (ctx, call) => ok(registerStablecoin(ctx, call.body as StablecoinRegisterParams), 201);

const list: Handler = (ctx, call) => {
  const q = call.query as PageParams & { issuanceStatus?: string; gridOperationsStatus?: string; provider?: string };
  const matches = [...ctx.world.stablecoins.values()].filter(
    (r) =>
      (q.issuanceStatus === undefined || r.data.issuanceStatus === q.issuanceStatus) &&
      (q.gridOperationsStatus === undefined || r.data.gridOperationsStatus === q.gridOperationsStatus) &&
      (q.provider === undefined || r.data.provider === q.provider),
  );
  return ok(paginate(matches, q, (r) => r.data));
};

const retrieve: Handler = (ctx, call) => ok(findStablecoin(ctx, call.params.stablecoinId!).data);

const mint: Handler = (ctx, call) => ok(mintStablecoin(ctx, call.params.stablecoinId!, call.body as StablecoinMintParams), 201);

const burn: Handler = (ctx, call) => ok(burnStablecoin(ctx, call.params.stablecoinId!, call.body as StablecoinBurnParams), 201);

const listOperations: Handler = (ctx, call) => {
  const coin = findStablecoin(ctx, call.params.stablecoinId!).data;
  const q = call.query as PageParams & { operationType?: string };
  const matches = [...ctx.world.stablecoinOperations.values()].filter(
    (r) => r.data.stablecoinId === coin.id && (q.operationType === undefined || r.data.operationType === q.operationType),
  );
  return ok(paginate(matches, q, (r) => r.data));
};

const retrieveOperation: Handler = (ctx, call) => ok(findStablecoinOperation(ctx, call.params.stablecoinOperationId!).data);

/** The stablecoin routes. */
export const stablecoinRoutes = {
  linkStablecoinProviderAccount: link,
  listStablecoinProviderAccounts: listLinks,
  getStablecoinProviderAccount: retrieveLink,
  registerStablecoin: register,
  listStablecoins: list,
  getStablecoin: retrieve,
  createStablecoinMint: mint,
  createStablecoinBurn: burn,
  listStablecoinOperations: listOperations,
  getStablecoinOperation: retrieveOperation,
} satisfies Record<string, Handler>;
