/**
 * Issue 32 (items 3–6, 12, 13): `listen`, `trigger` and `fixtures run` leave the sandbox as they found
 * it, from the packed bin against the HTTP sandbox. The configured `webhookEndpoint` is never
 * rewritten (after a normal exit, SIGINT or SIGKILL); a listener is a delivery target of its own,
 * detached when it goes away; `listen --events` never approves a held payment; a trigger's event is
 * the one the sandbox sends for the transition it drove; `expectWebhook` without `match` waits for a
 * new event; redirects are failed deliveries; the state file always reloads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, CLI, envFor, eventually, json, root, startSandbox, verifyingReceiver, type Receiver, type Sandbox } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'cb-left-as-found-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Line {
  kind: string;
  type?: string;
  id?: string;
  status?: number;
  error?: string;
  endpoint?: string;
  listener?: string;
}

/** `listen` from the packed bin; its JSON lines as they come. */
function startListen(sandbox: Sandbox, forwardTo: string, extra: string[] = []) {
  const child = spawn(process.execPath, [CLI, 'listen', '--forward-to', forwardTo, '--url', sandbox.url, '--json', ...extra], {
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
      .map((l) => JSON.parse(l) as Line);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, events, exited };
}

/** Sends `signal` and waits (bounded) for the exit. */
async function kill(child: ChildProcess, exited: Promise<number | null>, signal: NodeJS.Signals): Promise<number | null | 'timeout'> {
  child.kill(signal);
  return Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000))]);
}

