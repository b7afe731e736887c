/**
 * The CLI is an ordinary client of the package (issue 32): it reaches the sandbox only through the
 * sandbox's public entry, and the SDK only through the public core, with no cast into a resource's
 * private client.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../src/cli/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
const specifiers = (text: string) => [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);

describe('the CLI as a client of the public package', () => {
  it('reads every CLI module (the check is not vacuous)', () => {
    expect(files).toEqual(expect.arrayContaining(['index.ts', 'listen.ts', 'sandbox.ts', 'trigger.ts', 'mcp.ts', 'control.ts']));
  });

  it('imports the sandbox only through its public entry', () => {
    const deep = files.flatMap((file) =>
      specifiers(readFileSync(dir + file, 'utf8'))
        .filter((s) => s.startsWith('../sandbox/') && s !== '../sandbox/index')
        .map((s) => `${file}: ${s}`),
    );
    expect(deep).toEqual([]);
  });

  it("never reaches into a resource's private client", () => {
    const casts = files.filter((file) => /\b_client\b|pipelineOf/.test(readFileSync(dir + file, 'utf8')));
    expect(casts).toEqual([]);
  });

  it('imports the core only through src/cli/sdk.ts, and makes its client in one function there', () => {
    const deep = files
      .filter((file) => file !== 'sdk.ts')
      .flatMap((file) =>
        specifiers(readFileSync(dir + file, 'utf8'))
          .filter((s) => s.startsWith('../core/'))
          .map((s) => `${file}: ${s}`),
      );
    expect(deep).toEqual([]);
    const builders = files.filter((file) => /new CrossborderCore\b/.test(readFileSync(dir + file, 'utf8')));
    expect(builders).toEqual(['sdk.ts']);
  });
});
