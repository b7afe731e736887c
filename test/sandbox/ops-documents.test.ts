/**
 * Production's verification documents (`/documents`): upload, list, read, replace and delete through the SDK
 * against the in-process sandbox (msw) and the sandbox over HTTP on 127.0.0.1. Uploads are multipart: a
 * file with every byte value arrives whole (the sandbox keeps its SHA-256), whatever form the caller passes
 * it in (bytes, Buffer, ArrayBuffer, Blob, File, a Node stream, a web stream, an async iterable, `{ name, data }`);
 * the sandbox takes PDF, JPEG and PNG files of at most 10 MB (larger: 413), of a holder that exists.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIError, BadRequestError, ConflictError, Crossborder, NotFoundError, ValidationError, type Uploadable } from '../../src/index';
import { sandboxWorlds, type World } from '../helpers/worlds';
import { PERSON, ADDRESS, roundTrip } from './helpers';

const worlds = sandboxWorlds('api.documents-ops.example');

/** Every byte value, twice over, with a marker in the middle that must never reach a log. */
const MARKER = 'PASSPORT-CONTENT-7f3a';
const BYTES = new Uint8Array([
  ...Array.from({ length: 256 }, (_, i) => i),
  ...new TextEncoder().encode(MARKER),
  ...Array.from({ length: 256 }, (_, i) => 255 - i),
]);
const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(worlds)('documents against the sandbox, %s', (_name, make) => {
  let world: World;
  const lines: string[] = [];
  let cb: Crossborder;
  const write = (m: string, d?: unknown) => lines.push(`${m} ${JSON.stringify(d ?? {})}`);

  beforeAll(async () => {
    world = await make();
    cb = new Crossborder({
      tokenId: 'tok_docs',
      clientSecret: 'sk_docs',
      environment: 'sandbox',
      baseUrl: world.baseUrl,
      maxRetries: 0,
      logLevel: 'debug',
      logger: { debug: write, info: write, warn: write, error: write },
    });
  });
  afterEach(() => {
    world.sandbox.reset();
    world.logged.length = 0;
    lines.length = 0;
  });
  afterAll(() => world.close());

  const customer = () =>
    cb.customers.create({ customerType: 'INDIVIDUAL', umaAddress: '$ada@docs.example', fullName: 'Ada Lovelace', birthDate: '1990-12-10', address: ADDRESS });
  const stored = (id: string) => world.sandbox.state.snapshot().documents.find((d) => d.id === id);

  it('a file with every byte value arrives whole, in each form a caller may pass it', async () => {
    const { id: holder } = await customer();
    async function* chunks() {
      yield BYTES.subarray(0, 100);
      yield BYTES.subarray(100);
    }
    const forms: [string, Uploadable, string][] = [
      ['{ name, data: Uint8Array }', { name: 'scan.pdf', data: BYTES }, 'scan.pdf'],
      ['Buffer', { name: 'scan.pdf', data: Buffer.from(BYTES) }, 'scan.pdf'],
      ['ArrayBuffer', { name: 'scan.png', data: BYTES.slice().buffer }, 'scan.png'],
      ['a view into a larger buffer', { name: 'scan.pdf', data: new Uint8Array([9, 9, ...BYTES, 9]).subarray(2, 2 + BYTES.length) }, 'scan.pdf'],
      ['File', new File([BYTES], 'photo.jpg', { type: 'image/jpeg' }), 'photo.jpg'],
      ['Blob with { name }', { name: 'scan.pdf', data: new Blob([BYTES]) }, 'scan.pdf'],
      ['Node Readable', { name: 'scan.pdf', data: Readable.from([Buffer.from(BYTES.subarray(0, 7)), Buffer.from(BYTES.subarray(7))]) }, 'scan.pdf'],
      ['web ReadableStream', { name: 'scan.pdf', data: new Blob([BYTES]).stream() }, 'scan.pdf'],
      ['async iterable', { name: 'scan.pdf', data: chunks() }, 'scan.pdf'],
    ];
    for (const [form, file, fileName] of forms) {
      const document = await cb.documents.upload({ file, documentHolder: holder, documentType: 'PASSPORT', country: 'US' });
      expect(document.fileName, form).toBe(fileName);
      expect(stored(document.id)?.file, form).toEqual({
        size: BYTES.length,
        contentType: fileName.endsWith('.jpg') ? 'image/jpeg' : fileName.endsWith('.png') ? 'image/png' : 'application/pdf',
        sha256: digest(BYTES),
      });
    }
    // The file's content is in no log line: the debug line of the request names the file, its type and size.
    expect(lines.some((l) => l.includes('[file scan.pdf') && l.includes(`${BYTES.length} bytes`))).toBe(true);
    expect(lines.join('\n')).not.toContain(MARKER);
  });

  it('upload, read, list by holder, replace and delete', async () => {
    const ada = await customer();
    const business = await cb.customers.create({
      customerType: 'BUSINESS',
      umaAddress: '$acme@docs.example',
      businessInfo: { legalName: 'Acme Ltd', taxId: '12-3456789', incorporatedOn: '2019-03-01' },
      address: ADDRESS,
    });
    const owner = await cb.beneficialOwners.create({ customerId: business.id, roles: ['CONTROL_PERSON'], ownershipPercentage: 30, personalInfo: PERSON });

    const passport = await cb.documents.upload({
      file: { name: 'passport.pdf', data: BYTES },
      documentHolder: ada.id,
      documentType: 'PASSPORT',
      country: 'GB',
      documentNumber: 'A12345678',
      issuingAuthority: 'HM Passport Office',
    });
    expect(passport).toEqual({
      id: expect.stringMatching(/^Document:/),
      documentHolder: ada.id,
      documentType: 'PASSPORT',
      country: 'GB',
      documentNumber: 'A12345678',
      issuingAuthority: 'HM Passport Office',
      fileName: 'passport.pdf',
      createdAt: passport.createdAt,
      updatedAt: passport.createdAt,
    });
    const license = await cb.documents.upload({
      file: { name: 'license-front.png', data: BYTES.subarray(0, 10) },
      documentHolder: owner.id,
      documentType: 'DRIVERS_LICENSE',
      side: 'FRONT',
      country: 'US',
    });
    expect(license.side).toBe('FRONT');
    expect(await cb.documents.retrieve(passport.id)).toEqual(passport);

    expect((await cb.documents.list()).data.map((d) => d.id)).toEqual([license.id, passport.id]);
    expect((await cb.documents.list({ documentHolder: owner.id })).data.map((d) => d.id)).toEqual([license.id]);
    const walked: string[] = [];
    for await (const d of cb.documents.list({ limit: 1 })) walked.push(d.id);
    expect(walked).toEqual([license.id, passport.id]);

    const replaced = await cb.documents.replace(passport.id, {
      file: new File([BYTES.subarray(5)], 'passport-2.jpeg', { type: 'image/jpeg' }),
      documentType: 'NATIONAL_ID',
      country: 'FR',
    });
    expect(replaced).toMatchObject({
      id: passport.id,
      documentHolder: ada.id,
      documentType: 'NATIONAL_ID',
      country: 'FR',
      fileName: 'passport-2.jpeg',
      createdAt: passport.createdAt,
    });
    // What the replacement did not send is not kept.
    expect(replaced.documentNumber).toBeUndefined();
    expect(stored(passport.id)?.file).toEqual({ size: BYTES.length - 5, contentType: 'image/jpeg', sha256: digest(BYTES.subarray(5)) });

    expect(await cb.documents.delete(passport.id)).toBeUndefined();
    const gone = await cb.documents.retrieve(passport.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).code).toBe('DOCUMENT_NOT_FOUND');
    expect(((await cb.documents.delete(passport.id).catch((e: unknown) => e)) as NotFoundError).code).toBe('DOCUMENT_NOT_FOUND');
    expect((await cb.documents.list()).data.map((d) => d.id)).toEqual([license.id]);
  });

  it('a document submitted with a verification is not deleted (409); replaced, it may be', async () => {
    const ada = await customer();
    const document = await cb.documents.upload({
      file: { name: 'bill.pdf', data: BYTES },
      documentHolder: ada.id,
      documentType: 'UTILITY_BILL',
      country: 'US',
    });
    await cb.verifications.create({ customerId: ada.id });
    const refused = await cb.documents.delete(document.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).code).toBe('DOCUMENT_SUBMITTED');
    expect(stored(document.id)).toBeDefined();
    await cb.documents.replace(document.id, { file: { name: 'bill-2.pdf', data: BYTES }, documentType: 'UTILITY_BILL', country: 'US' });
    await cb.documents.delete(document.id);
    expect(stored(document.id)).toBeUndefined();
  });

  it('refusals: the SDK names a missing or unsendable file before sending; the sandbox names the holder, type, size and country', async () => {
    const ada = await customer();
    world.logged.length = 0;
    const missing = await cb.documents.upload({ documentHolder: ada.id, documentType: 'PASSPORT', country: 'US' } as never).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as ValidationError).field).toBe('file');
    const unsendable = await cb.documents
      .upload({ file: 42 as never, documentHolder: ada.id, documentType: 'PASSPORT', country: 'US' })
      .catch((e: unknown) => e);
    expect(unsendable).toBeInstanceOf(ValidationError);
    expect((unsendable as ValidationError).field).toBe('file');
    expect((unsendable as ValidationError).message).toContain('Blob');
    expect(world.logged).toEqual([]); // nothing was sent

    const upload = (file: Uploadable, over: Record<string, unknown> = {}) =>
      cb.documents.upload({ file, documentHolder: ada.id, documentType: 'PASSPORT', country: 'US', ...over }).catch((e: unknown) => e);
    const noHolder = await upload({ name: 'a.pdf', data: BYTES }, { documentHolder: 'Customer:00000000-0000-0000-0000-000000000000' });
    expect((noHolder as NotFoundError).code).toBe('CUSTOMER_NOT_FOUND');
    const noOwner = await upload({ name: 'a.pdf', data: BYTES }, { documentHolder: 'BeneficialOwner:00000000-0000-0000-0000-000000000000' });
    expect((noOwner as NotFoundError).code).toBe('BENEFICIAL_OWNER_NOT_FOUND');
    const text = await upload({ name: 'notes.txt', data: 'hello' });
    expect(text).toBeInstanceOf(BadRequestError);
    expect((text as BadRequestError).details).toMatchObject({ field: 'file' });
    // The declared type decides over the name: a PDF named .txt is taken, a text file named .pdf is not.
    expect((await upload({ name: 'scan.txt', data: BYTES, type: 'application/pdf' })) as { fileName: string }).toMatchObject({ fileName: 'scan.txt' });
    expect(((await upload(new File([BYTES], 'scan.pdf', { type: 'text/plain' }))) as BadRequestError).details).toMatchObject({ field: 'file' });
    const empty = await upload({ name: 'a.pdf', data: new Uint8Array(0) });
    expect((empty as BadRequestError).details).toMatchObject({ field: 'file' });
    const country = await upload({ name: 'a.pdf', data: BYTES }, { country: 'usa' });
    expect((country as BadRequestError).details).toMatchObject({ field: 'country' });
    expect(world.sandbox.state.snapshot().documents.map((d) => d.fileName)).toEqual(['scan.txt']);
  });

  it('a file over 10 MB is refused with 413 FILE_TOO_LARGE; 10 MB is taken', async () => {
    const ada = await customer();
    const limit = 10 * 1024 * 1024;
    const big = new Uint8Array(limit + 1);
    big[limit] = 0xff;
    const refused = await cb.documents
      .upload({ file: { name: 'big.pdf', data: big }, documentHolder: ada.id, documentType: 'PASSPORT', country: 'US' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).status).toBe(413);
    expect((refused as APIError).code).toBe('FILE_TOO_LARGE');
    expect((refused as APIError).details).toEqual({ field: 'file', size: limit + 1, limit });
    const taken = await cb.documents.upload({
      file: { name: 'big.pdf', data: big.subarray(0, limit) },
      documentHolder: ada.id,
      documentType: 'PASSPORT',
      country: 'US',
    });
    expect(stored(taken.id)?.file.size).toBe(limit);
    expect(stored(taken.id)?.file.sha256).toBe(digest(big.subarray(0, limit)));
  });

  it('a state export keeps documents (their file as size, type and digest) and imports again', async () => {
    const ada = await customer();
    const document = await cb.documents.upload({ file: { name: 'scan.pdf', data: BYTES }, documentHolder: ada.id, documentType: 'PASSPORT', country: 'US' });
    expect(roundTrip(world.sandbox).documents).toBe(1);
    const exported = JSON.stringify(world.sandbox.exportState());
    expect(exported).toContain(document.id);
    expect(exported).toContain(digest(BYTES));
    expect(exported).not.toContain(MARKER);
  });
});
