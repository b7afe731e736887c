// @ts-nocheck
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(`${root}docs/webhooks.md`, 'utf8');

// Every fenced block, with the embed marker (if any) on the line before its opening fence.
const blocks = [...doc.matchAll(/(?:<!-- embed: (\S+) -->\n)?```(\w*)\n([\s\S]*?)```\n/g)].map((m) => ({
  file: m[1],
  lang: m[2],
  code: m[3]!,
}));

describe('docs/webhooks.md', () => {
  it('embeds every code block from a recipe file', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const block of blocks) expect(block.file, block.code.slice(0, 80)).toBeDefined();
  });

  for (const block of blocks.filter((b) => b.file)) {
    it(`shows ${block.file} verbatim`, () => {
      expect(block.lang).toBe('ts');
      expect(block.code).toBe(readFileSync(`${root}${block.file}`, 'utf8'));
    });
  }

  it('shows every recipe file', () => {
    const files = readdirSync(`${root}examples/webhooks`).map((f) => `examples/webhooks/${f}`);
    expect(blocks.map((b) => b.file).sort()).toEqual(files.sort());
  });

  it('has the five framework recipes', () => {
    for (const heading of ['## Node `http`', '## Express', '## Fastify', '## Fetch `Request`', '## Hono']) {
      expect(doc).toContain(heading);
    }
  });
});