const control = async (sandbox: Sandbox, path: string, init: RequestInit = {}) => {
  const res = await fetch(`${sandbox.url}${path}`, {
    ...init,
    headers: { authorization: `Basic ${btoa('a:b')}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
};
const listeners = async (sandbox: Sandbox) =>
  (await control(sandbox, '/_sandbox/webhooks/listeners')).body as { endpoint: string | null; data: { id: string; url: string }[] };
const deliveries = async (sandbox: Sandbox) =>
  (await control(sandbox, '/_sandbox/webhooks/deliveries')).body.data as {
    eventId: string;
    type: string;
    endpoint: string;
    state: string;
    body: string;
    attempts: { status?: number; error?: string }[];
  }[];
const webhookEndpoint = async (sandbox: Sandbox) =>
  json<{ webhookEndpoint?: string }>(await cli(['config', 'retrieve', '--json'], { env: envFor(sandbox) })).webhookEndpoint;

/** A server on 127.0.0.1 that records each request's path and answers with `answer`. */
async function recorder(
  answer: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; hits: string[]; server: Server; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    server,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('the configured webhookEndpoint stays as it was (item 3)', () => {
  let sandbox: Sandbox;
  let original: Awaited<ReturnType<typeof recorder>>;
  let forward: Receiver;
  beforeAll(async () => {
    original = await recorder((_req, res) => res.end());
    sandbox = await startSandbox(['--quiet', '--webhook-url', `${original.url}/original`]);
    forward = await verifyingReceiver(sandbox.publicKey);
  });
  afterAll(async () => {
    await sandbox.stop();
    await original.close();
    await forward.close();
  });

  it('after trigger and fixtures run end, after listen is interrupted or killed: config retrieve shows the original endpoint, and a killed listener is detached at once', async () => {
    const endpoint = `${original.url}/original`;
    expect(await webhookEndpoint(sandbox)).toBe(endpoint);

    // trigger and fixtures run, to their end: the endpoint got the events, and is still configured.
    const triggered = await cli(['trigger', 'CUSTOMER.KYC_APPROVED', '--url', sandbox.url, '--json'], { timeoutMs: 60_000 });
    expect(triggered.code).toBe(0);
    const { eventId } = JSON.parse(triggered.out) as { eventId: string };
    expect(
      await eventually(async () => (await deliveries(sandbox)).some((d) => d.eventId === eventId && d.endpoint === endpoint && d.state === 'delivered')),
    ).toBe(true);
    expect(
      (await cli(['fixtures', 'run', join(root, 'examples', 'scenarios', 'payout-fx.yaml'), '--url', sandbox.url, '--json'], { timeoutMs: 60_000 })).code,
    ).toBe(0);
    expect(await webhookEndpoint(sandbox)).toBe(endpoint);
    expect((await listeners(sandbox)).data).toEqual([]);

    // listen, stopped with SIGINT: attached while it runs (beside the endpoint), detached after.
    const first = startListen(sandbox, forward.url);
    expect(await eventually(() => first.events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
    const ready = first.events().find((e) => e.kind === 'ready')!;
    expect(await webhookEndpoint(sandbox)).toBe(endpoint);
    expect(await listeners(sandbox)).toEqual({ endpoint, data: [expect.objectContaining({ id: ready.listener, url: ready.endpoint })] });
    const both = await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
    const bothId = (JSON.parse(both.out) as { eventId: string }).eventId;
    expect(await eventually(() => forward.received.some((r) => r.id === bothId && r.verified))).toBe(true);
    expect(
      await eventually(
        async () =>
          (await deliveries(sandbox))
            .filter((d) => d.eventId === bothId && d.state === 'delivered')
            .map((d) => d.endpoint)
            .sort()
            .join() === [endpoint, ready.endpoint].sort().join(),
      ),
    ).toBe(true);
    expect(await kill(first.child, first.exited, 'SIGINT')).toBe(0);
    expect(await eventually(async () => (await listeners(sandbox)).data.length === 0, 5_000)).toBe(true);
    expect(await webhookEndpoint(sandbox)).toBe(endpoint);

    // listen, killed with SIGKILL: no chance to say goodbye, detached all the same within moments.
    const second = startListen(sandbox, forward.url);
    expect(await eventually(() => second.events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
    const killedAt = second.events().find((e) => e.kind === 'ready')!.endpoint!;
    expect(await kill(second.child, second.exited, 'SIGKILL')).toBe(null);
    expect(await eventually(async () => (await listeners(sandbox)).data.length === 0, 2_000)).toBe(true);
    expect(await webhookEndpoint(sandbox)).toBe(endpoint);
    const after = await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
    const afterId = (JSON.parse(after.out) as { eventId: string }).eventId;
    expect(await eventually(async () => (await deliveries(sandbox)).some((d) => d.eventId === afterId && d.state === 'delivered'))).toBe(true);
    expect((await deliveries(sandbox)).filter((d) => d.eventId === afterId).map((d) => d.endpoint)).toEqual([endpoint]); // nothing to the dead port
    expect((await deliveries(sandbox)).some((d) => d.endpoint === killedAt && d.eventId === afterId)).toBe(false);

    // fixtures run killed mid-scenario (waiting for a webhook that never comes): detached, endpoint kept.
    const waiting = join(dir, 'waits.yaml');
    writeFileSync(waiting, 'steps:\n  - expectWebhook: { type: INVITATION.CLAIMED, within: 60s }\n');
    const run = spawn(process.execPath, [CLI, 'fixtures', 'run', waiting, '--url', sandbox.url], { cwd: root, stdio: 'ignore' });
    const runExited = new Promise<number | null>((resolve) => run.once('exit', (code) => resolve(code)));
    expect(await eventually(async () => (await listeners(sandbox)).data.length === 1, 20_000)).toBe(true);
    expect(await kill(run, runExited, 'SIGKILL')).toBe(null);
    expect(await eventually(async () => (await listeners(sandbox)).data.length === 0, 2_000)).toBe(true);
    expect(await webhookEndpoint(sandbox)).toBe(endpoint);
    expect(original.hits.every((path) => path === '/original')).toBe(true);

    // The handler is briefly down: a scenario run still leaves its configuration alone.
    await original.close();
    const whileDown = await cli(['fixtures', 'run', join(root, 'examples', 'scenarios', 'failed-payout-refund.json'), '--url', sandbox.url, '--json'], {
      timeoutMs: 60_000,
    });
    expect([whileDown.code, whileDown.err]).toEqual([0, '']);
    expect(await webhookEndpoint(sandbox)).toBe(endpoint);
    expect((await listeners(sandbox)).data).toEqual([]);
  }, 150_000);
});

describe('a sandbox without an endpoint, listen attached', () => {
  let sandbox: Sandbox;
  let receiver: Receiver;
  beforeAll(async () => {
    sandbox = await startSandbox(['--quiet']);
    receiver = await verifyingReceiver(sandbox.publicKey);
  });
  afterAll(async () => {
    await sandbox.stop();
    await receiver.close();
  });

  it('listen --events never approves a held payment: the skipped approval request is answered 202, and incoming-uma-approval passes (item 4)', async () => {
    const listen = startListen(sandbox, receiver.url, ['--events', 'CUSTOMER.KYC_APPROVED']);
    try {
      expect(await eventually(() => listen.events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
      const res = await cli(['fixtures', 'run', join(root, 'examples', 'scenarios', 'incoming-uma-approval.yaml'), '--url', sandbox.url, '--json'], {
        timeoutMs: 60_000,
      });
      expect(res.err).toBe('');
      expect(res.code).toBe(0);
      const results = JSON.parse(res.out) as Record<string, { id?: string; status?: string; type?: string }>;
      expect([results.incoming!.status, results.pending!.type, results.approved!.status, results.payment!.status]).toEqual([
        'PENDING',
        'INCOMING_PAYMENT.PENDING',
        'COMPLETED',
        'COMPLETED',
      ]);
      const pendingId = (results.pending as { id: string }).id;
      expect(listen.events().find((e) => e.id === pendingId)).toMatchObject({ kind: 'skipped', type: 'INCOMING_PAYMENT.PENDING', status: 202 });
      expect(receiver.received.some((r) => r.type === 'INCOMING_PAYMENT.PENDING')).toBe(false);
      // A skipped notification is only acknowledged.
      const completed = (results.completed as { id: string }).id;
      expect(await eventually(() => listen.events().some((e) => e.id === completed))).toBe(true);
      expect(listen.events().find((e) => e.id === completed)).toMatchObject({ kind: 'skipped', status: 200 });
    } finally {
      expect(await kill(listen.child, listen.exited, 'SIGTERM')).toBe(0);
    }
  }, 90_000);

  it('a trigger drives a real resource: the event is the one the sandbox sent for the transition, the resource agrees, one transition one event (item 5)', async () => {
    const listen = startListen(sandbox, receiver.url);
    try {
      expect(await eventually(() => listen.events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
      const about = async (type: string) => {
        const ran = await cli(['trigger', type, '--url', sandbox.url, '--json'], { timeoutMs: 60_000 });
        expect(ran.err).toBe('');
        expect(ran.code).toBe(0);
        const { eventId, resourceId } = JSON.parse(ran.out) as { eventId: string; resourceId: string };
        expect(await eventually(() => receiver.received.some((r) => r.id === eventId))).toBe(true);
        return { eventId, resourceId, event: receiver.received.find((r) => r.id === eventId)! };
      };
      const transaction = async (id: string) =>
        json<{ status: string; failureReason?: string; updatedAt: string }>(await cli(['transactions', 'retrieve', id, '--json'], { env: envFor(sandbox) }));

      const failed = await about('OUTGOING_PAYMENT.FAILED');
      expect([failed.event.type, failed.event.verified, failed.event.data.id, failed.event.data.status, failed.event.data.failureReason]).toEqual([
        'OUTGOING_PAYMENT.FAILED',
        true,
        failed.resourceId,
        'FAILED',
        'OFFRAMP_FAILED',
      ]);
      const completed = await about('OUTGOING_PAYMENT.COMPLETED');
      expect([completed.event.data.id, completed.event.data.status]).toEqual([completed.resourceId, 'COMPLETED']);
      const kyc = await about('CUSTOMER.KYC_REJECTED');
      expect([kyc.event.data.id, kyc.event.data.kycStatus]).toEqual([kyc.resourceId, 'REJECTED']);

      // Retrieving agrees with the event; settlement has long passed, and nothing more came.
      await new Promise((r) => setTimeout(r, 3_000));
      const payout = await transaction(failed.resourceId);
      expect([payout.status, payout.failureReason, payout.updatedAt]).toEqual(['FAILED', 'OFFRAMP_FAILED', failed.event.data.updatedAt]);
      expect((await transaction(completed.resourceId)).status).toBe('COMPLETED');
      const aboutFailed = receiver.received.filter((r) => r.data.id === failed.resourceId).map((r) => r.type);
      expect(aboutFailed).toEqual(['OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.FAILED']); // one event per transition, never COMPLETED
      expect(receiver.received.filter((r) => r.data.id === completed.resourceId).map((r) => r.type)).toEqual([
        'OUTGOING_PAYMENT.PROCESSING',
        'OUTGOING_PAYMENT.COMPLETED',
      ]);
      expect(receiver.received.filter((r) => r.data.id === kyc.resourceId).map((r) => r.type)).toEqual(['CUSTOMER.KYC_REJECTED']);
    } finally {
      expect(await kill(listen.child, listen.exited, 'SIGTERM')).toBe(0);
    }
  }, 120_000);

  it('expectWebhook without match waits for an event sent after its step began (item 6)', async () => {
    const waits = (within: string) => {
      const file = join(dir, `expects-test-${within}.yaml`);
      writeFileSync(file, `steps:\n  - name: test\n    expectWebhook: { type: TEST, within: ${within} }\n`);
      return file;
    };
    const listen = startListen(sandbox, receiver.url);
    try {
      expect(await eventually(() => listen.events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
      // A TEST sent before the scenario: it says nothing about the step.
      const old = await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
      const oldId = (JSON.parse(old.out) as { eventId: string }).eventId;
      expect(await eventually(() => receiver.received.some((r) => r.id === oldId))).toBe(true);
      const stale = await cli(['fixtures', 'run', waits('1s'), '--url', sandbox.url], { timeoutMs: 30_000 });
      expect(stale.code).toBe(1);
      expect(stale.err).toContain('1. test: no TEST webhook sent after this step began within 1s');
      expect(stale.err).toContain(oldId);
      // A TEST sent while the step waits is the one it takes.
      const run = cli(['fixtures', 'run', waits('20s'), '--url', sandbox.url, '--json'], { timeoutMs: 40_000 });
      expect(await eventually(async () => (await listeners(sandbox)).data.length === 2, 20_000)).toBe(true); // the scenario's own target: its step is about to begin
      await new Promise((r) => setTimeout(r, 1_500));
      const fresh = await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
      const freshId = (JSON.parse(fresh.out) as { eventId: string }).eventId;
      const done = await run;
      expect(done.err).toBe('');
      expect((JSON.parse(done.out) as { test: { id: string } }).test.id).toBe(freshId);
    } finally {
      expect(await kill(listen.child, listen.exited, 'SIGTERM')).toBe(0);
    }
  }, 90_000);
});

describe('redirects are failed deliveries (item 13)', () => {
  it('the sandbox does not follow a 307 from its endpoint (logged as a failure), and listen does not follow one from its forward target (a failed forward)', async () => {
    const elsewhere = await recorder((_req, res) => res.end('taken'));
    const redirecting = await recorder((_req, res) => res.writeHead(307, { location: `${elsewhere.url}/stolen` }).end());
    const sandbox = await startSandbox(['--webhook-url', `${redirecting.url}/hook`]);
    try {
      const sent = await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
      const eventId = (JSON.parse(sent.out) as { eventId: string }).eventId;
      expect(await eventually(async () => ((await deliveries(sandbox)).find((d) => d.eventId === eventId)?.attempts.length ?? 0) >= 1)).toBe(true);
      const delivery = (await deliveries(sandbox)).find((d) => d.eventId === eventId)!;
      expect(delivery.state).not.toBe('delivered');
      expect(delivery.attempts[0]).toMatchObject({
        status: 307,
        error: expect.stringContaining(`a redirect (307 to ${elsewhere.url}/stolen) is not followed`),
      });
      expect(await eventually(() => sandbox.output().includes(`webhook TEST ${eventId} → ${redirecting.url}/hook 307 a redirect`))).toBe(true);

      // listen's forward: 502 to the sandbox, a `failed` line naming the redirect.
      const listen = startListen(sandbox, `${redirecting.url}/forward`);
      try {
        expect(await eventually(() => listen.events().some((e) => e.kind === 'ready'), 20_000)).toBe(true);
        const again = await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
        const againId = (JSON.parse(again.out) as { eventId: string }).eventId;
        expect(await eventually(() => listen.events().some((e) => e.id === againId))).toBe(true);
        expect(listen.events().find((e) => e.id === againId)).toMatchObject({
          kind: 'failed',
          status: 307,
          error: `a redirect (307 to ${elsewhere.url}/stolen) is not followed`,
        });
        const ready = listen.events().find((e) => e.kind === 'ready')!;
        expect(
          await eventually(async () =>
            (await deliveries(sandbox)).some((d) => d.eventId === againId && d.endpoint === ready.endpoint && d.attempts[0]?.status === 502),
          ),
        ).toBe(true);
      } finally {
        expect(await kill(listen.child, listen.exited, 'SIGTERM')).toBe(0);
      }
      expect(elsewhere.hits).toEqual([]);
    } finally {
      await sandbox.stop();
      await elsewhere.close();
      await redirecting.close();
    }
  }, 60_000);
});

describe('the state file always reloads (item 12)', () => {
  it('refuses a clock advance past what the state can hold (400 naming the field), reloads a state at the limit, and removes the temporary files a kill left', async () => {
    const file = join(dir, 'state.json');
    const sandbox = await startSandbox(['--quiet', '--state', file]);
    let restarted: Sandbox | undefined;
    try {
      const refused = await cli(['sandbox', 'clock', 'advance', '3000000d', '--url', sandbox.url]);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('400');
      expect(refused.err).toContain('"field":"advance"');
      expect(refused.err).toContain('9999-12-30T23:59:59.999Z');
      // As far as it goes: the days left to the limit, less one.
      const days = Math.floor((Date.UTC(9999, 11, 30, 23, 59, 59, 999) - Date.now()) / 86_400_000) - 1;
      const moved = await cli(['sandbox', 'clock', 'advance', `${days}d`, '--url', sandbox.url]);
      expect(moved.code).toBe(0);
      expect((JSON.parse(moved.out) as { now: string }).now).toMatch(/^9999-12-/);
      // Dates ahead of the clock (a quote's expiry) are kept too.
      const customer = json<{ id: string }>(
        await cli(['customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--full-name', 'Far Future', '--json'], { env: envFor(sandbox) }),
      );
      expect(await eventually(() => existsSync(file) && readFileSync(file, 'utf8').includes(customer.id), 5_000)).toBe(true);
      sandbox.child.kill('SIGKILL');
      await new Promise((r) => sandbox.child.once('exit', r));
      // What a kill between write and rename leaves: a temporary file of a process that is gone.
      const leftover = `${file}.999999999.tmp`;
      writeFileSync(leftover, '{"half": ');
      restarted = await startSandbox(['--quiet', '--state', file]);
      const listed = json<{ data: { id: string }[] }>(await cli(['customers', 'list', '--json'], { env: envFor(restarted) }));
      expect(listed.data.map((c) => c.id)).toEqual([customer.id]);
      expect(existsSync(leftover)).toBe(false);
    } finally {
      if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) await sandbox.stop();
      if (restarted) expect(await restarted.stop()).toBe(0);
    }
  }, 60_000);
});
