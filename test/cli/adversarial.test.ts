/**
 * The CLI against a hostile machine, from the packed bin and the HTTP sandbox it serves: files it
 * writes that an attacker prepared (a foreign 0666 file, a symlink to a victim, a FIFO, a directory),
 * endless inputs (`/dev/zero`, an endless stdin), prototype keys in overrides, scenarios and
 * account types, and secrets that must not reach its output. Nothing the user owns is changed and
 * nothing refused reaches the sandbox.
 */
import { spawn } from 'node:child_process';
import { chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename as basenameOf, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, CLI, envFor, json, root, startSandbox, type Ran, type Sandbox } from './helpers';

let sandbox: Sandbox;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox(['--quiet']);
  env = envFor(sandbox);
  dir = mkdtempSync(join(tmpdir(), 'cb-cli-adversarial-'));
});
afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

/** The API requests the sandbox answered so far (its control plane, `/_sandbox/…`, left out). */
const requestCount = async () =>
  json<{ data: { path: string }[] }>(await cli(['sandbox', 'requests', '--url', sandbox.url, '--json'])).data.filter(
    (entry) => !entry.path.startsWith('/_sandbox'),
  ).length;

/** A fresh folder holding one hostile entry of each kind, and a victim file the symlink points to. */
function hostileFolder(name: string): { folder: string; victim: string; paths: Record<'foreign' | 'symlink' | 'fifo' | 'directory', string> } {
  const folder = join(dir, name);
  mkdirSync(folder);
  const victim = join(folder, 'victim.txt');
  writeFileSync(victim, 'the victim\n', { mode: 0o644 });
  const paths = {
    foreign: join(folder, 'foreign.json'),
    symlink: join(folder, 'link.json'),
    fifo: join(folder, 'fifo.json'),
    directory: join(folder, 'directory.json'),
  };
  writeFileSync(paths.foreign, 'planted by another user\n');
  execFileSync('chmod', ['0666', paths.foreign]);
  chownSync(paths.foreign, 65534, 65534);
  symlinkSync(victim, paths.symlink);
  execFileSync('mkfifo', [paths.fifo]);
  mkdirSync(paths.directory);
  return { folder, victim, paths };
}

/** What a folder holds, entry by entry (kind, mode, owner, content or link target). */
function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    const stat = lstatSync(path);
    const kind = stat.isSymbolicLink()
      ? `link->${readlinkSync(path)}`
      : stat.isFIFO()
        ? 'fifo'
        : stat.isDirectory()
          ? 'dir'
          : `file:${readFileSync(path, 'utf8')}`;
    out[name] = `${kind} mode=${(stat.mode & 0o777).toString(8)} uid=${stat.uid}`;
  }
  return out;
}

