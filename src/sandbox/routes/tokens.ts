/**
 * API tokens (production's `/tokens`): create (the secret answered once), list, read and delete; the
 * lifecycle and the credential check are in domain/tokens.ts.
 * @module
 */
import type { ApiTokenCreateParams } from '../../generated/types';
import type { Handler } from '../domain/context';
import { paginate, within } from '../domain/pagination';
import { createToken, deleteToken, findToken } from '../domain/tokens';
import { ok } from '../domain/reply';

const create: Handler = (ctx, call) => ok(createToken(ctx, call.body as ApiTokenCreateParams), 201);

const list: Handler = (ctx, call) => {
  const q = call.query as {
    name?: string;
    createdAfter?: string;
    createdBefore?: string;
    updatedAfter?: string;
    updatedBefore?: string;
    limit?: number;
    cursor?: string;
  };
  const matches = [...ctx.world.tokens.values()].filter(
    (t) =>
      !t.deleted &&
      (q.name === undefined || t.data.name === q.name) &&
      within(t.data.createdAt, q.createdAfter, q.createdBefore) &&
      within(t.data.updatedAt, q.updatedAfter, q.updatedBefore),
  );
  return ok(paginate(matches, q, (t) => t.data));
};

const retrieve: Handler = (ctx, call) => ok(findToken(ctx, call.params.tokenId!).data);

const remove: Handler = (ctx, call) => {
  deleteToken(ctx, call.params.tokenId!);
  return { status: 204 };
};

/** The API token routes. */
export const tokenRoutes = {
  createToken: create,
  listTokens: list,
  getTokenById: retrieve,
  deleteTokenById: remove,
} satisfies Record<string, Handler>;
