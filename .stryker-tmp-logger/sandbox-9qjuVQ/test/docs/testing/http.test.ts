// @ts-nocheck
import { Crossborder } from 'crossborder-sdk';
import { createSandbox, type SandboxServer } from 'crossborder-sdk/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';

// Real HTTP on 127.0.0.1, for code that is not in this process or not in JavaScript.
const sandbox = createSandbox();
let server: SandboxServer;
beforeAll(async () => {
  server = await sandbox.listen(); // a free port; listen(4010) for a fixed one
});
afterAll(() => sandbox.close()); // closes the server too

it('serves the API at <url>/2025-10-13', async () => {
  const cb = new Crossborder({ tokenId: 'test', clientSecret: 'test', environment: 'sandbox', baseUrl: server.url });
  const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });

  // Any HTTP client works; any Basic credentials are accepted.
  const response = await fetch(`${server.url}/2025-10-13/customers/${customer.id}`, { headers: { Authorization: `Basic ${btoa('any:any')}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('x-request-id')).toBeTruthy();
});