describe('files the CLI writes: created new, 0600, never through a link or into a file it does not own', () => {
  it('sandbox state export --out refuses a foreign 0666 file, a symlink, a FIFO and a directory, leaving each untouched', async () => {
    const { folder, victim, paths } = hostileFolder('export');
    const before = snapshot(folder);
    const runs = await Promise.all(
      Object.entries(paths).map(async ([kind, path]) => ({
        kind,
        path,
        ran: await cli(['sandbox', 'state', 'export', '--url', sandbox.url, '--out', path], { timeoutMs: 20_000 }),
      })),
    );
    for (const { kind, path, ran } of runs) {
      expect({ kind, code: ran.code }).toEqual({ kind, code: 2 });
      expect(ran.err).toContain(`--out ${path}: refused`);
    }
    expect(snapshot(folder)).toEqual(before);
    expect(readFileSync(victim, 'utf8')).toBe('the victim\n');
  }, 60_000);

  it("sandbox state export --out writes a new file 0600, and replaces the user's own 0644 file with a 0600 one (no temporary file left)", async () => {
    const folder = join(dir, 'export-ok');
    mkdirSync(folder);
    const fresh = join(folder, 'state.json');
    const own = join(folder, 'own.json');
    writeFileSync(own, 'old\n', { mode: 0o644 });
    for (const file of [fresh, own]) {
      const ran = await cli(['sandbox', 'state', 'export', '--url', sandbox.url, '--out', file]);
      expect(ran.code).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect((JSON.parse(readFileSync(file, 'utf8')) as { format: string }).format).toEqual(expect.any(String));
    }
    expect(readdirSync(folder).sort()).toEqual(['own.json', 'state.json']);
  }, 60_000);

  it('payouts run --journal and payouts report --out refuse a foreign file, a symlink, a FIFO and a directory before anything is read, sent or written', async () => {
    const { folder, victim, paths } = hostileFolder('payouts');
    // A victim with no newline: a journal opened through the link would cut it as a torn last line.
    writeFileSync(victim, 'the victim');
    const csv = join(dir, 'payouts-batch.csv');
    writeFileSync(csv, 'reference,sourceAccountId,destinationAccountId,amount,currency\nr1,InternalAccount:a,ExternalAccount:b,100,USD\n');
    const before = snapshot(folder);
    const sent = await requestCount();
    const targets = Object.values(paths);
    const runs = await Promise.all(targets.map((path) => cli(['payouts', 'run', csv, '--journal', path, '--json'], { env, timeoutMs: 20_000 })));
    runs.forEach((ran, i) => {
      expect({ path: targets[i], code: ran.code }).toEqual({ path: targets[i], code: 2 });
      expect(ran.err).toContain(`--journal ${targets[i]}: refused`);
    });
    const journal = join(dir, 'own.journal');
    writeFileSync(journal, `${JSON.stringify({ format: 'crossborder-payout-journal/1', batchId: 'b' })}\n`);
    const reports = await Promise.all(targets.map((path) => cli(['payouts', 'report', '--journal', journal, '--out', path], { timeoutMs: 20_000 })));
    reports.forEach((ran, i) => {
      expect({ path: targets[i], code: ran.code }).toEqual({ path: targets[i], code: 2 });
      expect(ran.err).toContain(`--out ${targets[i]}: refused`);
    });
    expect(await requestCount()).toBe(sent);
    expect(snapshot(folder)).toEqual(before);
    expect(readFileSync(victim, 'utf8')).toBe('the victim');
  }, 60_000);

  it('payouts run refuses a CSV that is not a regular file (/dev/zero, a FIFO) at once, before anything is sent or written', async () => {
    const sent = await requestCount();
    const fifo = join(dir, 'payouts.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const input of ['/dev/zero', fifo]) {
      const journal = join(dir, `never-${basenameOf(input)}.journal`);
      const ran = await cli(['payouts', 'run', input, '--journal', journal, '--json'], { env, timeoutMs: 20_000 });
      expect({ input, code: ran.code }).toEqual({ input, code: 2 });
      expect(ran.err).toContain(`${input}: not a regular file`);
      expect(readdirSync(dir)).not.toContain(basenameOf(journal));
    }
    expect(await requestCount()).toBe(sent);
  }, 60_000);

  it('--save-session refuses a symlink or a foreign file before anything is sent', async () => {
    const { folder, victim, paths } = hostileFolder('session');
    const before = snapshot(folder);
    const sent = await requestCount();
    const targets = [paths.symlink, paths.foreign, paths.fifo, paths.directory];
    const runs = await Promise.all(
      targets.map((path) => cli(['auth', 'credentials', 'verify', 'Credential:x', '--type', 'EMAIL_OTP', '--otp', '000000', '--save-session', path], { env })),
    );
    runs.forEach((ran, i) => {
      expect({ path: targets[i], code: ran.code }).toEqual({ path: targets[i], code: 2 });
      expect(ran.err).toContain(`--save-session ${targets[i]}: refused`);
    });
    expect(await requestCount()).toBe(sent);
    expect(snapshot(folder)).toEqual(before);
    expect(readFileSync(victim, 'utf8')).toBe('the victim\n');
  }, 60_000);

  it('sandbox --webhook-key does not create a key file through a dangling symlink; --state refuses a symlink and a foreign file', async () => {
    const folder = join(dir, 'webhook-key');
    mkdirSync(folder);
    const target = join(folder, 'planted-target.json');
    const link = join(folder, 'key.json');
    symlinkSync(target, link);
    const key = await cli(['sandbox', '--port', '0', '--webhook-key', link, '--no-watch-parent'], { timeoutMs: 20_000 });
    expect(key.code).toBe(2);
    expect(key.err).toContain(`--webhook-key ${link}: refused, it is a symbolic link`);
    expect(readdirSync(folder)).toEqual(['key.json']);
    const { folder: stateFolder, victim, paths } = hostileFolder('state');
    const before = snapshot(stateFolder);
    const runs = await Promise.all(
      [paths.symlink, paths.foreign].map((path) => cli(['sandbox', '--port', '0', '--state', path, '--no-watch-parent'], { timeoutMs: 20_000 })),
    );
    expect(runs.map((ran) => ran.code)).toEqual([2, 2]);
    expect(runs[0]!.err).toContain(`--state ${paths.symlink}: refused, it is a symbolic link`);
    expect(runs[1]!.err).toContain(`--state ${paths.foreign}: refused, it belongs to another user (uid 65534)`);
    expect(snapshot(stateFolder)).toEqual(before);
    expect(readFileSync(victim, 'utf8')).toBe('the victim\n');
  }, 60_000);
});

