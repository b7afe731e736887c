/**
 * Renders docs/observability-waterfall.png: the trace of the quickstart (examples/quickstart.ts) as
 * the SDK emits it, recorded by the real OpenTelemetry SDK (a provider registered globally, as
 * NodeSDK does, under one root span), drawn as a waterfall in HTML and screenshot with Chromium.
 *
 *   npx tsx test/telemetry/waterfall.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { chromium } from 'playwright-core';
import { quickstart } from '../../examples/quickstart';

const root = join(import.meta.dirname, '../..');
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

await trace.getTracer('platform').startActiveSpan('quickstart', async (span) => {
  await quickstart(() => undefined);
  span.end();
});

const ns = (t: [number, number]) => t[0] * 1e9 + t[1];
const spans = exporter.getFinishedSpans().sort((a, b) => ns(a.startTime) - ns(b.startTime));
const start = Math.min(...spans.map((s) => ns(s.startTime)));
const end = Math.max(...spans.map((s) => ns(s.endTime)));
const pct = (t: number) => ((t - start) / (end - start)) * 100;
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const depth = (s: ReadableSpan): number => {
  const parent = spans.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);
  return parent ? depth(parent) + 1 : 0;
};
const detail = (s: ReadableSpan) => {
  const a = s.attributes;
  const parts = [
    a['http.response.status_code'],
    a['crossborder.request_id'] && `req ${String(a['crossborder.request_id']).slice(0, 12)}…`,
    a['crossborder.page.number'] && `page ${a['crossborder.page.number']}`,
    a['crossborder.webhook.event_type'],
    a['error.type'] && `error ${a['error.type']}`,
  ];
  const events = s.events.map((e) => e.name.replace('crossborder.', '')).join(', ');
  return [...parts.filter(Boolean), events && `events: ${events}`].filter(Boolean).join(' · ');
};
const rows = spans.map((s) => {
  const left = pct(ns(s.startTime));
  const width = Math.max(0.3, pct(ns(s.endTime)) - left);
  const ms = (ns(s.endTime) - ns(s.startTime)) / 1e6;
  const kind = s.name.startsWith('crossborder.webhooks') ? 'hook' : s.kind === 2 ? 'client' : 'root';
  const marks = s.events.map((e) => `<i style="left:${pct(ns(e.time)) - left}%" title="${esc(e.name)}"></i>`).join('');
  return `<tr><td class="name" style="padding-left:${8 + depth(s) * 14}px">${esc(s.name)}</td><td class="bar"><div class="${kind}" style="left:${left}%;width:${width}%">${marks}</div><span style="left:calc(${left + width}% + 4px)">${ms.toFixed(1)} ms ${esc(detail(s))}</span></td></tr>`;
});
const html = `<!doctype html><meta charset="utf-8"><style>
body{font:12px/1.3 system-ui,sans-serif;margin:16px;color:#222;width:1360px}
h1{font-size:15px;margin:0 0 4px}p{margin:0 0 10px;color:#555}
table{border-collapse:collapse;width:100%}td{border-bottom:1px solid #eee;padding:3px 0;white-space:nowrap}
td.name{width:330px;font-family:ui-monospace,monospace;font-size:11px;overflow:hidden;text-overflow:ellipsis;max-width:330px}
td.bar{position:relative;height:16px}td.bar div{position:absolute;top:3px;height:11px;border-radius:2px}
td.bar span{position:absolute;top:2px;font-size:10.5px;color:#444}
.client{background:#4e79a7}.root{background:#9c755f}.hook{background:#59a14f}
td.bar i{position:absolute;top:-2px;width:2px;height:15px;background:#e15759}
</style><h1>Trace of the quickstart (examples/quickstart.ts) — ${spans.length} spans, ${((end - start) / 1e6).toFixed(0)} ms</h1>
<p>Blue: one CLIENT span per SDK call (named METHOD + path template). Green: webhooks.unwrap. Red ticks: events (retry, signature challenge, signed retry). Recorded with @opentelemetry/sdk-trace-base; the SDK against its in-process sandbox.</p>
<table>${rows.join('\n')}</table>`;
const file = join(root, 'docs/observability-waterfall.html');
writeFileSync(file, html);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 400 } });
  await page.goto(`file://${file}`);
  await page.screenshot({ path: join(root, 'docs/observability-waterfall.png'), fullPage: true });
} finally {
  await browser.close();
}
console.log(`${spans.length} spans → docs/observability-waterfall.png`);
