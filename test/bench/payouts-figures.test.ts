/**
 * docs/payouts.md's performance table is written by `npm run bench` from what the payouts bench measured
 * (scripts/bench/payouts-figures.ts), never by hand: the generator is tested on a recorded run, and the page
 * holds, between its markers, what the generator makes of docs/benchmarks.json once that holds a run of it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PAYOUTS_SECTION_MARKERS, payoutsLines, payoutsSection, withPayoutsSection, type PayoutsResult } from '../../scripts/bench/payouts-figures';
import { recorded } from './fixtures/payouts-2026-12-02';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const [OPEN, CLOSE] = PAYOUTS_SECTION_MARKERS;
/** The page's marked section, markers included. */
const sectionOf = (page: string) => page.slice(page.indexOf(OPEN), page.indexOf(CLOSE) + CLOSE.length);

describe('the payouts bench, rendered from its results', () => {
  it("its lines: docs/benchmarks.json's, byte for byte as rendered from the result it keeps beside them", () => {
    // Any run of the bench (the stored one changes with each `npm run bench`), not only the recorded fixture's.
    const stored = JSON.parse(read('docs/benchmarks.json')) as { payouts: string; payoutsResult: PayoutsResult };
    expect(stored.payouts.split('\n')).toHaveLength(payoutsLines(recorded).length);
    expect(payoutsLines(stored.payoutsResult).join('\n')).toBe(stored.payouts);
  });

  it('its table: each figure of the run, each verdict against its target', () => {
    const section = payoutsSection(recorded, '2026-12-02');
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| figure'));
    expect(rows).toHaveLength(6);
    expect(section.startsWith(`${OPEN}\n| figure | measured | target |\n|---|---|---|\n`)).toBe(true);
    expect(section.endsWith(CLOSE)).toBe(true);
    expect(rows[0]).toContain('under a rate limit of 100 requests/s');
    expect(rows[0]).toContain(
      '(2,000 payouts; the burst counted as allowed) | **0.996** (104.8 payouts/s of 105.2 allowed, in 19.1 s: 68 answers of 429 in 30 rounds)',
    );
    expect(rows[0]!.endsWith('| ≥ 0.9: **met** |')).toBe(true);
    expect(rows[1]).toContain(
      '40 requests/s with a burst of 1, the same ratio (400 payouts) | **0.838** (33.6 payouts/s of 40.1 allowed, in 11.9 s: 17 answers of 429 in 12 rounds)',
    );
    expect(rows[1]!.endsWith('| ≥ 0.8: **met** |')).toBe(true);
    expect(rows[2]).toContain('no limit (10,000 payouts a run): the runner (file journal)');
    expect(rows[2]).toContain(
      'the median of 5 alternating rounds | **0.860** (rounds 0.86, 0.87, 0.70, 0.79, 1.08; the runner 1121.7/s, the pool at 64 1353.2/s)',
    );
    expect(rows[2]).toContain('stricter: 0.860');
    expect(rows[2]!.endsWith('| ≥ 0.9: **not met** |')).toBe(true);
    expect(rows[3]).toContain('| 0.848 of the pool; the runner 1.024 of it');
    expect(rows[4]).toContain('the runner 909.9 µs, the journaling pool 889.3 µs, the pool 734.5 µs');
    expect(rows[5]).toContain('| 38.0 MB at 10,000, 41.8 MB at 50,000, 46.0 MB at 100,000: **88.2 bytes per reference** from 10,000 on | flat |');
    expect(section).toContain('Measured 2026-12-02 (load average 2.2, 2.3, 6.6 on 2 cores) by `npm run bench`');
  });

  it('a verdict follows the figure: at the target met, below it not; a part not run has no row', () => {
    const at = structuredClone(recorded);
    at.noLimit.ratio = 0.9;
    at.rateLimited.ratio = 0.8999;
    const section = payoutsSection(at, 'd');
    expect(section).toContain('| **0.900** (rounds');
    expect(section).toMatch(/\*\*0\.900\*\* \(rounds[^\n]*\| ≥ 0\.9: \*\*met\*\* \|/);
    expect(section).toMatch(/\*\*0\.900\*\* \(104\.8[^\n]*\| ≥ 0\.9: \*\*not met\*\* \|/);
    const memoryOnly: PayoutsResult = {
      ...recorded,
      rateLimited: { ...recorded.rateLimited, seconds: Number.NaN },
      rateLimitedBurst1: { ...recorded.rateLimitedBurst1, seconds: Number.NaN },
      noLimit: { ...recorded.noLimit, ratios: [] },
    };
    expect(
      payoutsSection(memoryOnly, 'd')
        .split('\n')
        .filter((l) => l.startsWith('| heap') || l.startsWith('| under') || l.startsWith('| no limit')),
    ).toEqual([
      '| heap over 100,000 references streamed from a CSV (file journal) | 38.0 MB at 10,000, 41.8 MB at 50,000, 46.0 MB at 100,000: **88.2 bytes per reference** from 10,000 on | flat |',
    ]);
    expect(payoutsLines(memoryOnly)).toEqual([payoutsLines(recorded)[5], payoutsLines(recorded)[6]]);
  });

  it('the render step replaces the marked section only', () => {
    expect(withPayoutsSection(`before\n${OPEN}\nold\n${CLOSE}\nafter`, `${OPEN}\nnew\n${CLOSE}`)).toBe(`before\n${OPEN}\nnew\n${CLOSE}\nafter`);
    expect(() => withPayoutsSection('no markers', 'x')).toThrow(/docs\/payouts\.md has no section marked/);
  });
});

describe('docs/payouts.md: the performance table', () => {
  const page = read('docs/payouts.md');
  const results = JSON.parse(read('docs/benchmarks.json')) as { payoutsResult?: PayoutsResult; partsDate?: { payouts?: string }; date: string };

  it('is one marked section, under the performance heading', () => {
    expect(page.split(OPEN)).toHaveLength(2);
    expect(page.split(CLOSE)).toHaveLength(2);
    expect(page.indexOf(OPEN)).toBeGreaterThan(page.indexOf('## Performance'));
    expect(page.indexOf(CLOSE)).toBeLessThan(page.indexOf('## How it is tested'));
  });

  it("holds what the generator makes of docs/benchmarks.json's payouts run; until it holds one, the figures carried over, saying so", () => {
    const section = sectionOf(page);
    if (results.payoutsResult) expect(section).toBe(payoutsSection(results.payoutsResult, results.partsDate?.payouts ?? results.date));
    else {
      // The results hold the bench's lines only (taken before it kept what it measured): the table is the one
      // written before the generator, which says which command replaces it.
      expect(section).toContain('These figures were carried over by hand from the runs named in them; `npm run bench -- --only payouts`');
      expect(section).not.toContain('by `npm run bench`; its payouts');
    }
  });

  it('has no figure of the bench outside the section', () => {
    const outside = page.replace(sectionOf(page), '');
    expect(outside).not.toMatch(/\*\*0\.\d{3}\*\*/);
    expect(outside).not.toMatch(/bytes per reference/);
    expect(outside).not.toMatch(/\d payouts\/s\b/);
  });
});
