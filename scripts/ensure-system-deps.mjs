#!/usr/bin/env node
/**
 * The system programs `npm test` needs besides node_modules, installed when missing: run by `npm test`
 * (its `pretest` script) and by `.ci/run`. The one list of them.
 *
 * - Everything present: prints nothing, exits 0.
 * - Something missing, root and apt-get on PATH: says on stderr what it installs and why, runs
 *   `apt-get update` and `apt-get install -y --no-install-recommends <packages>`, then checks again.
 * - Something missing and no way to install it (not root, no apt-get, or apt-get failed): exits 1
 *   with the one command that fixes it.
 *
 * Found the way the tests find them: `redis-server` on PATH (test/webhooks/redis.test.ts spawns it by
 * name), `chromium` on PATH (test/runtimes/chromium.test.ts launches Debian's /usr/bin/chromium).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian package → the program the tests run, and which tests need it. */
export const SYSTEM_PACKAGES = [
  { pkg: 'redis-server', program: 'redis-server', neededBy: 'the shared webhook dedupe store test (test/webhooks/redis.test.ts)' },
  { pkg: 'chromium', program: 'chromium', neededBy: 'the browser runtime test (test/runtimes/chromium.test.ts)' },
];

const say = (line) => process.stderr.write(`ensure-system-deps: ${line}\n`);

/** The program's path on PATH, or undefined. */
function which(program) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const missingPackages = () => SYSTEM_PACKAGES.filter(({ program }) => !which(program));

function fail(missing, why) {
  const names = missing.map((m) => m.pkg).join(' ');
  say(`${why}; ${missing.map((m) => `${m.program} is needed by ${m.neededBy}`).join('; ')}.`);
  say(`Install ${missing.length === 1 ? 'it' : 'them'} with:`);
  const sudo = typeof process.getuid === 'function' && process.getuid() === 0 ? '' : 'sudo ';
  process.stderr.write(`  ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${names}\n`);
  process.exit(1);
}

function main() {
  const missing = missingPackages();
  if (missing.length === 0) return;
  const names = missing.map((m) => m.pkg).join(' ');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = which('apt-get');
  if (!aptGet)
    fail(missing, `${names} missing and there is no apt-get to install ${missing.length === 1 ? 'it' : 'them'} (the tests expect Debian's packages)`);
  if (!isRoot) fail(missing, `${names} missing and installing needs root`);

  say(
    `installing the Debian package${missing.length === 1 ? '' : 's'} ${names} with apt-get (${missing.map((m) => `${m.program}: ${m.neededBy}`).join('; ')})`,
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // apt's own output goes to stderr: stdout stays the test run's.
  const stdio = ['ignore', 2, 2];
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...missing.map((m) => m.pkg)],
  ]) {
    const result = spawnSync(aptGet, args, { env, stdio, timeout: 900_000 });
    if (result.status !== 0) fail(missing, `apt-get ${args[0]} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
  }
  const still = missingPackages();
  if (still.length > 0) fail(still, `apt-get installed ${names}, yet ${still.map((m) => m.program).join(' ')} is not on PATH`);
  say(`installed ${names}`);
}

main();
