/**
 * `listen`, `trigger` and `fixtures run` from the packed bin against the HTTP sandbox: deliveries
 * forwarded to a receiver that verifies their signature with the packed SDK, across a sandbox
 * restart; a trigger with an override; the three shipped scenarios.
 */
import { spawn } from 'node:child_process';
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

describe('listen and trigger', () => {
  it('listen forwards each delivery with its signature unchanged (the receiver verifies it), filters with --events, and survives a sandbox restart', async () => {
    const listen = spawn(process.execPath, [CLI, 'listen', '--forward-to', receiver.url, '--url', sandbox.url, '--events', 'CUSTOMER.KYC_APPROVED,TEST', '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = '';
    listen.stdout.on('data', (c: Buffer) => (lines += c.toString()));
    const events = () => lines.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; type?: string; id?: string; status?: number; time: string });
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
      expect(events().find((e) => e.id === eventId)).toMatchObject({ kind: 'forwarded', type: 'CUSTOMER.KYC_APPROVED', status: 200, time: expect.stringMatching(/^\d{4}-/) });
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

  it('trigger and sandbox trigger refuse an unknown event type (exit 2, the known types listed)', async () => {
    for (const args of [['trigger', 'PAYMENT.DONE'], ['sandbox', 'trigger', 'PAYMENT.DONE']]) {
      const res = await cli([...args, '--url', sandbox.url]);
      expect([res.code, res.out]).toEqual([2, '']);
      expect(res.err).toContain("unknown event type 'PAYMENT.DONE'; the types are: INVITATION.CLAIMED, INCOMING_PAYMENT.PENDING");
    }
  }, 30_000);
});

describe('fixtures run', () => {
  it.each(['payout-fx.yaml', 'incoming-uma-approval.yaml', 'failed-payout-refund.json'])('runs examples/scenarios/%s to its end', async (file) => {
    const res = await cli(['fixtures', 'run', join(root, 'examples', 'scenarios', file), '--url', sandbox.url, '--json'], { timeoutMs: 60_000 });
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    const results = JSON.parse(res.out) as Record<string, { status?: string; type?: string; data?: { status?: string; failureReason?: string } }>;
    if (file.startsWith('payout')) expect([results.completed!.type, results.payment!.status]).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'COMPLETED']);
    if (file.startsWith('incoming')) expect([results.incoming!.status, results.pending!.type, results.payment!.status]).toEqual(['PENDING', 'INCOMING_PAYMENT.PENDING', 'COMPLETED']);
    if (file.startsWith('failed')) expect([results.failed!.type, results.failed!.data!.failureReason]).toEqual(['OUTGOING_PAYMENT.FAILED', 'OFFRAMP_FAILED']);
  }, 60_000);

  it('a failed expectation names the step and exits 1; a reference to no step is a usage error', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'cb-scenario-'));
    writeFileSync(join(dir, 'bad.yaml'), 'steps:\n  - name: customer\n    createCustomer: { body: { customerType: INDIVIDUAL, region: US, fullName: X } }\n  - expect: { actual: "${steps.customer.region}", equals: GB }\n');
    const bad = await cli(['fixtures', 'run', join(dir, 'bad.yaml'), '--url', sandbox.url]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('2. expect: expected "GB", got "US"');
    writeFileSync(join(dir, 'ref.json'), JSON.stringify({ steps: [{ execute: '${steps.quote.id}' }] }));
    const ref = await cli(['fixtures', 'run', join(dir, 'ref.json'), '--url', sandbox.url]);
    expect([ref.code, ref.err.trim()]).toEqual([2, "crossborder-sdk: ${steps.quote.id}: no earlier step named 'quote'"]);
  }, 30_000);
});
