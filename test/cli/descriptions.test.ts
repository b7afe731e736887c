/**
 * One description per operation: a command's `--help` and its MCP tool's description say what the SDK's TSDoc
 * says, the operation's `x-sdk.doc` in the document, read here from the YAML itself (not through the code under
 * test). The help's one-liner is the doc's first paragraph and its examples are printed after the flags; the tool's
 * description is the whole prose without the example code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { offeredTools, toolName } from '../../src/cli/mcp';
import { addResourceCommands } from '../../src/cli/resources';
import { operationDocs } from '../../src/cli/shared';
import { commandTable, detailsOf } from '../../src/cli/table';
import { root } from '../setup/packed';

type Json = Record<string, any>;
const doc = parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8')) as Json;
const ops = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
  (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((m) =>
    item[m] ? [{ id: item[m].operationId as string, method: m.toUpperCase(), path, op: item[m] as Json }] : [],
  ),
);

/** The doc's prose, as the test reads it: the lines before the first `@tag`, in blank-line paragraphs, each on one line. */
function prose(text: string): string[] {
  const before = text.split(/\n(?=@)/)[0]!;
  return before
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .replace(/\{@link ([^}]+)\}/g, '$1')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((p) => p.length > 0);
}

/** The code lines of the doc's examples, trimmed, that are long enough to be telling. */
function exampleLines(text: string): string[] {
  const after = text
    .split(/\n(?=@example)/)
    .slice(1)
    .join('\n');
  return after
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 12 && !l.startsWith('```') && !l.startsWith('@'));
}

const table = commandTable();

describe('every operation has one description, its x-sdk.doc', () => {
  it('the document and the command table hold the same operations, each with a doc', () => {
    expect(ops.length).toBeGreaterThan(50);
    expect(table.map((s) => s.op.id).sort()).toEqual(ops.map((o) => o.id).sort());
    for (const { id, op } of ops) expect(typeof op['x-sdk']?.doc, id).toBe('string');
  });

  it("MCP: each tool's description is the doc's prose, then the operation; no example code", async () => {
    const specs = await Promise.all(table.map(detailsOf));
    const tools = offeredTools(specs, operationDocs(), { allowWrites: true, allowMoneyMovement: true, allowKeyExport: true });
    expect(tools).toHaveLength(ops.length);
    for (const { id, method, path, op } of ops) {
      const tool = tools.find((t) => t.name === toolName(table.find((s) => s.op.id === id)!))!;
      const text: string = op['x-sdk'].doc;
      const expected = prose(text).join(' ').replace(/\.$/, '');
      expect(tool.description.startsWith(`${expected} (${method} ${path}).`), `${id}: ${tool.description}`).toBe(true);
      if (op.summary && !text.includes(op.summary)) expect(tool.description, id).not.toContain(op.summary);
      expect(tool.description, id).not.toMatch(/```|@example|\{@link/);
      for (const line of exampleLines(text)) expect(tool.description, `${id}: ${line}`).not.toContain(line);
    }
  });

  it("CLI: each command's --help starts with the doc's first paragraph, and prints the rest and the example", async () => {
    for (const { id, method, path, op } of ops) {
      const spec = table.find((s) => s.op.id === id)!;
      const program = new Command('crossborder-sdk');
      await addResourceCommands(program, async () => {}, [...spec.words, '--help']);
      let command: Command = program;
      for (const word of spec.words) command = command.commands.find((c) => c.name() === word)!;
      const text: string = op['x-sdk'].doc;
      const [first, ...rest] = prose(text);
      expect(command.description().startsWith(`${first} (${method} ${path}`), `${id}: ${command.description()}`).toBe(true);
      let help = '';
      command.configureOutput({ writeOut: (s) => (help += s) });
      command.outputHelp();
      for (const paragraph of rest) expect(help.replace(/\s+/g, ' '), id).toContain(paragraph);
      const lines = exampleLines(text);
      if (text.includes('@example')) {
        expect(lines.length, id).toBeGreaterThan(0);
        expect(help, id).toContain('With the SDK (crossborder-sdk):');
      }
      for (const line of lines) expect(help, `${id}: ${line}`).toContain(line);
      expect(help, id).not.toMatch(/```|@example|\{@link/);
    }
  }, 120_000);
});
