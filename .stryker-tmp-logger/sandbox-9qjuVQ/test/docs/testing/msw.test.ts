// @ts-nocheck
import { Crossborder, InternalServerError } from 'crossborder-sdk';
import { createSandbox } from 'crossborder-sdk/sandbox';
import { sandboxHandlers } from 'crossborder-sdk/sandbox/msw';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

// The code under test makes its own client with the default fetch; msw answers from the sandbox.
const sandbox = createSandbox();
const server = setupServer(...sandboxHandlers(sandbox));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await sandbox.close();
});

const appClient = () => new Crossborder({ tokenId: 'test', clientSecret: 'test', environment: 'sandbox', maxRetries: 0 });

it('answers the app from the sandbox', async () => {
  const customer = await appClient().customers.create({ customerType: 'BUSINESS', region: 'GB', businessInfo: { legalName: 'Babbage Ltd' } });
  expect(customer.customerType).toBe('BUSINESS');
});

it('lets a test put an outage in front of the sandbox', async () => {
  server.use(http.get('*/2025-10-13/customers', () => HttpResponse.json({ status: 503, code: 'INTERNAL_ERROR', message: 'down' }, { status: 503 })));
  await expect(appClient().customers.list()).rejects.toBeInstanceOf(InternalServerError);
});
