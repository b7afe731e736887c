/**
 * The sandbox's controls: one interface and its one implementation, over the sandbox's parts (time,
 * the state's reset, export and import, webhook deliveries, invitations, faults, the request log and
 * the live stream). The in-process `Sandbox` object (sandbox.ts) calls them directly; over HTTP the
 * `/_sandbox/` table (src/helpers/sandbox-controls.ts) reaches them through control-http.ts.
 * @module
 */
import type { Invitation } from '../../generated/types';
import type { Clock } from '../domain/clock';
import type { Ctx } from '../domain/context';
import { configureFaults, currentFaults, ledgerExecutions, type LedgerExecution, type SandboxFaults } from '../domain/faults';
import { claimInvitation } from '../domain/invitations';
import type { StateControls } from '../domain/lifecycle';
import { resourceData } from '../domain/snapshot';
import type { SandboxStateDocument } from '../domain/state-document';
import { testEventData, type Delivery, type WebhookListener } from '../domain/webhooks';
import type { Live, LiveEvent } from './live';
import type { RequestLog } from './request-log';

/** What the controls drive. */
export interface Controls {
  /** Forgets all state, pending work and deliveries, and puts the clock back where it started. */
  reset(): void;
  /** Moves the clock on by `ms` (what became due runs). */
  advance(ms: number): void;
  /** The sandbox clock, in ms. */
  now(): number;
  /** The whole state as a document. */
  exportState(): SandboxStateDocument;
  /** Replaces the state with a document or its JSON text; throws with the reason when it is not a state. */
  importState(state: unknown): void;
  /** A copy of the delivery log, oldest first. */
  deliveries(): Delivery[];
  /** Sends an event of `type` about resource `resourceId` (none for TEST); the event id, or an error message. */
  trigger(type: string, resourceId: string | undefined): { eventId?: string; error?: string };
  /** Delivers an event again; false when there is no delivery of it. */
  redeliver(eventId: string): boolean;
  /**
   * Claims an invitation as its invitee would (INVITATION.CLAIMED follows).
   * @throws SandboxError when it cannot be (unknown code, not PENDING, not an UMA address).
   */
  claimInvitation(code: string, inviteeUma: string | undefined): Invitation;
  /** Attaches a webhook delivery target beside the configured endpoint (throws a RangeError when too many are). */
  attachListener(url: string, approvals: WebhookListener['approvals']): WebhookListener;
  /** Detaches a listener; false when it is not attached. */
  detachListener(id: string): boolean;
  /** The configured endpoint and the listeners attached now. */
  listeners(): { endpoint: string | null; data: WebhookListener[] };
  /** The last requests answered (oldest first). */
  requests(): unknown[];
  /**
   * Calls `listener` with each request answered from now on, and with each change that no request
   * made (the scheduler settled a payment, a webhook attempt finished); returns the unsubscribe.
   */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /** How many live-stream subscribers there are now. */
  subscribers(): number;
  /** The faults injected now (domain/faults.ts). */
  faults(): SandboxFaults;
  /** Replaces the faults injected (throws naming the field of a bad configuration). */
  setFaults(faults: SandboxFaults): void;
  /** The executions ledger, oldest first (domain/faults.ts). */
  ledger(): readonly LedgerExecution[];
}

/** The controls of the sandbox whose context is `ctx`. */
export function createControls(ctx: Ctx, clock: Clock, state: StateControls, requests: RequestLog, live: Live): Controls {
  return {
    reset: () => state.reset(),
    advance: (ms) => clock.advance(ms),
    now: () => clock.now(),
    exportState: () => state.exportState(),
    importState: (document) => state.importState(document),
    deliveries: () => structuredClone(ctx.webhooks.deliveries) as Delivery[],
    trigger: (type, resourceId) => {
      if (!ctx.world.config.webhookEndpoint && ctx.webhooks.listeners.length === 0) {
        return { error: 'No webhookEndpoint is configured (PATCH /config) and no listener is attached (crossborder-sdk listen): there is nowhere to deliver.' };
      }
      const data = resourceId === undefined ? (type === 'TEST' ? testEventData() : undefined) : resourceData(ctx.world, resourceId);
      if (data === undefined)
        return {
          error:
            resourceId === undefined
              ? `${type} needs a resourceId (the transaction, customer, invitation or verification it is about).`
              : `No resource ${resourceId}.`,
        };
      return { eventId: ctx.webhooks.emit(type, data) };
    },
    attachListener: (url, approvals) => ctx.webhooks.attach(url, approvals),
    detachListener: (id) => ctx.webhooks.detach(id),
    listeners: () => ({ endpoint: ctx.world.config.webhookEndpoint ?? null, data: ctx.webhooks.listeners.map((l) => ({ ...l })) }),
    redeliver: (eventId) => ctx.webhooks.redeliver(eventId),
    claimInvitation: (code, inviteeUma) => {
      const invitation = claimInvitation(ctx, code, inviteeUma);
      live.changed();
      return invitation;
    },
    requests: () => requests.entries(),
    subscribe: (listener) => live.subscribe(listener),
    subscribers: () => live.subscribers(),
    faults: () => currentFaults(ctx),
    setFaults: (faults) => configureFaults(ctx, faults),
    ledger: () => ledgerExecutions(ctx),
  };
}
