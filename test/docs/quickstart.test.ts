import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sandbox } from '../../examples/guides/quickstart/client';
import { firstPayment } from '../../examples/guides/quickstart/first-payment';
import { bin, makeConsumer } from '../setup/packed';
import { codeBlocks } from './markdown';

describe('docs/quickstart.md', () => {
  afterAll(() => sandbox.close());

  it('makes a first payment that settles, and lists it', async () => {
    const lines: string[] = [];
    const payment = await firstPayment((line) => lines.push(line));
    expect(payment.status).toBe('COMPLETED');
    expect(lines[0]).toMatch(/^Quote:\S+: \d+\.\d{2} GBP for \$250\.00, PROCESSING$/);
    expect(lines[1]).toBe(`${payment.id}: COMPLETED`);
    expect(lines.slice(2)).toEqual([expect.stringMatching(/^OUTGOING COMPLETED \d+\.\d{2} GBP$/)]);
    expect(sandbox.state.snapshot().transactions).toHaveLength(1);
  });
});

/**
 * The page's steps, as a user takes them, in a fresh project: `npm init -y` (CommonJS), and the same
 * made an ES module with the page's own command. The page and its files are read from the installed
 * package; `npm install crossborder-sdk` is the packed tarball (its dependencies linked, no network)
 * and `npm install -D tsx` this checkout's tsx.
 */
describe('docs/quickstart.md, run as written in a new project', () => {
  const run = promisify(execFile);

  for (const kind of ['commonjs', 'module'] as const) {
    it(`runs in a project made by \`npm init -y\`${kind === 'module' ? ' then `npm pkg set type=module`' : ' (CommonJS)'}`, { timeout: 120_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), `crossborder-quickstart-${kind}-`));
      try {
        makeConsumer(inject('packed'), dir);
        rmSync(join(dir, 'package.json'));
        const page = readFileSync(join(dir, 'node_modules', 'crossborder-sdk', 'docs', 'quickstart.md'), 'utf8');
        const steps = codeBlocks(page)[0]!;
        expect(steps.lang).toBe('sh');
        expect(steps.code).toMatch(/^npm init -y\b/m);
        expect(steps.code).toMatch(/^npm install crossborder-sdk\b/m);
        expect(steps.code).toMatch(/^npm install -D tsx\b/m);
        execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'pipe', timeout: 60_000 });
        if (kind === 'module') {
          expect(page).toContain('`npm pkg set type=module`');
          execFileSync('npm', ['pkg', 'set', 'type=module'], { cwd: dir, stdio: 'pipe', timeout: 60_000 });
        }
        // npm's default project is CommonJS (npm 11 writes "type": "commonjs"; older ones no type, the same).
        expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type ?? 'commonjs').toBe(kind);

        // Every file the page shows, saved under its own name beside the others.
        const files = codeBlocks(page).filter((b) => b.file !== undefined);
        expect(files.map((b) => basename(b.file!))).toEqual(['client.ts', 'first-payment.ts', 'run.ts']);
        for (const block of files) writeFileSync(join(dir, basename(block.file!)), block.code);
        const command = /then\s+`npx (tsx) (run\.ts)`/.exec(page);
        expect(command, 'the page names the command that runs it').not.toBeNull();

        const env = { PATH: process.env.PATH, HOME: process.env.HOME };
        const ran = await run(bin('tsx'), [command![2]!], { cwd: dir, env, encoding: 'utf8', timeout: 90_000 }).catch(
          (error: { stdout?: string; stderr?: string }) => ({
            stdout: String(error.stdout),
            stderr: String(error.stderr),
          }),
        );
        expect(ran.stderr).toBe('');
        expect(ran.stdout).toMatch(
          /^Quote:\S+: \d+\.\d{2} GBP for \$250\.00, PROCESSING\nTransaction:\S+: COMPLETED\nOUTGOING COMPLETED \d+\.\d{2} GBP\nCOMPLETED\n$/,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
