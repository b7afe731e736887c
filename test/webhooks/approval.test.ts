import { describe, expect, it } from 'vitest';
import { approvePayment, deferApproval, rejectPayment, requestCounterpartyInfo } from '../../src/webhooks/index';

async function parts(response: Response) {
  return { status: response.status, contentType: response.headers.get('content-type'), body: await response.json() };
}

describe('approval replies', () => {
  it('approvePayment answers 200 with an empty object, or the receiver info', async () => {
    expect(await parts(approvePayment())).toEqual({ status: 200, contentType: 'application/json', body: {} });
    expect(await parts(approvePayment({ receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } }))).toEqual({
      status: 200,
      contentType: 'application/json',
      body: { receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } },
    });
  });

  it('rejectPayment answers 403 with the error body', async () => {
    expect(await parts(rejectPayment({ message: 'sanctions match' }))).toEqual({
      status: 403,
      contentType: 'application/json',
      body: { status: 403, code: 'PAYMENT_REJECTED', message: 'sanctions match' },
    });
    expect(await parts(rejectPayment({ code: 'LIMIT_EXCEEDED', message: 'over the daily limit', details: { limit: 100000 } }))).toEqual({
      status: 403,
      contentType: 'application/json',
      body: { status: 403, code: 'LIMIT_EXCEEDED', message: 'over the daily limit', details: { limit: 100000 } },
    });
  });

  it('requestCounterpartyInfo answers 422 naming the fields', async () => {
    const { status, contentType, body } = await parts(requestCounterpartyInfo(['FULL_NAME', 'BIRTH_DATE']));
    expect(status).toBe(422);
    expect(contentType).toBe('application/json');
    expect(body).toEqual({
      status: 422,
      code: 'COUNTERPARTY_INFO_REQUIRED',
      message: expect.stringContaining('FULL_NAME, BIRTH_DATE'),
      details: { requiredCounterpartyFields: ['FULL_NAME', 'BIRTH_DATE'] },
    });
  });

  it('deferApproval answers 202 with an empty object', async () => {
    expect(await parts(deferApproval())).toEqual({ status: 202, contentType: 'application/json', body: {} });
  });

  it('each call gives a fresh Response (bodies are single-use)', async () => {
    const a = approvePayment();
    const b = approvePayment();
    expect(a).not.toBe(b);
    await a.text();
    await expect(b.text()).resolves.toBe('{}');
  });
});
