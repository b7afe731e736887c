/**
 * Deno (the devDependency `deno`, this platform's binary from npm) running the smoke flow from the
 * packed tarball: a consumer with a package.json and node_modules, which Deno resolves itself
 * (no npm: specifiers, no network), with no permission at all: the client's environment
 * fallbacks (CROSSBORDER_*) are read only where the runtime allows it. See support.ts.
 */
// @ts-nocheck

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, inject, it } from 'vitest';
import { denoBinary, expectPassed, flowConsumer, runProcess, scratchAndService, smoke } from './support';

const packed = inject('packed');
const { scratch, service } = scratchAndService('deno');

describe('Deno', () => {
  it('key pair, sandbox-sealed session key, stamp, webhooks.unwrap, with no permission granted', { timeout: 60_000 }, async () => {
    const deno = denoBinary(); // throws with the reason when this platform's binary is missing
    const version = /^deno (\S+)/.exec(execFileSync(deno, ['--version'], { encoding: 'utf8', timeout: 10_000 }))?.[1];
    const consumer = flowConsumer(packed, join(scratch, 'consumer'));
    const env = { DENO_DIR: join(scratch, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
    const run = await smoke(service, runProcess(deno, ['run', '--no-prompt', '--no-remote', 'main.mjs'], { cwd: consumer, env }));
    expectPassed(run, `deno ${version}`, 'deno', String(version));
  });
});
