/**
 * `--help` of a command whose flag takes JSON shows the JSON's shape: its fields one level deep, required ones
 * marked, a union's variants by their discriminator. The expected fields are read here from the document itself
 * (openapi/openapi.yaml: `$ref`, `allOf`, `oneOf` with its discriminator), not from the code under test, so a field
 * added to a schema and missing from the help fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addResourceCommands } from '../../src/cli/resources';
import { commandTable, detailsOf, flagDescription } from '../../src/cli/table';
import { root } from '../setup/packed';

type Json = Record<string, any>;
const doc = parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8')) as Json;

const resolve = (schema: Json): Json => (schema.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);

/** An object schema's fields and whether each is required, `allOf` merged (as the document writes them). */
function fieldsOf(schema: Json, into = new Map<string, boolean>()): Map<string, boolean> {
  const s = resolve(schema);
  for (const part of s.allOf ?? []) fieldsOf(part, into);
  for (const name of Object.keys(s.properties ?? {})) into.set(name, into.get(name) === true || (s.required ?? []).includes(name));
  for (const name of s.required ?? []) if (into.has(name)) into.set(name, true);
  return into;
}

/** A body field's schema in the document: the operation's body schema, then the field. */
function fieldSchema(operationId: string, field: string): Json {
  for (const item of Object.values<Json>(doc.paths)) {
    for (const op of Object.values<Json>(item)) {
      if (op?.operationId !== operationId) continue;
      const body = resolve(op.requestBody.content['application/json'].schema);
      const parts = [body, ...(body.allOf ?? []).map(resolve), ...(body.oneOf ?? []).map(resolve)];
      const found = parts.find((p) => p.properties?.[field])?.properties[field];
      if (found) return resolve(found);
    }
  }
  throw new Error(`${operationId} has no body field ${field}`);
}

/** The `--help` text of the option `flag` of the command at `words`. */
async function helpLine(words: string[], flag: string): Promise<string> {
  const program = new Command('crossborder-sdk');
  await addResourceCommands(program, async () => {}, [...words, '--help']);
  let command: Command | undefined = program;
  for (const word of words) command = command?.commands.find((c) => c.name() === word);
  const option = command?.options.find((o) => o.long === flag);
  if (!option) throw new Error(`${words.join(' ')} has no ${flag}`);
  return option.description;
}

/** `{a*: string, b: number}` as a map of name to required. */
function shownFields(braces: string): Map<string, boolean> {
  const inner = braces.replace(/^\{|\}$/g, '');
  const fields = new Map<string, boolean>();
  for (const part of inner.split(', ')) {
    const m = /^(\w+)(\*?):/.exec(part);
    if (m) fields.set(m[1]!, m[2] === '*');
  }
  return fields;
}

describe("a JSON flag's help shows the fields of its schema", () => {
  const objects: [words: string, operationId: string, field: string, flag: string][] = [
    ['beneficial-owners create', 'createBeneficialOwner', 'personalInfo', '--personal-info'],
    ['customers create', 'createCustomer', 'address', '--address'],
    ['transfer-out create', 'createTransferOut', 'destination', '--destination'],
    ['auth credentials verify', 'verifyCredential', 'assertion', '--assertion'],
  ];
  for (const [words, id, field, flag] of objects) {
    it(`${words} ${flag}: every field, required ones marked`, async () => {
      const expected = fieldsOf(fieldSchema(id, field));
      expect(expected.size).toBeGreaterThan(0);
      const line = await helpLine(words.split(' '), flag);
      const braces = /JSON, (\{[^}]*\})/.exec(line)?.[1];
      expect(braces, line).toBeDefined();
      expect(shownFields(braces!)).toEqual(expected);
    });
  }

  const unions: [words: string, operationId: string, field: string, flag: string][] = [
    ['quotes create', 'createQuote', 'source', '--source'],
    ['quotes create', 'createQuote', 'destination', '--destination'],
    ['external-accounts create', 'createExternalAccount', 'accountInfo', '--account-info'],
  ];
  for (const [words, id, field, flag] of unions) {
    it(`${words} ${flag}: each variant by its discriminator, with its fields`, async () => {
      const schema = fieldSchema(id, field);
      const key: string = schema.discriminator.propertyName;
      const mapping = Object.entries<string>(schema.discriminator.mapping);
      expect(mapping.length).toBeGreaterThan(1);
      const line = await helpLine(words.split(' '), flag);
      expect(line).toContain(`one of, by ${key}: `);
      for (const [value, ref] of mapping) {
        const expected = fieldsOf({ $ref: ref });
        expected.delete(key);
        const braces = new RegExp(`(?:: |\\| )${value} (\\{[^}]*\\})`).exec(line)?.[1];
        expect(braces, `${value} in ${line}`).toBeDefined();
        expect(shownFields(braces!), value).toEqual(expected);
      }
    });
  }

  it('every JSON-valued flag of every command shows a shape', async () => {
    const bare: string[] = [];
    for (const spec of commandTable()) {
      const details = await detailsOf(spec);
      for (const flag of details.flags.filter((f) => f.kind === 'json')) {
        if (!/; JSON, (\{|one of|a list of|an object)/.test(flagDescription(flag))) bare.push(`${spec.words.join(' ')} ${flag.flag}`);
      }
    }
    expect(bare).toEqual([]);
  });
});
