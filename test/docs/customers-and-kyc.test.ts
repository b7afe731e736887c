import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIError, ConflictError } from 'crossborder-sdk';
import { BadRequestError, NotFoundError } from 'crossborder-sdk';
import { createClock } from 'crossborder-sdk/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { importCustomers, importReport } from '../../examples/guides/customers-and-kyc/import';
import { accept, invite, withdraw } from '../../examples/guides/customers-and-kyc/invitations';
import { addOwner, owners, submitForReview } from '../../examples/guides/customers-and-kyc/kyb';
import { hostedKyc } from '../../examples/guides/customers-and-kyc/kyc-link';
import { addOwnWallet, proveOwnership } from '../../examples/guides/customers-and-kyc/ownership';
import { documentsOf, uploadAgain, uploadPassport } from '../../examples/guides/customers-and-kyc/documents';
import { currentTerms } from '../../examples/guides/customers-and-kyc/terms';
import { read, root } from './markdown';
import { verifyContacts } from '../../examples/guides/customers-and-kyc/contact-verification';
import { sandboxClient } from './support';

const ADDRESS = { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' };
const JANE = { firstName: 'Jane', lastName: 'Smith', birthDate: '1978-06-15', nationality: 'US', idType: 'SSN', identifier: '123-45-6789', address: ADDRESS };

describe('docs/customers-and-kyc.md', () => {
  // A frozen clock: only the test moves it (the import's job, the link's validity).
  const { sandbox, cb } = sandboxClient({ clock: createClock('2025-10-13T09:00:00Z', { frozen: true }) });
  afterAll(() => sandbox.close());

  it('end user terms: the current version and where it is hosted', async () => {
    expect(await currentTerms(cb)).toEqual({ version: 'V1', url: 'https://www.lightspark.com/legal/grid/enduserterms' });
  });

  it('hosted KYC: a fresh single-use link that carries the redirect, and no status change', async () => {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const first = await hostedKyc(cb, customer.id, 'https://app.example.com/onboarding/done');
    const second = await hostedKyc(cb, customer.id, 'https://app.example.com/onboarding/done');
    expect(first.url).toMatch(/^https:\/\//);
    expect(decodeURIComponent(first.url)).toContain('https://app.example.com/onboarding/done');
    expect(second.url).not.toBe(first.url);
    expect(Date.parse(first.validUntil) - sandbox.clock.now()).toBe(24 * 3_600_000);
    expect((await cb.customers.retrieve(customer.id)).kycStatus).toBe(customer.kycStatus);
  });

  it('KYB: the verification names what is missing; one owner who also controls the business approves it', async () => {
    const business = await cb.customers.create({
      customerType: 'BUSINESS',
      region: 'US',
      businessInfo: { legalName: 'Acme Widgets LLC', taxId: '12-3456789', incorporatedOn: '2019-03-01' },
      address: ADDRESS,
    });
    expect(await submitForReview(cb, business.id)).toEqual({ status: 'RESOLVE_ERRORS', missing: ['MISSING_BENEFICIAL_OWNER', 'MISSING_CONTROL_PERSON'] });
    const owner = await addOwner(cb, business.id, JANE, 60, true);
    expect(owner).toMatchObject({ customerId: business.id, roles: ['UBO', 'CONTROL_PERSON'], ownershipPercentage: 60, kycStatus: 'APPROVED' });
    expect(await submitForReview(cb, business.id)).toEqual({ status: 'APPROVED', missing: [] });
    expect((await cb.customers.retrieve(business.id)).kycStatus).toBe('APPROVED');
    expect(await owners(cb, business.id)).toEqual(['Jane Smith (UBO, CONTROL_PERSON): APPROVED']);
  });

  it('KYB: an owner without the control role leaves MISSING_CONTROL_PERSON', async () => {
    const business = await cb.customers.create({
      customerType: 'BUSINESS',
      region: 'US',
      businessInfo: { legalName: 'Globex LLC', taxId: '12-0000001', incorporatedOn: '2020-01-01' },
      address: ADDRESS,
    });
    await addOwner(cb, business.id, JANE, 80, false);
    expect(await submitForReview(cb, business.id)).toEqual({ status: 'RESOLVE_ERRORS', missing: ['MISSING_CONTROL_PERSON'] });
  });

  it('the CSV import: every row of examples/customers-import.csv becomes the customer it describes', async () => {
    const csv = readFileSync(join(root, 'examples/customers-import.csv'), 'utf8');
    const before = sandbox.state.snapshot().customers.length;
    const jobId = await importCustomers(cb, csv);
    expect(jobId).toMatch(/^Job:/);
    expect((await importReport(cb, jobId)).status).toBe('PENDING');
    sandbox.clock.advance(1_000);
    expect(await importReport(cb, jobId)).toEqual({ status: 'COMPLETED', progress: { total: 3, processed: 3, successful: 3, failed: 0 }, failed: [] });
    expect(sandbox.state.snapshot().customers).toHaveLength(before + 3);
    const [grace] = (await cb.customers.list({ platformCustomerId: 'cust-1002' })).data;
    expect(grace).toMatchObject({ customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', birthDate: '1986-12-09', umaAddress: '$grace@yourplatform.example' });
    expect((grace as { address?: unknown }).address).toEqual({
      line1: '1 Navy Yard',
      line2: 'Apt 4',
      city: 'Arlington',
      state: 'VA',
      postalCode: '22202',
      country: 'US',
    });
    const [acme] = (await cb.customers.list({ platformCustomerId: 'biz-2001' })).data;
    expect(acme).toMatchObject({
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Acme Widgets, LLC', registrationNumber: '5512345', taxId: '98-7654321' },
    });
  });

  it('the CSV import: the page documents every column of the sample, and a row that fails names its column', async () => {
    const guide = read('docs/customers-and-kyc.md');
    const header = readFileSync(join(root, 'examples/customers-import.csv'), 'utf8').split('\n')[0]!.split(',');
    for (const column of header) expect(guide, column).toContain(`\`${column}\``);
    // The failure the page quotes: a guessed header without the UMA address fails every row, by name.
    const jobId = await importCustomers(cb, 'platformCustomerId,customerType,fullName\ncust-9,INDIVIDUAL,Eve\n');
    sandbox.clock.advance(1_000);
    const report = await importReport(cb, jobId);
    expect(report).toEqual({
      status: 'FAILED',
      progress: { total: 1, processed: 1, successful: 0, failed: 1 },
      failed: ['cust-9: INVALID_INPUT The CSV has no umaAddress column.'],
    });
    expect(guide).toContain('`The CSV has no umaAddress column.`');
    // A row without a business's legal name: its own entry, the others are made.
    const mixed = await importCustomers(cb, `${header.join(',')}\n$eve@yourplatform.example,biz-9,BUSINESS,,,1 Main St,,Austin,TX,78701,US,,,\n`);
    sandbox.clock.advance(1_000);
    expect((await importReport(cb, mixed)).failed).toEqual([expect.stringMatching(/^biz-9: INVALID_INPUT businessLegalName/)]);
  });

  it('invitations: read and claimed while PENDING; a claimed one is not claimed again; the inviter cancels another', async () => {
    // The inviter is a customer of the platform, by its UMA address.
    await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ivy Inviter', umaAddress: '$ivy@yourplatform.example' });
    const invitation = await invite(cb, '$ivy@yourplatform.example', 'Grace');
    expect(invitation.status).toBe('PENDING');
    const claimed = await accept(cb, invitation.code, '$grace@wallet.example');
    expect(claimed).toMatchObject({ code: invitation.code, status: 'CLAIMED', inviteeUma: '$grace@wallet.example' });
    // Already claimed: accept reads it and does not claim again.
    expect(await accept(cb, invitation.code, '$eve@wallet.example')).toMatchObject({ status: 'CLAIMED', inviteeUma: '$grace@wallet.example' });
    await expect(withdraw(cb, invitation.code)).rejects.toMatchObject({ status: 400, code: 'INVITATION_ALREADY_CLAIMED' });

    const other = await invite(cb, '$ivy@yourplatform.example', 'Sam');
    expect((await withdraw(cb, other.code)).status).toBe('CANCELLED');
    expect((await accept(cb, other.code, '$sam@wallet.example')).status).toBe('CANCELLED');
    await expect(cb.invitations.retrieve('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it("ownership: a FIRST_PARTY wallet starts pending, a wrong signature is refused, the wallet's signature makes it ACTIVE", async () => {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    const wallet = await addOwnWallet(cb, customer.id, 'sp1qdocsownedwallet00000000000000000000000000');
    expect(wallet).toMatchObject({ status: 'PENDING_OWNERSHIP_VERIFICATION', ownershipType: 'FIRST_PARTY' });
    const wrong = await proveOwnership(cb, wallet.id, async () => 'not-the-signature').catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(BadRequestError);
    expect(wrong).toMatchObject({ code: 'INVALID_INPUT', field: 'signature' });
    expect((await cb.externalAccounts.retrieve(wallet.id)).status).toBe('UNVERIFIED');
    const signed: string[] = [];
    const verified = await proveOwnership(cb, wallet.id, async (message) => {
      signed.push(message);
      return `sandbox-signed:${message}`; // the local sandbox's wallet signature
    });
    expect(signed).toEqual([expect.stringMatching(/^I verify that I control this wallet\. Nonce: /)]);
    expect(verified).toMatchObject({ id: wallet.id, status: 'ACTIVE' });
  });
  it('documents: a passport streamed from disk arrives byte for byte; uploaded again; a submitted one is not deleted; 10 MB is the most', async () => {
    const customer = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      umaAddress: '$docs@platform.example',
      fullName: 'Ada Lovelace',
      address: ADDRESS,
    });
    const dir = mkdtempSync(join(tmpdir(), 'cb-guide-documents-'));
    try {
      const bytes = Uint8Array.from({ length: 300 }, (_, i) => i % 256);
      writeFileSync(join(dir, 'scan.pdf'), bytes);
      const passport = await uploadPassport(cb, customer.id, join(dir, 'scan.pdf'), 'GB');
      expect(passport).toMatchObject({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'GB', fileName: 'passport.pdf' });
      const kept = sandbox.state.snapshot().documents.find((d) => d.id === passport.id)!;
      expect(kept.file).toMatchObject({ size: 300, contentType: 'application/pdf' });
      const replaced = await uploadAgain(cb, passport.id, new File([bytes.subarray(0, 10)], 'passport-2.png', { type: 'image/png' }), 'GB');
      expect(replaced).toMatchObject({ id: passport.id, fileName: 'passport-2.png' });
      expect(await documentsOf(cb, customer.id)).toEqual(['PASSPORT passport-2.png']);
      await cb.verifications.create({ customerId: customer.id });
      expect(((await cb.documents.delete(passport.id).catch((e: unknown) => e)) as ConflictError).code).toBe('DOCUMENT_SUBMITTED');
      const tooLarge = await uploadAgain(cb, passport.id, { name: 'big.pdf', data: new Uint8Array(10 * 1024 * 1024 + 1) }, 'GB').catch((e: unknown) => e);
      expect([(tooLarge as APIError).status, (tooLarge as APIError).code]).toEqual([413, 'FILE_TOO_LARGE']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("contact verification: an EU customer's email and phone, each code confirmed; a US customer has nothing to verify", async () => {
    const { sandbox, cb } = sandboxClient();
    const eu = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'IE', fullName: 'Kathleen Lonsdale', currencies: ['EUR'] } as never);
    expect(eu.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const asked: string[] = [];
    const verified = await verifyContacts(cb, eu.id, async (channel) => (asked.push(channel), '123456'));
    expect([verified.contactVerification, asked]).toEqual([{ email: 'VERIFIED', phone: 'VERIFIED' }, ['email', 'phone']]);
    const us = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' } as never);
    expect((await verifyContacts(cb, us.id, async () => '123456')).contactVerification).toBeUndefined();
    await sandbox.close();
  });
});
