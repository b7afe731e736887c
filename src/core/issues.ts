/**
 * From the raw issues a check reports (zod's shape: code, path, values …) to the {@link ValidationIssue}s
 * a `ValidationError` carries. Messages are written here (zod/mini ships none) so they stay short and
 * name the rule. Loaded with the checks, not at import.
 * @module
 */
import type { ValidationIssue } from './errors';

/** A zod issue, as much of it as the SDK reads (the compiled checks report the same fields). */
export interface RawIssue {
  code: string;
  path: PropertyKey[];
  message?: string | undefined;
  expected?: unknown;
  maximum?: unknown;
  minimum?: unknown;
  inclusive?: boolean | undefined;
  format?: string | undefined;
  pattern?: string | undefined;
  values?: readonly unknown[] | undefined;
  keys?: readonly string[] | undefined;
  origin?: string | undefined;
  discriminator?: string | undefined;
  /** Discriminator values a discriminated union accepts (when none matched). */
  options?: readonly unknown[] | undefined;
  note?: string | undefined;
  errors?: readonly (readonly RawIssue[])[] | undefined;
  params?: { knownDiscriminator?: boolean } | undefined;
  /** zod's flag: true when later checks of the same value still run. */
  continue?: boolean | undefined;
}

/** The issues, each naming its field as the caller wrote it. */
export function toValidationIssues(issues: readonly RawIssue[]): ValidationIssue[] {
  return issues.flatMap((issue) => flatten(issue, []));
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
      return issue.format === 'regex' && issue.pattern ? `must match ${issue.pattern}` : `must be a valid ${issue.format ?? 'value'}`;
    case 'invalid_value':
      return `must be ${issue.values && issue.values.length > 1 ? 'one of ' : ''}${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field${(issue.keys?.length ?? 0) > 1 ? 's' : ''} ${(issue.keys ?? []).join(', ')}`;
    case 'invalid_union':
      return issue.discriminator ? `unknown ${issue.discriminator}` : 'does not match any of the accepted shapes';
    case 'not_multiple_of':
      return 'must be a whole number';
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : issue.code.replace(/_/g, ' ');
  }
}
