/**
 * The build's rule for the CLI's chunks (tsup.config.ts, `cliEntry`), run on files made here instead of a build:
 * a chunk whose source map names a module of src/cli is the CLI's alone, so its map is removed and its code loses
 * the `sourceMappingURL` line (src/cli is not shipped); a chunk whose map names none keeps both; `cli.js` starts
 * with its shebang and is executable.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEntry } from '../../tsup.config';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Writes `name` (code with its map line) and `name.map` naming `sources`; returns the written files as tsup lists them. */
function chunk(name: string, sources: string[], code = 'export const x = 1;'): { name: string; size: number }[] {
  const file = join(dir!, name);
  writeFileSync(file, `${code}\n//# sourceMappingURL=${name}.map\n`);
  writeFileSync(`${file}.map`, JSON.stringify({ version: 3, sources, mappings: '' }));
  return [
    { name: file, size: 1 },
    { name: `${file}.map`, size: 1 },
  ];
}

describe('the CLI owns a chunk whose map names src/cli', () => {
  it('drops the map of a CLI chunk, keeps the others, and makes cli.js an executable with its shebang', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cli-maps-'));
    const writtenFiles = [
      ...chunk('chunk-cli.js', ['../src/generated/names.ts', '../src/cli/table.ts']),
      ...chunk('chunk-core.js', ['../src/core/client.ts', '../src/client.ts']),
      ...chunk('chunk-lookalike.js', ['../src/clients/x.ts', '../node_modules/x/src/cli/y.js']),
      ...chunk('cli.js', ['../src/cli/index.ts'], 'console.log(1);'),
    ];
    const buildEnd = cliEntry.buildEnd as (ctx: { writtenFiles: { name: string; size: number }[] }) => void | Promise<void>;
    await buildEnd.call(undefined as never, { writtenFiles });

    expect(existsSync(join(dir, 'chunk-cli.js.map'))).toBe(false);
    expect(readFileSync(join(dir, 'chunk-cli.js'), 'utf8')).not.toContain('sourceMappingURL');
    expect(existsSync(join(dir, 'cli.js.map'))).toBe(false);

    for (const kept of ['chunk-core.js', 'chunk-lookalike.js']) {
      expect(existsSync(join(dir, `${kept}.map`)), kept).toBe(true);
      expect(readFileSync(join(dir, kept), 'utf8'), kept).toContain(`//# sourceMappingURL=${kept}.map`);
    }

    const cli = readFileSync(join(dir, 'cli.js'), 'utf8');
    expect(cli.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(cli.match(/^#!/gm)).toHaveLength(1);
    expect(statSync(join(dir, 'cli.js')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(dir, 'chunk-core.js'), 'utf8').startsWith('#!')).toBe(false);
  });
});
