/**
 * Production's own webhook examples (lightsparkdev/grid-api's document at cf2510ed, read from
 * `shared/production/openapi.yaml` beside the project when present), signed with a test key and unwrapped
 * by `cb.webhooks.unwrap`: every example on a resource we share is typed and unwraps with no drift in
 * `event.issues`. Skipped where the document is absent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/index';
import { WEBHOOK_EVENT_TYPES } from '../../src/generated/index';
import { productionDocumentPath, productionWebhookExamples, type WebhookExample } from '../helpers/production-document';
import { signedDelivery, testKeys } from './helpers';

/** Production's webhook keys on the resources this SDK has (cards, agents and bulk uploads are not among them). */
const SHARED = ['incoming-payment', 'outgoing-payment', 'test-webhook', 'invitation-claimed', 'customer-update', 'internal-account-status', 'external-account-status', 'verification-update'];

describe.skipIf(productionDocumentPath() === undefined)("production's webhook examples", () => {
  let unwrapped: { example: WebhookExample; event: { type: unknown; issues?: unknown; unknown?: true } }[];
  beforeAll(async () => {
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: (await testKeys()).publicKeyPem });
    unwrapped = [];
    for (const example of productionWebhookExamples().filter((e) => SHARED.includes(e.key))) {
      const body = JSON.stringify(example.body);
      const { headers } = await signedDelivery(body);
      unwrapped.push({ example, event: (await cb.webhooks.unwrap(body, headers)) as never });
    }
  });

  it('types every example of an event type the SDK knows, the eight production added included', () => {
    const known = new Set<string>(WEBHOOK_EVENT_TYPES);
    for (const type of ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION', 'OUTGOING_PAYMENT.REFUND_COMPLETED', 'INCOMING_PAYMENT.REFUND_COMPLETED', 'CUSTOMER.KYB_APPROVED', 'CUSTOMER.KYB_REJECTED', 'INTERNAL_ACCOUNT.BALANCE_UPDATED', 'EXTERNAL_ACCOUNT.STATUS_UPDATED']) {
      expect(known.has(type), type).toBe(true);
    }
    const typed = unwrapped.filter((u) => !('unknown' in u.event));
    expect(typed.map((u) => `${u.example.key}/${u.example.name}`)).toHaveLength(18);
    expect(typed.every((u) => known.has(String(u.event.type)))).toBe(true);
    // The only examples left untyped: event types of resources the SDK has no operation for yet (section 2 of issue 34).
    expect(unwrapped.filter((u) => 'unknown' in u.event).map((u) => String(u.event.type)).sort()).toEqual([
      'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED',
      'INTERNAL_ACCOUNT.STATUS_UPDATED',
    ]);
  });

  it('unwraps all 20 with no drift reported in event.issues', () => {
    expect(unwrapped).toHaveLength(20);
    expect(unwrapped.filter((u) => u.event.issues !== undefined).map((u) => ({ example: `${u.example.key}/${u.example.name}`, issues: u.event.issues }))).toEqual([]);
  });
});
