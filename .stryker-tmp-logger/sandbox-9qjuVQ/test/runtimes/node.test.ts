/**
 * Node (this one, ≥ 20) from the packed tarball: the runtime smoke flow in an ESM consumer
 * (`import`) and a CommonJS one (`require`, the package's CJS build). See support.ts.
 */
// @ts-nocheck

import { join } from 'node:path';
import { describe, inject, it } from 'vitest';
import { expectPassed, flowConsumer, runProcess, scratchAndService, smoke } from './support';

const packed = inject('packed');
const { scratch, service } = scratchAndService('node');

describe(`Node ${process.version}`, () => {
  it('ESM: key pair, sandbox-sealed session key, stamp, webhooks.unwrap', { timeout: 60_000 }, async () => {
    const consumer = flowConsumer(packed, join(scratch, 'esm'), 'module');
    const run = await smoke(service, runProcess(process.execPath, ['main.mjs'], { cwd: consumer }));
    expectPassed(run, `node ${process.versions.node}`, 'node-esm', process.version);
  });

  it('CommonJS: the same through require', { timeout: 60_000 }, async () => {
    const consumer = flowConsumer(packed, join(scratch, 'cjs'), 'commonjs');
    const run = await smoke(service, runProcess(process.execPath, ['main.cjs'], { cwd: consumer }));
    expectPassed(run, `node ${process.versions.node}`, 'node-cjs', process.version);
  });
});
