/**
 * scripts/contract-diff.ts on a fixture pair (test/fixtures/contract): every kind of change is listed
 * once, marked breaking for us or not; and `npm run contract:diff` runs it from the command line.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { contractDiff, flatten, renderChanges, type Change } from '../../scripts/contract-diff';
import { productionDocument, productionDocumentPath } from '../helpers/production-document';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/contract/${name}`, import.meta.url));
const load = (name: string) => parse(readFileSync(fixture(name), 'utf8'));
const map = JSON.parse(readFileSync(fixture('map.json'), 'utf8'));
const line = (c: Change) => `${c.breaking ? 'BREAKING' : 'ok'} ${c.where} ${c.part} ${c.subject}: ${c.what}`;

describe('contract diff', () => {
  const changes = contractDiff(load('ours.yaml'), load('newer.yaml'), map);
  const lines = changes.map(line).sort();

  it('lists each change of the fixture pair, marked breaking for us or not', () => {
    expect(lines).toEqual(
      [
        'BREAKING GET /quotes/{quoteId} response 200 exchangeRate: now optional (we read it as always present)',
        'BREAKING GET /quotes/{quoteId} response 200 lockedSide: new values: NONE (closed set here)',
        'BREAKING POST /invitations operation createInvitation: removed from production',
        'BREAKING POST /quotes request memo: removed (we may send it)',
        'BREAKING POST /quotes request purpose: new required field (we do not send it)',
        'BREAKING POST /quotes request source.accountId: now required (optional here)',
        'BREAKING POST /quotes request source.sourceType: values no longer accepted: UMA_ADDRESS',
        'BREAKING POST /quotes response 200/201 exchangeRate: now optional (we read it as always present)',
        'BREAKING POST /quotes response 200/201 lockedSide: new values: NONE (closed set here)',
        'BREAKING webhook OUTGOING_PAYMENT.COMPLETED payload type: now optional (we read it as always present)',
        'ok GET /quotes/{quoteId} response 200 status: new values: PENDING_AUTHORIZATION (open set here)',
        'ok GET /transactions query direction: new optional parameter',
        'ok GET /transactions response 200 data[].direction: new field',
        'ok POST /quotes header grid-wallet-signature: new optional parameter',
        'ok POST /quotes request source.sourceType: new values: REALTIME_FUNDING',
        'ok POST /quotes response 200/201 status: new values: PENDING_AUTHORIZATION (open set here)',
        'ok POST /quotes status 200: no longer answered',
        'ok POST /quotes status 201: new success status (the client treats every 2xx alike; a 202 with payloadToSign is the challenge)',
        'ok POST /quotes/{id}/retry operation retryQuote: new operation (not in our document)',
        'ok webhook CARD.AUTHORIZED webhook CARD.AUTHORIZED: new webhook (verified deliveries of unknown types are kept)',
      ].sort(),
    );
  });

  it('matches operations by path shape (parameter names differ) and skips sandbox-only operations', () => {
    expect(lines.some((l) => l.includes('sandboxFund'))).toBe(false);
    expect(lines.some((l) => l.includes('getQuote:'))).toBe(false);
  });

  it('maps header names through the table: our Service-Wallet-Signature is production Grid-Wallet-Signature', () => {
    const ours = load('ours.yaml');
    ours.paths['/quotes'].post.parameters.push({ name: 'Service-Wallet-Signature', in: 'header', schema: { type: 'string' } });
    const mapped = contractDiff(ours, load('newer.yaml'), map).map(line);
    expect(mapped.filter((l) => l.includes('wallet-signature'))).toEqual([]);
    const unmapped = contractDiff(ours, load('newer.yaml'), {}).map(line);
    expect(unmapped.filter((l) => l.includes('wallet-signature')).sort()).toEqual([
      'ok POST /quotes header grid-wallet-signature: new optional parameter',
      'ok POST /quotes header service-wallet-signature: removed',
    ]);
  });

  it('lists every production operation we lack, on paths we share or not (a whole area such as /tokens is listed too)', () => {
    const theirs = load('newer.yaml');
    theirs.paths['/tokens'] = { get: { operationId: 'listTokens', responses: { '200': { description: 'ok' } } } };
    theirs.paths['/documents/{documentId}'] = { delete: { operationId: 'deleteDocument', responses: { '204': { description: 'gone' } } } };
    const added = contractDiff(load('ours.yaml'), theirs, map)
      .map(line)
      .filter((l) => l.includes('new operation'))
      .sort();
    expect(added).toEqual([
      'ok DELETE /documents/{documentId} operation deleteDocument: new operation (not in our document)',
      'ok GET /tokens operation listTokens: new operation (not in our document)',
      'ok POST /quotes/{id}/retry operation retryQuote: new operation (not in our document)',
    ]);
  });

  it.skipIf(productionDocumentPath() === undefined)(
    "names each operation of production's document (cf2510ed) that ours lacks, and no other",
    { timeout: 60_000 },
    () => {
      const repoMap = JSON.parse(readFileSync(fileURLToPath(new URL('../../openapi/production-map.json', import.meta.url)), 'utf8'));
      const ours = parse(readFileSync(fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url)), 'utf8'));
      const theirs = productionDocument();
      const shapeOf = (p: string) => p.replace(/\{[^}]+\}/g, '{}');
      const key = (method: string, path: string) => `${method.toUpperCase()} ${shapeOf(path)}`;
      const methods = ['get', 'post', 'put', 'patch', 'delete'];
      const have = new Set<string>();
      for (const [path, item] of Object.entries<any>(ours.paths)) for (const m of methods) if (item[m]) have.add(key(m, repoMap.paths?.[path] ?? path));
      const lacking: string[] = [];
      for (const [path, item] of Object.entries<any>(theirs.paths))
        for (const m of methods) if (item[m] && !have.has(key(m, path))) lacking.push(`${m.toUpperCase()} ${path}`);
      const listed = contractDiff(ours, theirs, repoMap)
        .filter((c) => c.what.startsWith('new operation'))
        .map((c) => c.where);
      expect(listed.sort()).toEqual(lacking.sort());
      // Every operation of production's document is in ours.
      expect(lacking).toEqual([]);
      const page = readFileSync(fileURLToPath(new URL('../../docs/production.md', import.meta.url)), 'utf8');
      expect(page).toContain(`| new operation (not in our document) | | ${lacking.length} |`);
    },
  );

  it('the same documents: no change', () => {
    expect(contractDiff(load('ours.yaml'), load('ours.yaml'), map)).toEqual([]);
  });

  describe("shapes of production's document (lightsparkdev/grid-api 000c418, test/fixtures/contract/production-excerpt.yaml)", () => {
    const repoMap = JSON.parse(readFileSync(fileURLToPath(new URL('../../openapi/production-map.json', import.meta.url)), 'utf8'));
    const ourDoc = () => parse(readFileSync(fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url)), 'utf8'));

    it("a variant's required fields count for that variant only: production's CAD bankCode is no required field of our EUR form", () => {
      const lines = contractDiff(ourDoc(), load('production-excerpt.yaml'), repoMap)
        .map(line)
        .filter((l) => l.includes('POST /customers/external-accounts request accountInfo.'));
      expect(lines).toContain('ok POST /customers/external-accounts request accountInfo.bankCode: new optional field');
      expect(lines).toContain('ok POST /customers/external-accounts request accountInfo.branchCode: new optional field');
      expect(lines).toContain(
        'BREAKING POST /customers/external-accounts request accountInfo.iban: now required when accountType is EUR_ACCOUNT (optional here)',
      );
      expect(lines).toContain(
        'BREAKING POST /customers/external-accounts request accountInfo.clabeNumber: now required when accountType is MXN_ACCOUNT (optional here)',
      );
      expect(lines).toContain('BREAKING POST /customers/external-accounts request accountInfo.beneficiary: now required (optional here)');
      // Our Beneficiary has production's BUSINESS fields, optional: production requires legalName of a BUSINESS one.
      expect(lines).toContain(
        'BREAKING POST /customers/external-accounts request accountInfo.beneficiary.legalName: now required when beneficiaryType is BUSINESS (optional here)',
      );
      // accountNumber: production requires it of CAD only, a variant our document does not shape.
      expect(lines.filter((l) => / accountInfo\.accountNumber:/.test(l))).toEqual([]);
    });

    it('allOf narrows a field: a variant naming one accountType of the shared ExternalAccountType enum is that variant', () => {
      const fields = flatten(load('production-excerpt.yaml'), { $ref: '#/components/schemas/EurExternalAccountCreateInfo' });
      expect(fields.get('accountType')).toMatchObject({ required: true, values: ['EUR_ACCOUNT'] });
      expect(fields.get('iban')).toMatchObject({ required: true });
    });

    it('a union we mark x-open-discriminator reads new variants as an open set', () => {
      const ours = ourDoc();
      const theirs = structuredClone(ours);
      theirs.components.schemas.CadInfo = { type: 'object', required: ['accountType'], properties: { accountType: { type: 'string', const: 'CAD_ACCOUNT' } } };
      theirs.components.schemas.ExternalAccountInfo.oneOf.push({ $ref: '#/components/schemas/CadInfo' });
      const lines = contractDiff(ours, theirs, repoMap).map(line);
      expect(lines).toContain('ok GET /customers/external-accounts response 200 data[].accountInfo.accountType: new values: CAD_ACCOUNT (open set here)');
      expect(lines.filter((l) => l.startsWith('BREAKING'))).toEqual([]);
    });

    it("a webhook's type takes production's other types of the same resource: not breaking (unknown types are kept)", () => {
      const ours = load('ours.yaml');
      ours.webhooks['OUTGOING_PAYMENT.COMPLETED'].post.requestBody.content['application/json'].schema = {
        type: 'object',
        required: ['id', 'type'],
        properties: { id: { type: 'string' }, type: { type: 'string', const: 'OUTGOING_PAYMENT.COMPLETED' } },
      };
      const theirs = load('newer.yaml');
      theirs.webhooks = {
        'outgoing-payment': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['id', 'type'],
                    properties: { id: { type: 'string' }, type: { type: 'string', enum: ['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.EXPIRED'] } },
                  },
                },
              },
            },
          },
        },
      };
      const lines = contractDiff(ours, theirs, { ...map, webhooks: { 'OUTGOING_PAYMENT.COMPLETED': 'outgoing-payment' } })
        .map(line)
        .filter((l) => l.includes('webhook'));
      expect(lines).toEqual(['ok webhook OUTGOING_PAYMENT.COMPLETED payload type: new values: OUTGOING_PAYMENT.EXPIRED (open set here)']);
    });

    it("the repository table maps each of our webhooks to production's key at 000c418 (the card keys: at cf2510ed)", () => {
      const production = [
        'agent-action',
        'incoming-payment',
        'outgoing-payment',
        'test-webhook',
        'bulk-upload',
        'invitation-claimed',
        'customer-update',
        'internal-account-status',
        'external-account-status',
        'verification-update',
        'card-status-change',
        'card-transaction',
        'wallet-operation',
        // cf2510ed renamed card-status-change and added the funding-source webhook.
        'card-state-change',
        'card-funding-source-change',
      ];
      const ours = Object.keys(ourDoc().webhooks);
      expect(ours.map((k) => [k, production.includes(repoMap.webhooks[k])])).toEqual(ours.map((k) => [k, true]));
      expect(repoMap.webhooks['INCOMING_PAYMENT.PENDING']).toBe('incoming-payment');
      expect(repoMap.webhooks['CUSTOMER.KYC_APPROVED']).toBe('customer-update');
    });
  });

  describe("each kind it reports, breaking and look-alike (the false positives found on production's document at cf2510ed)", () => {
    const kinds = contractDiff(load('kinds-ours.yaml'), load('kinds-newer.yaml'), map).map(line).sort();

    it('a field required inside a new optional object is not breaking; a new required field of an object we send is', () => {
      expect(kinds.filter((l) => l.includes(' request '))).toEqual([
        'BREAKING POST /customers request businessInfo.country: new required field (we do not send it)',
        'ok POST /customers request endUserTermsConsent.acceptedAt: new field, required within the new optional endUserTermsConsent',
        'ok POST /customers request endUserTermsConsent.fee.amount: new field, required within the new optional endUserTermsConsent',
        'ok POST /customers request endUserTermsConsent.fee: new field, required within the new optional endUserTermsConsent',
        'ok POST /customers request endUserTermsConsent: new optional field',
      ]);
    });

    it('a response field optional only in a variant we lack (CARD) is still present in ours; one optional in our variants is breaking', () => {
      expect(kinds.filter((l) => l.includes('GET /transactions/'))).toEqual([
        'BREAKING GET /transactions/{transactionId} response 200 createdAt: now optional (we read it as always present)',
        'BREAKING GET /transactions/{transactionId} response 200 type: new values: CARD (closed set here)',
        'ok GET /transactions/{transactionId} response 200 destination: optional only in variants we do not have (required when type is INCOMING, OUTGOING)',
      ]);
    });

    it('a field ten levels deep through arrays and unions is compared, not read as removed', () => {
      expect(kinds.filter((l) => l.includes(' response 200 l1'))).toEqual([
        'BREAKING POST /customers response 200 l1[].l3.l5.city: now optional (we read it as always present)',
      ]);
      expect(flatten(load('kinds-ours.yaml'), { $ref: '#/components/schemas/Deep' }).get('l1[].l3.l5.line1')).toMatchObject({ required: true });
    });

    it('lists nothing else', () => {
      expect(kinds).toHaveLength(9);
    });
  });

  it.skipIf(productionDocumentPath() === undefined)(
    "docs/production.md carries the tool's counts on production's document (cf2510ed)",
    { timeout: 60_000 },
    () => {
      const repoMap = JSON.parse(readFileSync(fileURLToPath(new URL('../../openapi/production-map.json', import.meta.url)), 'utf8'));
      const ours = parse(readFileSync(fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url)), 'utf8'));
      const changes = contractDiff(ours, productionDocument(), repoMap);
      const breaking = changes.filter((c) => c.breaking);
      const page = readFileSync(fileURLToPath(new URL('../../docs/production.md', import.meta.url)), 'utf8');
      expect(page).toContain('```text\n' + `${changes.length} changes, ${breaking.length} breaking for us\n` + '```');
      const thousands = (n: number) => n.toLocaleString('en-US');
      expect(page).toContain(`| **total** | **${thousands(breaking.length)}** | **${thousands(changes.length - breaking.length)}** |`);
      const onWebhooks = breaking.filter((c) => c.where.startsWith('webhook ')).length;
      expect(page).toContain(`(${breaking.length - onWebhooks} on shared operations, ${onWebhooks} on webhooks)`);
      // Each kind's row: the breaking lines of the kind the page names first.
      expect(page).toContain(
        `| request field now required when a variant is chosen (external accounts, credentials) | ${breaking.filter((c) => c.what.startsWith('now required when') || c.what.startsWith('new field, required when')).length} | |`,
      );
      expect(page).toContain(
        `| response field now optional (we read it as always present) | ${breaking.filter((c) => c.what === 'now optional (we read it as always present)').length} | |`,
      );
      expect(page).toContain(
        `| field required inside a new optional object | | ${changes.filter((c) => c.what.startsWith('new field, required within the new optional')).length} |`,
      );
    },
  );

  it('runs as npm run contract:diff, reading the repository table by default', { timeout: 60_000 }, () => {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/contract-diff.ts', fixture('newer.yaml'), '--base', fixture('ours.yaml'), '--map', fixture('map.json')],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out).toBe(renderChanges(changes, `${fixture('newer.yaml')} (info.version 2026-01-01) against ${fixture('ours.yaml')}`) + '\n');
    expect(out.trim().split('\n').at(-1)).toBe('20 changes, 10 breaking for us');
    // Our own document against itself through openapi/production-map.json: only the names the table renames
    // for production differ (headers, webhook keys); nothing breaks.
    const self = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/contract-diff.ts', 'openapi/openapi.yaml'], { cwd: root, encoding: 'utf8' });
    const selfLines = self.trim().split('\n');
    expect(selfLines.at(-1)).toMatch(/^\d+ changes, 0 breaking for us$/);
    const renamed = (l: string) =>
      /header {2}(grid|service)-wallet-signature: (new optional parameter|removed)$/.test(l) ||
      /^ok {6} {2}webhook \S+ {2}webhook {2}\S+: (not in production \(no longer sent; handlers stay harmless\)|new webhook \(verified deliveries of unknown types are kept\))$/.test(
        l,
      );
    expect(selfLines.slice(1, -1).filter((l) => !renamed(l))).toEqual([]);
  });
});
