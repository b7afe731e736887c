/** The README's example is examples/readme.ts, verbatim, and it runs: against a local sandbox on 127.0.0.1, configured by environment variables. */
// @ts-nocheck

import { createSandbox } from 'crossborder-sdk/sandbox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { codeBlocks, read } from '../docs/markdown';

describe('README.md example (examples/readme.ts)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('is shown verbatim, first thing after the two commands', () => {
    const blocks = codeBlocks(read('README.md'));
    expect(blocks[0]!.lang).toBe('sh');
    expect(blocks[1]).toEqual({ file: 'examples/readme.ts', lang: 'ts', code: read('examples/readme.ts') });
    expect(blocks[1]!.code).toContain('for await');
    expect(blocks[1]!.code.trim().split('\n').length).toBeLessThanOrEqual(20);
  });

  it('runs as written, with only environment variables set', async () => {
    const sandbox = createSandbox();
    const server = await sandbox.listen();
    const printed: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));
    try {
      vi.stubEnv('CROSSBORDER_TOKEN_ID', 'readme');
      vi.stubEnv('CROSSBORDER_CLIENT_SECRET', 'readme');
      vi.stubEnv('CROSSBORDER_BASE_URL', server.url);
      await import('../../examples/readme');
    } finally {
      await sandbox.close();
    }
    expect(printed).toEqual([[expect.stringMatching(/^Transaction:/), 'PROCESSING', expect.any(Number)]]);
    const [quote] = sandbox.state.snapshot().quotes;
    expect(quote).toMatchObject({ status: 'PROCESSING', totalSendingAmount: 10_000, sendingCurrency: { code: 'USD' }, receivingCurrency: { code: 'GBP' } });
  });
});
