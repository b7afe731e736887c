/**
 * The {@link Controls} the `/_sandbox/*` routes drive, over the sandbox's parts: time, the state
 * (reset, export, import), the webhook deliveries (log, trigger, redeliver), the request log and the
 * inspector's live stream.
 * @module
 */
import type { Clock } from '../domain/clock';
import type { Ctx } from '../domain/context';
import type { Controls } from './control';
import type { StateControls } from '../domain/lifecycle';
import type { Live } from './live';
import type { SandboxStateDocument } from './persist';
import type { RequestLog } from './request-log';
import { resourceData } from '../domain/snapshot';
import { claimInvitation } from '../domain/invitations';
import { testEventData } from '../domain/webhooks';
import { configureFaults, currentFaults, ledgerExecutions, type SandboxFaults } from '../domain/faults';

/** The controls of the sandbox whose context is `ctx`. */
export function createControls(ctx: Ctx, clock: Clock, state: StateControls, requests: RequestLog, live: Live): Controls {
  return {
    reset: () => state.reset(),
    advance: (ms) => clock.advance(ms),
    now: () => clock.now(),
    snapshot: () => state.exportState(),
    importState: (document) => state.importState(document as SandboxStateDocument),
    deliveries: () => structuredClone(ctx.webhooks.deliveries),
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
      try {
        const invitation = claimInvitation(ctx, code, inviteeUma);
        live.changed();
        return { invitation };
      } catch (cause) {
        return { error: cause instanceof Error ? cause.message : String(cause) };
      }
    },
    requests: () => requests.entries(),
    subscribe: (listener) => live.subscribe(listener),
    subscribers: () => live.subscribers(),
    faults: (next) => {
      if (next !== undefined) configureFaults(ctx, next as SandboxFaults);
      return currentFaults(ctx);
    },
    ledger: () => [...ledgerExecutions(ctx)],
  };
}
