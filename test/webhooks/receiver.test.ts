/**
 * `crossborder-sdk/webhooks` (issue 50 §6): `unwrap` and `verify` with the public key alone, no client. The same
 * deliveries give the same events and the same refusals as `CrossborderCore`'s `webhooks.unwrap` (a core without
 * the responseChecks part: the envelope checked, as this entry does), and the error class is the main entry's.
 */
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CrossborderCore, Webhooks, WebhookVerificationError as MainWebhookVerificationError } from 'crossborder-sdk';
import { unwrap, verify, WebhookVerificationError, type UnknownEvent, type WebhookEvent } from 'crossborder-sdk/webhooks';
import type { WebhookKeyPair } from '../../src/webhooks/index';
import { eventBody, rejection, signedDelivery, testKeys } from './helpers';

let keys: WebhookKeyPair;
let clientWebhooks: Webhooks;
beforeAll(async () => {
  keys = await testKeys();
  clientWebhooks = new Webhooks(new CrossborderCore({ tokenId: 't', clientSecret: 's', webhookPublicKey: keys.publicKeyPem }));
});

describe('crossborder-sdk/webhooks unwrap', () => {
  it("returns the event typed by its type, as the client's webhooks.unwrap does with the same delivery", async () => {
    const body = eventBody({ type: 'OUTGOING_PAYMENT.COMPLETED', data: { id: 'Transaction:7', status: 'COMPLETED', type: 'OUTGOING' } });
    const { headers } = await signedDelivery(body);
    const event = await unwrap(body, headers, { publicKey: keys.publicKeyPem });
    expectTypeOf(event).toEqualTypeOf<WebhookEvent | UnknownEvent>();
    expect(event).toEqual(JSON.parse(body));
    expect(await clientWebhooks.unwrap(body, headers)).toEqual(event);
    if (event.type === 'OUTGOING_PAYMENT.COMPLETED') {
      // Narrowed by the type alone.
      expectTypeOf(event.data.id).toEqualTypeOf<string>();
      expect(event.data.id).toBe('Transaction:7');
    } else {
      expect.unreachable('a known type');
    }
  });

  it('takes a Fetch Request unread, its headers with it', async () => {
    const body = eventBody({ type: 'TEST', data: { n: 1 } });
    const { headers } = await signedDelivery(body);
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', body, headers });
    const event = await unwrap(request, undefined, { publicKey: keys.publicKeyPem });
    expect(event).toEqual(JSON.parse(body));
  });

  it('returns a type it does not know as an UnknownEvent, and envelope differences in issues, as the client does', async () => {
    const unknown = eventBody({ type: 'NEW.KIND', data: { a: 1 } });
    const signed = await signedDelivery(unknown);
    const event = await unwrap(unknown, signed.headers, { publicKey: keys.publicKeyPem });
    expect(event).toEqual({ ...JSON.parse(unknown), unknown: true });
    expect(await clientWebhooks.unwrap(unknown, signed.headers)).toEqual(event);

    const odd = eventBody({ type: 'TEST', timestamp: 'yesterday', data: [] });
    const oddSigned = await signedDelivery(odd);
    const oddEvent = await unwrap(odd, oddSigned.headers, { publicKey: keys.publicKeyPem });
    expect(oddEvent.issues?.map((i) => i.path)).toEqual(['timestamp', 'data']);
    expect(await clientWebhooks.unwrap(odd, oddSigned.headers)).toEqual(oddEvent);
  });

  it("refuses what the client refuses, with the main entry's error class", async () => {
    expect(WebhookVerificationError).toBe(MainWebhookVerificationError);
    const body = eventBody();
    const { headers } = await signedDelivery(body);
    const other = await signedDelivery(eventBody());
    const tampered = await rejection(() => unwrap(body.replace('COMPLETED', 'FAILED'), headers, { publicKey: keys.publicKeyPem }));
    expect(tampered.reason).toBe('invalid_signature');
    expect(tampered).toBeInstanceOf(MainWebhookVerificationError);
    expect((await rejection(() => unwrap(body, other.headers, { publicKey: keys.publicKeyPem }))).reason).toBe('invalid_signature');
    expect((await rejection(() => unwrap(body, {}, { publicKey: keys.publicKeyPem }))).reason).toBe('missing_header');
    expect((await rejection(() => unwrap(body, headers, { publicKey: 'not a key' }))).reason).toBe('invalid_key');
    const stale = await rejection(() => unwrap(body, headers, { publicKey: keys.publicKeyPem, maxAge: 60_000, now: () => Date.now() + 3_600_000 }));
    expect(stale.reason).toBe('stale_event');
  });

  it('without a key, refuses every delivery naming the option this entry takes', async () => {
    const body = eventBody();
    const { headers } = await signedDelivery(body);
    for (const publicKey of [undefined, '', '  ']) {
      const err = await rejection(() => unwrap(body, headers, { publicKey }));
      expect(err.reason).toBe('missing_key');
      expect(err.message).toBe("no webhook public key: pass the service's public key (PEM or hex) as unwrap(body, headers, { publicKey })");
    }
    const err = await rejection(() => verify(body, headers, { publicKey: undefined }));
    expect(err.message).toBe("no webhook public key: pass the service's public key (PEM or hex) as verify(body, headers, { publicKey })");
  });

  it('says where a body that is not JSON fails, never what it holds', async () => {
    const body = '{"id":"Webhook:1","type":"TEST","data":{"name":"Ada Lovelace","iban":"DE89370400440532013000" x}}';
    const { headers } = await signedDelivery(body);
    const err = await rejection(() => unwrap(body, headers, { publicKey: keys.publicKeyPem }));
    expect(err.reason).toBe('invalid_body');
    expect(err.message).toBe(`the webhook body is not JSON: an unexpected character at position ${body.indexOf(' x}') + 1} (${body.length} characters)`);
    expect(err.message).not.toMatch(/Ada|Lovelace|DE89/);
    expect(JSON.stringify(err)).not.toMatch(/Ada|Lovelace|DE89/);
  });

  it('a negative maxAge is a RangeError before anything about the delivery', async () => {
    await expect(unwrap('{}', {}, { publicKey: keys.publicKeyPem, maxAge: -1 })).rejects.toBeInstanceOf(RangeError);
  });
});

describe('crossborder-sdk/webhooks verify', () => {
  it('resolves when the signature holds and refuses when it does not', async () => {
    const body = eventBody();
    const { headers } = await signedDelivery(body);
    await expect(verify(body, headers, { publicKey: keys.publicKeyPem })).resolves.toBeUndefined();
    // verify reads no JSON: a signed body that is not JSON passes.
    const notJson = await signedDelivery('not json');
    await expect(verify('not json', notJson.headers, { publicKey: keys.publicKeyPem })).resolves.toBeUndefined();
    expect((await rejection(() => verify(`${body} `, headers, { publicKey: keys.publicKeyPem }))).reason).toBe('invalid_signature');
  });
});
