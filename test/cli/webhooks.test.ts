/**
 * `listen`, `trigger` and `fixtures run` from the packed bin against the HTTP sandbox: deliveries
 * forwarded to a receiver that verifies their signature with the packed SDK, across a sandbox
 * restart; a trigger with an override; the three shipped scenarios.
 */
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, CLI, eventually, root, startSandbox, verifyingReceiver, type Receiver, type Sandbox } from './helpers';

let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startSandbox(['--quiet', '--webhook-key', join(root, '.scratch', 'cli-test-webhook-key.json')]);
  receiver = await verifyingReceiver(sandbox.publicKey);
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.close();
});

/** `listen` from the packed bin, forwarding to `forwardTo`; its JSON lines as they come. */
function startListen(forwardTo: string) {
  const child = spawn(process.execPath, [CLI, 'listen', '--forward-to', forwardTo, '--url', sandbox.url, '--json'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let lines = '';
  child.stdout.on('data', (c: Buffer) => (lines += c.toString()));
  const events = () =>
    lines
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; endpoint?: string; status?: number; reason?: string; id?: string; error?: string });
  return { child, events };
}

async function stopListen(child: ReturnType<typeof spawn>): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

describe('listen and trigger', () => {
  it('listen forwards each delivery with its signature unchanged (the receiver verifies it), filters with --events, and survives a sandbox restart', async () => {
    const listen = spawn(
      process.execPath,
      [CLI, 'listen', '--forward-to', receiver.url, '--url', sandbox.url, '--events', 'CUSTOMER.KYC_APPROVED,TEST', '--json'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let lines = '';
    listen.stdout.on('data', (c: Buffer) => (lines += c.toString()));
    const events = () =>
      lines
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { kind: string; type?: string; id?: string; status?: number; time: string });
    try {
      expect(await eventually(() => events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
      // A trigger with an override: the resource behind the event carries it.
      const triggered = await cli(['trigger', 'CUSTOMER.KYC_APPROVED', '--override', 'customer.fullName=Grace Hopper', '--url', sandbox.url, '--json']);
      expect(triggered.code).toBe(0);
      const { eventId, resourceId } = JSON.parse(triggered.out) as { eventId: string; resourceId: string };
      expect(await eventually(() => receiver.received.some((r) => r.id === eventId))).toBe(true);
      const got = receiver.received.find((r) => r.id === eventId)!;
      expect([got.type, got.verified, got.data.id, got.data.fullName]).toEqual(['CUSTOMER.KYC_APPROVED', true, resourceId, 'Grace Hopper']);
      expect(await eventually(() => events().some((e) => e.kind === 'forwarded' && e.id === eventId))).toBe(true);
      expect(events().find((e) => e.id === eventId)).toMatchObject({
        kind: 'forwarded',
        type: 'CUSTOMER.KYC_APPROVED',
        status: 200,
        time: expect.stringMatching(/^\d{4}-/),
      });
      // --events: another type is acknowledged to the sandbox and not forwarded.
      const other = await cli(['sandbox', 'trigger', 'CUSTOMER.KYC_REJECTED', resourceId, '--url', sandbox.url]);
      expect(other.code).toBe(0);
      const otherId = (JSON.parse(other.out) as { eventId: string }).eventId;
      expect(await eventually(() => events().some((e) => e.kind === 'skipped' && e.id === otherId))).toBe(true);
      expect(receiver.received.some((r) => r.id === otherId)).toBe(false);
      // The sandbox restarts on the same port (its key kept by --webhook-key): listen points it at itself again.
      const port = sandbox.port;
      expect(await sandbox.stop()).toBe(0);
      expect(await eventually(() => events().some((e) => e.kind === 'disconnected'))).toBe(true);
      sandbox = await startSandbox(['--quiet', '--webhook-key', join(root, '.scratch', 'cli-test-webhook-key.json')], port);
      expect(await eventually(() => events().filter((e) => e.kind === 'ready').length === 2, 20_000)).toBe(true);
      const again = await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
      expect(again.code).toBe(0);
      const testId = (JSON.parse(again.out) as { eventId: string }).eventId;
      expect(await eventually(() => receiver.received.some((r) => r.id === testId && r.verified))).toBe(true);
    } finally {
      listen.kill('SIGTERM');
    }
    expect(await new Promise((r) => listen.once('exit', r))).toBe(0);
  }, 90_000);

  it('listen refuses what is not a delivery of the local sandbox (a page, a foreign Host, an oversized body) and names a forward target that is down', async () => {
    // A request to the receiver with any Host header and body; the status it got.
    const post = (endpoint: string, init: { host?: string; origin?: string; method?: string; body?: string | Buffer }) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(endpoint);
        const req = request(
          {
            host: '127.0.0.1',
            port: url.port,
            path: url.pathname,
            method: init.method ?? 'POST',
            headers: { 'content-type': 'application/json', ...(init.host ? { host: init.host } : {}), ...(init.origin ? { origin: init.origin } : {}) },
            timeout: 10_000,
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject).on('timeout', () => req.destroy(new Error('no answer')));
        req.end(init.body);
      });
    const forged = (id: string) =>
      JSON.stringify({ id, type: 'OUTGOING_PAYMENT.COMPLETED', timestamp: new Date().toISOString(), data: { id: 'Transaction:forged' } });

    const { child, events } = startListen(receiver.url);
    try {
      expect(await eventually(() => events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
      const endpoint = events().find((e) => e.kind === 'ready')!.endpoint!;
      const port = new URL(endpoint).port;
      expect(await post(endpoint, { origin: 'http://evil.example', body: forged('from-a-page') })).toBe(403);
      expect(await post(endpoint, { origin: `http://127.0.0.1:${port}`, body: forged('from-a-loopback-page') })).toBe(403);
      expect(await post(endpoint, { host: `rebind.evil.example:${port}`, body: forged('rebound') })).toBe(421);
      expect(await post(endpoint, { body: Buffer.alloc(1024 * 1024 + 1, 0x20) })).toBe(413);
      expect(await post(endpoint, { method: 'PUT', body: forged('put') })).toBe(405);
      // Server to server on loopback is forwarded as it came (unsigned here, so the receiver refuses it).
      expect(await post(endpoint, { body: forged('plain-loopback') })).toBe(400);
      expect(await eventually(() => receiver.received.some((r) => r.id === 'plain-loopback'))).toBe(true);
      expect(receiver.received.find((r) => r.id === 'plain-loopback')?.verified).toBe(false);
      expect(receiver.received.filter((r) => ['from-a-page', 'from-a-loopback-page', 'rebound', 'put'].includes(r.id))).toEqual([]);
      const refusedStatuses = () =>
        events()
          .filter((e) => e.kind === 'refused')
          .map((e) => e.status);
      await eventually(() => refusedStatuses().length >= 5);
      expect(refusedStatuses()).toEqual([403, 403, 421, 413, 405]);
    } finally {
      await stopListen(child);
    }

    // A forward target nobody listens on: the sandbox gets 502 (so it redelivers), the line names the cause.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const dead = startListen(`http://127.0.0.1:${deadPort}/webhooks`);
    try {
      expect(await eventually(() => dead.events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
      const endpoint = dead.events().find((e) => e.kind === 'ready')!.endpoint!;
      expect(await post(endpoint, { body: forged('to-nobody') })).toBe(502);
      expect(await post(endpoint, { body: forged('to-nobody-again') })).toBe(502);
      const failed = () =>
        dead
          .events()
          .filter((e) => e.kind === 'failed')
          .map((e) => [e.id, e.error]);
      await eventually(() => failed().length >= 2);
      expect(failed()).toEqual([
        ['to-nobody', 'ECONNREFUSED'],
        ['to-nobody-again', 'ECONNREFUSED'],
      ]);
    } finally {
      await stopListen(dead.child);
    }
  }, 90_000);

  it('listen drops a sender that drips its body (408 within seconds, nothing forwarded) and passes on at most 1 MiB of a forward target that answers without end', async () => {
    // A forward target that answers 200 and then streams without end.
    const endless = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((r) => endless.listen(0, '127.0.0.1', r));
    const { child, events } = startListen(`http://127.0.0.1:${(endless.address() as AddressInfo).port}/webhooks`);
    try {
      expect(await eventually(() => events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
      const url = new URL(events().find((e) => e.kind === 'ready')!.endpoint!);
      const body = JSON.stringify({ id: 'dripped', type: 'TEST', timestamp: new Date().toISOString(), data: {} });

      // Headers at once, then one byte every 400 ms: the whole body would take over 30 s.
      const dripped = await new Promise<{ status: number | undefined; ms: number }>((resolve) => {
        const started = Date.now();
        const req = request({
          host: '127.0.0.1',
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        });
        let i = 0;
        const timer = setInterval(() => (i < body.length ? req.write(body[i++]) : undefined), 400);
        const done = (status: number | undefined) => {
          clearInterval(timer);
          resolve({ status, ms: Date.now() - started });
        };
        req.on('response', (res) => {
          res.resume();
          done(res.statusCode);
        });
        req.on('error', () => done(undefined)); // dropped without an answer also ends it
        req.setTimeout(20_000, () => req.destroy());
      });
      expect(dripped.ms).toBeLessThan(12_000);
      expect(dripped.status === 408 || dripped.status === undefined).toBe(true);
      expect(events().some((e) => e.id === 'dripped')).toBe(false);

      // A whole delivery: the endless answer comes back cut at 1 MiB, and the receiver goes on.
      const answer = await new Promise<{ status: number; bytes: number }>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json' }, timeout: 30_000 },
          (res) => {
            let bytes = 0;
            res.on('data', (c: Buffer) => (bytes += c.length));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
          },
        );
        req.on('error', reject).on('timeout', () => req.destroy(new Error('no answer')));
        req.end(body.replace('dripped', 'whole'));
      });
      expect(answer.status).toBe(200);
      expect(answer.bytes).toBeGreaterThan(0);
      expect(answer.bytes).toBeLessThanOrEqual(1024 * 1024);
      expect(await eventually(() => events().some((e) => e.kind === 'forwarded' && e.id === 'whole'))).toBe(true);
    } finally {
      await stopListen(child);
      endless.closeAllConnections();
      await new Promise((r) => endless.close(r));
    }
  }, 60_000);

  it('trigger and sandbox trigger refuse an unknown event type (exit 2, the known types listed)', async () => {
    for (const args of [
      ['trigger', 'PAYMENT.DONE'],
      ['sandbox', 'trigger', 'PAYMENT.DONE'],
    ]) {
      const res = await cli([...args, '--url', sandbox.url]);
      expect([res.code, res.out]).toEqual([2, '']);
      expect(res.err).toContain("unknown event type 'PAYMENT.DONE'; the types are: INVITATION.CLAIMED, INCOMING_PAYMENT.PENDING");
    }
  }, 30_000);
});

describe('fixtures run', () => {
  it.each(['payout-fx.yaml', 'incoming-uma-approval.yaml', 'failed-payout-refund.json'])(
    'runs examples/scenarios/%s to its end',
    async (file) => {
      const res = await cli(['fixtures', 'run', join(root, 'examples', 'scenarios', file), '--url', sandbox.url, '--json'], { timeoutMs: 60_000 });
      expect(res.err).toBe('');
      expect(res.code).toBe(0);
      const results = JSON.parse(res.out) as Record<string, { status?: string; type?: string; data?: { status?: string; failureReason?: string } }>;
      if (file.startsWith('payout')) expect([results.completed!.type, results.payment!.status]).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'COMPLETED']);
      if (file.startsWith('incoming'))
        expect([results.incoming!.status, results.pending!.type, results.payment!.status]).toEqual(['PENDING', 'INCOMING_PAYMENT.PENDING', 'COMPLETED']);
      if (file.startsWith('failed')) expect([results.failed!.type, results.failed!.data!.failureReason]).toEqual(['OUTGOING_PAYMENT.FAILED', 'OFFRAMP_FAILED']);
    },
    60_000,
  );

  it('a failed expectation names the step and exits 1; a reference to no step is a usage error', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'cb-scenario-'));
    writeFileSync(
      join(dir, 'bad.yaml'),
      'steps:\n  - name: customer\n    createCustomer: { body: { customerType: INDIVIDUAL, region: US, fullName: X } }\n  - expect: { actual: "${steps.customer.region}", equals: GB }\n',
    );
    const bad = await cli(['fixtures', 'run', join(dir, 'bad.yaml'), '--url', sandbox.url]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('2. expect: expected "GB", got "US"');
    writeFileSync(join(dir, 'ref.json'), JSON.stringify({ steps: [{ execute: '${steps.quote.id}' }] }));
    const ref = await cli(['fixtures', 'run', join(dir, 'ref.json'), '--url', sandbox.url]);
    expect([ref.code, ref.err.trim()]).toEqual([2, "crossborder-sdk: ${steps.quote.id}: no earlier step named 'quote'"]);
  }, 30_000);
});
