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
 * Three ways in, one handler: `sandbox.fetch` (in-process, no sockets), `sandbox.handlers` (msw),
 * and `await sandbox.listen()` (HTTP on 127.0.0.1). Failure scenarios on demand: see {@link MAGIC}.
 * @module crossborder-sdk/sandbox
 */
import type { HttpHandler } from 'msw';
import { mswHandlers } from './msw';
import { createSandboxCore, type SandboxCore, type SandboxOptions } from './sandbox';

/** A local sandbox of the service. */
export interface Sandbox extends SandboxCore {
  /** msw request handlers answering `<any origin>/2025-10-13/*` with this sandbox. */
  handlers: HttpHandler[];
}

/**
 * Creates a sandbox with empty state (same `seed`, same ids). Any HTTP Basic credentials are
 * accepted; a missing or malformed Authorization header is 401 UNAUTHORIZED.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const core = createSandboxCore(options);
  return { ...core, handlers: mswHandlers(core.handle) };
}

export { createClock, type Clock } from './clock';
export { MAGIC, type FailureReason } from './magic';
export { API_VERSION } from './core';
export type { SandboxEnvironment } from './context';
export type { SandboxCore, SandboxOptions, SandboxServer, SandboxSnapshot, SandboxState } from './sandbox';
export type { Delivery, DeliveryAttempt, WebhookDeliveryOptions } from './webhooks';
export { signWebhook, generateWebhookKeyPair, type WebhookKeyPair } from '../webhooks/sign';
