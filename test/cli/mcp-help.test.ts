/**
 * Effects decided once (issue 48 §2, issue 50 §4): `mcp --help`'s lists of the money and key tools, and every
 * tool's hints, against lists made here from the document itself (`x-effect`, `x-effect-raised-by`,
 * `x-destructive`), not from the code under test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addMcpCommand, annotations, toolName } from '../../src/cli/mcp';
import { addResourceCommands } from '../../src/cli/resources';
import { commandTable } from '../../src/cli/table';
import { root } from '../setup/packed';

type Json = Record<string, any>;
const doc = parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8')) as Json;
const ops: Json[] = Object.values<Json>(doc.paths).flatMap((item) =>
  (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((m) => (item[m] ? [item[m]] : [])),
);
const toolOf = (id: string) => toolName(commandTable().find((spec) => spec.op.id === id)!);

/** `--allow-<flag>`'s line of `mcp --help`, unwrapped. */
function helpOf(flag: string): string {
  const program = new Command('crossborder-sdk');
  addMcpCommand(program, async () => {});
  const mcp = program.commands.find((c) => c.name() === 'mcp')!;
  const option = mcp.options.find((o) => o.long === flag)!;
  return option.description;
}

/** The list in parentheses of a help line. */
const listIn = (line: string) => /\(([^)]*)\)/.exec(line)![1]!.split(', ');

describe('mcp --help lists what the document says', () => {
  for (const [flag, effect] of [
    ['--allow-money-movement', 'money'],
    ['--allow-key-export', 'secret'],
  ] as const) {
    it(`${flag}: every operation whose x-effect is ${effect}, then those a body field raises to it`, () => {
      const declared = ops.filter((op) => op['x-effect'] === effect).map((op) => toolOf(op.operationId));
      const raised = ops.flatMap((op) =>
        Object.entries<string>(op['x-effect-raised-by'] ?? {})
          .filter(([, to]) => to === effect)
          .map(([field]) => `${toolOf(op.operationId)} with ${field}`),
      );
      expect(declared.length).toBeGreaterThan(0);
      expect(listIn(helpOf(flag))).toEqual([...declared, ...raised]);
    });
  }

  it('the money list names the three the hand-written one missed', () => {
    const list = listIn(helpOf('--allow-money-movement'));
    for (const tool of ['transfer_out_create', 'sandbox_send', 'transactions_cancel', 'quotes_create with immediatelyExecute']) expect(list).toContain(tool);
  });
});

describe('every tool hint comes from the table', () => {
  it('readOnly: a read no body field raises; destructive: money, secret, or x-destructive; idempotent: reads', () => {
    const seen: string[] = [];
    for (const spec of commandTable()) {
      const op = ops.find((o) => o.operationId === spec.op.id)!;
      const raises = Object.values<string>(op['x-effect-raised-by'] ?? {});
      const read = op['x-effect'] === 'read' && raises.length === 0;
      const destructive =
        ['money', 'secret'].includes(op['x-effect']) || raises.some((to) => to === 'money' || to === 'secret') || op['x-destructive'] === true;
      expect(annotations(spec), spec.op.id).toEqual({ readOnlyHint: read, destructiveHint: destructive, idempotentHint: read });
      if (destructive && op['x-effect'] === 'write') seen.push(spec.op.id);
    }
    // A POST that removes (an invitation cancelled) is destructive because the document says so, not by its method.
    expect(seen).toContain('cancelInvitation');
    expect(seen).toContain('deleteCustomer');
    expect(seen).not.toContain('createCustomer');
  });
});

describe("a command's help says what it does in the document's words", () => {
  const commandOf = async (argv: string[]) => {
    const program = new Command('crossborder-sdk');
    await addResourceCommands(program, async () => {}, argv);
    const group = program.commands.find((c) => c.name() === argv[0])!;
    return group.commands.find((c) => c.name() === argv[1])!;
  };
  const createQuote = ops.find((op) => op.operationId === 'createQuote')!;

  it("quotes create --help: the first paragraph of createQuote's x-sdk.doc, then its method and path", async () => {
    const text = (await commandOf(['quotes', 'create', '--help'])).description();
    const first = (createQuote['x-sdk'].doc as string).split('\n@')[0]!.replace(/\s+/g, ' ').trim();
    expect(text.startsWith(`${first} (`)).toBe(true);
    expect(text).toContain('(POST /quotes — moves money with --immediately-execute)');
  });

  it('a call that is not a help does not read the document: its description stays the method and path', async () => {
    expect((await commandOf(['quotes', 'create', '--locked-currency-amount', '1'])).description()).toBe(
      'POST /quotes — moves money with --immediately-execute',
    );
  });
});
