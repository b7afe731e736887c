/** The real OpenTelemetry SDK, wired as a user would: spans to an in-memory exporter, metrics to a reader read on demand. */
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export function otel() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** Every data point of the metric `name`: its attributes and value (a histogram's count and sum). */
    async points(name: string): Promise<{ attributes: Record<string, unknown>; value: unknown }[]> {
      const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics };
      const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
      return (metric?.dataPoints ?? []).map((p) => ({ attributes: { ...p.attributes }, value: p.value }));
    },
  };
}

/** A span as plain data: everything an exporter would send (name, attributes, events, links, status). */
export function plain(span: ReadableSpan) {
  return {
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: { ...span.attributes },
    events: span.events.map((e) => ({ name: e.name, attributes: { ...e.attributes } })),
    links: span.links.map((l) => ({ spanId: l.context.spanId, attributes: { ...l.attributes } })),
    status: { ...span.status },
  };
}
