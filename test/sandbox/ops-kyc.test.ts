/**
 * Production's KYC/KYB operations (issue 34, section 2): the hosted KYC link, beneficial owners, and
 * submitting and reading verifications, through the SDK against the in-process sandbox (msw) and the
 * sandbox over HTTP on 127.0.0.1: values, state consequences (a business's KYB fed by its owners, a
 * deleted customer's owners and verifications gone) and the webhooks sent, unwrapped and typed.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, Crossborder, NotFoundError } from '../../src/index';
import { assess, requirementsOf } from '../../src/sandbox/domain/kyc';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { sandboxHandlers } from '../../src/sandbox/msw';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import { productionDocument, productionDocumentPath } from '../helpers/production-document';
import { ADDRESS, PERSON } from './helpers';

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

interface World {
  sandbox: Sandbox;
  cb: Crossborder;
  deliveries: Delivery[];
  close(): Promise<void>;
}

function newSandbox(deliveries: Delivery[]): Sandbox {
  return createSandbox({
    webhookDelivery: {
      fetch: async (_url, init) => {
        deliveries.push({ body: init.body as string, headers: init.headers as Record<string, string> });
        return new Response(null, { status: 200 });
      },
    },
  });
}

function client(sandbox: Sandbox, baseUrl: string): Crossborder {
  return new Crossborder({
    tokenId: 'tok_sandbox',
    clientSecret: 'sk_sandbox',
    environment: 'sandbox',
    baseUrl,
    maxRetries: 0,
    webhookPublicKey: sandbox.webhookPublicKey.pem,
  });
}

const worlds: [string, () => Promise<World>][] = [
  [
    'in-process (msw)',
    async () => {
      const deliveries: Delivery[] = [];
      const sandbox = newSandbox(deliveries);
      const msw = setupServer(...sandboxHandlers(sandbox));
      msw.listen({ onUnhandledRequest: 'error' });
      return {
        sandbox,
        cb: client(sandbox, 'https://api.kyc-ops.example'),
        deliveries,
        close: async () => {
          msw.close();
          await sandbox.close();
        },
      };
    },
  ],
  [
    'HTTP on 127.0.0.1',
    async () => {
      const deliveries: Delivery[] = [];
      const sandbox = newSandbox(deliveries);
      const server: SandboxServer = await sandbox.listen();
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      return { sandbox, cb: client(sandbox, server.url), deliveries, close: () => sandbox.close() };
    },
  ],
];

/** The webhooks delivered so far, verified and unwrapped by the SDK: type, data id and drift. */
async function events(world: World): Promise<{ type: string; id: string; issues: unknown }[]> {
  await world.sandbox.webhooks.flush();
  const out = [];
  for (const d of world.deliveries.splice(0)) {
    const event = await world.cb.webhooks.unwrap(d.body, d.headers);
    out.push({ type: String(event.type), id: (event.data as { id: string }).id, issues: event.issues });
  }
  return out;
}

const BUSINESS = {
  customerType: 'BUSINESS' as const,
  region: 'US',
  businessInfo: { legalName: 'Acme Widgets LLC', taxId: '12-3456789', incorporatedOn: '2019-03-01' },
  address: ADDRESS,
};
const OWNER = { roles: ['UBO'], ownershipPercentage: 60, personalInfo: PERSON };

