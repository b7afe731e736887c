/**
 * The one atomic write (src/helpers/atomic-write.ts) and the one process-alive check
 * (src/helpers/process.ts), from the outside: what is on disk after a write, after a refused
 * rename, over a leftover temporary file; which processes run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/helpers/atomic-write';
import { processRunning } from '../../src/helpers/process';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'atomic-write-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces the target with the new text, owner-only, and leaves no temporary file', () => {
    const dir = folder();
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    writeFileAtomic(file, ['{"a":', '"é"}'], { temporary: join(dir, 'state.json.tmp') });
    expect(readFileSync(file, 'utf8')).toBe('{"a":"é"}');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('leaves the target as it was and removes the temporary file when beforeRename throws', () => {
    const dir = folder();
    const file = join(dir, 'config.json');
    writeFileSync(file, 'kept');
    expect(() =>
      writeFileAtomic(file, 'new', {
        temporary: join(dir, '.config.json.tmp'),
        beforeRename: () => {
          throw new Error('refused');
        },
      }),
    ).toThrow('refused');
    expect(readFileSync(file, 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('replaces a leftover temporary file of the same name, and never writes through a link there', () => {
    const dir = folder();
    const file = join(dir, 'state.json');
    const temporary = join(dir, 'state.json.123.tmp');
    const elsewhere = join(dir, 'elsewhere.txt');
    writeFileSync(elsewhere, 'untouched');
    symlinkSync(elsewhere, temporary);
    writeFileAtomic(file, 'fresh', { temporary });
    expect(readFileSync(file, 'utf8')).toBe('fresh');
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched');
    expect(existsSync(temporary)).toBe(false);
  });
});

describe('processRunning', () => {
  it('is true for a running process and false once it has exited', async () => {
    expect(processRunning(process.pid)).toBe(true);
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const pid = child.pid!;
    await new Promise((resolve) => child.on('exit', resolve));
    expect(processRunning(pid)).toBe(false);
  });
});