/** Runs the CLI, watching its resident memory (/proc) until it exits; killed after `timeoutMs`. */
function runWatched(
  args: string[],
  options: { env?: Record<string, string>; endlessStdin?: boolean; timeoutMs?: number } = {},
): Promise<Ran & { peakKiB: number; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
      stdio: [options.endlessStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let peakKiB = 0;
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    if (options.endlessStdin) {
      const zeros = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (child.exitCode === null && !child.stdin!.destroyed && child.stdin!.write(zeros));
      };
      child.stdin!.on('drain', pump);
      child.stdin!.on('error', () => {});
      pump();
    }
    const watch = setInterval(() => {
      try {
        const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (rss) peakKiB = Math.max(peakKiB, Number(rss[1]));
      } catch {
        // exited
      }
    }, 10);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      clearInterval(watch);
      resolve({ code, out, err, peakKiB, ms: Date.now() - started });
    });
  });
}

describe('bounded reads: an endless input fails fast, naming the limit', () => {
  it('--data @/dev/zero stops at 8 MiB: exit 2, little memory, nothing sent', async () => {
    const sent = await requestCount();
    const ran = await runWatched(['customers', 'create', '--data', '@/dev/zero'], { env });
    expect(ran.code).toBe(2);
    expect(ran.err).toContain('--data @/dev/zero: larger than the limit of 8 MiB');
    expect(ran.peakKiB).toBeLessThan(300 * 1024);
    expect(await requestCount()).toBe(sent);
  }, 60_000);

  it('--data - with an endless stdin stops at 8 MiB', async () => {
    const ran = await runWatched(['customers', 'create', '--data', '-'], { env, endlessStdin: true });
    expect(ran.code).toBe(2);
    expect(ran.err).toContain('--data - (stdin): larger than the limit of 8 MiB');
    expect(ran.peakKiB).toBeLessThan(300 * 1024);
  }, 60_000);

  it('fixtures run of a 9 MiB file and sandbox state import of /dev/zero are refused with their limits', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, `{"steps":[],"pad":"${'x'.repeat(9 * 1024 * 1024)}"}`);
    const scenario = await cli(['fixtures', 'run', big, '--url', sandbox.url]);
    expect(scenario.code).toBe(2);
    expect(scenario.err).toContain(`${big}: larger than the limit of 8 MiB`);
    const state = await runWatched(['sandbox', 'state', 'import', '/dev/zero', '--url', sandbox.url]);
    expect(state.code).toBe(2);
    expect(state.err).toContain('state import /dev/zero: larger than the limit of 128 MiB');
  }, 60_000);
});

describe('a peer that never ends its answer', () => {
  it('a sandbox verb pointed at a server streaming without end stops at 128 MiB and says so, in bounded memory', async () => {
    const { createServer } = await import('node:http');
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (res.write(chunk)) if (res.destroyed) return;
      };
      res.on('drain', pump);
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const ran = await runWatched(['sandbox', 'requests', '--url', `http://127.0.0.1:${port}`]);
      expect(ran.code).not.toBe(0);
      expect(ran.err).toContain(`the answer of http://127.0.0.1:${port}/_sandbox/requests is larger than the limit of 128 MiB`);
      expect(ran.peakKiB).toBeLessThan(600 * 1024);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 60_000);
});

