/**
 * Webhook verification throughput for a 1 kB body, with the package as built (dist/): signed by
 * `crossborder-sdk/sandbox`'s signWebhook, checked by `cb.webhooks.verify` and `cb.webhooks.unwrap`.
 * Prints verifications per second (sequential awaits, and 64 in flight), with node:crypto as a baseline.
 *
 *   npx tsx scripts/bench/webhooks.ts
 */
// @ts-nocheck

import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSdk, root } from './dist';

const DURATION_MS = Number(process.env.BENCH_MS ?? 2000);

function body1k(): string {
  const event = { id: 'Webhook:bench', type: 'INCOMING_PAYMENT.COMPLETED', timestamp: new Date().toISOString(), data: { memo: '' } };
  const base = JSON.stringify(event).length;
  event.data.memo = 'x'.repeat(1024 - base);
  const text = JSON.stringify(event);
  if (text.length !== 1024) throw new Error(`body is ${text.length} bytes`);
  return text;
}

async function measure(name: string, batch: number, op: () => Promise<unknown> | unknown): Promise<void> {
  for (let i = 0; i < 200; i++) await op(); // warm-up: JIT and the key cache
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < DURATION_MS) {
    if (batch === 1) await op();
    else await Promise.all(Array.from({ length: batch }, op));
    count += batch;
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(`${name.padEnd(46)} ${Math.round(count / seconds).toLocaleString('en-US').padStart(9)} /s`);
}

const { Crossborder } = await loadSdk();
const { generateWebhookKeyPair, signWebhook } = (await import(pathToFileURL(join(root, 'dist/sandbox.js')).href)) as typeof import('../../src/sandbox/index');
const keys = await generateWebhookKeyPair();
const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', webhookPublicKey: keys.publicKeyPem });
const body = body1k();
const bytes = new TextEncoder().encode(body);
const signature = await signWebhook(body, keys.privateKeyPem);
const headers = { 'x-service-signature': signature };
const der = Buffer.from(JSON.parse(signature).s as string, 'base64');
const publicKeyObject = createPublicKey(keys.publicKeyPem);

console.log(`node ${process.version}, 1024-byte body, ${DURATION_MS} ms per line`);
await measure('cb.webhooks.verify (Uint8Array, sequential)', 1, () => cb.webhooks.verify(bytes, headers));
await measure('cb.webhooks.verify (string, sequential)', 1, () => cb.webhooks.verify(body, headers));
await measure('cb.webhooks.verify (64 in flight)', 64, () => cb.webhooks.verify(bytes, headers));
await measure('cb.webhooks.unwrap (sequential)', 1, () => cb.webhooks.unwrap(bytes, headers));
await measure('baseline: node:crypto verify (sync, KeyObject)', 1, () => nodeVerify('sha256', bytes, { key: publicKeyObject, dsaEncoding: 'der' }, der));
