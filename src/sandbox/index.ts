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
import { createSandboxCore, type SandboxCore, type SandboxOptions } from './sandbox';
import type { PersistableSandbox, PersistStateOptions, StatePersister } from './serve/state-file';

/** A local sandbox of the service. */
export type Sandbox = SandboxCore;

/**
 * Creates a sandbox with empty state (same `seed`, same ids). Any HTTP Basic credentials are
 * accepted except the magic token ids (`MAGIC.unauthorizedTokenId`: 401 UNAUTHORIZED,
 * `MAGIC.forbiddenTokenId`: 403 FORBIDDEN); a missing or malformed Authorization header is 401 UNAUTHORIZED.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return createSandboxCore(options);
}

/**
 * Keeps the sandbox's state in `file` as it changes: written atomically (temporary file, fsync,
 * rename) `delayMs` (default 200) after a change, and at once by `flush()`/`close()` — call `close()`
 * on shutdown. A process killed without warning loses at most the last `delayMs`. Node only: loads
 * node:fs lazily, so importing `crossborder-sdk/sandbox` in a browser bundle stays free of node:*.
 *
 * ```ts
 * const sandbox = createSandbox();
 * if (existsSync(file)) sandbox.importState(readFileSync(file, 'utf8'));
 * const persister = await persistStateTo(sandbox, file);
 * process.once('SIGTERM', () => { persister.close(); process.exit(0); });
 * ```
 */
export async function persistStateTo(sandbox: PersistableSandbox, file: string, options: PersistStateOptions = {}): Promise<StatePersister> {
  const { createStatePersister } = await import('./serve/state-file');
  return createStatePersister(sandbox, file, options);
}

export type { PersistableSandbox, PersistStateOptions, StatePersister } from './serve/state-file';
export { generateControlToken, CONTROL_TOKEN_HEADER } from './serve/exposure';
export { createClock, type Clock } from './domain/clock';
export { MAGIC, type FailureReason } from './domain/magic';
export { API_VERSION } from './serve/api-pipeline';
export type { SandboxEnvironment } from './domain/context';
export { describeFaults, faultsProblem } from './domain/faults';
export type { LedgerExecution, RequestLogEntry, SandboxCore, SandboxFaults, SandboxOptions, SandboxServer, SandboxSnapshot, SandboxState } from './sandbox';
export type { CorsOptions } from './serve/cors';
export { STATE_FORMAT, type SandboxStateDocument } from './domain/state-document';
export type { Delivery, DeliveryAttempt, DeliveryLogEntry, WebhookDeliveryOptions } from './domain/webhooks';
export { signWebhook, generateWebhookKeyPair, type SignWebhookOptions, type WebhookKeyPair } from '../webhooks/sign';
