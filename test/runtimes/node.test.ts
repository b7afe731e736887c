/**
 * Node (this one, ≥ 20) from the packed tarball: the runtime smoke flow in an ESM consumer
 * (`import`) and a CommonJS one (`require`, the package's CJS build). See support.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { expectedVerdict, flowConsumer, runProcess, ServiceSide, record, smoke } from './support';

const packed = inject('packed');
const scratch = mkdtempSync(join(tmpdir(), 'crossborder-rt-node-'));
const service = new ServiceSide();
afterAll(async () => {
  await service.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe(`Node ${process.version}`, () => {
  it('ESM: key pair, sandbox-sealed session key, stamp, webhooks.unwrap', { timeout: 60_000 }, async () => {
    const consumer = flowConsumer(packed, join(scratch, 'esm'), 'module');
    const run = await smoke(service, runProcess(process.execPath, ['main.mjs'], { cwd: consumer }));
    expect(run.begun.runtime).toBe(`node ${process.versions.node}`);
    record('node-esm', process.version, run);
    expect(run.verdict).toEqual(expectedVerdict('OperationError'));
  });

  it('CommonJS: the same through require', { timeout: 60_000 }, async () => {
    const consumer = flowConsumer(packed, join(scratch, 'cjs'), 'commonjs');
    const run = await smoke(service, runProcess(process.execPath, ['main.cjs'], { cwd: consumer }));
    expect(run.begun.runtime).toBe(`node ${process.versions.node}`);
    record('node-cjs', process.version, run);
    expect(run.verdict).toEqual(expectedVerdict('OperationError'));
  });
});
