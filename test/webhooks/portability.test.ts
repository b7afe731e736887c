import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../src/webhooks/index.ts', import.meta.url));

describe('portability', () => {
  it('runs with web globals only (no process, Buffer, require): the edge-runtime contract', async () => {
    const bundle = await build({ entryPoints: [entry], bundle: true, write: false, platform: 'neutral', format: 'iife', globalName: 'webhooks' });
    const code = bundle.outputFiles[0]!.text;
    // A fresh realm holding only what a browser or edge worker offers (the WinterCG minimum common API,
    // which has atob and btoa: base64 goes through them).
    const context = { crypto: globalThis.crypto, TextEncoder, TextDecoder, Headers, Request, Response, atob, btoa };
    const result = await runInNewContext(
      `${code}
      (async () => {
        const { generateWebhookKeyPair, signWebhook, unwrapWebhook, verifyWebhookSignature, approvePayment } = webhooks;
        const keys = await generateWebhookKeyPair();
        const body = JSON.stringify({ id: 'Webhook:1', type: 'TEST', timestamp: '2025-10-13T00:00:00Z', data: {} });
        const signature = await signWebhook(body, keys.privateKeyPem);
        const request = new Request('https://edge.example/webhooks', { method: 'POST', body, headers: { 'X-Service-Signature': signature } });
        const event = await unwrapWebhook(request, undefined, { publicKey: keys.publicKeyHex });
        let reason;
        try { await verifyWebhookSignature(body + ' ', { 'x-service-signature': signature }, keys.publicKeyPem); }
        catch (err) { reason = err.reason; }
        return { id: event.id, reason, status: approvePayment().status, hasProcess: typeof process, hasBuffer: typeof Buffer };
      })()`,
      context,
    );
    expect(result).toEqual({ id: 'Webhook:1', reason: 'invalid_signature', status: 200, hasProcess: 'undefined', hasBuffer: 'undefined' });
    expect(code).not.toMatch(/require\(|from ["']node:/);
  });
});
