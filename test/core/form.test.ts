/**
 * The multipart encoder (src/core/form.ts) and what the client does with its bytes: a file given in any form
 * goes out byte for byte, the same bytes on every attempt (a stream is read once), a stream past the bound
 * or a value that is no file is a ValidationError naming the field with nothing sent, and logs and hooks see
 * a description of the file, never its content.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CrossborderCore } from '../../src/core/client';
import { ValidationError } from '../../src/core/errors';
import { formBody } from '../../src/core/form';
import { uploadCustomersCsv, uploadDocument } from '../../src/functions';

const BYTES = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);
const DOCUMENT = {
  id: 'Document:1',
  documentHolder: 'Customer:1',
  documentType: 'PASSPORT',
  country: 'US',
  fileName: 'scan.pdf',
  createdAt: '2025-10-03T12:00:00Z',
};

/** The parts of a multipart body as the platform's parser reads them. */
async function parts(body: BodyInit, contentType: string): Promise<FormData> {
  return new Response(body, { headers: { 'content-type': contentType } }).formData();
}

describe('formBody', () => {
  it('a file part keeps every byte and its name; text parts stay text; the description names the file, never its content', async () => {
    const bytes = await formBody(
      { file: { name: 'scan.pdf', data: BYTES, type: 'application/pdf' }, documentType: 'PASSPORT', side: undefined },
      { file: 'application/octet-stream' },
    );
    const form = await parts(bytes, bytes.contentType);
    const file = form.get('file') as File;
    expect([file.name, file.type]).toEqual(['scan.pdf', 'application/pdf']);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(BYTES);
    expect(form.get('documentType')).toBe('PASSPORT');
    expect(form.has('side')).toBe(false);
    expect(JSON.parse(bytes.described)).toEqual({ file: '[file scan.pdf, application/pdf, 512 bytes]', documentType: 'PASSPORT' });
    expect(bytes.contentType).toMatch(/^multipart\/form-data; boundary=/);
    // The type and the description ride on the bytes without being enumerable fields of theirs: a fetch sees plain bytes.
    expect(Object.keys(bytes)).toHaveLength(bytes.length);
  });

  it("content without a name is named after its field and sent as the operation's type: the CSV import as before", async () => {
    const csv = await formBody({ file: 'a,b\n1,2\n' }, { file: 'text/csv' });
    const file = (await parts(csv, csv.contentType)).get('file') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['file.csv', 'text/csv', 'a,b\n1,2\n']);
    const raw = await formBody({ file: BYTES }, { file: 'application/octet-stream' });
    const bin = (await parts(raw, raw.contentType)).get('file') as File;
    expect([bin.name, bin.type]).toEqual(['file.bin', 'application/octet-stream']);
    expect(new Uint8Array(await bin.arrayBuffer())).toEqual(BYTES);
  });

  it('a stream past the bound is refused, naming the field, and is not read further', async () => {
    let pulled = 0;
    let returned = false;
    const endless: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: new Uint8Array(100).fill(++pulled) }),
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const refused = await formBody({ file: endless }, { file: 'application/octet-stream' }, 1000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).field).toBe('file');
    expect((refused as ValidationError).issues[0]!.rule).toBe('too_big');
    expect((refused as ValidationError).message).toContain('1000 bytes');
    expect(pulled).toBe(11); // 1,100 bytes read: one chunk past the bound, no more
    expect(returned).toBe(true);
    // At the bound exactly, it is taken.
    const exact = await formBody({ file: Readable.from([Buffer.alloc(600), Buffer.alloc(400)]) }, { file: 'application/octet-stream' }, 1000);
    expect(((await parts(exact, exact.contentType)).get('file') as File).size).toBe(1000);
  });

  it('a value that is no file content is refused, naming the field', async () => {
    for (const value of [42, true, { name: 'x.pdf' }, { data: BYTES }, [1, 2]]) {
      const refused = await formBody({ file: value }, { file: 'application/octet-stream' }).catch((e: unknown) => e);
      expect(refused, JSON.stringify(value)).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).field).toBe('file');
    }
  });
});

