/**
 * The spans as a tracing backend receives them: exported over OTLP/HTTP (JSON) by the real
 * exporter through a batch span processor, to a receiver on 127.0.0.1 that decodes what arrives.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Crossborder, WebhookVerificationError } from '../../src/index';
import { createSandbox } from '../../src/sandbox/index';
import { generateWebhookKeyPair, signWebhook } from '../../src/webhooks/index';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: OtlpValue }[];
  events?: { name: string; attributes: { key: string; value: OtlpValue }[] }[];
  links?: { spanId: string }[];
  status?: { code?: number };
}

const bodies: string[] = [];
const contentTypes: string[] = [];
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        contentTypes.push(String(req.headers['content-type']));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every span of every request the receiver got, its attributes flattened. */
function received(): (Omit<OtlpSpan, 'attributes'> & { attributes: Record<string, unknown> })[] {
  const value = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
  return bodies.flatMap((b) =>
    (JSON.parse(b) as { resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans
        .filter((s) => s.scope.name === 'crossborder-sdk')
        .flatMap((s) => s.spans.map((span) => ({ ...span, attributes: Object.fromEntries(span.attributes.map((a) => [a.key, value(a.value)])) }))),
    ),
  );
}

describe('OTLP/HTTP export', () => {
  it('a call, a 3-page list and two webhook deliveries arrive decoded, with no secret anywhere in the bytes', async () => {
    const SECRET = 'sk_live_OTLP_planted_secret_77';
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 60_000 })] });
    const sandbox = createSandbox();
    const keys = await generateWebhookKeyPair();
    const cb = new Crossborder({
      tokenId: 't',
      clientSecret: SECRET,
      environment: 'sandbox',
      fetch: sandbox.fetch,
      tracerProvider: provider,
      webhookPublicKey: keys.publicKeyPem,
    });
    for (let i = 0; i < 5; i++) await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: `Planted Person ${i}` });
    const listed: string[] = [];
    for await (const c of cb.customers.list({ limit: 2 })) listed.push(c.id);
    expect(listed).toHaveLength(5);
    const body = JSON.stringify({
      id: 'Webhook:otlp-1',
      type: 'OUTGOING_PAYMENT.COMPLETED',
      timestamp: new Date().toISOString(),
      data: { id: 'Transaction:9', status: 'COMPLETED' },
    });
    const signature = await signWebhook(body, keys.privateKeyPem);
    await cb.webhooks.unwrap(body, { 'x-service-signature': signature });
    expect(await cb.webhooks.unwrap(body + ' ', { 'x-service-signature': signature }).catch((e: unknown) => e)).toBeInstanceOf(WebhookVerificationError);
    await provider.forceFlush();
    await provider.shutdown();

    expect(bodies.length).toBeGreaterThan(0);
    expect(contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
    const spans = received();
    expect(spans.map((s) => s.name)).toEqual([
      ...Array(5).fill('POST /customers'),
      'GET /customers',
      'GET /customers',
      'GET /customers',
      'crossborder.webhooks.unwrap',
      'crossborder.webhooks.unwrap',
    ]);
    const create = spans[0]!;
    expect(create.kind).toBe(3); // OTLP's SPAN_KIND_CLIENT
    expect(create.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.template': '/customers',
      'server.address': 'sandbox.crossborder.example',
      'server.port': 443,
      'http.response.status_code': 200,
      'crossborder.operation.id': 'createCustomer',
    });
    const pages = spans.slice(5, 8);
    expect(pages.map((p) => p.attributes['crossborder.page.number'])).toEqual([1, 2, 3]);
    expect(pages[1]!.links?.map((l) => l.spanId)).toEqual([pages[0]!.spanId]);
    expect(pages[2]!.links?.map((l) => l.spanId)).toEqual([pages[0]!.spanId]);
    expect(spans[8]!.attributes).toEqual({
      'crossborder.webhook.verified': true,
      'crossborder.webhook.event_type': 'OUTGOING_PAYMENT.COMPLETED',
      'crossborder.webhook.event_id': 'Webhook:otlp-1',
    });
    expect(spans[9]!.attributes).toMatchObject({ 'crossborder.webhook.verified': false, 'crossborder.webhook.failure_reason': 'invalid_signature' });
    expect(spans[9]!.status?.code).toBe(2); // OTLP's STATUS_CODE_ERROR

    const everything = bodies.join('\n');
    for (const planted of [SECRET, Buffer.from(`t:${SECRET}`).toString('base64'), signature, 'Planted Person', ...listed])
      expect(everything).not.toContain(planted);
  });
});
