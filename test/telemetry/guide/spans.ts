import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Crossborder } from 'crossborder-sdk';
import { createSandbox } from 'crossborder-sdk/sandbox';

export async function spans(print: (line: string) => void = console.log): Promise<void> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const sandbox = createSandbox();
  // Or register the provider globally (NodeSDK does): the client finds it without this option.
  const cb = new Crossborder({ tokenId: 'demo', clientSecret: 'demo', environment: 'sandbox', fetch: sandbox.fetch, tracerProvider });

  const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
  await cb.customers.retrieve(customer.id);

  for (const span of exporter.getFinishedSpans()) {
    const a = span.attributes;
    print(
      `${span.name}  ${a['http.response.status_code']}  ${a['crossborder.operation.id']}  request ${a['crossborder.request_id'] ? 'id recorded' : 'id missing'}`,
    );
  }
}
