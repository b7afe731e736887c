/**
 * Checks with what the document states, before anything is sent (params) and, with
 * `validateResponses`, on answers. The checks are compiled from the document's zod schemas by
 * scripts/generate.ts (src/generated/checks/): an operation's module loads with its first call, the
 * messages (./issues) only when something fails. Schemas given inline (any object with zod's
 * `safeParse`) are checked the same way.
 * @module
 */
// @ts-nocheck

import type { Check } from './checks';
import type { ValidationIssue } from './errors';
import type { RawIssue } from './issues';

export type { RawIssue } from './issues';

/** The part of a zod (mini or classic) schema the SDK uses. */
export interface Schema {
  safeParse(value: unknown): { success: true; data?: unknown } | { success: false; error: { issues: readonly RawIssue[] } };
}

/** A schema, or the name of one in the generated zod module (the sandbox's lookup). */
export type SchemaRef = Schema | string;

/** The compiled checks of one operation's parameters. */
export interface OperationChecks {
  readonly path?: Check | undefined;
  readonly query?: Check | undefined;
  readonly body?: Check | undefined;
}

type Issues = typeof import('./issues');
let issuesModule: Issues | undefined;
let issuesLoading: Promise<Issues> | undefined;

/** The message module, loaded the first time something fails (or an inline schema is checked). */
export function loadIssues(): Promise<Issues> {
  return (issuesLoading ??= import('./issues').then((m) => (issuesModule = m)));
}

/** Raw issues as ValidationIssues (the message module must be loaded: {@link loadIssues}). */
export function describe(issues: readonly RawIssue[]): ValidationIssue[] {
  if (!issuesModule) throw new Error('crossborder-sdk: the issues module is not loaded');
  return issuesModule.toValidationIssues(issues);
}

/** Issues of `value` against an inline schema or a compiled check: empty when it passes. */
export function check(schema: Schema, value: unknown): ValidationIssue[] {
  const result = schema.safeParse(value);
  return result.success ? [] : describe(result.error.issues);
}

/** A compiled check behind zod's `safeParse`, so callers of {@link check} take either. */
function asSchema(compiled: Check, run: (check: Check, value: unknown) => RawIssue[]): Schema {
  return {
    safeParse(value) {
      const issues = run(compiled, value);
      return issues.length ? { success: false, error: { issues } } : { success: true };
    },
  };
}

type Named = typeof import('../generated/checks/events');
let named: Promise<[Named, typeof import('./checks')]> | undefined;

/**
 * A schema by its name in the generated zod module (`zWebhookEvent`), compiled; an inline schema as
 * it is. Loads the compiled module and the messages on first use.
 */
export async function resolveSchema(ref: SchemaRef): Promise<Schema> {
  await loadIssues();
  if (typeof ref !== 'string') return ref;
  const [module, runtime] = await (named ??= Promise.all([import('../generated/checks/events'), import('./checks')]));
  const compiled = (module as Record<string, Check | undefined>)[ref.replace(/^z/, '')];
  if (!compiled) throw new Error(`No compiled schema ${ref}`);
  return asSchema(compiled, runtime.issuesOf);
}

type Responses = Record<string, Check | undefined>;
let responses: Promise<[Responses, typeof import('./checks')]> | undefined;

/** Issues of an answer to operation `id` against its documented 2xx body (empty when it matches, or none is documented). */
export async function responseIssues(id: string, data: unknown): Promise<ValidationIssue[]> {
  const [module, runtime] = await (responses ??= Promise.all([import('../generated/checks/responses') as Promise<Responses>, import('./checks')]));
  const compiled = module[id];
  if (!compiled) return [];
  const issues = runtime.issuesOf(compiled, data);
  if (issues.length === 0) return [];
  await loadIssues();
  return describe(issues);
}
