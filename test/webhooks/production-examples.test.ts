/**
 * Production's own webhook examples (lightsparkdev/grid-api's document at cf2510ed, read from
 * `shared/production/openapi.yaml` beside the project when present), signed with a test key and unwrapped
 * by `cb.webhooks.unwrap`: every example on a resource we share is typed and unwraps with no drift in
 * `event.issues`. Skipped where the document is absent.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/index';
import { WEBHOOK_EVENT_TYPES } from '../../src/generated/index';
import { productionDocument, productionDocumentPath, productionWebhookExamples, type WebhookExample } from '../helpers/production-document';
import { signedDelivery, testKeys } from './helpers';

/** Production's webhook keys on the resources this SDK has (cards, agents and bulk uploads are not among them). */
const SHARED = [
  'incoming-payment',
  'outgoing-payment',
  'test-webhook',
  'invitation-claimed',
  'customer-update',
  'internal-account-status',
  'external-account-status',
  'verification-update',
];

describe.skipIf(productionDocumentPath() === undefined)("production's webhook examples", () => {
  let unwrapped: { example: WebhookExample; event: { type: unknown; issues?: unknown; unknown?: true } }[];
  beforeAll(async () => {
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: (await testKeys()).publicKeyPem });
    unwrapped = [];
    for (const example of productionWebhookExamples().filter((e) => SHARED.includes(e.key))) {
      const body = JSON.stringify(example.body);
      const { headers } = await signedDelivery(body);
      unwrapped.push({ example, event: await cb.webhooks.unwrap(body, headers) });
    }
  });

  it('types every example, the event types production added included', () => {
    const known = new Set<string>(WEBHOOK_EVENT_TYPES);
    for (const type of [
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
      'INCOMING_PAYMENT.REFUND_COMPLETED',
      'CUSTOMER.KYB_APPROVED',
      'CUSTOMER.KYB_REJECTED',
      'INTERNAL_ACCOUNT.BALANCE_UPDATED',
      'INTERNAL_ACCOUNT.STATUS_UPDATED',
      'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED',
      'EXTERNAL_ACCOUNT.STATUS_UPDATED',
    ]) {
      expect(known.has(type), type).toBe(true);
    }
    const typed = unwrapped.filter((u) => !('unknown' in u.event));
    expect(typed.map((u) => `${u.example.key}/${u.example.name}`)).toHaveLength(20);
    expect(typed.every((u) => known.has(String(u.event.type)))).toBe(true);
    expect(unwrapped.filter((u) => 'unknown' in u.event).map((u) => String(u.event.type))).toEqual([]);
  });

  it('unwraps all 20 with no drift reported in event.issues', () => {
    expect(unwrapped).toHaveLength(20);
    expect(
      unwrapped.filter((u) => u.event.issues !== undefined).map((u) => ({ example: `${u.example.key}/${u.example.name}`, issues: u.event.issues })),
    ).toEqual([]);
  });
});

/** The webhooks production's docs site shows (`test/fixtures/production/docs-requests.json`, from grid-api at cf2510ed). */
const docsSite = JSON.parse(readFileSync(new URL('../fixtures/production/docs-requests.json', import.meta.url), 'utf8')) as {
  webhooks: Array<{ file: string; line: number; body: { type: string } }>;
};

/**
 * Fields the docs site's pages leave out of a webhook that production's own document requires: those pages
 * show an excerpt, and contradict production's schema (docs/production.md). `event.issues` reports them,
 * as it should for a delivery that lacks them; the event is still delivered. Each entry names the schema of
 * production's document that requires it, and the test checks that it does.
 */
const EXCERPTED: Record<string, [schema: string, field: string]> = {
  id: ['BaseWebhook', 'id'],
  timestamp: ['BaseWebhook', 'timestamp'],
  'data.type': ['Transaction', 'type'],
  'data.destination': ['Transaction', 'destination'],
  'data.source': ['OutgoingTransaction', 'source'],
  'data.umaAddress': ['Customer', 'umaAddress'],
  'data.customerType': ['Customer', 'customerType'],
  'data.createdAt': ['InternalAccount', 'createdAt'],
  'data.updatedAt': ['InternalAccount', 'updatedAt'],
};

/** The `required` list of one of production's schemas, its `allOf` parts' included. */
function requiredBy(name: string): string[] {
  const schema = productionDocument().components.schemas[name];
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((part: { required?: string[] }) => part.required ?? [])];
}

describe("production's docs site's webhooks", () => {
  let report: Record<string, string>;
  beforeAll(async () => {
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: (await testKeys()).publicKeyPem });
    report = {};
    for (const { file, line, body } of docsSite.webhooks.filter((w) => !w.body.type.startsWith('CARD.'))) {
      const text = JSON.stringify(body);
      const { headers } = await signedDelivery(text);
      const event = (await cb.webhooks.unwrap(text, headers)) as { type: string; unknown?: true; issues?: Array<{ path: string }> };
      report[`${file.replace(/^mintlify\//, '')}:${line} ${event.type}`] =
        'unknown' in event ? 'untyped' : event.issues ? `drift ${event.issues.map((i) => i.path).join(', ')}` : 'typed';
    }
  });

  it('unwraps all 31 on a resource we share, and types every one', () => {
    expect(Object.keys(report)).toHaveLength(31);
    expect(
      Object.entries(report)
        .filter(([, v]) => v === 'untyped')
        .map(([k]) => k),
    ).toEqual([]);
  });

  it('reports drift only for fields production requires that the page leaves out', () => {
    const drift = Object.values(report)
      .filter((v) => v.startsWith('drift '))
      .flatMap((v) => v.slice(6).split(', '));
    expect([...new Set(drift)].filter((path) => !(path in EXCERPTED))).toEqual([]);
    expect(Object.values(report).filter((v) => v === 'typed')).toHaveLength(7);
  });

  it.skipIf(productionDocumentPath() === undefined)("each field it excuses is required by production's own schema", () => {
    for (const [path, [schema, field]] of Object.entries(EXCERPTED)) expect(requiredBy(schema), path).toContain(field);
  });
});
