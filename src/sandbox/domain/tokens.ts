/**
 * The platform's API tokens (production's `/tokens`): each is a `clientId` and `clientSecret` pair with its
 * permissions. The secret is made once, answered once and never kept: the world holds only its SHA-256, so a
 * state export (`GET /_sandbox/state`, `--state`) carries no usable credential.
 *
 * The sandbox takes any HTTP Basic credentials (`routes/core.ts`), with two exceptions that make a token real:
 * a token's `clientId` with another secret than its own is refused 401, and so is a deleted token's.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { ApiToken, ApiTokenCreateParams } from '../../generated/types';
import { now, nowIso, type Ctx } from './context';
import { SandboxError, invalidInput, notFound } from './errors';
import type { TokenRec, World } from './state';

export type { TokenRec } from './state';

/** The permissions production's document lists (`Permission`); the sandbox grants no other. */
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 of a secret, hex. */
export function secretDigest(secret: string): string {
  return hex(sha256(new TextEncoder().encode(secret)));
}

/** Creates a token; the answer (and only it) carries `clientSecret`. */
export function createToken(ctx: Ctx, body: ApiTokenCreateParams): ApiToken {
  if (body.name.trim() === '') throw invalidInput('name', 'name must not be empty: it tells the token apart.');
  if (body.permissions.length === 0) throw invalidInput('permissions', `permissions must name at least one of ${PERMISSIONS.join(', ')}.`);
  body.permissions.forEach((p, i) => {
    if (!(PERMISSIONS as readonly string[]).includes(p)) throw invalidInput(`permissions[${i}]`, `${p} is not a permission; use ${PERMISSIONS.join(', ')}.`);
  });
  const { id, seq } = ctx.ids.next('Token');
  const at = nowIso(ctx);
  // Production's clientId is 32 hex digits and its secret 36.
  const clientId = ctx.random.hex(32);
  const clientSecret = ctx.random.hex(36);
  const data: ApiToken = { id, name: body.name, permissions: [...new Set(body.permissions)], clientId, createdAt: at, updatedAt: at };
  ctx.world.tokens.set(id, { seq, createdMs: now(ctx), data, secretSha256: secretDigest(clientSecret) });
  return { ...data, clientSecret };
}

/** A live token by id, or 404 `TOKEN_NOT_FOUND`. */
export function findToken(ctx: Ctx, id: string): TokenRec {
  const rec = ctx.world.tokens.get(id);
  if (!rec || rec.deleted) throw notFound('TOKEN_NOT_FOUND', 'API token', id);
  return rec;
}

/** Deletes a token: later reads are 404 and its credentials are refused. */
export function deleteToken(ctx: Ctx, id: string): void {
  const rec = findToken(ctx, id);
  rec.deleted = true;
  rec.data = { ...rec.data, updatedAt: nowIso(ctx) };
}

/**
 * The refusal of HTTP Basic credentials that name a token of this world with the wrong secret, or a deleted
 * token; undefined for every other pair (the sandbox takes any credentials it did not issue). The message
 * names the token's id, never the secret sent.
 */
export function tokenCredentialRefusal(world: World, clientId: string, secret: string): SandboxError | undefined {
  for (const rec of world.tokens.values()) {
    if (rec.data.clientId !== clientId) continue;
    const why = rec.deleted
      ? `API token ${rec.data.id} was deleted`
      : rec.secretSha256 !== secretDigest(secret)
        ? `the secret is not the one of API token ${rec.data.id}`
        : undefined;
    return why === undefined
      ? undefined
      : new SandboxError(401, 'UNAUTHORIZED', `The API credentials were refused: ${why}.`, undefined, {
          'WWW-Authenticate': 'Basic realm="crossborder-sandbox"',
        });
  }
  return undefined;
}
