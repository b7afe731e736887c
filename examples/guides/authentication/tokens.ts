import type { Crossborder } from 'crossborder-sdk';
import { AuthenticationError } from 'crossborder-sdk';

/** Where the new credentials go: a secret manager, never a log. */
export type StoreCredentials = (clientId: string, clientSecret: string) => Promise<void>;

/**
 * Issues a read-only API token for a reporting job. Its secret is in this answer only: the service keeps
 * no copy, so it is stored before anything else happens.
 */
export async function issueReportingToken(cb: Crossborder, store: StoreCredentials): Promise<string> {
  const token = await cb.tokens.create({ name: 'Reporting (read only)', permissions: ['VIEW'] });
  await store(token.clientId, token.clientSecret!);
  return token.id;
}

/** Deletes a token, then checks that its credentials are refused (401, an `AuthenticationError`). */
export async function revokeToken(cb: Crossborder, tokenId: string, revoked: Crossborder): Promise<'refused' | 'still accepted'> {
  await cb.tokens.delete(tokenId);
  try {
    await revoked.tokens.list({ limit: 1 });
    return 'still accepted';
  } catch (err) {
    if (err instanceof AuthenticationError) return 'refused';
    throw err;
  }
}
