/**
 * `crossborder-sdk/sandbox`: a stateful local emulator of the whole service, for tests and demos
 * with no credentials and no network.
 *
 * ```ts
 * import { Crossborder } from 'crossborder-sdk';
 * import { createSandbox } from 'crossborder-sdk/sandbox';
 *
 * const sandbox = createSandbox();
 * const cb = new Crossborder({ tokenId: 'any', clientSecret: 'any', environment: 'sandbox', fetch: sandbox.fetch });
 * ```
 *
 * Three ways in, one handler: `sandbox.fetch` (in-process, no sockets), `await sandbox.listen()`
 * (HTTP on 127.0.0.1), and msw handlers from `crossborder-sdk/sandbox/msw` (the only entry that
 * needs msw). Failure scenarios on demand: see {@link MAGIC}.
 * @module crossborder-sdk/sandbox
 */
// @ts-nocheck

import { createSandboxCore, type SandboxCore, type SandboxOptions } from './sandbox';

/** A local sandbox of the service. */
export type Sandbox = SandboxCore;

/**
 * Creates a sandbox with empty state (same `seed`, same ids). Any HTTP Basic credentials are
 * accepted; a missing or malformed Authorization header is 401 UNAUTHORIZED.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return createSandboxCore(options);
}

export { createClock, type Clock } from './clock';
export { MAGIC, type FailureReason } from './magic';
export { API_VERSION } from './core';
export type { SandboxEnvironment } from './context';
export type { RequestLogEntry, SandboxCore, SandboxOptions, SandboxServer, SandboxSnapshot, SandboxState } from './sandbox';
export type { CorsOptions } from './control';
export { STATE_FORMAT, type SandboxStateDocument } from './persist';
export type { Delivery, DeliveryAttempt, DeliveryLogEntry, WebhookDeliveryOptions } from './webhooks';
export { signWebhook, generateWebhookKeyPair, type SignWebhookOptions, type WebhookKeyPair } from '../webhooks/sign';
