/**
 * scripts/ensure-system-deps.mjs, the `pretest` step (and .ci/run's): installs the Debian packages the
 * tests need when they are missing, or fails with the command that fixes it. Run against a PATH of
 * its own (node, fake programs, a fake apt-get that logs its arguments and "installs" a package by
 * creating its program), so nothing on this machine is installed or removed.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../setup/packed';

const source = join(root, 'scripts', 'ensure-system-deps.mjs');
const isRoot = process.getuid?.() === 0;
let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/**
 * A bin directory holding node and the given programs; `apt` adds a fake apt-get (exit code `aptExit`).
 * The script runs from a copy beside it, in a directory every user can read: the checkout may sit in
 * a private (0700) directory that uid 65534 cannot enter.
 */
function fakeBin(programs: string[], apt: { exit?: number } | false): { bin: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ensure-deps-'));
  dirs.push(dir);
  chmodSync(dir, 0o755);
  const bin = join(dir, 'bin');
  const log = join(dir, 'apt.log');
  spawnSync('mkdir', ['-m', '755', bin]);
  copyFileSync(source, join(dir, 'ensure-system-deps.mjs'));
  chmodSync(join(dir, 'ensure-system-deps.mjs'), 0o644);
  symlinkSync(process.execPath, join(bin, 'node'));
  for (const program of programs) writeFileSync(join(bin, program), '#!/bin/sh\n', { mode: 0o755 });
  if (apt) {
    writeFileSync(
      join(bin, 'apt-get'),
      [
        '#!/bin/sh',
        'export PATH=/usr/bin:/bin',
        `echo "$*" >> ${log}`,
        `[ ${apt.exit ?? 0} -ne 0 ] && exit ${apt.exit ?? 0}`,
        'if [ "$1" = install ]; then for p in "$@"; do case "$p" in -*|install) ;; *) printf "#!/bin/sh\\n" > "$(dirname "$0")/$p"; chmod +x "$(dirname "$0")/$p";; esac; done; fi',
        'exit 0',
      ].join('\n'),
      { mode: 0o755 },
    );
  }
  return { bin, log };
}

function run(bin: string, uid?: number) {
  const script = join(dirname(bin), 'ensure-system-deps.mjs');
  const result = spawnSync(join(bin, 'node'), [script], {
    env: { PATH: bin },
    encoding: 'utf8',
    timeout: 30_000,
    ...(uid === undefined ? {} : { uid, gid: uid }),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const aptLog = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

describe("scripts/ensure-system-deps.mjs (npm test's pretest)", () => {
  it('does nothing, silently, when redis-server and chromium are on PATH', () => {
    const { bin, log } = fakeBin(['redis-server', 'chromium'], {});
    expect(run(bin)).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(aptLog(log)).toEqual([]);
  });

  it.runIf(isRoot)('as root with apt-get: installs what is missing with apt-get, says so on stderr, stdout untouched', () => {
    const { bin, log } = fakeBin([], {});
    const result = run(bin);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/installing the Debian packages redis-server chromium with apt-get/);
    expect(result.stderr).toMatch(/installed redis-server chromium/);
    expect(aptLog(log)).toEqual(['update -qq', 'install -y -qq --no-install-recommends redis-server chromium']);
    expect(existsSync(join(bin, 'redis-server')) && existsSync(join(bin, 'chromium'))).toBe(true);
  });

  it.runIf(isRoot)('installs only the missing package', () => {
    const { bin, log } = fakeBin(['redis-server'], {});
    const result = run(bin);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/installing the Debian package chromium with apt-get/);
    expect(aptLog(log).at(-1)).toBe('install -y -qq --no-install-recommends chromium');
  });

  it('without apt-get: fails with the command that fixes it', () => {
    const { bin } = fakeBin(['chromium'], false);
    const result = run(bin);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/redis-server missing and there is no apt-get/);
    expect(result.stderr).toContain('apt-get update && ');
    expect(result.stderr).toMatch(/apt-get install -y --no-install-recommends redis-server\n$/);
  });

  it.runIf(isRoot)('when apt-get fails: fails with the command that fixes it', () => {
    const { bin, log } = fakeBin([], { exit: 100 });
    const result = run(bin);
    expect(result.status).toBe(1);
    expect(aptLog(log)).toEqual(['update -qq']);
    expect(result.stderr).toMatch(/apt-get update failed \(exit 100\)/);
    expect(result.stderr).toMatch(/apt-get install -y --no-install-recommends redis-server chromium\n$/);
  });

  it('not root: installs nothing and fails with the sudo command', () => {
    const { bin, log } = fakeBin([], {});
    const result = run(bin, isRoot ? 65534 : undefined);
    expect(result.status).toBe(1);
    expect(aptLog(log)).toEqual([]);
    expect(result.stderr).toMatch(/redis-server chromium missing and installing needs root/);
    expect(result.stderr).toMatch(/ {2}sudo apt-get update && sudo apt-get install -y --no-install-recommends redis-server chromium\n$/);
  });
});
