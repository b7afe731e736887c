/**
 * Deno (the devDependency `deno`, this platform's binary from npm) running the smoke flow from the
 * packed tarball: a consumer with a package.json and node_modules, which Deno resolves itself
 * (no npm: specifiers, no network). The one permission granted is reading the SDK's own
 * environment variables: the client reads them as fallbacks even when every option is given, and
 * Deno throws NotCapable on an ungranted read (reported in issue 15's closing note). See support.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { denoBinary, expectedVerdict, flowConsumer, runProcess, ServiceSide, record, smoke } from './support';

const packed = inject('packed');
/** The variables the client falls back to (src/core/client.ts). */
const SDK_VARIABLES = ['CROSSBORDER_TOKEN_ID', 'CROSSBORDER_CLIENT_SECRET', 'CROSSBORDER_BASE_URL', 'CROSSBORDER_ENVIRONMENT', 'CROSSBORDER_WEBHOOK_PUBLIC_KEY', 'CROSSBORDER_LOG'];
const scratch = mkdtempSync(join(tmpdir(), 'crossborder-rt-deno-'));
const service = new ServiceSide();
afterAll(async () => {
  await service.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('Deno', () => {
  it('key pair, sandbox-sealed session key, stamp, webhooks.unwrap (--allow-env of the SDK variables only)', { timeout: 60_000 }, async () => {
    const deno = denoBinary(); // throws with the reason when this platform's binary is missing
    const version = /^deno (\S+)/.exec(execFileSync(deno, ['--version'], { encoding: 'utf8', timeout: 10_000 }))?.[1];
    const consumer = flowConsumer(packed, join(scratch, 'consumer'));
    const env = { DENO_DIR: join(scratch, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
    const allowEnv = `--allow-env=${SDK_VARIABLES.join(',')}`;
    const run = await smoke(service, runProcess(deno, ['run', '--no-prompt', '--no-remote', allowEnv, 'main.mjs'], { cwd: consumer, env }));
    expect(run.begun.runtime).toBe(`deno ${version}`);
    record('deno', String(version), run);
    expect(run.verdict).toEqual(expectedVerdict('OperationError'));
  });
});
