/**
 * One table of the sandbox's controls (src/helpers/sandbox-controls.ts): the server answers every
 * entry of it and nothing else, the in-process object and the HTTP paths drive the same controls,
 * and the CLI's paths are built from it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { controlPath, SANDBOX_CONTROLS, type ControlName } from '../../src/helpers/sandbox-controls';
import { createClock, createSandbox } from '../../src/sandbox/index';

const AUTH = `Basic ${Buffer.from('tok:secret').toString('base64')}`;
const sandbox = createSandbox({ clock: createClock('2026-01-01T00:00:00Z', { frozen: true }) });
afterAll(() => sandbox.close());

const call = async (method: string, path: string, body?: unknown) => {
  const res = await sandbox.fetch(`http://sandbox.test${path}`, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as { code?: string; message?: string } | undefined, type: res.headers.get('content-type') };
};

/** A body each control accepts, or one it refuses for a reason of its own (never "no such control"). */
const BODIES: Partial<Record<ControlName, unknown>> = { clock: { advance: '1s' }, importState: {}, setFaults: {}, trigger: { type: 'TEST' } };
const PARAMS: Record<string, string> = { eventId: 'Event:none', id: 'Listener:none', code: 'NONE' };

describe('the table of controls', () => {
  it('names every control once, by method and path, under /_sandbox', () => {
    const routes = Object.values(SANDBOX_CONTROLS).map((c) => `${c.method} ${c.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect(routes.every((r) => / \/_sandbox\//.test(r))).toBe(true);
    expect(Object.keys(SANDBOX_CONTROLS)).toHaveLength(17);
  });

  it('is what the server answers: every entry reaches its control, with its own answer', async () => {
    const answers: Record<string, string> = {};
    for (const [name, route] of Object.entries(SANDBOX_CONTROLS) as [ControlName, (typeof SANDBOX_CONTROLS)[ControlName]][]) {
      if (name === 'events') continue; // a held stream: its answer is its content type, checked below
      const res = await call(route.method, controlPath(name, PARAMS), BODIES[name]);
      answers[name] = `${res.status} ${res.json?.code ?? res.type?.split(';')[0]}`;
      expect(res.json?.message ?? '').not.toMatch(/^No sandbox control/);
    }
    expect(answers).toEqual({
      inspector: '200 text/html',
      reset: '200 application/json',
      clock: '200 application/json',
      exportState: '200 application/json',
      importState: '400 INVALID_INPUT', // {} is not a state document
      faults: '200 application/json',
      setFaults: '200 application/json',
      ledger: '200 application/json',
      requests: '200 application/json',
      deliveries: '200 application/json',
      redeliver: '404 NOT_FOUND',
      trigger: '400 INVALID_INPUT', // no webhook endpoint is configured
      listeners: '200 application/json',
      attachListener: '400 INVALID_INPUT', // in-process: no connection to hold
      detachListener: '404 NOT_FOUND',
      claimInvitation: '404 NOT_FOUND',
    });
    expect((await call('POST', controlPath('redeliver', PARAMS))).json?.message).toBe('No delivery of event Event:none.');
    expect((await call('DELETE', controlPath('detachListener', PARAMS))).json?.message).toBe('No listener Listener:none is attached.');
    expect((await call('POST', controlPath('claimInvitation', PARAMS))).json?.message).toBe('no invitation with code NONE.');
  });

  it('answers a path or method outside the table with 404, listing every control', async () => {
    const res = await call('DELETE', '/_sandbox/reset');
    expect(res.status).toBe(404);
    const message = res.json!.message!;
    expect(message.startsWith('No sandbox control DELETE /_sandbox/reset; there are ')).toBe(true);
    for (const route of Object.values(SANDBOX_CONTROLS)) expect(message).toContain(`${route.method} ${route.path}`);
  });

  it('drives the same controls in-process and over its paths', async () => {
    sandbox.faults.set({ latency: { ms: 3 } });
    expect((await call('GET', controlPath('faults'))).json).toEqual({ latency: { ms: 3 } });
    await call('PUT', controlPath('setFaults'), {});
    expect(sandbox.faults.get()).toEqual({});
    const before = sandbox.clock.now();
    await call('POST', controlPath('clock'), { advance: '1h' });
    expect(sandbox.clock.now() - before).toBe(3_600_000);
    await call('POST', controlPath('reset'));
    expect(sandbox.clock.now()).toBe(Date.parse('2026-01-01T00:00:00Z')); // back where it started
    expect((await call('GET', controlPath('exportState'))).json).toEqual(JSON.parse(JSON.stringify(sandbox.exportState())));
  });

  it('builds a path with its parameters encoded, and names a missing one', () => {
    expect(controlPath('redeliver', { eventId: 'Event:a/b c' })).toBe('/_sandbox/webhooks/deliveries/Event%3Aa%2Fb%20c/redeliver');
    expect(controlPath('reset')).toBe('/_sandbox/reset');
    expect(() => controlPath('claimInvitation')).toThrow('the sandbox control claimInvitation needs its path parameter code');
  });
});
