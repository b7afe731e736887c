/**
 * The sandbox is layered one way: `serve/` (HTTP, msw, the control plane, persistence I/O) over
 * `routes/` (one handler per operation) over `domain/` (the world the service keeps); the entries at
 * the folder's top (`index.ts`, `sandbox.ts`, `msw.ts`) put them together. A file imports only from
 * its own layer or a lower one, type-only imports included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../src/sandbox/', import.meta.url));

/** Every `.ts` file under `dir`, as paths relative to the sandbox folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

/** The specifiers a module names: `import … from`, `import type … from`, `export … from`, `import '…'` and `import('…')`. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  return found;
}

const LAYERS = ['domain', 'routes', 'serve'] as const;

/** 0 domain, 1 routes, 2 serve, 3 the entries at the top; undefined outside the sandbox folder. */
function layerOf(file: string): number | undefined {
  if (file.startsWith('..')) return undefined;
  const folder = file.split(/[\\/]/)[0]!;
  const index = (LAYERS as readonly string[]).indexOf(folder);
  return index >= 0 ? index : file.includes('/') ? undefined : LAYERS.length;
}

/** The imports of `files` (sandbox-relative path → text) that run from a lower layer to a higher one. */
function upwardImports(files: Record<string, string>): string[] {
  const upward: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const from = layerOf(file)!;
    for (const specifier of specifiers(text)) {
      if (!specifier.startsWith('.')) continue;
      const target = relative(root, resolve(root, dirname(file), specifier));
      const to = layerOf(target);
      if (to !== undefined && to > from) upward.push(`${file} -> ${specifier}`);
    }
  }
  return upward;
}

const files = Object.fromEntries(sources(root).map((file) => [file, readFileSync(join(root, file), 'utf8')]));

describe('the sandbox is layered one way', () => {
  it('reads every layer (the check is not vacuous)', () => {
    const names = Object.keys(files);
    expect(names).toEqual(expect.arrayContaining(['index.ts', 'sandbox.ts', 'domain/state.ts', 'routes/index.ts', 'serve/http.ts', 'serve/api-pipeline.ts']));
    // Imports between layers are found: serve/ reaches into domain/ (the pipeline over the world's context).
    expect(specifiers(files['serve/api-pipeline.ts']!)).toEqual(expect.arrayContaining(['../domain/context', './http']));
  });

  it('has no import from a lower layer to a higher one (domain → routes/serve, routes → serve), type-only included', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('catches every form of upward import', () => {
    const planted = {
      'domain/a.ts': "import type {\n  Reply,\n} from '../serve/http';\nexport { x } from '../routes/index';\n",
      'domain/b.ts': "const m = await import('../serve/node');\nimport '../serve/live';\n",
      'routes/c.ts': "import { ok } from '../domain/reply';\nimport { sse } from '../serve/live';\n",
      'serve/d.ts': "import { routes } from '../routes';\nimport { createSandboxCore } from '../sandbox';\n",
      'sandbox.ts': "import { routes } from './routes';\nimport { createCore } from './serve/api-pipeline';\n",
    };
    expect(upwardImports(planted)).toEqual([
      'domain/a.ts -> ../serve/http',
      'domain/a.ts -> ../routes/index',
      'domain/b.ts -> ../serve/node',
      'domain/b.ts -> ../serve/live',
      'routes/c.ts -> ../serve/live',
      'serve/d.ts -> ../sandbox',
    ]);
  });
});
