/**
 * The OpenAPI document carries the project decisions (spec/decisions.md, a copy of shared/spec/decisions.md): the operations the
 * spec leaves unshaped (marked `x-spec-gap: true`), the error codes, idempotency, the signed-retry
 * 202, the webhook event types, and the per-operation hygiene the SDK generator relies on.
 */
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deref } from '../helpers/document';

type Json = Record<string, any>;

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const decisionsText = readFileSync(resolvePath(repoRoot, 'spec', 'decisions.md'), 'utf8');
const doc = parse(readFileSync(resolvePath(repoRoot, 'openapi', 'openapi.yaml'), 'utf8')) as Json;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const resolve = (node: Json | undefined): Json | undefined => deref(node, doc);

interface Op {
  /** `METHOD /path` for paths, `WEBHOOK name` for webhooks. */
  key: string;
  pathItem: Json;
  op: Json;
}

function operationsOf(section: Json | undefined, label: (name: string, method: string) => string): Op[] {
  const out: Op[] = [];
  for (const [name, rawItem] of Object.entries<Json>(section ?? {})) {
    const pathItem = resolve(rawItem) ?? {};
    for (const method of HTTP_METHODS) {
      if (pathItem[method]) out.push({ key: label(name, method), pathItem, op: pathItem[method] });
    }
  }
  return out;
}

const pathOps = operationsOf(doc.paths, (path, method) => `${method.toUpperCase()} ${path}`);
const webhookOps = operationsOf(doc.webhooks, (name, method) => `WEBHOOK ${method.toUpperCase()} ${name}`);

function paramsOf({ pathItem, op }: Op): Json[] {
  return [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => resolve(p) ?? {});
}

function hasHeaderParam(op: Op, name: string): boolean {
  return paramsOf(op).some((p) => p.in === 'header' && String(p.name).toLowerCase() === name.toLowerCase());
}

function findOp(key: string): Op | undefined {
  return pathOps.find((o) => o.key === key);
}

