/**
 * The README's example is examples/readme.mts, verbatim, and it runs: against a local sandbox on
 * 127.0.0.1, configured by environment variables; and as a user runs it, pasted under the name the
 * README gives into a project made by `npm init -y` (CommonJS), with the command the README gives.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createSandbox } from 'crossborder-sdk/sandbox';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { bin, makeConsumer } from '../setup/packed';
import { codeBlocks, read } from '../docs/markdown';

describe('README.md example (examples/readme.mts)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('is shown verbatim, first thing after the two commands', () => {
    const blocks = codeBlocks(read('README.md'));
    expect(blocks[0]!.lang).toBe('sh');
    expect(blocks[1]).toEqual({ file: 'examples/readme.mts', lang: 'ts', code: read('examples/readme.mts') });
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
      await import('../../examples/readme.mts');
    } finally {
      await sandbox.close();
    }
    expect(printed).toEqual([[expect.stringMatching(/^Transaction:/), 'PROCESSING', expect.any(Number)]]);
    const [quote] = sandbox.state.snapshot().quotes;
    expect(quote).toMatchObject({ status: 'PROCESSING', totalSendingAmount: 10_000, sendingCurrency: { code: 'USD' }, receivingCurrency: { code: 'GBP' } });
  });

  it('runs in a fresh `npm init -y` project (CommonJS) from the tarball, saved and run as the README says', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crossborder-readme-'));
    const sandbox = createSandbox();
    try {
      makeConsumer(inject('packed'), dir);
      rmSync(join(dir, 'package.json'));
      execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'pipe', timeout: 60_000 });
      // npm's default project: CommonJS (npm 11 writes "type": "commonjs"; older ones write no type, the same).
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');

      // What a user reads in the installed package: the snippet, the file name and the command.
      const readme = readFileSync(join(dir, 'node_modules', 'crossborder-sdk', 'README.md'), 'utf8');
      const snippet = codeBlocks(readme)[1]!.code;
      const command = /run it with the variables above set: `npx (tsx) ([\w.-]+)`/.exec(readme);
      expect(command, 'the README names the command that runs the snippet').not.toBeNull();
      const file = command![2]!;
      writeFileSync(join(dir, file), snippet);

      const server = await sandbox.listen();
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        CROSSBORDER_BASE_URL: server.url,
        CROSSBORDER_TOKEN_ID: 'x',
        CROSSBORDER_CLIENT_SECRET: 'x',
      };
      const ran = await promisify(execFile)(bin('tsx'), [file], { cwd: dir, env, encoding: 'utf8', timeout: 90_000 }).catch((error: { stderr?: string }) => ({
        stdout: '',
        stderr: String(error.stderr),
      }));
      expect(ran.stderr).toBe('');
      expect(ran.stdout).toMatch(/^Transaction:\S+ PROCESSING \d+\n$/);
      expect(sandbox.state.snapshot().quotes).toEqual([expect.objectContaining({ status: 'PROCESSING', totalSendingAmount: 10_000 })]);
    } finally {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the API reference it names is in the installed package: the declarations carry each method's TSDoc and example", () => {
    const readme = read('README.md');
    expect(readme).toContain('`node_modules/crossborder-sdk/dist/*.d.cts` (`index.d.cts` for the client)');
    // index.d.ts re-exports it (the declarations ship once).
    expect(readFileSync(join(inject('packed').pkg, 'dist', 'index.d.ts'), 'utf8').trim()).toBe("export * from './index.cjs';");
    const declarations = readFileSync(join(inject('packed').pkg, 'dist', 'index.d.cts'), 'utf8');
    // The TSDoc of cb.customers.importCsv, its example included, as the source has it.
    expect(declarations).toContain('Imports customers from a CSV file');
    expect(declarations).toMatch(/@example[\s\S]{0,400}cb\.customers\.importCsv\(\{ file: csv \}\)/);
    expect(declarations.match(/@example/g)!.length).toBeGreaterThan(60);
  });
});
