/**
 * The package's figures in docs/performance.md are written by `npm run bench` (issue 50 §8), never by hand:
 * the page holds exactly what the generator makes of docs/benchmarks.json, and the generator counts each kind
 * of file from `npm pack --json`'s list.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  TARBALL_SECTION_MARKERS,
  tarballPart,
  tarballReport,
  tarballSection,
  WORKER_SECTION_MARKERS,
  workerSection,
  withTarballSection,
  type SizeReport,
  type TarballReport,
} from '../../scripts/bench/size';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

describe('docs/performance.md: the package', () => {
  it('holds the section rendered from docs/benchmarks.json, byte for byte', () => {
    const results = JSON.parse(read('docs/benchmarks.json')) as { tarball: TarballReport; date: string; sizeDate?: string };
    expect(results.tarball.parts?.length).toBeGreaterThan(0);
    const page = read('docs/performance.md');
    const section = tarballSection(results.tarball, results.sizeDate ?? results.date);
    expect(page).toContain(section);
    // Once: the figures are nowhere else on the page by hand.
    expect(page.split(TARBALL_SECTION_MARKERS[0]).length).toBe(2);
    expect(section).toContain(`**${results.tarball.files} files, ${(results.tarball.unpackedBytes / 1e6).toFixed(2)} MB**`);
    // The rows add up to the whole.
    expect(results.tarball.parts!.reduce((n, p) => n + p.files, 0)).toBe(results.tarball.files);
    expect(results.tarball.parts!.reduce((n, p) => n + p.bytes, 0)).toBe(results.tarball.unpackedBytes);
  });

  it("holds the worker's figures rendered from docs/benchmarks.json, byte for byte, and nowhere else", () => {
    type Sizes = { size: SizeReport; worker: SizeReport; receiver: SizeReport; listWorker: SizeReport; date: string; sizeDate?: string };
    const results = JSON.parse(read('docs/benchmarks.json')) as Sizes;
    const page = read('docs/performance.md');
    const section = workerSection(results, results.sizeDate ?? results.date);
    expect(page).toContain(section);
    expect(page.split(WORKER_SECTION_MARKERS[0]).length).toBe(2);
    expect(section).toContain(`**${(results.worker.oneFileGzip / 1000).toFixed(1)} kB (${results.worker.oneFileGzip.toLocaleString('en')} B)**`);
    expect(section).toContain(`(${results.listWorker.oneFileGzip.toLocaleString('en')} B)`);
    expect(section).toContain(`(${results.receiver.oneFileGzip.toLocaleString('en')} B)`);
    // Outside the generated paragraphs, no figure of today's bundles by hand (the before-figures are history, fixed).
    const handWritten = page.replace(section, '').replace(/<!-- npm run bench: the package[\s\S]*?<!-- end of what npm run bench writes -->/, '');
    for (const r of [results.worker, results.receiver, results.listWorker]) expect(handWritten).not.toContain(r.oneFileGzip.toLocaleString('en'));
    expect(read('README.md')).not.toMatch(/bundle to \d+(\.\d+)? kB/);
  });

  it('the render step replaces the marked section only', () => {
    const [open, close] = TARBALL_SECTION_MARKERS;
    expect(withTarballSection(`before\n${open}\nold\n${close}\nafter`, `${open}\nnew\n${close}`)).toBe(`before\n${open}\nnew\n${close}\nafter`);
    expect(() => withTarballSection('no markers', 'x')).toThrow(/no section marked/);
  });
});

describe('the package counted by kind', () => {
  it("sorts every file of npm pack's list into one kind, and sums them", () => {
    const files = [
      { path: 'dist/index.js', size: 100 },
      { path: 'dist/index.js.map', size: 40 },
      { path: 'dist/index.cjs', size: 110 },
      { path: 'dist/index.cjs.map', size: 41 },
      { path: 'dist/index.d.ts', size: 30 },
      { path: 'dist/index.d.cts', size: 30 },
      { path: 'dist/cli.js', size: 70 },
      { path: 'src/core/client.ts', size: 55 },
      { path: 'docs/webhooks.md', size: 9 },
      { path: 'package.json', size: 3 },
    ];
    const report = tarballReport({ entryCount: files.length, unpackedSize: 488, size: 200, files }, new Set(['dist/cli.js']));
    expect(report.parts).toEqual([
      { part: 'esm', files: 1, bytes: 100 },
      { part: 'cjs', files: 1, bytes: 110 },
      { part: 'cli', files: 1, bytes: 70 },
      { part: 'maps', files: 2, bytes: 81 },
      { part: 'types', files: 2, bytes: 60 },
      { part: 'src', files: 1, bytes: 55 },
      { part: 'other', files: 2, bytes: 12 },
    ]);
    expect(report).toMatchObject({ files: 10, distFiles: 7, unpackedBytes: 488, mapBytes: 81, packedBytes: 200 });
    expect(tarballPart('dist/chunk-X.js', true)).toBe('cli');
    expect(tarballPart('dist/chunk-X.js', false)).toBe('esm');
    expect(tarballPart('dist/chunk-X.cjs', true)).toBe('cjs');
  });
});
