import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, generateControlToken, persistStateTo } from 'crossborder-sdk/sandbox';
import { expect, it } from 'vitest';

const basic = { Authorization: `Basic ${btoa('any:any')}` };

it('opens up on purpose: another origin, and the controls behind a token', async () => {
  const controlToken = generateControlToken(); // print it for whoever drives the controls
  const sandbox = createSandbox({ controlToken, cors: { origins: ['https://app.example'] } });
  const server = await sandbox.listen(0, '127.0.0.1'); // listen(4010, '0.0.0.0') to reach it from other machines
  try {
    const reset = (headers: Record<string, string>) => fetch(`${server.url}/_sandbox/reset`, { method: 'POST', headers: { ...basic, ...headers } });
    expect((await reset({})).status).toBe(401); // the control plane takes the token
    expect((await reset({ 'X-Sandbox-Token': controlToken })).status).toBe(200);

    const fromApp = await fetch(`${server.url}/2025-10-13/customers`, { headers: { ...basic, Origin: 'https://app.example' } });
    expect(fromApp.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const fromElsewhere = await fetch(`${server.url}/2025-10-13/customers`, { headers: { ...basic, Origin: 'https://elsewhere.example' } });
    expect(fromElsewhere.status).toBe(403); // refused, not only unreadable
  } finally {
    await sandbox.close();
  }
});

it('keeps the state in a file as it changes', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'sandbox-')), 'state.json');
  const sandbox = createSandbox();
  if (existsSync(file)) sandbox.importState(readFileSync(file, 'utf8')); // the last run's state
  const persister = await persistStateTo(sandbox, file); // written 200 ms after each change
  try {
    await sandbox.fetch('http://sandbox.test/2025-10-13/customers', {
      method: 'POST',
      headers: { ...basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' }),
    });
  } finally {
    persister.close(); // on shutdown (SIGTERM): writes what is waiting, at once
    await sandbox.close();
  }
  expect(JSON.parse(readFileSync(file, 'utf8')).world.customers).toHaveLength(1);
});
