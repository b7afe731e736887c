/**
 * The sandbox's edges against hostile peers (issue 22, defects 2, 3 and 6, and "nothing lost when the
 * sandbox stops"), over real HTTP on 127.0.0.1 and against the built package: `crossborder-sdk/sandbox`
 * as users get it (packed by test/setup/packed.ts; EDGES_SOURCE=1 runs the source instead, for a quick
 * loop while developing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePacked } from '../setup/packed';

type SandboxModule = typeof import('../../src/sandbox/index');
const SOURCE = process.env.EDGES_SOURCE === '1';
let mod: SandboxModule;
/** The built sandbox entry (an absolute file URL), for child processes. */
let entryUrl: string;
const scratch = mkdtempSync(join(tmpdir(), 'sandbox-edges-'));

beforeAll(async () => {
  if (SOURCE) {
    mod = await import('../../src/sandbox/index');
    entryUrl = '';
    return;
  }
  const { pkg } = ensurePacked();
  entryUrl = pathToFileURL(join(pkg, 'dist', 'sandbox.js')).href;
  mod = (await import(/* @vite-ignore */ entryUrl)) as SandboxModule;
}, 300_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const AUTH = `Basic ${btoa('tok:secret')}`;
const VERSION = '2025-10-13';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 20 ms for at most `ms`; its last value. */
async function within<T>(ms: number, check: () => T | undefined): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined || Date.now() > deadline) return value;
    await sleep(20);
  }
}

const readJson = (file: string) => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { world: { customers: [string, unknown][] } }) : undefined);
const customerIds = (file: string) => readJson(file)?.world.customers.map(([id]) => id) ?? [];

describe('the state file is written as it changes (nothing lost when the sandbox stops)', () => {
  it('persistStateTo writes atomically shortly after a change, skips unchanged content, and close() writes the last change', async () => {
    const sandbox = mod.createSandbox();
    const file = join(scratch, 'state-inprocess.json');
    const persister = await mod.persistStateTo(sandbox, file, { delayMs: 50 });
    try {
      expect(existsSync(file)).toBe(false); // nothing changed yet
      const created = await sandbox.fetch(`http://sandbox.test/${VERSION}/customers`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada' }) });
      const { id } = (await created.json()) as { id: string };
      const written = await within(2_000, () => (customerIds(file).includes(id) ? true : undefined));
      expect(written).toBe(true);
      expect(persister.writes).toBe(1);
      // Reads change nothing: no new write.
      await sandbox.fetch(`http://sandbox.test/${VERSION}/customers`, { headers: { authorization: AUTH } });
      await sleep(200);
      expect(persister.writes).toBe(1);
      // A change then close() at once: written by close, not lost with the timer.
      const second = await sandbox.fetch(`http://sandbox.test/${VERSION}/customers`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Bo' }) });
      const { id: id2 } = (await second.json()) as { id: string };
      persister.close();
      expect(customerIds(file)).toEqual([id, id2]);
      expect(persister.writes).toBe(2);
      expect(readdirSync(scratch).filter((f) => f.endsWith('.tmp'))).toEqual([]); // no temporary left behind
      // Closed: later changes are not written.
      sandbox.reset();
      await sleep(150);
      expect(customerIds(file)).toEqual([id, id2]);
    } finally {
      persister.close();
      await sandbox.close();
    }
  });

  it('a sandbox process killed with SIGKILL loses at most the last moments: the state file holds what was done before', async () => {
    if (SOURCE) return; // the child runs the built package
    const file = join(scratch, 'state-killed.json');
    const script = `
      const { createSandbox, persistStateTo } = await import(${JSON.stringify(entryUrl)});
      const sandbox = createSandbox();
      await persistStateTo(sandbox, ${JSON.stringify(file)}, { delayMs: 100 });
      const server = await sandbox.listen(0, '127.0.0.1');
      console.log(server.url);`;
    const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const url = await within(20_000, () => /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0]);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const ids: string[] = [];
      for (const fullName of ['Ada', 'Bo', 'Cy']) {
        const res = await fetch(`${url}/${VERSION}/customers`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ customerType: 'INDIVIDUAL', region: 'US', fullName }) });
        ids.push(((await res.json()) as { id: string }).id);
      }
      // "The last moments": 100 ms of delay, plus a generous margin for a loaded machine.
      await sleep(1_000);
      child.kill('SIGKILL');
      await within(5_000, () => (child.exitCode !== null || child.signalCode !== null ? true : undefined));
      expect(child.signalCode).toBe('SIGKILL');
      expect(customerIds(file)).toEqual(ids);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
