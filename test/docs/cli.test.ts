/** docs/testing.md shows `npx crossborder-sdk sandbox --port 4010`: the same CLI, from source, on a free port. */
import { spawn } from 'node:child_process';
import { Crossborder } from 'crossborder-sdk';
import { describe, expect, it } from 'vitest';
import { read, root } from './markdown';

describe('the sandbox CLI of docs/testing.md', () => {
  it('serves the API on 127.0.0.1 until SIGTERM', async () => {
    expect(read('docs/testing.md')).toContain('npx crossborder-sdk sandbox --port 4010');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sandbox', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no URL within 20 s: ${out}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${out}`)));
      });
      const cb = new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', environment: 'sandbox', baseUrl: url });
      const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
      expect(customer.id).toMatch(/^Customer:/);
    } finally {
      const exited = new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode);
        else child.once('exit', (code) => resolve(code));
      });
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000))]);
      if (code === 'timeout') child.kill('SIGKILL');
      expect(code).toBe(0);
    }
  }, 60_000);
});
