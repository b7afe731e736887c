/**
 * A provider registered globally with @opentelemetry/api (as @opentelemetry/sdk-node does), with an
 * AsyncLocalStorage context manager: the SDK finds it without being told, even when the client was
 * made before it was registered; the caller's active span is the call span's parent, and the call
 * span is active inside the call (a user's fetch, an HTTP instrumentation nest under it).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { Crossborder } from '../../src/index';
import { createSandbox } from '../../src/sandbox/index';
import { otel, plain } from './helpers';

afterAll(() => {
  trace.disable();
  context.disable();
  metrics.disable();
});

describe('a globally registered provider', () => {
  it('before registration nothing is recorded; after it, spans parented by the caller’s active span', async () => {
    const sandbox = createSandbox();
    const activeInFetch: (string | undefined)[] = [];
    const cb = new Crossborder({
      tokenId: 't',
      clientSecret: 's',
      environment: 'sandbox',
      fetch: (input, init) => {
        activeInFetch.push(trace.getActiveSpan()?.spanContext().spanId);
        return sandbox.fetch(input, init);
      },
    });
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')]).toBeUndefined();
    await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Before Registration' });

    const o = otel();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(o.tracerProvider);
    metrics.setGlobalMeterProvider(o.meterProvider);
    const tracer = trace.getTracer('platform');
    const parentId = await tracer.startActiveSpan('checkout', async (parent) => {
      await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'After Registration' });
      parent.end();
      return parent.spanContext();
    });
    const spans = o.spans().map(plain);
    const call = spans.find((s) => s.name === 'POST /customers')!;
    expect(spans.map((s) => s.name)).toEqual(['POST /customers', 'checkout']);
    expect(call.parentSpanId).toBe(parentId.spanId);
    expect(call.traceId).toBe(parentId.traceId);
    expect(activeInFetch).toEqual([undefined, call.spanId]);
    const points = await o.points('http.client.request.duration');
    expect(points.map((p) => (p.value as { count: number }).count)).toEqual([1]);
  });
});
