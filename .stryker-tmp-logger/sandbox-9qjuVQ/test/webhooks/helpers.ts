// @ts-nocheck
import { generateWebhookKeyPair, signWebhook, type WebhookKeyPair } from '../../src/webhooks/index';
import { WebhookVerificationError } from '../../src/core/errors';

/** One key pair per test file: generating is cheap, but sharing keeps the cache warm like a real server. */
let keys: Promise<WebhookKeyPair> | undefined;
export function testKeys(): Promise<WebhookKeyPair> {
  return (keys ??= generateWebhookKeyPair());
}

let counter = 0;
/** A well-formed event body (string), with overrides merged into the envelope. */
export function eventBody(overrides: Record<string, unknown> = {}, now = Date.now()): string {
  counter++;
  return JSON.stringify({
    id: `Webhook:test-${counter}-${Math.random().toString(36).slice(2)}`,
    type: 'INCOMING_PAYMENT.COMPLETED',
    timestamp: new Date(now).toISOString(),
    data: { id: 'Transaction:1', status: 'COMPLETED', type: 'INCOMING' },
    ...overrides,
  });
}

/**
 * A signed delivery: body and headers as the service sends them (`headers` carry the versioned JSON
 * form `{"v":"1","s":…}`, like the sandbox); `signature` is the bare base64 form of the same signature.
 */
export async function signedDelivery<B extends string | Uint8Array = string>(
  body: B = eventBody() as B,
  privateKeyPem?: string,
): Promise<{ body: B; signature: string; headers: Record<string, string> }> {
  const header = await signWebhook(body, privateKeyPem ?? (await testKeys()).privateKeyPem);
  const signature = (JSON.parse(header) as { s: string }).s;
  return { body, signature, headers: { 'content-type': 'application/json', 'x-service-signature': header } };
}

/** Runs `fn` and returns the WebhookVerificationError it threw (fails the test otherwise). */
export async function rejection(fn: () => Promise<unknown>): Promise<WebhookVerificationError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err;
    throw new Error(`expected a WebhookVerificationError, got ${String(err)}`, { cause: err });
  }
  throw new Error('expected a WebhookVerificationError, but the call succeeded');
}
