/**
 * Checks with what the document states, before anything is sent (params) and, with
 * `validateResponses`, on answers. The checks are compiled from the document's zod schemas by
 * scripts/generate.ts (src/generated/checks/): an operation's module loads with its first call, the
 * messages (./issues) only when something fails. Schemas given inline (any object with zod's
 * `safeParse`) are checked the same way.
 * @module
 */
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

/** The compiled checks of one operation's parameters, and the loader of its documented 2xx body's. */
export interface OperationChecks {
  readonly path?: Check | undefined;
  readonly query?: Check | undefined;
  readonly body?: Check | undefined;
  /** Loads the checks of its resource's 2xx bodies (./responses/<tag>, by operation id), with the first answer `validateResponses` checks. */
  readonly response?: (() => Promise<Readonly<Record<string, Check | undefined>>>) | undefined;
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

/**
 * The issues of `value` under a compiled check, or an empty list. Here rather than in ./checks (the
 * check runtime, loaded with the first operation's checks): what calls it is in the initial chunk.
 */
export function issuesOf(check: Check, value: unknown): RawIssue[] {
  const issues: RawIssue[] = [];
  check(value, issues);
  return issues;
}

/** A compiled check behind zod's `safeParse`, so callers of {@link check} take either. */
function asSchema(compiled: Check): Schema {
  return {
    safeParse(value) {
      const issues = issuesOf(compiled, value);
      return issues.length ? { success: false, error: { issues } } : { success: true };
    },
  };
}

type Named = typeof import('../generated/checks/events');
let named: Promise<Named> | undefined;

/**
 * A schema by its name in the generated zod module (`zWebhookEvent`), compiled; an inline schema as
 * it is. Loads the compiled module and the messages on first use.
 */
export async function resolveSchema(ref: SchemaRef): Promise<Schema> {
  await loadIssues();
  if (typeof ref !== 'string') return ref;
  const module = await (named ??= import('../generated/checks/events'));
  const compiled = (module as Record<string, Check | undefined>)[ref.replace(/^z/, '')];
  if (!compiled) throw new Error(`No compiled schema ${ref}`);
  return asSchema(compiled);
}

/**
 * Issues of an answer to operation `id` against its documented 2xx body, whose check `load` brings (the
 * operation's `response` loader): empty when it matches, or when none is documented.
 */
export async function responseIssues(load: OperationChecks['response'], id: string, data: unknown): Promise<ValidationIssue[]> {
  const compiled = load && (await load())[id];
  if (!compiled) return [];
  const issues = issuesOf(compiled, data);
  if (issues.length === 0) return [];
  await loadIssues();
  return describe(issues);
}
