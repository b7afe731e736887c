/**
 * Deno (the devDependency `deno`, this platform's binary from npm) running the smoke flow from the
 * packed tarball: a consumer with a package.json and node_modules, which Deno resolves itself
 * (no npm: specifiers, no network), with no permission at all: the client's environment
 * fallbacks (CROSSBORDER_*) are read only where the runtime allows it. See support.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { denoBinary, expectedVerdict, flowConsumer, runProcess, ServiceSide, record, smoke } from './support';

const packed = inject('packed');
const scratch = mkdtempSync(join(tmpdir(), 'crossborder-rt-deno-'));
const service = new ServiceSide();
afterAll(async () => {
  await service.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('Deno', () => {
  it('key pair, sandbox-sealed session key, stamp, webhooks.unwrap, with no permission granted', { timeout: 60_000 }, async () => {
    const deno = denoBinary(); // throws with the reason when this platform's binary is missing
    const version = /^deno (\S+)/.exec(execFileSync(deno, ['--version'], { encoding: 'utf8', timeout: 10_000 }))?.[1];
    const consumer = flowConsumer(packed, join(scratch, 'consumer'));
    const env = { DENO_DIR: join(scratch, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
    const run = await smoke(service, runProcess(deno, ['run', '--no-prompt', '--no-remote', 'main.mjs'], { cwd: consumer, env }));
    expect(run.begun.runtime).toBe(`deno ${version}`);
    record('deno', String(version), run);
    expect(run.verdict).toEqual(expectedVerdict('OperationError'));
  });
});
