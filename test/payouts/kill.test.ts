/**
 * `crossborder-sdk payouts run` as users run it (the packed bin), against the HTTP sandbox behind a TCP
 * fault proxy that loses answers, under a sandbox rate limit; the process is SIGKILLed at random
 * points and started again each time. In the sandbox's own ledger: 0 doubled, 0 missing.
 *
 * `npm test` runs a small batch (PAYOUTS_REFS 300, PAYOUTS_KILLS 5); `npm run test:payouts` the full one
 * (10,000 references, 20 kills).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userDescription } from '../../src/payouts/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { CLI, cli } from '../cli/helpers';
import { PASS, startTcpFaultProxy, type TcpFaultProxy } from '../helpers/fault-proxy';
import { prng } from '../reliability/support';
import { exactlyOnce, instructions, sandboxClient, setUpWorld } from './world';

const REFS = Number(process.env.PAYOUTS_REFS ?? 300);
const KILLS = Number(process.env.PAYOUTS_KILLS ?? 5);
const LOSS = 0.2;

/**
 * How far a batch is, read from its journal as the runs write it: the references journaled in a final
 * state. Reads only the complete lines added since the last look (a torn line a kill left is cut off by
 * the next run, so the file never shrinks below what was read).
 */
function journalProgress(path: string): () => number {
  const done = new Set<string>();
  let position = 0;
  let carry = '';
  return () => {
    if (!existsSync(path)) return done.size;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (let n = readSync(fd, buffer, 0, buffer.length, position); n > 0; n = readSync(fd, buffer, 0, buffer.length, position)) {
        position += n;
        const lines = (carry + buffer.toString('latin1', 0, n)).split('\n');
        carry = lines.pop()!;
        for (const line of lines) {
          const m = /^\{"reference":"([^"]+)","state":"(completed|failed|needs_attention)"/.exec(line);
          if (m) done.add(m[1]!);
        }
      }
      position -= Buffer.byteLength(carry, 'latin1');
      carry = '';
    } finally {
      closeSync(fd);
    }
    return done.size;
  };
}

describe(`payouts run: ${REFS} references, ${Math.round(LOSS * 100)} % of answers to writes lost, a rate limit, SIGKILLed ${KILLS} times`, () => {
  let sandbox: Sandbox;
  let proxy: TcpFaultProxy;
  let dir: string;
  let env: Record<string, string>;
  const random = prng(35);

  beforeAll(async () => {
    sandbox = createSandbox();
    const server = await sandbox.listen();
    const world = await setUpWorld(sandboxClient(sandbox, fetch, server.url), 4);
    sandbox.faults.set({ rateLimit: { requestsPerSecond: 400 } });
    // Writes (POST) lose their answer after the sandbox acted on them; reads pass.
    proxy = await startTcpFaultProxy(Number(new URL(server.url).port), (exchange) =>
      exchange.data.subarray(0, 5).toString('latin1') === 'POST ' && random() < LOSS ? { kind: 'cut-before-reply' } : PASS,
    );
    dir = mkdtempSync(join(tmpdir(), 'cb-payouts-'));
    const rows = instructions(world, REFS).map((i) =>
      [i.reference, world.accountId, (i.destination as { accountId: string }).accountId, i.amount, 'USD', 'RECEIVING', i.reference].join(','),
    );
    writeFileSync(
      join(dir, 'payouts.csv'),
      `reference,sourceAccountId,destinationAccountId,amount,currency,lockedCurrencySide,description\n${rows.join('\n')}\n`,
    );
    env = { CROSSBORDER_TOKEN_ID: 'tok', CROSSBORDER_CLIENT_SECRET: 'sk_sandbox', CROSSBORDER_ENVIRONMENT: 'sandbox', CROSSBORDER_BASE_URL: proxy.url };
  });

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('pays every reference exactly once across the kills and restarts, and exits 0 when all completed', { timeout: 1_500_000 }, async () => {
    const args = ['payouts', 'run', join(dir, 'payouts.csv'), '--journal', join(dir, 'payouts.journal'), '--json', '--max-concurrency', '24'];
    // Kill k comes once a seeded share of the batch is done, drawn in the k-th of KILLS equal slices:
    // the kills spread over the whole batch (its start, middle and end), the same on every run.
    const progress = journalProgress(join(dir, 'payouts.journal'));
    const targets = Array.from({ length: KILLS }, (_, k) => Math.floor((REFS * (k + random())) / (KILLS + 1)));
    const killedAt: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      let code: number | null | undefined;
      const exited = new Promise<void>((resolve) => child.once('exit', (c) => resolve(void (code = c))));
      const started = Date.now();
      // Bounded: 120 s per run whatever happens.
      while (code === undefined && progress() < targets[k]! && Date.now() - started < 120_000) await new Promise((r) => setTimeout(r, 20));
      if (code === undefined) child.kill('SIGKILL');
      await exited;
      killedAt.push(progress());
      if (process.env.PAYOUTS_DEBUG)
        console.error(`run ${k}: target ${targets[k]}, killed at ${killedAt.at(-1)} done, exit ${code}; last: ${out.trim().split('\n').pop()?.slice(0, 300)}`);
      if (code === 0) break; // finished before its kill (a small batch on a fast machine)
      expect(code, out.slice(-500)).toBe(null); // killed, not failed
    }
    expect(killedAt.length).toBeGreaterThanOrEqual(Math.min(KILLS, 1));
    // Spread over the batch: the last kill came after more than half of it was done.
    if (killedAt.length === KILLS) expect(Math.max(...killedAt)).toBeGreaterThan(REFS / 2);
    const last = await cli(args, { env: { HOME: dir, ...env }, timeoutMs: 1_200_000 });
    const summary = JSON.parse(last.out.trim().split('\n').pop()!) as { event: string; counts: Record<string, number> };
    expect(last.code, last.err + last.out.slice(-2000)).toBe(0);
    expect(summary).toMatchObject({ event: 'summary', counts: { completed: REFS, failed: 0, needs_attention: 0 } });
    expect(proxy.injected()['cut-before-reply']).toBeGreaterThan(REFS * LOSS * 0.5);

    const references = Array.from({ length: REFS }, (_, i) => `ref-${String(i).padStart(5, '0')}`);
    expect(exactlyOnce(sandbox, references)).toEqual({ doubled: [], missing: [], executions: REFS });

    const status = await cli(['payouts', 'status', '--journal', join(dir, 'payouts.journal'), '--json'], { env: { HOME: dir } });
    expect(JSON.parse(status.out)).toMatchObject({ total: REFS, counts: { completed: REFS }, unsettled: [] });
    const report = await cli(['payouts', 'report', '--journal', join(dir, 'payouts.journal'), '--csv'], { env: { HOME: dir } });
    const lines = report.out.trim().split('\r\n');
    expect(lines[0]).toBe(
      'reference,state,transactionId,transactionStatus,failureReason,sendingAmount,sendingCurrency,receivingAmount,receivingCurrency,fees,exchangeRate,attempts,errorCode,errorMessage',
    );
    expect(lines).toHaveLength(REFS + 1);
    const ledgerTx = new Map(sandbox.ledger.executions.map((e) => [userDescription(e.description), e.transactionId]));
    for (const line of lines.slice(1, 20)) {
      const [reference, state, transactionId] = line.split(',');
      expect(state).toBe('completed');
      expect(transactionId).toBe(ledgerTx.get(reference));
    }
    // The journal survived every kill: each line of it reads.
    const journal = readFileSync(join(dir, 'payouts.journal'), 'utf8');
    expect(journal.endsWith('\n')).toBe(true);
  });
});
