/**
 * What route handlers work with: the world, the clock, id factories, the scheduler and webhooks.
 * @module
 */
import type { OperationId } from '../../generated/operations';
import { iso, type Clock } from './clock';
import type { Reply } from './reply';
import type { IdFactory, Random } from './random';
import type { Scheduler } from './scheduler';
import type { World } from './state';
import type { WebhookDispatcher } from './webhooks';

/** `sandbox` answers everything; `production` refuses the sandbox-only endpoints with 403 SANDBOX_ONLY. */
export type SandboxEnvironment = 'sandbox' | 'production';

/** The sandbox's moving parts, shared by every handler. `world`, `ids` and `random` are replaced by `reset()`. */
export interface Ctx {
  readonly environment: SandboxEnvironment;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly webhooks: WebhookDispatcher;
  readonly seed: number;
  world: World;
  ids: IdFactory;
  random: Random;
}

/** A validated request, as handlers see it. */
export interface Call {
  method: string;
  /** Path after the version segment, e.g. `/customers/Customer:…` (as sent, not decoded). */
  path: string;
  /** Decoded path parameters, validated. */
  params: Record<string, string>;
  /** Query after coercion and validation (defaults applied). */
  query: Record<string, unknown>;
  /** Body after validation (unknown keys dropped, defaults applied); undefined when none was sent. */
  body: unknown;
  /** The body as parsed JSON, before validation (to spot fields the schema does not allow, like `region`). */
  json: unknown;
  /** The body text as received: the signed retry must repeat it byte for byte. */
  rawBody: string;
  /** A multipart body's file parts, by field, byte for byte as received. */
  files?: Record<string, UploadedFile>;
  header(name: string): string | undefined;
}

/** A file part of a multipart body: its file name, content type and bytes. */
export interface UploadedFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** A route handler. */
export type Handler = (ctx: Ctx, call: Call) => Reply | Promise<Reply>;

/** One handler per operation of the document; `validateBody: false` when the handler picks the schema itself. */
export type RouteTable = Record<OperationId, Handler | { run: Handler; validateBody: false }>;

/** Current sandbox time in ms. */
export function now(ctx: Pick<Ctx, 'clock'>): number {
  return ctx.clock.now();
}

/** Current sandbox time as an ISO string. */
export function nowIso(ctx: Pick<Ctx, 'clock'>): string {
  return iso(ctx.clock.now());
}
