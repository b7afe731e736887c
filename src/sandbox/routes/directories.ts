/**
 * Production's directories: the receiving institutions of a corridor (`GET /discoveries`, not paginated) and
 * the VASPs (`GET /vasps`, paginated); the tables are in domain/directories.ts.
 * @module
 */
import type { Handler } from '../domain/context';
import { discoveries, VASPS } from '../domain/directories';
import { paginate } from '../domain/pagination';
import { ok } from '../domain/reply';

const getDiscoveries: Handler = (_ctx, call) => {
  const q = call.query as { country?: string; currency?: string };
  return ok({ data: discoveries(q.country, q.currency) });
};

const listVasps: Handler = (_ctx, call) => ok(paginate(VASPS, call.query as { limit?: number; cursor?: string }, (v) => ({ ...v.data }), 'asc'));

/** The directory routes. */
export const directoryRoutes = {
  getDiscoveries,
  listVasps,
} satisfies Record<string, Handler>;
