// @ts-nocheck
import { Crossborder } from 'crossborder-sdk';

/** Production, with CROSSBORDER_TOKEN_ID and CROSSBORDER_CLIENT_SECRET from the environment. */
export function productionClient(): Crossborder {
  return new Crossborder();
}

/** The sandbox: sandbox credentials, the sandbox address, and `cb.sandbox.*` allowed. */
export function sandboxClient(): Crossborder {
  return new Crossborder({ environment: 'sandbox' });
}

/** Everything explicit (e.g. from a secrets manager), here aimed at a local sandbox server. */
export function explicitClient(secrets: { tokenId: string; clientSecret: string }): Crossborder {
  return new Crossborder({
    tokenId: secrets.tokenId,
    clientSecret: secrets.clientSecret,
    environment: 'sandbox',
    baseUrl: 'http://127.0.0.1:4010/', // the SDK adds the version segment: http://127.0.0.1:4010/2025-10-13
    timeout: 30_000, // per attempt, in ms (default 60 000)
    maxRetries: 3, // after the first attempt (default 2)
  });
}
