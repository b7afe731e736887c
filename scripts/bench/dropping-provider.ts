/**
 * The tracer provider of the telemetry benches: OpenTelemetry's own SDK (sdk-trace-base) with a
 * batch span processor and an exporter that drops what it is given, so a figure is the cost of making
 * and processing spans, not of exporting them.
 */
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';

export function droppingProvider(): { provider: BasicTracerProvider; exported: () => number } {
  let exported = 0;
  const drop: SpanExporter = {
    export(spans: ReadableSpan[], done) {
      exported += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  return { provider: new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(drop)] }), exported: () => exported };
}
