/**
 * The public surface is reviewed (issue 48 §1): each entry's declared surface, read from the packed package's
 * declarations, is the committed report under etc/api/. A change to any export (a parameter, a return type, a
 * removed name, a type an export reaches) fails here until `npm run api:report` rewrites the report, so the
 * change shows in the commit's diff.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { apiReport, REPORT_DIR, reportDrift } from '../../scripts/api-report';

describe('the declared surface of every entry', () => {
  const { pkg } = inject('packed');
  let reports: Record<string, string>;

  it('is the committed report (etc/api/*.api.md): run `npm run api:report` after a change to the surface', () => {
    reports = apiReport(pkg);
    const entries = Object.keys((JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports).filter(
      (e) => e !== './package.json',
    );
    expect(Object.keys(reports)).toHaveLength(entries.length);
    const drift = reportDrift(reports);
    if (drift.length) {
      // The first differing line of each, so that the failure says what changed.
      const first = drift.map((name) => {
        const want = (reports[name] ?? '').split('\n');
        let have: string[] = [];
        try {
          have = readFileSync(join(REPORT_DIR, name), 'utf8').split('\n');
        } catch {}
        const line = want.findIndex((text, i) => text !== have[i]);
        return `${name}:${line + 1}: report has ${JSON.stringify(have[line])}, package has ${JSON.stringify(want[line])}`;
      });
      expect.fail(`the package's surface differs from etc/api/ (run \`npm run api:report\`):\n${first.join('\n')}`);
    }
  }, 180_000);

  it('a changed member, a changed method of a resource and a removed export each change the report', () => {
    // A copy of the package's declarations with three edits, each of which must show.
    const copy = mkdtempSync(join(tmpdir(), 'api-report-'));
    try {
      cpSync(pkg, copy, { recursive: true });
      const before = apiReport(copy);
      // Every declaration file that holds it (a build may hold one chunk per group of entries).
      const edit = (find: RegExp, replace: string) => {
        const files = readdirSync(join(copy, 'dist'))
          .filter((name) => name.endsWith('.d.ts'))
          .map((name) => join(copy, 'dist', name))
          .filter((path) => find.test(readFileSync(path, 'utf8')));
        expect(files.length, String(find)).toBeGreaterThan(0);
        for (const file of files) writeFileSync(file, readFileSync(file, 'utf8').replace(find, replace));
      };
      // A member of an exported class: its type narrowed.
      edit(/(class APIConnectionError [^{]*\{[^}]*?)readonly outcomeUnknown: boolean;/, '$1readonly outcomeUnknown: boolean | undefined;');
      // A method of a resource reached from the client: a parameter made required.
      edit(/retrieve\(customerId: string, options\?: RequestOptions\)/, 'retrieve(customerId: string, options: RequestOptions)');
      // An export removed from the wallet entry's list.
      const wallet = join(copy, 'dist', 'wallet.d.ts');
      const exportList = /export \{([^}]*)\};/.exec(readFileSync(wallet, 'utf8'))!;
      const items = exportList[1]!
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      const removed = items.pop()!;
      writeFileSync(wallet, readFileSync(wallet, 'utf8').replace(exportList[0], `export { ${items.join(', ')} };`));
      const after = apiReport(copy);
      expect(after['errors.api.md']).not.toBe(before['errors.api.md']);
      expect(after['errors.api.md']).toContain('readonly outcomeUnknown: boolean | undefined;');
      expect(before['index.api.md']).toContain('retrieve(customerId: string, options?: RequestOptions): APIPromise<Customer>;');
      expect(after['index.api.md']).toContain('retrieve(customerId: string, options: RequestOptions): APIPromise<Customer>;');
      const exportedName = removed
        .replace(/^type /, '')
        .split(' as ')
        .at(-1)!;
      expect(before['wallet.api.md']).toContain(`## ${exportedName}`);
      expect(after['wallet.api.md']).not.toContain(`## ${exportedName}`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 180_000);
});
