/**
 * Bun (the devDependency `bun`, this platform's binary from npm) running the smoke flow from the
 * packed tarball in an ESM consumer, with Bun's own resolver and WebCrypto. See support.ts.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, inject, it } from 'vitest';
import { bunBinary, expectPassed, flowConsumer, runProcess, scratchAndService, smoke } from './support';

const packed = inject('packed');
const { scratch, service } = scratchAndService('bun');

describe('Bun', () => {
  it('key pair, sandbox-sealed session key, stamp, webhooks.unwrap', { timeout: 60_000 }, async () => {
    const bun = bunBinary(); // throws with the reason when this platform's binary is missing
    const version = execFileSync(bun, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
    const consumer = flowConsumer(packed, join(scratch, 'consumer'));
    const run = await smoke(
      service,
      runProcess(bun, ['main.mjs'], { cwd: consumer, env: { BUN_INSTALL_CACHE_DIR: join(scratch, 'cache'), DO_NOT_TRACK: '1' } }),
    );
    expectPassed(run, `bun ${version}`, 'bun', version);
  });
});
