/**
 * src/cli/files.ts in process (the packed bin's runs are in ./adversarial.test.ts): where a JSON
 * syntax error is reported, the bounded reader's limit, and the private write's refusals.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputTooLargeError, jsonErrorOffset, parseJsonText, readFileBounded, writePrivateFile } from '../../src/cli/files';

const dir = mkdtempSync(join(tmpdir(), 'cb-cli-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseJsonText', () => {
  it('reports the line and column of the mistake, and never the text', () => {
    const text = '{\n  "profiles": {\n    "p": { "clientSecret": s3cretValue }\n  }\n}';
    expect(() => parseJsonText(text, 'config.json')).toThrow('config.json: not valid JSON (line 3, column 28)');
    try {
      parseJsonText(text, 'config.json');
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it.each([
    ['{"a":1', 6],
    ['{"a":1,}', 7],
    ['[1,2', 4],
    ['{"a": tru}', 6],
    ['{"a":"b\u0001"}', 7],
    ['01', 1],
    ['{"a":1} x', 8],
    ['"\\x"', 2],
    ['', 0],
  ])("%j: the offset is %i (V8's own, where its message gives one)", (text, offset) => {
    let message = '';
    try {
      JSON.parse(text);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toBe('');
    const v8 = /at position (\d+)/.exec(message);
    if (v8) expect(Number(v8[1])).toBe(offset);
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it('valid JSON parses as JSON.parse does', () => {
    const text = '{"a":[1,-2.5e3,true,false,null,"\\u00e9\\n"],"b":{}}';
    expect(parseJsonText(text, 'x')).toEqual(JSON.parse(text));
    expect(jsonErrorOffset(text)).toBe(text.length);
  });
});

describe('readFileBounded', () => {
  it('reads a file up to the limit, and refuses one byte more (a regular file by its size, a device by reading)', () => {
    const file = join(dir, 'ten.txt');
    writeFileSync(file, '0123456789');
    expect(readFileBounded(file, 'f', 10)).toBe('0123456789');
    expect(() => readFileBounded(file, 'f', 9)).toThrow(InputTooLargeError);
    expect(() => readFileBounded('/dev/zero', '--data @/dev/zero', 1024)).toThrow('--data @/dev/zero: larger than the limit of 1 KiB; nothing was sent');
    expect(() => readFileBounded(join(dir, 'absent'), '--data @absent')).toThrow('--data @absent: no such file or directory');
  });
});

describe('writePrivateFile', () => {
  it("creates a new file 0600, replaces the user's own file, and leaves no temporary file", () => {
    const folder = mkdtempSync(join(dir, 'write-'));
    const file = join(folder, 'out.json');
    writePrivateFile(file, 'one', '--out');
    expect([readFileSync(file, 'utf8'), statSync(file).mode & 0o777]).toEqual(['one', 0o600]);
    execFileSync('chmod', ['0666', file]);
    writePrivateFile(file, 'two', '--out');
    expect([readFileSync(file, 'utf8'), statSync(file).mode & 0o777]).toEqual(['two', 0o600]);
    expect(readdirSync(folder)).toEqual(['out.json']);
  });

  it('refuses a symlink, a foreign file, a FIFO and a directory, leaving them untouched and no temporary file', () => {
    const folder = mkdtempSync(join(dir, 'hostile-'));
    const victim = join(folder, 'victim');
    writeFileSync(victim, 'victim');
    symlinkSync(victim, join(folder, 'link'));
    writeFileSync(join(folder, 'foreign'), 'theirs');
    chownSync(join(folder, 'foreign'), 65534, 65534);
    execFileSync('mkfifo', [join(folder, 'fifo')]);
    execFileSync('mkdir', [join(folder, 'dir')]);
    const reasons: Record<string, string> = {
      link: 'it is a symbolic link',
      foreign: 'it belongs to another user (uid 65534)',
      fifo: 'it is not a regular file (a FIFO)',
      dir: 'it is a directory',
    };
    for (const [name, reason] of Object.entries(reasons)) {
      const path = join(folder, name);
      expect(() => writePrivateFile(path, 'secret', '--save-session')).toThrow(
        `--save-session ${path}: refused, ${reason}; nothing was written (remove it or choose another path)`,
      );
    }
    expect(readFileSync(victim, 'utf8')).toBe('victim');
    expect(readFileSync(join(folder, 'foreign'), 'utf8')).toBe('theirs');
    expect(lstatSync(join(folder, 'link')).isSymbolicLink()).toBe(true);
    expect(readdirSync(folder).sort()).toEqual(['dir', 'fifo', 'foreign', 'link', 'victim']);
  });
});
