/**
 * Runs the reliability suite and prints the table of maintainers/reliability.md: scenario, cases run
 * (CI / full), failures, and the command that reproduces it.
 *
 *   npx tsx scripts/reliability-table.ts          # CI subset and full run, one table
 *   npx tsx scripts/reliability-table.ts --ci     # CI subset only
 *   npx tsx scripts/reliability-table.ts --full   # full run only
 *
 * Each scenario test appends one JSON line to the file named by RELIABILITY_REPORT
 * (see test/reliability/support.ts); this script collects them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioReport } from '../test/reliability/support';

type Row = ScenarioReport & { mode: 'ci' | 'full' };

function run(mode: 'ci' | 'full'): { rows: Row[]; seconds: number; status: number } {
  const dir = mkdtempSync(join(tmpdir(), 'reliability-'));
  const file = join(dir, 'report.jsonl');
  const started = Date.now();
  const result = spawnSync('npx', ['vitest', 'run', 'test/reliability', '--reporter=dot'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, RELIABILITY_REPORT: file, ...(mode === 'full' ? { RELIABILITY_FULL: '1' } : { RELIABILITY_FULL: '' }) },
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  const rows = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Row)
    : [];
  rmSync(dir, { recursive: true, force: true });
  return { rows, seconds, status: result.status ?? 1 };
}

const args = new Set(process.argv.slice(2));
const modes: ('ci' | 'full')[] = args.has('--ci') ? ['ci'] : args.has('--full') ? ['full'] : ['ci', 'full'];
const runs = Object.fromEntries(modes.map((m) => [m, run(m)])) as Partial<Record<'ci' | 'full', ReturnType<typeof run>>>;

const scenarios = new Map<string, Partial<Record<'ci' | 'full', Row>>>();
for (const mode of modes) for (const row of runs[mode]!.rows) scenarios.set(row.scenario, { ...scenarios.get(row.scenario), [mode]: row });

const cell = (row: Row | undefined) => (row ? `${row.cases.toLocaleString('en-US')}` : '—');
console.log(`| Scenario | Cases run (${modes.map((m) => (m === 'ci' ? 'CI' : 'full')).join(' / ')}) | Failures | Reproduce |`);
console.log('|---|---|---|---|');
for (const [scenario, byMode] of scenarios) {
  const any = (byMode.full ?? byMode.ci)!;
  const failures = modes.map((m) => (byMode[m] ? byMode[m].failures : '—')).join(' / ');
  const reproduce = modes
    .map((m) => (byMode[m] ? `\`${byMode[m].command}\`` : ''))
    .filter(Boolean)
    .join('<br>');
  console.log(`| ${scenario} | ${modes.map((m) => cell(byMode[m])).join(' / ')} ${any.unit} | ${failures} | ${reproduce} |`);
}
console.log();
for (const mode of modes) {
  const r = runs[mode]!;
  console.log(`${mode === 'ci' ? 'CI subset' : 'Full run'}: ${r.seconds} s wall clock, vitest exit ${r.status}`);
  for (const row of r.rows) if (row.notes) console.log(`  [${mode}] ${row.scenario}: ${row.notes}`);
}
process.exitCode = Object.values(runs).some((r) => r.status !== 0) ? 1 : 0;
