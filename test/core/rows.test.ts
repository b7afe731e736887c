/**
 * What an operation's row brings with it (issue 36 §3, the worker bundle): the multipart encoder comes with the
 * row of the operation that sends one, not with the core, and a row names only its flags that are true. The same
 * calls behave as before, through a bare core and its standalone functions.
 */
import { describe, expect, it } from 'vitest';
import { CrossborderCore } from '../../src/core/client';
import { listCustomers, uploadCustomersCsv } from '../../src/functions';
import * as op from '../../src/generated/operations';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A bare core (no optional part) over a fetch that records what it is given and answers `answer`. */
function bareCore(answer: () => Response) {
  const sent: Sent[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), headers: init!.headers as Record<string, string>, body: init!.body as string | undefined });
    return answer();
  };
  const core = new CrossborderCore({ tokenId: 't', clientSecret: 'secret-value', baseUrl: 'https://api.test.invalid', fetch: fetch, maxRetries: 0 });
  return { core, sent };
}

describe('operation rows', () => {
  it('the CSV import, called as a function over a bare core, sends its file as a multipart part (the encoder comes with its row)', async () => {
    const { core, sent } = bareCore(() => Response.json({ jobId: 'Job:1', status: 'PENDING' }, { status: 202 }));
    await uploadCustomersCsv(core, { file: 'fullName,email\nAda,ada@example.com\n' });
    expect(sent).toHaveLength(1);
    const { url, headers, body } = sent[0]!;
    expect(url).toBe('https://api.test.invalid/2025-10-13/customers/bulk/csv');
    expect(headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(body, { headers: { 'content-type': headers['content-type']! } }).formData();
    const file = form.get('file') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['file.csv', 'text/csv', 'fullName,email\nAda,ada@example.com\n']);
    expect(typeof op.uploadCustomersCsv.form).toBe('function');
  });

  it('an operation without a multipart body carries no encoder and sends JSON', async () => {
    const { core, sent } = bareCore(() => Response.json({ id: 'Customer:1', customerType: 'INDIVIDUAL' }, { status: 201 }));
    const { createCustomer } = await import('../../src/functions');
    await createCustomer(core, { customerType: 'INDIVIDUAL', umaAddress: '$ada@example.com' });
    expect(sent[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent[0]!.body!)).toEqual({ customerType: 'INDIVIDUAL', umaAddress: '$ada@example.com' });
    expect('form' in op.createCustomer).toBe(false);
  });

  it('a row names only its flags that are true; the table of every operation spells each one out', () => {
    expect(op.listCustomers).toEqual({ id: 'listCustomers', method: 'GET', path: '/customers', paginated: true, resource: true, checked: true });
    expect(op.createQuote).toMatchObject({ idempotent: true });
    expect('sandboxOnly' in op.createQuote || 'signed' in op.createQuote || 'paginated' in op.createQuote).toBe(false);
    expect(op.operations.listCustomers).toMatchObject({ idempotent: false, signed: false, sandboxOnly: false, paginated: true });
  });

  it('a list over a bare core still pages, and a sandbox-only operation is still refused on production (flags read as before)', async () => {
    let page = 0;
    const { core, sent } = bareCore(() =>
      Response.json(page++ === 0 ? { data: [{ id: 'Customer:1' }], hasMore: true, nextCursor: 'c2' } : { data: [{ id: 'Customer:2' }], hasMore: false }),
    );
    const ids: string[] = [];
    for await (const customer of listCustomers(core, { limit: 1 })) ids.push(customer.id);
    expect(ids).toEqual(['Customer:1', 'Customer:2']);
    expect(sent.map((s) => new URL(s.url).search)).toEqual(['?limit=1', '?limit=1&cursor=c2']);
    const production = new CrossborderCore({
      tokenId: 't',
      clientSecret: 's',
      environment: 'production',
      fetch: () => {
        throw new Error('sent');
      },
    });
    const sandboxOnly = Object.values(op).find(
      (row) => typeof row === 'object' && row !== null && (row as { sandboxOnly?: boolean }).sandboxOnly === true,
    ) as op.OperationRow;
    await expect(production.call(sandboxOnly, {})).rejects.toThrow(
      `${sandboxOnly.id} is sandbox-only and this client's environment is 'production'; nothing was sent`,
    );
  });
});
