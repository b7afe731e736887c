/**
 * Starts a benchmark server script in its own process, so the server's work and memory are not
 * counted against the client being measured. The script prints its port on stdout and exits when
 * its stdin ends.
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function startChildServer(
  script: string,
  args: string[] = [],
): Promise<{ base: string; stop: () => void; send: (line: string) => Promise<string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(here, script), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((ok, fail) => {
    child.stdout.once('data', (d: Buffer) => ok(d.toString().trim()));
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code}`)));
  });
  // `send`: a line to the script on its stdin, and its answer (the next it prints), for scripts that read lines.
  const send = (line: string) =>
    new Promise<string>((ok) => {
      child.stdout.once('data', (d: Buffer) => ok(d.toString().trim()));
      child.stdin.write(`${line}\n`);
    });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.stdin.end(), send };
}
