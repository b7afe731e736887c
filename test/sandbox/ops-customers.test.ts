/**
 * Production's operations on invitations and customers (issue 34, section 2), through the SDK against the
 * sandbox in-process (msw) and over HTTP on 127.0.0.1: invitations by code (get, claim, cancel), the
 * end-user terms, and the CSV customer import with its job. Values and state consequences are asserted:
 * a claimed or cancelled invitation cannot be claimed again, the import's customers exist (made through
 * the same checks as POST /customers), its bad rows are failed entries, and the webhooks are sent.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BadRequestError, Crossborder, NotFoundError } from '../../src/index';
import { createClock, createSandbox, type Sandbox } from '../../src/sandbox/index';
import { sandboxHandlers } from '../../src/sandbox/msw';
import { productionDocument, productionDocumentPath } from '../helpers/production-document';
import { AUTH, VERSION } from './helpers';

const HEADER = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,businessLegalName,businessTaxId';

/** The error a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe.each(['msw', 'http'] as const)('through the SDK, sandbox %s', (mode) => {
  let sandbox: Sandbox;
  let cb: Crossborder;
  let close: () => Promise<void> | void;
  let base: string;
  const delivered: { body: string; headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    // Frozen: time moves only by advance(), so a job's steps and the timestamps are exact on a busy machine.
    sandbox = createSandbox({
      clock: createClock(undefined, { frozen: true }),
      webhookDelivery: {
        fetch: async (_url, init) => {
          delivered.push({ body: init.body as string, headers: init.headers as Record<string, string> });
          return new Response(null, { status: 200 });
        },
      },
    });
    if (mode === 'http') {
      const server = await sandbox.listen(0, '127.0.0.1');
      base = server.url;
      close = () => sandbox.close();
    } else {
      const msw = setupServer(...sandboxHandlers(sandbox));
      msw.listen({ onUnhandledRequest: 'error' });
      base = 'https://api.sandbox-msw.example';
      close = () => {
        msw.close();
        return sandbox.close();
      };
    }
    cb = new Crossborder({
      tokenId: 'tok_sandbox',
      clientSecret: 'sk_sandbox',
      environment: 'sandbox',
      baseUrl: base,
      webhookPublicKey: sandbox.webhookPublicKey.pem,
      maxRetries: 0,
    });
  });
  afterAll(() => close());
  beforeEach(async () => {
    sandbox.reset();
    delivered.length = 0;
    await cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
  });

  /** The verified, unwrapped webhook events delivered so far, of `type`. */
  async function events(type: string) {
    await sandbox.webhooks.flush();
    const all = await Promise.all(delivered.map((d) => cb.webhooks.unwrap(d.body, d.headers)));
    return all.filter((e) => e.type === type);
  }

  async function inviter() {
    await cb.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', region: 'US', umaAddress: '$ada@platform.example' });
    return cb.invitations.create({ inviterUma: '$ada@platform.example', firstName: 'Ada', amountToSend: 2_000 });
  }

  it('invitations: get, claim once (INVITATION.CLAIMED), and no second claim or cancel', async () => {
    const invitation = await inviter();
    const read = await cb.invitations.retrieve(invitation.code);
    expect(read).toEqual(invitation);
    expect(read.status).toBe('PENDING');

    const claimed = await cb.invitations.claim(invitation.code, { inviteeUma: '$grace@wallet.example' });
    expect(claimed).toMatchObject({ code: invitation.code, status: 'CLAIMED', inviteeUma: '$grace@wallet.example', inviterUma: '$ada@platform.example' });
    expect(claimed.claimedAt).toBe(new Date(sandbox.clock.now()).toISOString());
    expect(await cb.invitations.retrieve(invitation.code)).toEqual(claimed);

    const again = await failure(cb.invitations.claim(invitation.code, { inviteeUma: '$eve@wallet.example' }));
    expect(again).toBeInstanceOf(BadRequestError);
    expect([again.status, again.code]).toEqual([400, 'INVITATION_ALREADY_CLAIMED']);
    const cancel = await failure(cb.invitations.cancel(invitation.code));
    expect([cancel.status, cancel.code]).toEqual([400, 'INVITATION_ALREADY_CLAIMED']);
    // Nothing changed: still Grace's.
    expect((await cb.invitations.retrieve(invitation.code)).inviteeUma).toBe('$grace@wallet.example');

    const sent = await events('INVITATION.CLAIMED');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toEqual(claimed);
    expect(sent[0]!.issues).toBeUndefined();
  });

  it('invitations: a cancelled one cannot be claimed; unknown codes are 404; bad invitee and expiry refused', async () => {
    const invitation = await inviter();
    const cancelled = await cb.invitations.cancel(invitation.code);
    expect(cancelled).toMatchObject({ code: invitation.code, status: 'CANCELLED' });
    expect(cancelled.claimedAt).toBeUndefined();
    const claim = await failure(cb.invitations.claim(invitation.code, { inviteeUma: '$grace@wallet.example' }));
    expect([claim.status, claim.code]).toEqual([400, 'INVITATION_CANCELLED']);
    const twice = await failure(cb.invitations.cancel(invitation.code));
    expect([twice.status, twice.code]).toEqual([400, 'INVITATION_CANCELLED']);
    expect((await cb.invitations.retrieve(invitation.code)).status).toBe('CANCELLED');
    expect(await events('INVITATION.CLAIMED')).toHaveLength(0);

    for (const call of [
      () => cb.invitations.retrieve('INV-NOPE'),
      () => cb.invitations.claim('INV-NOPE', { inviteeUma: '$grace@wallet.example' }),
      () => cb.invitations.cancel('INV-NOPE'),
    ]) {
      const error = await failure(call());
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.code).toBe('INVITATION_NOT_FOUND');
    }

    const other = await cb.invitations.create({ inviterUma: '$ada@platform.example' });
    const badInvitee = await failure(cb.invitations.claim(other.code, { inviteeUma: 'grace' }));
    expect([badInvitee.status, badInvitee.code, badInvitee.details?.field]).toEqual([400, 'INVALID_UMA_ADDRESS', 'inviteeUma']);
    expect((await cb.invitations.retrieve(other.code)).status).toBe('PENDING');

    const soon = await cb.invitations.create({ inviterUma: '$ada@platform.example', expiresAt: new Date(sandbox.clock.now() + 60_000).toISOString() });
    sandbox.clock.advance(61_000);
    expect((await cb.invitations.retrieve(soon.code)).status).toBe('EXPIRED');
    const expired = await failure(cb.invitations.claim(soon.code, { inviteeUma: '$grace@wallet.example' }));
    expect([expired.status, expired.code, expired.details?.status]).toEqual([400, 'INVALID_INPUT', 'EXPIRED']);
  });

  it('end-user terms: the current version and its URL (not taken for a customer id)', async () => {
    expect(await cb.customers.endUserTerms()).toEqual({ version: 'V1', url: 'https://www.lightspark.com/legal/grid/enduserterms' });
  });

  it('CSV import: rows become customers through POST /customers’ checks; bad rows are failed entries; BULK_UPLOAD.COMPLETED', async () => {
    await cb.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Taken', region: 'US', umaAddress: '$taken@platform.example' });
    const csv = [
      HEADER,
      '$ada@platform.example,cust-1,INDIVIDUAL,Ada Lovelace,1990-12-10,12 Analytical Way,Austin,TX,78701,US,,',
      'acme@platform.example,biz-2,BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,"Acme Widgets, LLC",98-7654321',
      '$globex@platform.example,biz-3,BUSINESS,,,1 Main St,Austin,TX,78701,US,,',
      '$taken@platform.example,cust-4,INDIVIDUAL,Eve,1991-01-01,1 Main St,Austin,TX,78701,US,,',
      '$bad@platform.example,cust-5,INDIVIDUAL,Bad Date,1990-13-45,1 Main St,Austin,TX,78701,US,,',
      ',,INDIVIDUAL,No Ids,1990-01-01,1 Main St,Austin,TX,78701,US,,',
    ].join('\r\n');
    const uploaded = sandbox.clock.now();
    const accepted = await cb.customers.importCsv({ file: csv });
    expect(accepted.status).toBe('PENDING');
    expect(accepted.jobId).toMatch(/^Job:/);
    const pending = await cb.customers.retrieveImportJob(accepted.jobId);
    expect(pending).toMatchObject({ id: accepted.jobId, status: 'PENDING', progress: { total: 6, processed: 0, successful: 0, failed: 0 } });
    expect(sandbox.state.snapshot().customers).toHaveLength(1); // nothing created yet

    sandbox.clock.advance(1_000);
    const job = await cb.customers.retrieveImportJob(accepted.jobId);
    expect(job.status).toBe('COMPLETED');
    expect(job.progress).toEqual({ total: 6, processed: 6, successful: 2, failed: 4 });
    expect(job.completedAt).toBe(new Date(uploaded + 1_000).toISOString());
    expect(job.errors!.map((e) => [e.correlationId, e.code, (e.details as { field?: string }).field])).toEqual([
      ['biz-3', 'INVALID_INPUT', 'businessLegalName'],
      ['cust-4', 'INVALID_UMA_ADDRESS', 'umaAddress'],
      ['cust-5', 'INVALID_INPUT', 'birthDate'],
      ['row_6', 'INVALID_INPUT', 'umaAddress'],
    ]);

    const [ada] = (await cb.customers.list({ platformCustomerId: 'cust-1' })).data;
    expect(ada).toMatchObject({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      umaAddress: '$ada@platform.example',
      region: 'US',
      currencies: ['USD'],
    });
    expect((ada as { address?: unknown }).address).toEqual({ line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' });
    const [acme] = (await cb.customers.list({ platformCustomerId: 'biz-2' })).data;
    expect(acme).toMatchObject({
      customerType: 'BUSINESS',
      umaAddress: '$acme@platform.example',
      businessInfo: { legalName: 'Acme Widgets, LLC', taxId: '98-7654321' },
    });
    // Internal accounts were opened with them, as POST /customers does.
    expect((await cb.internalAccounts.list({ customerId: acme!.id })).data.map((a) => a.balance.currency.code)).toEqual(['USD']);
    expect(sandbox.state.snapshot().customers).toHaveLength(3);

    const sent = await events('BULK_UPLOAD.COMPLETED');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toEqual(job);
    expect(sent[0]!.issues).toBeUndefined();
  });

  it('CSV import: PENDING, then PROCESSING 100 rows a second, then COMPLETED; the job survives a state export and import', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `$c${i}@platform.example,c-${i},INDIVIDUAL,Customer ${i},1990-01-01,1 Main St,Austin,TX,78701,US,,`);
    const { jobId } = await cb.customers.importCsv({ file: [HEADER, ...rows].join('\n') });
    sandbox.clock.advance(1_000);
    expect(await cb.customers.retrieveImportJob(jobId)).toMatchObject({
      status: 'PROCESSING',
      progress: { total: 150, processed: 100, successful: 100, failed: 0 },
    });
    expect((await cb.customers.retrieveImportJob(jobId)).completedAt).toBeUndefined();

    const saved = sandbox.exportState();
    sandbox.reset();
    await expect(cb.customers.retrieveImportJob(jobId)).rejects.toMatchObject({ status: 404, code: 'BULK_UPLOAD_JOB_NOT_FOUND' });
    sandbox.importState(saved);
    expect(sandbox.state.snapshot().bulkImports.map((j) => [j.id, j.status])).toEqual([[jobId, 'PROCESSING']]);
    sandbox.clock.advance(1_000);
    const done = await cb.customers.retrieveImportJob(jobId);
    expect(done).toMatchObject({ status: 'COMPLETED', progress: { total: 150, processed: 150, successful: 150, failed: 0 }, errors: [] });
    expect(sandbox.state.snapshot().customers).toHaveLength(150);
  });

  it('CSV import: a file without a required column fails every row (BULK_UPLOAD.FAILED); an empty file and a JSON body are refused', async () => {
    const { jobId } = await cb.customers.importCsv({ file: 'platformCustomerId,customerType,fullName\ncust-1,INDIVIDUAL,Ada\ncust-2,INDIVIDUAL,Grace\n' });
    sandbox.clock.advance(1_000);
    const job = await cb.customers.retrieveImportJob(jobId);
    expect(job.status).toBe('FAILED');
    expect(job.progress).toEqual({ total: 2, processed: 2, successful: 0, failed: 2 });
    expect(job.errors!.map((e) => [e.correlationId, e.code, e.details])).toEqual([
      ['cust-1', 'INVALID_INPUT', { field: 'umaAddress', reason: 'missing_required_column', column: 'umaAddress' }],
      ['cust-2', 'INVALID_INPUT', { field: 'umaAddress', reason: 'missing_required_column', column: 'umaAddress' }],
    ]);
    expect(sandbox.state.snapshot().customers).toHaveLength(0);
    const sent = await events('BULK_UPLOAD.FAILED');
    expect(sent.map((e) => e.data)).toEqual([job]);

    const empty = await failure(cb.customers.importCsv({ file: '\n' }));
    expect([empty.status, empty.code, empty.details?.field]).toEqual([400, 'INVALID_INPUT', 'file']);
    const unknown = await failure(cb.customers.retrieveImportJob('Job:nope'));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.code).toBe('BULK_UPLOAD_JOB_NOT_FOUND');

    // The operation takes multipart/form-data: a JSON body is refused naming the body, and creates no job.
    const raw = await fetch(`${base}/${VERSION}/customers/bulk/csv`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ file: 'a,b' }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'body' } });
    expect(sandbox.state.snapshot().bulkImports).toHaveLength(1);
  });
});

