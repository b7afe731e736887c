/**
 * A tool's earlier name (still answered, never listed) is the same tool: at every tier of the server, a call by the
 * earlier name is refused or allowed exactly as a call by the current name, and as the document's `x-effect` (and
 * `x-effect-raised-by`, with the raising fields sent) says. In-process: the name lookup and the refusal are the
 * functions the server's call handler runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deprecatedToolName, refusal, toolName, toolsByName, type McpOptions } from '../../src/cli/mcp';
import { commandTable } from '../../src/cli/table';
import { root } from '../setup/packed';

type Effect = 'read' | 'write' | 'money' | 'secret';
type Json = Record<string, any>;
const doc = parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8')) as Json;
const declared = new Map<string, { effect: Effect; raisedBy: Record<string, Effect> }>();
for (const item of Object.values<Json>(doc.paths))
  for (const op of Object.values<Json>(item))
    if (op?.operationId) declared.set(op.operationId, { effect: op['x-effect'], raisedBy: op['x-effect-raised-by'] ?? {} });

const TIERS: { flags: McpOptions; allows: Effect[] }[] = [
  { flags: {}, allows: ['read'] },
  { flags: { allowWrites: true }, allows: ['read', 'write'] },
  { flags: { allowWrites: true, allowMoneyMovement: true }, allows: ['read', 'write', 'money'] },
  { flags: { allowWrites: true, allowKeyExport: true }, allows: ['read', 'write', 'secret'] },
  { flags: { allowWrites: true, allowMoneyMovement: true, allowKeyExport: true }, allows: ['read', 'write', 'money', 'secret'] },
];

describe("an MCP tool's earlier name at every tier", () => {
  const specs = commandTable();
  const byName = toolsByName(specs);
  const renamed = specs.filter((spec) => deprecatedToolName(spec) !== undefined);

  it('there are earlier names, money among them, and each is answered but not a current name', () => {
    expect(renamed.length).toBeGreaterThanOrEqual(5);
    expect(renamed.some((spec) => declared.get(spec.op.id)!.effect === 'money')).toBe(true);
    const current = new Set(specs.map(toolName));
    for (const spec of renamed) expect(current.has(deprecatedToolName(spec)!), deprecatedToolName(spec)).toBe(false);
  });

  for (const tier of TIERS) {
    it(`${JSON.stringify(tier.flags)}: the earlier name is refused or allowed as the current one, and as the document says`, () => {
      for (const spec of renamed) {
        const earlier = deprecatedToolName(spec)!;
        const now = toolName(spec);
        const viaEarlier = byName.get(earlier)!;
        const viaNow = byName.get(now)!;
        expect(viaEarlier.op.id, earlier).toBe(spec.op.id);
        expect(viaNow.op.id, now).toBe(spec.op.id);
        const { effect, raisedBy } = declared.get(spec.op.id)!;
        const refusedEarlier = refusal(viaEarlier, tier.flags);
        expect(refusedEarlier, earlier).toBe(refusal(viaNow, tier.flags));
        expect(refusedEarlier === undefined, `${earlier} at ${JSON.stringify(tier.flags)}`).toBe(tier.allows.includes(effect));
        for (const [field, to] of Object.entries(raisedBy)) {
          const body = { [field]: true };
          const raised = refusal(viaEarlier, tier.flags, body);
          expect(raised, `${earlier} with ${field}`).toBe(refusal(viaNow, tier.flags, body));
          expect(raised === undefined, `${earlier} with ${field}`).toBe(tier.allows.includes(effect) && tier.allows.includes(to));
        }
      }
    });
  }
});