/** Section of decisions.md under `## title`, up to the next `## `. */
function section(title: string): string {
  const start = decisionsText.indexOf(`## ${title}`);
  if (start < 0) throw new Error(`decisions.md has no "## ${title}" section`);
  const rest = decisionsText.slice(start + 3);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** `METHOD /path` operations written in backticks in a text (a query string is cut off). */
function operationsNamed(text: string): string[] {
  return [...text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`?\s]*)/g)].map((m) => `${m[1]} ${m[2]}`);
}

// ---------------------------------------------------------------------------------------------

const SPEC_GAP_OPERATIONS = [
  'GET /customers/{customerId}',
  'DELETE /customers/{customerId}',
  'GET /transactions/{transactionId}',
  'POST /transactions/{transactionId}/approve',
  'POST /quotes/{quoteId}/execute',
  'GET /receiver/uma/{receiverUmaAddress}',
  'GET /receiver/external-account/{accountId}',
  'DELETE /auth/credentials/{id}',
  'GET /auth/sessions',
  'DELETE /auth/sessions/{id}',
  'POST /internal-accounts/{accountId}/export',
  'PATCH /internal-accounts/{accountId}',
];

const IDEMPOTENT_OPERATIONS = ['POST /quotes', 'POST /quotes/{quoteId}/execute', 'POST /transfer-in'];

const SIGNED_OPERATIONS = [
  'POST /auth/credentials',
  'DELETE /auth/credentials/{id}',
  'DELETE /auth/sessions/{id}',
  'PATCH /internal-accounts/{accountId}',
  'POST /internal-accounts/{accountId}/export',
  // Production's secure OTP login (issue 27): /verify answers 202 with the verification token to sign.
  'POST /auth/credentials/{id}/verify',
  // Production's (issue 27): an email change tied to EMAIL_OTP credentials answers a 202 challenge.
  'PATCH /customers/{customerId}',
  // Production's session refresh and delegated-key creation (issue 34 §2), through the same signed retry.
  'POST /auth/sessions/{id}/refresh',
  'POST /auth/delegated-keys',
];

const NOT_FOUND_CODES = [
  'CUSTOMER_NOT_FOUND',
  'QUOTE_NOT_FOUND',
  'TRANSACTION_NOT_FOUND',
  'ACCOUNT_NOT_FOUND',
  'CREDENTIAL_NOT_FOUND',
  'SESSION_NOT_FOUND',
  'EXTERNAL_ACCOUNT_NOT_FOUND',
  'LOOKUP_NOT_FOUND',
  'NOT_FOUND',
];

describe('decisions.md operations', () => {
  it('the list here matches the operations decisions.md names (normalizing `{id}` to the document path names)', () => {
    const named = new Set(
      operationsNamed(section('Operations the spec names but does not shape') + section('Wallet authentication')).map((key) =>
        key.replace('/internal-accounts/{id}', '/internal-accounts/{accountId}'),
      ),
    );
    expect([...named].sort()).toEqual([...SPEC_GAP_OPERATIONS].sort());
  });

  it.each(SPEC_GAP_OPERATIONS)('%s exists and is marked x-spec-gap', (key) => {
    const op = findOp(key);
    expect(op, `${key} is missing from the document`).toBeDefined();
    expect(op!.op['x-spec-gap'], `${key} lacks x-spec-gap: true`).toBe(true);
  });

  it('operations the spec does shape are not marked x-spec-gap', () => {
    const marked = pathOps.filter((o) => o.op['x-spec-gap'] === true).map((o) => o.key);
    expect(marked.sort()).toEqual([...SPEC_GAP_OPERATIONS].sort());
  });

  it('decision-only schemas and fields are marked x-spec-gap', () => {
    const schemas = doc.components.schemas as Json;
    for (const name of [
      'Error',
      'ErrorCode',
      'BusinessCustomer',
      'BusinessInfo',
      'BusinessCustomerCreateParams',
      'UmaAddressSource',
      'UmaAddressDestination',
      'TransactionApproveParams',
      'ReceiverLookup',
      'InternalAccountUpdateParams',
      'InternalAccountExportParams',
      'WalletExport',
      'Session',
      'SessionList',
      'WebhookEvent',
      'PaymentApprovalReply',
      'PaymentApprovalMoreInfo',
    ]) {
      expect(schemas[name]?.['x-spec-gap'], `${name} lacks x-spec-gap: true`).toBe(true);
    }
    expect(schemas.InternalAccount.properties.privateEnabled['x-spec-gap']).toBe(true);
    // decisions.md: EMAIL_OTP carries type and accountId only (no invented email).
    expect(schemas.EmailOtpCredentialCreateParams.properties.email).toBeUndefined();
    expect(schemas.EmailOtpCredentialCreateParams.required.sort()).toEqual(['accountId', 'type']);
    expect(schemas.CustomerUpdateParams.properties.businessInfo['x-spec-gap']).toBe(true);
  });
});

describe('open world (decisions.md "Identifiers, open sets and who decides")', () => {
  const schemas = doc.components.schemas as Json;
  it('no identifier pattern anywhere in the document', () => {
    const patterns = [...JSON.stringify(doc).matchAll(/"pattern":"([^"]*)"/g)].map((m) => m[1]!);
    expect(patterns.filter((p) => /[A-Za-z]+:\.\+/.test(p) || /^\^\(?[A-Z][A-Za-z|]+\)?:/.test(p))).toEqual([]);
    expect(patterns.length).toBeGreaterThan(0); // country codes and key formats the spec states remain
  });
  it('the open sets are x-extensible-enum, never a closed enum', () => {
    for (const name of [
      'ErrorCode',
      'KycStatus',
      'ExternalAccountStatus',
      'TransactionStatus',
      'FailureReason',
      'QuoteStatus',
      'PurposeOfPayment',
      'InvitationStatus',
      'VerificationStatus',
      'CredentialType',
    ]) {
      expect(schemas[name].enum, name).toBeUndefined();
      expect(schemas[name]['x-extensible-enum'].length, name).toBeGreaterThan(1);
    }
  });
  it('account types and credential types are open discriminators; an UMA destination needs no currency', () => {
    for (const name of ['ExternalAccountInfo', 'CredentialCreateParams', 'CredentialVerifyParams'])
      expect(schemas[name]['x-open-discriminator'], name).toBe(true);
    expect(schemas.UmaAddressDestination.required).not.toContain('currency');
  });
  it('clientPublicKey accepts the compressed and the uncompressed form', () => {
    const pattern = new RegExp(schemas.CredentialChallengeParams.properties.clientPublicKey.pattern);
    expect(pattern.test('04' + 'a'.repeat(128))).toBe(true);
    expect(pattern.test('02' + 'a'.repeat(64))).toBe(true);
    expect(pattern.test('03' + 'b'.repeat(64))).toBe(true);
    expect(pattern.test('05' + 'a'.repeat(64))).toBe(false);
  });
});

describe('errors', () => {
  // An open set (decisions.md "Identifiers, open sets"): known values, the service may add more.
  const enumValues: string[] = doc.components.schemas.ErrorCode['x-extensible-enum'];

  it('ErrorCode lists every code of decisions.md', () => {
    const codes = [...section('Errors').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!);
    expect(codes.length).toBeGreaterThanOrEqual(25);
    expect(codes).toContain('CURRENCY_COMBINATION_REQUIRES_SEPARATE_CUSTOMERS');
    const missing = [...codes, ...NOT_FOUND_CODES].filter((code) => !enumValues.includes(code));
    expect(missing).toEqual([]);
  });

  it('Error has the decided shape', () => {
    const error = doc.components.schemas.Error;
    // Only `code` is required: production's 429 body carries `reason` instead of `message` (issue 27).
    expect(error.required).toEqual(['code']);
    expect(Object.keys(error.properties).sort()).toEqual(['code', 'details', 'message', 'reason', 'status']);
    expect(error.properties.code.$ref).toBe('#/components/schemas/ErrorCode');
    expect(error.properties.details.type).toBe('object');
    expect(error.properties.details.properties.errors.items.$ref).toBe('#/components/schemas/FieldError');
    expect(doc.components.schemas.FieldError.required).toEqual(['field']);
  });

  it('reusable error responses exist, carry an example, and 429 carries Retry-After', () => {
    for (const name of ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'RateLimited', 'InternalError']) {
      const response = doc.components.responses[name];
      expect(response, name).toBeDefined();
      const media = response.content['application/json'];
      expect(media.schema.$ref, name).toBe('#/components/schemas/Error');
      expect(media.example ?? media.examples, `${name} has no example`).toBeDefined();
      expect(enumValues).toContain(media.example.code);
    }
    expect(doc.components.responses.RateLimited.headers['Retry-After']).toBeDefined();
  });

  it('every operation answers 429 and 500, and every 429 carries Retry-After', () => {
    for (const op of pathOps) {
      expect(Object.keys(op.op.responses), op.key).toEqual(expect.arrayContaining(['429', '500']));
      expect(resolve(op.op.responses['429'])?.headers?.['Retry-After'], op.key).toBeDefined();
    }
  });

  it('every response of every operation carries X-Request-Id', () => {
    for (const op of pathOps) {
      for (const [status, raw] of Object.entries<Json>(op.op.responses)) {
        expect(resolve(raw)?.headers?.['X-Request-Id'], `${op.key} ${status}`).toBeDefined();
      }
    }
  });
});

describe('idempotency', () => {
  it('decisions.md names the same three idempotent operations', () => {
    expect(operationsNamed(section('Idempotency')).sort()).toEqual([...IDEMPOTENT_OPERATIONS].sort());
  });

  it('exactly those operations take Idempotency-Key and answer Idempotent-Replayed', () => {
    // Production's operations (x-production-field) take the key where production's document declares it.
    const withKey = pathOps.filter((o) => hasHeaderParam(o, 'Idempotency-Key') && o.op['x-production-field'] !== true).map((o) => o.key);
    expect(withKey.sort()).toEqual([...IDEMPOTENT_OPERATIONS].sort());
    for (const key of IDEMPOTENT_OPERATIONS) {
      const op = findOp(key)!;
      const param = paramsOf(op).find((p) => p.name === 'Idempotency-Key')!;
      expect(param.schema.maxLength).toBe(255);
      expect(op.op.responses['200'].headers['Idempotent-Replayed'], key).toBeDefined();
    }
  });
});

describe('signed retry', () => {
  it('exactly the signed operations answer a 202 SignatureChallenge', () => {
    // Production's CSV import answers 202 with its job: the operation's result, not a challenge.
    const challenge = (o: (typeof pathOps)[number]) =>
      resolve(o.op.responses['202'])?.content['application/json'].schema.$ref === '#/components/schemas/SignatureChallenge';
    const with202 = pathOps.filter((o) => '202' in o.op.responses && challenge(o)).map((o) => o.key);
    expect(with202.sort()).toEqual([...SIGNED_OPERATIONS].sort());
    for (const key of SIGNED_OPERATIONS) {
      const response = resolve(findOp(key)!.op.responses['202'])!;
      expect(response.content['application/json'].schema.$ref, key).toBe('#/components/schemas/SignatureChallenge');
    }
  });

  it('signed operations accept Service-Wallet-Signature and Request-Id (optional)', () => {
    for (const key of SIGNED_OPERATIONS) {
      const op = findOp(key)!;
      for (const name of ['Service-Wallet-Signature', 'Request-Id']) {
        const param = paramsOf(op).find((p) => p.in === 'header' && p.name === name);
        expect(param, `${key} lacks ${name}`).toBeDefined();
        expect(param!.required ?? false).toBe(false);
      }
    }
    expect(hasHeaderParam(findOp('POST /auth/credentials/{id}/verify')!, 'Request-Id')).toBe(true);
  });

  it('SignatureChallenge has the decided shape', () => {
    const challenge = doc.components.schemas.SignatureChallenge;
    expect(challenge.required.sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    expect(challenge.properties.type.type).toBe('string');
  });
});

describe('webhooks', () => {
  const typesLine = section('Webhooks')
    .split('\n')
    .find((line) => line.includes('Types used:'));
  const decidedTypes = [...(typesLine ?? '').matchAll(/`([A-Z_]+(?:\.[A-Z_]+)?)`/g)].map((m) => m[1]!);
  const event = doc.components.schemas.WebhookEvent;
  const mapping: Record<string, string> = event.discriminator.mapping;

  it('every decided event type is a WebhookEvent variant, and nothing else is', () => {
    expect(decidedTypes.length).toBe(12);
    // Beside the decided types, the ones production sends (issue 34), marked x-production-field.
    const fromProduction = Object.keys(mapping).filter((type) => resolve({ $ref: mapping[type]! })!['x-production-field'] === true);
    expect(fromProduction.sort()).toEqual([
      'AGENT_ACTION.PENDING_APPROVAL',
      'BULK_UPLOAD.COMPLETED',
      'BULK_UPLOAD.FAILED',
      'CARD.FUNDING_SOURCE_CHANGE',
      'CARD.STATE_CHANGE',
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.EXCEPTION',
      'CARD_TRANSACTION.PARTIALLY_SETTLED',
      'CARD_TRANSACTION.REFUNDED',
      'CARD_TRANSACTION.SETTLED',
      'CUSTOMER.KYB_APPROVED',
      'CUSTOMER.KYB_PENDING',
      'CUSTOMER.KYB_REJECTED',
      'CUSTOMER.KYC_PENDING',
      'EXTERNAL_ACCOUNT.STATUS_UPDATED',
      'INCOMING_PAYMENT.REFUND_COMPLETED',
      'INTERNAL_ACCOUNT.BALANCE_UPDATED',
      'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED',
      'INTERNAL_ACCOUNT.STATUS_UPDATED',
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
      'VERIFICATION.IN_PROGRESS',
      'VERIFICATION.PENDING_MANUAL_REVIEW',
      'VERIFICATION.REJECTED',
    ]);
    expect(
      Object.keys(mapping)
        .filter((type) => !fromProduction.includes(type))
        .sort(),
    ).toEqual([...decidedTypes].sort());
    expect(event.discriminator.propertyName).toBe('type');
    expect(event.oneOf.map((v: Json) => v.$ref).sort()).toEqual(Object.values(mapping).sort());
  });

  it('each variant is a flat object with a const type and the envelope fields required', () => {
    for (const [type, ref] of Object.entries(mapping)) {
      const variant = resolve({ $ref: ref })!;
      expect(variant.properties.type.const, ref).toBe(type);
      expect([...variant.required].sort(), ref).toEqual(['data', 'id', 'timestamp', 'type']);
      expect(variant.properties.id.pattern).toBeUndefined(); // identifiers are never checked by shape
      expect(variant.properties.timestamp.format).toBe('date-time');
    }
  });

  it('each event type has a webhooks entry whose body is its variant', () => {
    for (const [type, ref] of Object.entries(mapping)) {
      const body = doc.webhooks?.[type]?.post?.requestBody?.content?.['application/json'];
      expect(body?.schema?.$ref, `webhooks.${type}`).toBe(ref);
    }
  });
});

describe('operation hygiene', () => {
  const allOps = [...pathOps, ...webhookOps];

  it('finds the operations', () => {
    // 36 of the spec, 34 of production's on the same resources, 83 of production's further areas (tokens 4,
    // discoveries and VASPs 2, stablecoins 10, cards 15, documents 5, SCA 16, contact verification 4, agents 27).
    expect(pathOps.length).toBe(153);
    expect(webhookOps.length).toBe(37); // 12 decided, 17 production sends, 7 of cards, 1 of agents
  });

  it('operationIds are present and unique', () => {
    const ids = allOps.map((o) => o.op.operationId);
    for (const [i, id] of ids.entries()) expect(typeof id, allOps[i]!.key).toBe('string');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every operation has a defined tag, a summary and a description', () => {
    const tags = new Set((doc.tags as Json[]).map((t) => t.name));
    for (const { key, op } of allOps) {
      expect(op.tags?.length, `${key} has no tag`).toBeGreaterThan(0);
      for (const tag of op.tags) expect(tags, key).toContain(tag);
      expect(op.summary, key).toBeTruthy();
      expect(op.description, key).toBeTruthy();
    }
  });

  it('every operation documents a 4xx response', () => {
    for (const { key, op } of allOps) {
      expect(
        Object.keys(op.responses).some((status) => /^4(\d\d|XX)$/.test(status)),
        `${key} has no 4xx`,
      ).toBe(true);
    }
  });

  it('every request and response body has an example', () => {
    for (const { key, op } of allOps) {
      const bodies: Array<[string, Json]> = [];
      const requestBody = resolve(op.requestBody);
      for (const [type, media] of Object.entries<Json>(requestBody?.content ?? {})) bodies.push([`request ${type}`, media]);
      for (const [status, raw] of Object.entries<Json>(op.responses)) {
        for (const [type, media] of Object.entries<Json>(resolve(raw)?.content ?? {})) bodies.push([`${status} ${type}`, media]);
      }
      for (const [where, media] of bodies) {
        expect(media.example !== undefined || Object.keys(media.examples ?? {}).length > 0, `${key} ${where} has no example`).toBe(true);
      }
    }
  });

  it('every component is referenced, except the WebhookEvent union (for the SDK webhook parser)', () => {
    // Stands in for redocly's no-unused-components, which redocly.yaml turns off for WebhookEvent's sake.
    const text = JSON.stringify(doc);
    const referenced = new Set([...text.matchAll(/"#\/components\/([A-Za-z]+)\/([^"]+)"/g)].map((m) => `${m[1]}/${m[2]}`));
    const unused: string[] = [];
    for (const [kind, entries] of Object.entries<Json>(doc.components)) {
      if (kind === 'securitySchemes') continue;
      for (const name of Object.keys(entries)) if (!referenced.has(`${kind}/${name}`)) unused.push(`${kind}/${name}`);
    }
    expect(unused).toEqual(['schemas/WebhookEvent']);
  });
});