describe('a multipart call', () => {
  /** A bare core over a fetch that refuses the connection `refusals` times, then answers 201; what each attempt sent. */
  function core(refusals: number) {
    const sent: { body: BodyInit; contentType: string }[] = [];
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      sent.push({ body: init!.body as BodyInit, contentType: (init!.headers as Record<string, string>)['content-type']! });
      if (sent.length <= refusals) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      return Response.json(DOCUMENT, { status: 201 });
    };
    const lines: string[] = [];
    const write = (m: string, d?: unknown) => lines.push(`${m} ${JSON.stringify(d ?? {})}`);
    const client = new CrossborderCore({
      tokenId: 't',
      clientSecret: 'secret-value',
      baseUrl: 'https://api.test.invalid',
      fetch,
      maxRetries: 3,
      sleep: async () => {},
    });
    return { client, sent, lines, write };
  }

  it('sends the same bytes on every attempt, a stream read once', async () => {
    const { client, sent } = core(2);
    const stream = Readable.from([Buffer.from(BYTES.subarray(0, 200)), Buffer.from(BYTES.subarray(200))]);
    const document = await uploadDocument(client, {
      file: { name: 'scan.pdf', data: stream },
      documentHolder: 'Customer:1',
      documentType: 'PASSPORT',
      country: 'US',
    });
    expect(document.id).toBe('Document:1');
    expect(sent).toHaveLength(3);
    expect(sent[0]!.body).toBeInstanceOf(Uint8Array);
    for (const attempt of sent) {
      expect(attempt.body).toEqual(sent[0]!.body);
      expect(attempt.contentType).toBe(sent[0]!.contentType);
      const file = (await parts(attempt.body, attempt.contentType)).get('file') as File;
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(BYTES);
    }
  });

  it('the log and the hooks see the description, not the content; the CSV import still sends its text', async () => {
    const lines: string[] = [];
    const write = (m: string, d?: unknown) => lines.push(`${m} ${JSON.stringify(d ?? {})}`);
    const seen: unknown[] = [];
    const { requestChecks, logging } = await import('../../src/core/parts');
    const { requestHooks } = await import('../../src/core/hooks');
    const sent: Uint8Array[] = [];
    const client = new CrossborderCore(
      {
        tokenId: 't',
        clientSecret: 'secret-value',
        baseUrl: 'https://api.test.invalid',
        fetch: async (_url, init) => {
          sent.push(init.body as Uint8Array);
          return Response.json(DOCUMENT, { status: 201 });
        },
        maxRetries: 0,
        logLevel: 'debug',
        logger: { debug: write, info: write, warn: write, error: write },
        hooks: { beforeRequest: (view) => void seen.push(view.body) },
      },
      { requestChecks, logging, hooks: requestHooks },
    );
    const secret = new TextEncoder().encode('TOP-SECRET-SCAN');
    await uploadDocument(client, { file: { name: 'scan.pdf', data: secret }, documentHolder: 'Customer:1', documentType: 'PASSPORT', country: 'US' });
    expect(new TextDecoder().decode(sent[0])).toContain('TOP-SECRET-SCAN');
    expect(lines.join('\n')).not.toContain('TOP-SECRET-SCAN');
    expect(lines.join('\n')).toContain('[file scan.pdf, application/octet-stream, 15 bytes]');
    expect(JSON.stringify(seen)).not.toContain('TOP-SECRET-SCAN');
    expect(seen).toHaveLength(1);

    await uploadCustomersCsv(client, { file: 'fullName\nAda\n' });
    const csv = sent[1]!;
    expect(new TextDecoder().decode(csv)).toContain('filename="file.csv"\r\nContent-Type: text/csv\r\n\r\nfullName\nAda\n\r\n');
  });
});
