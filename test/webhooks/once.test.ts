/**
 * `webhooks.unwrap` runs top to bottom and computes each thing once: verify → JSON → issues → event.
 * A known type is checked by its schema, which covers the envelope too, so the envelope's own check
 * (the one that reads `timestamp` with parseIsoDateTime) does not run for it and get thrown away.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook } from '../../src/webhooks/index';
import { parseIsoDateTime } from '../../src/webhooks/time';
import { responseChecks } from '../../src/core/parts';
import { testCrossborder } from '../helpers/client';
import { eventBody, testKeys } from './helpers';
import { incomingPaymentCompleted } from '../helpers/events';

vi.mock('../../src/webhooks/time', async (original) => {
  const module = await original<typeof import('../../src/webhooks/time')>();
  return { ...module, parseIsoDateTime: vi.fn(module.parseIsoDateTime) };
});
// The one schema check of an event: the responseChecks part's (Crossborder has it).
const check = vi.spyOn(responseChecks, 'event');

afterEach(() => vi.clearAllMocks());

async function unwrap(overrides: Record<string, unknown>) {
  const keys = await testKeys();
  const { cb } = testCrossborder({ webhookPublicKey: keys.publicKeyPem });
  const body = eventBody({ id: 'Webhook:once', timestamp: '2025-10-13T10:00:00Z', ...overrides });
  const headers = { 'x-service-signature': await signWebhook(body, keys.privateKeyPem) };
  await cb.webhooks.verify(body, headers); // loads the modules; its own work is not counted
  vi.clearAllMocks();
  return cb.webhooks.unwrap(body, headers);
}

describe('webhooks.unwrap computes each thing once', () => {
  it('a known type: one schema check over the whole event (envelope and data), the envelope check never run', async () => {
    const event = await unwrap({ id: 7, data: { id: 42 } });
    expect(check).toHaveBeenCalledTimes(1);
    expect(check.mock.calls[0]![0]).toEqual({ id: 7, type: 'INCOMING_PAYMENT.COMPLETED', timestamp: '2025-10-13T10:00:00Z', data: { id: 42 } });
    expect(vi.mocked(parseIsoDateTime)).not.toHaveBeenCalled();
    expect(event.issues).toEqual(await check.mock.results[0]!.value);
    expect(event.issues?.map((i) => i.path).slice(0, 3)).toEqual(['id', 'data.id', 'data.status']);
  });

  it('an unknown type: the envelope checked once, no schema', async () => {
    const event = await unwrap({ type: 'SOMETHING.NEW', timestamp: 'yesterday' });
    expect(check).not.toHaveBeenCalled();
    expect(vi.mocked(parseIsoDateTime)).toHaveBeenCalledTimes(1);
    expect(event).toMatchObject({ unknown: true, issues: [{ path: 'timestamp', rule: 'invalid_format' }] });
  });
});

describe('a delivery that matches the document takes no promise for its check', () => {
  // A complete INCOMING_PAYMENT.COMPLETED, as the service sends it (the webhook benchmark's delivery).
  const matching = incomingPaymentCompleted({ now: '2025-10-13T10:00:00.000Z', id: 'Webhook:sync', transactionId: 'Transaction:1', description: 'ok' });

  it('once loaded, the check answers an empty array at once, and issues through a promise', async () => {
    await responseChecks.event(matching); // the first call loads the check
    const none = responseChecks.event(structuredClone(matching));
    expect(none).toEqual([]); // an array, not a promise of one
    const found = responseChecks.event({ ...matching, data: { ...matching.data, status: 42 } });
    expect(found).toBeInstanceOf(Promise);
    expect((await found).map((i) => i.path)).toEqual(['data.status']);
  });

  it('unwrap hands over the matching event as is, and a drifting one with its issues', async () => {
    const keys = await testKeys();
    const { cb } = testCrossborder({ webhookPublicKey: keys.publicKeyPem });
    const deliver = async (event: object) => {
      const body = JSON.stringify(event);
      return cb.webhooks.unwrap(body, { 'x-service-signature': await signWebhook(body, keys.privateKeyPem) });
    };
    expect(await deliver(matching)).toEqual(matching);
    const drifting = await deliver({ ...matching, data: { ...matching.data, status: 42 } });
    expect(drifting.issues?.map((i) => i.path)).toEqual(['data.status']);
    expect(drifting.data).toEqual({ ...matching.data, status: 42 });
  });
});
