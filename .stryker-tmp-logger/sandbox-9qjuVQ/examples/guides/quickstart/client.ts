// @ts-nocheck
import { Crossborder } from 'crossborder-sdk';
import { createSandbox } from 'crossborder-sdk/sandbox';

// The whole service, in-process: no credentials, no network, fresh state.
export const sandbox = createSandbox();

// Against the real service: new Crossborder() with CROSSBORDER_TOKEN_ID and CROSSBORDER_CLIENT_SECRET set.
export const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', environment: 'sandbox', fetch: sandbox.fetch });
