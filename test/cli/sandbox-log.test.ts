/**
 * What the sandbox CLI logs comes from the sandbox itself: the error code of a non-2xx answer, a
 * delivery failure that names its cause, and request ids that do not start over when a saved state
 * is loaded into a new process (same seed).
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSandboxCore, type RequestLogEntry } from '../../src/sandbox/sandbox';

const auth = { authorization: `Basic ${btoa('sandbox:sandbox')}`, 'content-type': 'application/json' };

describe('the sandbox behind the CLI log', () => {
  it('a non-2xx request log entry carries the error code', async () => {
    const entries: RequestLogEntry[] = [];
    const sandbox = createSandboxCore({ onRequest: (e) => entries.push(e) });
    try {
      await sandbox.fetch('http://sandbox.invalid/2025-10-13/customers/Customer:nope', { headers: auth });
      await sandbox.fetch('http://sandbox.invalid/2025-10-13/customers', { headers: auth });
      expect(entries.map((e) => [e.status, e.code])).toEqual([
        [404, 'CUSTOMER_NOT_FOUND'],
        [200, undefined],
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it('a delivery to an endpoint nobody listens on names ECONNREFUSED', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const errors: (string | undefined)[] = [];
    const sandbox = createSandboxCore({ webhookDelivery: { maxAttempts: 1, onAttempt: (e) => errors.push(e.error) } });
    try {
      await sandbox.fetch('http://sandbox.invalid/2025-10-13/config', {
        method: 'PATCH',
        headers: auth,
        body: JSON.stringify({ webhookEndpoint: `http://127.0.0.1:${port}/hooks` }),
      });
      const res = await sandbox.fetch('http://sandbox.invalid/_sandbox/webhooks/trigger', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ type: 'TEST' }),
      });
      expect(res.status).toBe(200);
      await sandbox.webhooks.flush();
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('ECONNREFUSED');
      expect(errors[0]).toContain(`127.0.0.1:${port}`);
    } finally {
      await sandbox.close();
    }
  });

  it('request ids do not start over when a saved state is loaded in a new process with the same seed', async () => {
    const first = createSandboxCore({ seed: 7 });
    const one = (await first.fetch('http://sandbox.invalid/2025-10-13/customers', { headers: auth })).headers.get('x-request-id');
    const saved = JSON.stringify(first.exportState());
    await first.close();
    const second = createSandboxCore({ seed: 7 });
    try {
      second.importState(saved);
      const two = (await second.fetch('http://sandbox.invalid/2025-10-13/customers', { headers: auth })).headers.get('x-request-id');
      expect(one).toMatch(/^req_/);
      expect(two).not.toBe(one);
    } finally {
      await second.close();
    }
  });
});