describe("production's own requests for these operations, sent by the SDK and accepted by the sandbox", () => {
  it.skipIf(productionDocumentPath() === undefined)('the CSV of its upload description, and the invitee of its claim schema', async () => {
    const paths = productionDocument().paths;
    const description: string = paths['/customers/bulk/csv'].post.description;
    const csv = /```csv\n([\s\S]*?)```/.exec(description)![1]!;
    const inviteeUma: string = productionDocument().components.schemas.UmaInvitationClaimRequest.properties.inviteeUma.example;
    const sandbox = createSandbox({ clock: createClock(undefined, { frozen: true }) });
    try {
      const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl: 'http://sandbox.test', fetch: sandbox.fetch });
      const { jobId, status } = await cb.customers.importCsv({ file: csv });
      expect(status).toBe('PENDING');
      sandbox.clock.advance(1_000);
      const job = await cb.customers.retrieveImportJob(jobId);
      // Its first row is a customer; its second (a BUSINESS row whose cells stop before businessLegalName) fails, naming the column.
      expect(job.progress).toEqual({ total: 2, processed: 2, successful: 1, failed: 1 });
      expect(job.errors!.map((e) => [e.correlationId, (e.details as { field?: string }).field])).toEqual([['biz456', 'businessLegalName']]);
      expect((await cb.customers.list({ platformCustomerId: 'customer123' })).data[0]).toMatchObject({
        fullName: 'John Doe',
        umaAddress: '$john.doe@uma.domain.com',
      });

      const invitation = await cb.invitations.create({ inviterUma: '$john.doe@uma.domain.com' });
      expect(await cb.invitations.claim(invitation.code, { inviteeUma })).toMatchObject({ status: 'CLAIMED', inviteeUma });
    } finally {
      await sandbox.close();
    }
  });
});
