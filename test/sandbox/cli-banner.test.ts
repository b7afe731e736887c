/**
 * What the `sandbox` command says (issue 50 §7): its banner names the --faults that are on (money in
 * major units with the currency), in text and in the --json banner; its shutdown line is a sentence,
 * for a signal and for the process that started it exiting. Read from the actual output of the command
 * run from source (tsx), on 127.0.0.1; every wait bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'src/cli/index.ts');

interface Running {
  child: ChildProcess;
  exit: Promise<number | null>;
  out(): string;
}

function run(command: string, args: string[]): Running {
  const child = spawn(command, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit, out: () => output };
}

const sandbox = (args: string[]) => run(process.execPath, ['--import', 'tsx', CLI, 'sandbox', '--port', '0', ...args]);

async function waitFor(predicate: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const FAULTS = {
  rateLimit: { requestsPerSecond: 50, burst: 5 },
  dailyVolumeLimit: { USD: 130_389, BTC: 150_000_000 },
  failAfterProcessing: { rate: 0.1 },
  latency: { ms: 20, jitterMs: 5 },
};

describe('the sandbox command says', () => {
  it('which --faults are on, in its banner; SIGTERM is "Received SIGTERM; shutting down."', async () => {
    const cli = sandbox(['--faults', JSON.stringify(FAULTS)]);
    try {
      await waitFor(() => /Inspector: /.test(cli.out()), 'the banner');
      expect(cli.out()).toContain(
        'Faults (--faults): rate limit 50 requests/s (burst 5); daily volume limit 1,303.89 USD, 1.50000000 BTC; 10% of new payouts fail after PROCESSING (OFFRAMP_FAILED); latency 20 ms (+ up to 5 ms)\n',
      );
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exit).toBe(0);
    expect(cli.out()).toContain('\nReceived SIGTERM; shutting down.\n');
  }, 60_000);

  it('no faults line without --faults, nor with faults that are all off', async () => {
    for (const args of [[], ['--faults', '{}'], ['--faults', '{"failAfterProcessing":{"rate":0}}']]) {
      const cli = sandbox(args);
      try {
        await waitFor(() => /Inspector: /.test(cli.out()), 'the banner');
        expect({ args, faults: cli.out().includes('Faults') }).toEqual({ args, faults: false });
      } finally {
        cli.child.kill('SIGINT');
      }
      expect(await cli.exit).toBe(0);
    }
  }, 120_000);

  it('--json: the banner carries the faults as configured', async () => {
    const cli = sandbox(['--json', '--faults', JSON.stringify({ dailyVolumeLimit: { USD: 100_000 } })]);
    try {
      await waitFor(() => cli.out().includes('\n'), 'the banner');
      const banner = JSON.parse(cli.out().split('\n')[0]!) as Record<string, unknown>;
      expect(banner).toMatchObject({ kind: 'listening', faults: { dailyVolumeLimit: { USD: 100_000 } } });
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exit).toBe(0);
  }, 60_000);

  it('the process that started it exiting: "The process that started the sandbox exited; shutting down."', async () => {
    // A parent that starts the sandbox (its output straight into this test's pipe), prints its pid, and
    // exits when this test closes the parent's stdin.
    const script = `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(CLI)}, 'sandbox', '--port', '0'], { cwd: ${JSON.stringify(root)}, stdio: ['ignore', 'inherit', 'inherit'] });
      process.stderr.write('sandbox pid ' + child.pid + '\\n');
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));
    `;
    const parent = run(process.execPath, ['-e', script]);
    let pid: number | undefined;
    try {
      await waitFor(() => /Inspector: /.test(parent.out()), 'the banner');
      pid = Number(/sandbox pid (\d+)/.exec(parent.out())![1]);
      parent.child.stdin!.end();
      expect(await parent.exit).toBe(0);
      await waitFor(() => parent.out().includes('shutting down'), 'the shutdown line', 20_000);
      expect(parent.out()).toContain('\nThe process that started the sandbox exited; shutting down.\n');
      expect(parent.out()).not.toContain('Received the');
    } finally {
      if (pid !== undefined) {
        try {
          process.kill(pid, 'SIGKILL'); // only if it is still there
        } catch {
          // gone, as it should be
        }
      }
      parent.child.kill('SIGKILL');
    }
  }, 60_000);
});