describe('prototype keys', () => {
  it('trigger --override through __proto__, constructor or prototype is a usage error naming the field, and nothing is sent', async () => {
    const sent = await requestCount();
    const overrides = ['__proto__.polluted=1', 'customer.__proto__.polluted=1', 'customer.constructor.prototype.polluted=1', 'customer.body.prototype=1'];
    const runs = await Promise.all(overrides.map((override) => cli(['trigger', 'CUSTOMER.KYC_APPROVED', '--url', sandbox.url, '--override', override])));
    runs.forEach((ran, i) => {
      expect({ override: overrides[i], code: ran.code }).toEqual({ override: overrides[i], code: 2 });
      expect(ran.err).toContain(
        `--override ${overrides[i]!.split('=')[0]}: '${/(__proto__|constructor|prototype)/.exec(overrides[i]!)![1]}' cannot be a field of the path`,
      );
    });
    expect(await requestCount()).toBe(sent);
  }, 60_000);

  it('scenario actions named constructor, toString, __proto__ or hasOwnProperty are refused as unknown (exit 2), nothing sent', async () => {
    const actions = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
    const sent = await requestCount();
    const runs = await Promise.all(
      actions.map((action) => {
        const file = join(dir, `action-${action}.json`);
        writeFileSync(file, `{"steps":[{"name":"first","${action}":{}}]}`);
        return cli(['fixtures', 'run', file, '--url', sandbox.url]);
      }),
    );
    runs.forEach((ran, i) => {
      expect({ action: actions[i], code: ran.code }).toEqual({ action: actions[i], code: 2 });
      expect(ran.err).toContain(`step 1: unknown action '${actions[i]}'`);
    });
    expect(await requestCount()).toBe(sent);
  }, 60_000);

  it('the sandbox answers an accountType of __proto__, constructor or toString with a 400 naming the field', async () => {
    const types = ['__proto__', 'constructor', 'toString'];
    const runs = await Promise.all(
      types.map((accountType) =>
        cli(
          [
            'platform',
            'external-accounts',
            'create',
            '--currency',
            'USD',
            '--account-info',
            JSON.stringify({ accountType, accountNumber: '000123456789' }),
            '--json',
          ],
          { env },
        ),
      ),
    );
    runs.forEach((ran, i) => {
      expect({ accountType: types[i], code: ran.code }).toEqual({ accountType: types[i], code: 5 });
      expect(JSON.parse(ran.err)).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { field: 'accountInfo.accountType' } });
    });
  }, 60_000);
});

describe('secrets never reach the output', () => {
  const secret = 'zq7Secret-Value-9Kp2';
  /** True when any 5 characters in a row of the secret appear in `text`. */
  const leaks = (text: string) => Array.from({ length: secret.length - 4 }, (_, i) => secret.slice(i, i + 5)).some((part) => text.includes(part));

  it('a malformed config file: the file and line/column, no part of the secret, in table and --json form', async () => {
    const texts = [
      `{"profiles":{"p":{"tokenId":"t","clientSecret":${secret}}}}`,
      `{"profiles":{"p":{"tokenId":"t","clientSecret":"${secret}\u0001"}}}`,
      `{"profiles":{"p":{"tokenId":"t","clientSecret":"${secret}" x}}}`,
    ];
    const runs = await Promise.all(
      texts.flatMap((text, i) => {
        const file = join(dir, `config-${i}.json`);
        writeFileSync(file, text, { mode: 0o600 });
        return [[], ['--json']].map((extra) => cli(['customers', 'list', '--profile', 'p', ...extra], { env: { CROSSBORDER_CONFIG: file } }));
      }),
    );
    for (const ran of runs) {
      expect(ran.code).toBe(2);
      expect(ran.err).toMatch(/not valid JSON \(line 1, column \d+\)/);
      expect(leaks(ran.out + ran.err)).toBe(false);
    }
  }, 60_000);

  it('a base URL with userinfo is printed redacted, in table and --json form, by API commands and sandbox verbs', async () => {
    const url = `http://admin:${secret}@127.0.0.1:${sandbox.port}`;
    const runs = await Promise.all(
      [
        ['customers', 'list', '--base-url', url, '--max-retries', '0'],
        ['customers', 'list', '--base-url', url, '--max-retries', '0', '--json'],
        ['sandbox', 'requests', '--url', url],
        ['sandbox', 'requests', '--url', url, '--json'],
      ].map((args) => cli(args, { env: { ...env, CROSSBORDER_BASE_URL: url } })),
    );
    for (const ran of runs) {
      expect(ran.code).not.toBe(0);
      expect(leaks(ran.out + ran.err)).toBe(false);
      expect(ran.out + ran.err).not.toContain('admin:');
      expect(ran.err).toContain('http://***@127.0.0.1');
    }
  }, 60_000);
});

describe('tables', () => {
  it('ids are printed whole at COLUMNS=40 (other columns are cut or left out)', async () => {
    const customer = json<{ id: string }>(
      await cli(['customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--full-name', 'Wide Table', '--json'], { env }),
    );
    const accounts = json<{ data: { id: string; customerId: string }[] }>(
      await cli(['internal-accounts', 'list', '--customer-id', customer.id, '--json'], { env }),
    );
    expect(accounts.data.length).toBeGreaterThan(0);
    for (const columns of ['40', '200']) {
      const table = await cli(['internal-accounts', 'list', '--customer-id', customer.id], { env: { ...env, COLUMNS: columns } });
      expect(table.code).toBe(0);
      for (const account of accounts.data) expect(table.out).toContain(account.id);
      expect(table.out).not.toMatch(/InternalAccount:\S*…/);
    }
  }, 60_000);
});
