/**
 * Parameter checks with the schemas generated from the document, before anything is sent.
 * Messages are written here (zod/mini ships none) so they stay short and name the rule.
 * @module
 */
import type { ValidationIssue } from './errors';

/** The part of a zod (mini or classic) schema the SDK uses. */
export interface Schema {
  safeParse(value: unknown): { success: true; data?: unknown } | { success: false; error: { issues: readonly RawIssue[] } };
}

/** A zod issue, as much of it as the SDK reads. */
export interface RawIssue {
  code: string;
  path: readonly PropertyKey[];
  message?: string;
  expected?: unknown;
  maximum?: unknown;
  minimum?: unknown;
  inclusive?: boolean;
  format?: string;
  pattern?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  origin?: string;
  discriminator?: string;
  /** Discriminator values a discriminated union accepts (when none matched). */
  options?: readonly unknown[];
  note?: string;
  errors?: readonly (readonly RawIssue[])[];
  params?: { knownDiscriminator?: boolean } | undefined;
}

/** A schema, or the name of one in the generated zod module. */
export type SchemaRef = Schema | string;

let generated: Promise<Record<string, unknown>> | undefined;
let loaded: Record<string, unknown> | undefined;

/**
 * Resolves a schema. Named ones come from the generated module, loaded on first use only: importing
 * the SDK builds no schema, and bundlers split the module out of the import path.
 */
export async function resolveSchema(ref: SchemaRef): Promise<Schema> {
  if (typeof ref !== 'string') return ref;
  loaded ??= await (generated ??= import('../generated/zod.gen') as Promise<Record<string, unknown>>);
  return schemaIn(loaded, ref);
}

/** The schema when it is at hand without waiting (inline, or the generated module already loaded). */
export function resolvedSchema(ref: SchemaRef): Schema | undefined {
  if (typeof ref !== 'string') return ref;
  return loaded === undefined ? undefined : schemaIn(loaded, ref);
}

function schemaIn(module: Record<string, unknown>, name: string): Schema {
  const schema = module[name] as Schema | undefined;
  if (!schema) throw new Error(`No schema ${name} in the generated module`);
  return schema;
}

/** Returns the issues found, or an empty list when the value passes. */
export function check(schema: Schema, value: unknown): ValidationIssue[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => flatten(issue, []));
}

/**
 * A union failure is reported inside the variant that was meant: the one whose discriminator
 * matched (its other issues name the broken nested field). When no variant's discriminator
 * matched, the discriminator itself is reported with the values it accepts.
 */
function flatten(issue: RawIssue, prefix: readonly PropertyKey[]): ValidationIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.discriminator !== undefined && issue.options) {
    // A discriminated union whose discriminator matched no variant (its path ends at the discriminator).
    return [{ path: path.map(String).join('.'), rule: 'invalid_value', message: describeIssue({ code: 'invalid_value', path: [], values: issue.options }) }];
  }
  if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0) {
    // A branch whose discriminator does not fit: a literal mismatch, a discriminated union that knows no
    // such value, or the other-values branch of an open union given a known value.
    const mismatch = (branch: readonly RawIssue[]) =>
      branch.filter(
        (i) =>
          i.path.length === 1 &&
          (i.code === 'invalid_value' || (i.code === 'invalid_union' && i.discriminator !== undefined) || i.params?.knownDiscriminator === true),
      );
    const meant = issue.errors.filter((branch) => branch.length > 0 && mismatch(branch).length === 0);
    if (meant.length > 0) {
      const closest = meant.reduce((a, b) => (b.length < a.length ? b : a));
      return closest.flatMap((inner) => flatten(inner, path));
    }
    const keys = new Set(issue.errors.flatMap((branch) => mismatch(branch).map((i) => String(i.path[0]))));
    if (keys.size === 1) {
      const key = [...keys][0]!;
      const values = [...new Set(issue.errors.flatMap((branch) => mismatch(branch).flatMap((i) => i.values ?? [])))];
      return [{ path: [...path, key].map(String).join('.'), rule: 'invalid_value', message: describeIssue({ code: 'invalid_value', path: [], values }) }];
    }
  }
  return [{ path: path.map(String).join('.'), rule: issue.code, message: describeIssue(issue) }];
}

function describeIssue(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${String(issue.expected)}`;
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}`;
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `must have at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`
        : `must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${String(issue.minimum)}`;
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern
        ? `must match ${issue.pattern}`
        : `must be a valid ${issue.format ?? 'value'}`;
    case 'invalid_value':
      return `must be ${issue.values && issue.values.length > 1 ? 'one of ' : ''}${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field${(issue.keys?.length ?? 0) > 1 ? 's' : ''} ${(issue.keys ?? []).join(', ')}`;
    case 'invalid_union':
      return issue.discriminator
        ? `unknown ${issue.discriminator}`
        : 'does not match any of the accepted shapes';
    case 'not_multiple_of':
      return 'must be a whole number';
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : issue.code.replace(/_/g, ' ');
  }
}
