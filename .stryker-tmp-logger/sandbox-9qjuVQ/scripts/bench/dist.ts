/**
 * Benchmarks measure what ships: the built package (dist/), loaded as a user's program loads it,
 * never src/ through tsx. `npm run bench` builds first; a single script builds when dist/ is missing.
 */
// @ts-nocheck

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds dist/ when it is missing (or always, with `force`). */
export function ensureBuilt(force = false): void {
  if (force || !existsSync(join(root, 'dist/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
}

/** The package's main entry as built: dist/index.js (typed by the source it is built from). */
export async function loadSdk(): Promise<typeof import('../../src/index')> {
  ensureBuilt();
  return (await import(pathToFileURL(join(root, 'dist/index.js')).href)) as typeof import('../../src/index');
}
