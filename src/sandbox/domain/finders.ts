/**
 * Look-ups that answer the API's 404s. Records of a soft-deleted customer (its accounts, its
 * wallets) are gone as far as the API is concerned.
 *
 * Wallet ids: every internal account is also an embedded wallet. `InternalAccount:<x>` and
 * `EmbeddedWallet:<x>` name the same account (same `<x>`); wallet endpoints answer the
 * `EmbeddedWallet:` form, internal-account endpoints accept either.
 * @module
 */
import type { Customer } from '../../generated/types';
import type { Ctx } from './context';
import { notFound } from './errors';
import { idSuffix, type ExternalAccountRec, type InternalAccountRec, type Rec } from './state';

/** `InternalAccount:<x>` of an account suffix. */
export const internalAccountId = (suffix: string): string => `InternalAccount:${suffix}`;
/** `EmbeddedWallet:<x>` of an account suffix. */
export const walletId = (suffix: string): string => `EmbeddedWallet:${suffix}`;

/** A live (not deleted) customer, or 404 CUSTOMER_NOT_FOUND. */
export function findCustomer(ctx: Ctx, id: string): Rec<Customer> {
  const rec = ctx.world.customers.get(id);
  if (!rec || rec.data.isDeleted) throw notFound('CUSTOMER_NOT_FOUND', 'Customer', id);
  return rec;
}

/** True when the owner of an account (if any) is a live customer. */
function ownerAlive(ctx: Ctx, customerId: string | null | undefined): boolean {
  if (!customerId) return true;
  const owner = ctx.world.customers.get(customerId);
  return owner !== undefined && !owner.data.isDeleted;
}

/** An internal account by `InternalAccount:` or `EmbeddedWallet:` id, or 404 ACCOUNT_NOT_FOUND. */
export function findInternalAccount(ctx: Ctx, id: string): InternalAccountRec {
  const isAccountId = id.startsWith('InternalAccount:') || id.startsWith('EmbeddedWallet:');
  const rec = isAccountId ? ctx.world.internalAccounts.get(internalAccountId(idSuffix(id))) : undefined;
  if (!rec || !ownerAlive(ctx, rec.data.customerId)) throw notFound('ACCOUNT_NOT_FOUND', 'Account', id);
  return rec;
}

/** An external account, or 404 EXTERNAL_ACCOUNT_NOT_FOUND. */
export function findExternalAccount(ctx: Ctx, id: string): ExternalAccountRec {
  const rec = ctx.world.externalAccounts.get(id);
  if (!rec || !ownerAlive(ctx, rec.data.customerId)) throw notFound('EXTERNAL_ACCOUNT_NOT_FOUND', 'External account', id);
  return rec;
}

/** Internal accounts of live customers, for listings (the platform's own are listed apart: `/platform/internal-accounts`). */
export function liveInternalAccounts(ctx: Ctx): InternalAccountRec[] {
  return [...ctx.world.internalAccounts.values()].filter((a) => !!a.data.customerId && ownerAlive(ctx, a.data.customerId));
}

/** The platform's own internal accounts (no customer), seeded one per currency. */
export function platformInternalAccounts(ctx: Ctx): InternalAccountRec[] {
  return [...ctx.world.internalAccounts.values()].filter((a) => !a.data.customerId);
}

/** External accounts of live owners, for listings. */
export function liveExternalAccounts(ctx: Ctx): ExternalAccountRec[] {
  return [...ctx.world.externalAccounts.values()].filter((a) => ownerAlive(ctx, a.data.customerId));
}