describe.each(worlds)('KYC/KYB operations, %s', (_name, make) => {
  let world: World;
  let cb: Crossborder;
  beforeAll(async () => {
    world = await make();
    cb = world.cb;
    await cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
  });
  afterAll(() => world.close());
  afterEach(() => void world.deliveries.splice(0));

  it("a business's KYB follows its beneficial owners: owner and control person missing, then given; each submission is a verification of its own", async () => {
    const business = await cb.customers.create(BUSINESS);
    expect(business.kycStatus).toBe('UNVERIFIED');

    const first = await cb.verifications.create({ customerId: business.id });
    expect(first).toMatchObject({ customerId: business.id, verificationStatus: 'RESOLVE_ERRORS' });
    expect(first.errors).toEqual([
      { resourceId: business.id, type: 'MISSING_BENEFICIAL_OWNER', reason: expect.stringContaining('25%') },
      { resourceId: business.id, type: 'MISSING_CONTROL_PERSON', reason: expect.stringContaining('CONTROL_PERSON') },
    ]);
    expect(await cb.verifications.retrieve(first.id)).toEqual(first);

    const owner = await cb.beneficialOwners.create({ customerId: business.id, ...OWNER });
    expect(owner).toMatchObject({ customerId: business.id, roles: ['UBO'], ownershipPercentage: 60, personalInfo: PERSON, kycStatus: 'APPROVED' });
    expect(owner.id).toMatch(/^BeneficialOwner:/);
    expect(await cb.beneficialOwners.retrieve(owner.id)).toEqual(owner);

    const second = await cb.verifications.create({ customerId: business.id });
    expect(second.id).not.toBe(first.id);
    expect([second.verificationStatus, second.errors?.map((e) => e.type)]).toEqual(['RESOLVE_ERRORS', ['MISSING_CONTROL_PERSON']]);

    // Making the owner the control person approves the business: the latest verification follows.
    const updated = await cb.beneficialOwners.update(owner.id, { roles: ['UBO', 'CONTROL_PERSON'], personalInfo: { email: 'jane@acme.example' } });
    expect(updated.roles).toEqual(['UBO', 'CONTROL_PERSON']);
    expect(updated.personalInfo).toEqual({ ...PERSON, email: 'jane@acme.example' }); // the other fields stay
    expect((await cb.customers.retrieve(business.id)).kycStatus).toBe('APPROVED');
    expect((await cb.verifications.retrieve(second.id)).verificationStatus).toBe('APPROVED');
    const third = await cb.verifications.create({ customerId: business.id });
    expect([third.verificationStatus, third.errors]).toEqual(['APPROVED', []]);

    const owners = await cb.beneficialOwners.list({ customerId: business.id });
    expect(owners.data.map((o) => [o.id, o.roles])).toEqual([[owner.id, ['UBO', 'CONTROL_PERSON']]]);
    const listed = [];
    for await (const v of cb.verifications.list({ customerId: business.id, limit: 1 })) listed.push(v.id);
    expect(listed).toHaveLength(4); // the one made with the customer, and the three submissions
    expect(listed).toEqual(expect.arrayContaining([first.id, second.id, third.id]));
    // The first submission kept what it said when the next one was made.
    expect((await cb.verifications.retrieve(first.id)).errors?.map((e) => e.type)).toEqual(['MISSING_CONTROL_PERSON']);

    expect(await events(world)).toEqual([
      { type: 'VERIFICATION.RESOLVE_ERRORS', id: first.id, issues: undefined },
      { type: 'VERIFICATION.RESOLVE_ERRORS', id: first.id, issues: undefined }, // the owner removed an error
      { type: 'VERIFICATION.RESOLVE_ERRORS', id: second.id, issues: undefined },
      { type: 'VERIFICATION.APPROVED', id: second.id, issues: undefined },
      { type: 'CUSTOMER.KYC_APPROVED', id: business.id, issues: undefined },
      { type: 'VERIFICATION.APPROVED', id: third.id, issues: undefined },
    ]);
  });

  it('an owner who fails KYC holds the business back (APPLICANT_REJECTED); one in review holds it PENDING', async () => {
    const business = await cb.customers.create(BUSINESS);
    const rejected = await cb.beneficialOwners.create({
      customerId: business.id,
      ...OWNER,
      roles: ['CONTROL_PERSON'],
      personalInfo: { ...PERSON, lastName: 'Smith Rejected' },
    });
    expect(rejected.kycStatus).toBe('REJECTED');
    const v = await cb.verifications.create({ customerId: business.id });
    expect(v.errors).toEqual([{ resourceId: rejected.id, type: 'APPLICANT_REJECTED', reason: 'This beneficial owner did not pass KYC.' }]);

    const pending = await cb.beneficialOwners.update(rejected.id, { personalInfo: { lastName: 'Smith Pending' } });
    expect(pending.kycStatus).toBe('PENDING');
    expect((await cb.customers.retrieve(business.id)).kycStatus).toBe('PENDING');
    expect((await cb.verifications.retrieve(v.id)).verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    expect((await events(world)).map((e) => [e.type, e.id])).toEqual([
      ['VERIFICATION.RESOLVE_ERRORS', expect.stringMatching(/^Verification:/)], // the owner changed the errors of the customer's first verification
      ['VERIFICATION.RESOLVE_ERRORS', v.id],
      ['VERIFICATION.PENDING_MANUAL_REVIEW', v.id],
      ['CUSTOMER.KYC_PENDING', business.id],
    ]);
  });

  it('an individual: submitting names the missing fields; a rejected one is REJECTED with its webhooks', async () => {
    const ada = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace', birthDate: '1990-12-10', nationality: 'GB' });
    const v = await cb.verifications.create({ customerId: ada.id });
    expect([v.verificationStatus, v.errors?.map((e) => [e.type, e.field])]).toEqual(['RESOLVE_ERRORS', [['MISSING_FIELD', 'address']]]);
    await cb.customers.update(ada.id, { customerType: 'INDIVIDUAL', fullName: 'Ada Rejected', address: ADDRESS });
    const after = await cb.verifications.create({ customerId: ada.id });
    expect([after.verificationStatus, after.errors]).toEqual(['REJECTED', []]);
    expect((await events(world)).map((e) => e.type)).toEqual([
      'VERIFICATION.RESOLVE_ERRORS',
      'VERIFICATION.REJECTED',
      'CUSTOMER.KYC_REJECTED',
      'VERIFICATION.REJECTED',
    ]);
  });

  it('refuses what production refuses: an owner of a customer that is not a business, unknown ids, a deleted customer', async () => {
    const ada = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const notBusiness = await cb.beneficialOwners.create({ customerId: ada.id, ...OWNER }).catch((e: unknown) => e);
    expect(notBusiness).toBeInstanceOf(BadRequestError);
    expect([(notBusiness as BadRequestError).code, (notBusiness as BadRequestError).field]).toEqual(['INVALID_INPUT', 'customerId']);

    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e: unknown) => (e instanceof NotFoundError ? e.code : String(e)),
      );
    expect(await codeOf(cb.beneficialOwners.create({ customerId: 'Customer:nope', ...OWNER }))).toBe('CUSTOMER_NOT_FOUND');
    expect(await codeOf(cb.beneficialOwners.retrieve('BeneficialOwner:nope'))).toBe('BENEFICIAL_OWNER_NOT_FOUND');
    expect(await codeOf(cb.beneficialOwners.update('BeneficialOwner:nope', { ownershipPercentage: 1 }))).toBe('BENEFICIAL_OWNER_NOT_FOUND');
    expect(await codeOf(cb.verifications.retrieve('Verification:nope'))).toBe('VERIFICATION_NOT_FOUND');
    expect(await codeOf(cb.verifications.create({ customerId: 'Customer:nope' }))).toBe('CUSTOMER_NOT_FOUND');
    expect(await codeOf(cb.customers.createKycLink('Customer:nope'))).toBe('CUSTOMER_NOT_FOUND');

    const business = await cb.customers.create(BUSINESS);
    const owner = await cb.beneficialOwners.create({ customerId: business.id, ...OWNER });
    const v = await cb.verifications.create({ customerId: business.id });
    await cb.customers.delete(business.id);
    expect(await codeOf(cb.beneficialOwners.retrieve(owner.id))).toBe('BENEFICIAL_OWNER_NOT_FOUND');
    expect(await codeOf(cb.verifications.retrieve(v.id))).toBe('VERIFICATION_NOT_FOUND');
    expect((await cb.beneficialOwners.list({ customerId: business.id })).data).toEqual([]);
  });

  it('the KYC link: fresh on each call, redirectUri embedded, status unchanged; an Idempotency-Key replays it', async () => {
    const ada = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const redirectUri = 'https://app.example.com/onboarding/completed?step=2';
    const { data: link, response } = await cb.customers.createKycLink(ada.id, { redirectUri }).withResponse();
    expect(response.status).toBe(201);
    expect(link.provider).toBe('SUMSUB');
    expect(link.token).toMatch(/^_act-sbx-[0-9a-f]{24}$/);
    const url = new URL(link.kycUrl);
    expect([url.protocol, url.searchParams.get('redirectUri'), url.searchParams.get('customer')]).toEqual(['https:', redirectUri, ada.id]);
    const left = Date.parse(link.expiresAt) - world.sandbox.clock.now(); // the sandbox clock runs: within the seconds this test took
    expect(left).toBeGreaterThan(24 * 60 * 60_000 - 10_000);
    expect(left).toBeLessThanOrEqual(24 * 60 * 60_000);

    const again = await cb.customers.createKycLink(ada.id);
    expect(again.kycUrl).not.toBe(link.kycUrl);
    expect(new URL(again.kycUrl).searchParams.has('redirectUri')).toBe(false);
    expect((await cb.customers.retrieve(ada.id)).kycStatus).toBe(ada.kycStatus);

    const keyed = await cb.customers.createKycLink(ada.id, { redirectUri }, { idempotencyKey: 'kyc-link-1' }).withResponse();
    const replay = await cb.customers.createKycLink(ada.id, { redirectUri }, { idempotencyKey: 'kyc-link-1' }).withResponse();
    expect(replay.data).toEqual(keyed.data);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');

    const bad = await cb.customers.createKycLink(ada.id, { redirectUri: 'ftp://files.example/done' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect((bad as BadRequestError).field).toBe('redirectUri');
    // No link changes a status: the only event may be the RESOLVE_ERRORS that creating an incomplete customer
    // sends (delivered when the sandbox gets to it, so possibly only now).
    expect((await events(world)).filter((e) => e.type !== 'VERIFICATION.RESOLVE_ERRORS')).toEqual([]);
  });

  it('beneficial owners and verifications survive the state file', async () => {
    const business = await cb.customers.create(BUSINESS);
    const owner = await cb.beneficialOwners.create({ customerId: business.id, ...OWNER, roles: ['CONTROL_PERSON'] });
    const v = await cb.verifications.create({ customerId: business.id });
    const saved = world.sandbox.exportState();
    world.sandbox.reset();
    expect(await cb.beneficialOwners.list({ customerId: business.id })).toMatchObject({ data: [] });
    world.sandbox.importState(saved);
    expect(await cb.beneficialOwners.retrieve(owner.id)).toEqual(owner);
    expect(await cb.verifications.retrieve(v.id)).toEqual(v);
    expect(world.sandbox.state.snapshot().beneficialOwners.map((o) => o.id)).toContain(owner.id);
  });

  it.skipIf(productionDocumentPath() === undefined)("production's request examples (its schemas' examples) are sent by the SDK and accepted", async () => {
    const business = await cb.customers.create(BUSINESS);
    const ownerBody: Record<string, any> = { ...exampleOf('BeneficialOwnerCreateRequest'), customerId: business.id };
    expect(ownerBody).toMatchObject({
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 51,
      personalInfo: { firstName: 'Jane', idType: 'SSN', address: { postalCode: '94105' } },
    });
    const owner = await cb.beneficialOwners.create(ownerBody as never);
    expect(owner.personalInfo).toEqual(ownerBody.personalInfo);
    const update = exampleOf('BeneficialOwnerUpdateRequest');
    expect((await cb.beneficialOwners.update(owner.id, update as never)).ownershipPercentage).toBe(51);
    const link = exampleOf('KycLinkCreateRequest');
    expect(new URL((await cb.customers.createKycLink(business.id, link as never)).kycUrl).searchParams.get('redirectUri')).toBe(link.redirectUri);
    const verification = { ...exampleOf('VerificationRequest'), customerId: business.id };
    expect((await cb.verifications.create(verification as never)).customerId).toBe(business.id);
  });
});

/**
 * A request body made of production's own examples: its document gives these operations no request
 * example, so the body is the `example` of each field of the schema (as its docs site renders them).
 */
function exampleOf(name: string): Record<string, any> {
  const schemas = productionDocument().components.schemas;
  const build = (schema: Record<string, any>): unknown => {
    if (schema.$ref) return build(schemas[String(schema.$ref).split('/').pop()!]);
    if (schema.example !== undefined) return structuredClone(schema.example);
    if (schema.properties) return Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, build(v as Record<string, any>)]));
    throw new Error(`no example for ${JSON.stringify(schema).slice(0, 80)}`);
  };
  return build(schemas[name]) as Record<string, any>;
}

describe('what KYC requires, by customer type', () => {
  it('a type named like a key of Object.prototype requires nothing (and is not found on the prototype)', () => {
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(requirementsOf(type)).toEqual([]);
      const customer = { id: 'Customer:x', platformCustomerId: 'p', customerType: type, umaAddress: '$x@y.example' } as never;
      expect(assess(customer)).toEqual({ kycStatus: 'APPROVED', verificationStatus: 'APPROVED', errors: [] });
    }
    expect(requirementsOf('INDIVIDUAL').map((r) => r.field)).toEqual(['fullName', 'birthDate', 'nationality', 'address']);
  });
});
