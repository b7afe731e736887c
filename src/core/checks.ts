/**
 * The building blocks of the checks that scripts/generate.ts compiles from the document's zod schemas
 * (src/generated/checks/). A check pushes the raw issues zod would report for the same value (same
 * codes, paths, `continue` flags, union rules), so messages and union reporting (./issues) stay those
 * of zod, without zod: the blocks are plain functions, loaded with an operation's first call, and a
 * value that passes allocates nothing. test/core/compiled-checks.test.ts compares them with zod.
 * @module
 */
import type { RawIssue } from './issues';

/**
 * Pushes the issues of `value` (paths relative to it) onto `issues`. `f`: 1 absent allowed, 2 absent stays absent
 * (zod's optin/optout). `u`: on a check that passes `undefined` and otherwise runs another ({@link optional},
 * {@link defaulted}), that other check, which an object calls directly for a value that is there.
 */
export type Check = ((value: unknown, issues: RawIssue[]) => void) & { f?: number; u?: Check };
/** A check run after the type test; `w`: zod's length checks, which run even after a type failure when the value has a length. */
export type Rule = ((value: never, issues: RawIssue[]) => void) & { w?: boolean; max?: number };

/** zod's `aborted`: an issue since `start` stops later checks unless it says `continue`. */
function aborted(issues: readonly RawIssue[], start: number): boolean {
  for (let i = start; i < issues.length; i++) if (issues[i]!.continue !== true) return true;
  return false;
}

function prefix(issues: RawIssue[], start: number, key: PropertyKey): void {
  for (let i = start; i < issues.length; i++) issues[i]!.path.unshift(key);
}

function runRules(value: unknown, issues: RawIssue[], start: number, rules: readonly Rule[]): void {
  let stop = aborted(issues, start);
  for (const rule of rules) {
    if (rule.w) {
      if (issues.some((issue, i) => i >= start && issue.continue === false)) continue;
      if (value === null || value === undefined || (value as { length?: unknown }).length === undefined) continue;
    } else if (stop) continue;
    const before = issues.length;
    rule(value as never, issues);
    if (!stop && issues.length !== before) stop = aborted(issues, before);
  }
}

function typed(test: (value: unknown) => boolean, expected: string, rules: readonly Rule[]): Check {
  if (rules.length === 0) {
    return (value, issues) => {
      if (!test(value)) issues.push({ code: 'invalid_type', expected, path: [] });
    };
  }
  if (rules.every((rule) => !rule.w)) {
    // What runRules does when no rule runs after a type failure (none is a length check): a wrong type
    // stops the rules, and so does the first issue that does not say `continue`.
    return (value, issues) => {
      if (!test(value)) {
        issues.push({ code: 'invalid_type', expected, path: [] });
        return;
      }
      for (let i = 0; i < rules.length; i++) {
        const before = issues.length;
        rules[i]!(value as never, issues);
        if (issues.length !== before && aborted(issues, before)) return;
      }
    };
  }
  return (value, issues) => {
    const start = issues.length;
    if (!test(value)) issues.push({ code: 'invalid_type', expected, path: [] });
    runRules(value, issues, start, rules);
  };
}

const isObject = (value: unknown): value is Record<PropertyKey, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod's `isPlainObject`. */
function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (!isObject(value)) return false;
  const ctor = (value as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto = (ctor as { prototype?: unknown }).prototype;
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf');
}

export const str = (...rules: Rule[]): Check => typed((v) => typeof v === 'string', 'string', rules);
export const num = (...rules: Rule[]): Check => typed((v) => typeof v === 'number' && Number.isFinite(v), 'number', rules);
export const string = str();
export const number = num();
export const boolean: Check = typed((v) => typeof v === 'boolean', 'boolean', []);
export const unknown: Check = () => undefined;
// Function declarations, not constants, where a worker's checks may not use them: a module loaded by
// `import()` keeps every constant it declares, and a bundler drops only unused functions.
export function never(_value: unknown, issues: RawIssue[]): void {
  issues.push({ code: 'invalid_type', expected: 'never', path: [] });
}
export function nothing(value: unknown, issues: RawIssue[]): void {
  if (value !== undefined) issues.push({ code: 'invalid_type', expected: 'void', path: [] });
}

/** `z.int()`: a whole number within the safe range (the first rule of an int). */
export const int: Rule = (value: number, issues) => {
  if (!Number.isInteger(value)) {
    issues.push({ code: 'invalid_type', expected: 'int', format: 'safeint', continue: false, path: [] });
  } else if (!Number.isSafeInteger(value)) {
    issues.push(
      value > 0
        ? { code: 'too_big', maximum: Number.MAX_SAFE_INTEGER, origin: 'int', inclusive: true, continue: true, path: [] }
        : { code: 'too_small', minimum: Number.MIN_SAFE_INTEGER, origin: 'int', inclusive: true, continue: true, path: [] },
    );
  }
};

export const gte =
  (minimum: number): Rule =>
  (value: number, issues) => {
    if (!(value >= minimum)) issues.push({ code: 'too_small', origin: 'number', minimum, inclusive: true, continue: true, path: [] });
  };
export function gt(minimum: number): Rule {
  return (value: number, issues) => {
    if (!(value > minimum)) issues.push({ code: 'too_small', origin: 'number', minimum, inclusive: false, continue: true, path: [] });
  };
}
export const lte =
  (maximum: number): Rule =>
  (value: number, issues) => {
    if (!(value <= maximum)) issues.push({ code: 'too_big', origin: 'number', maximum, inclusive: true, continue: true, path: [] });
  };
export function lt(maximum: number): Rule {
  return (value: number, issues) => {
    if (!(value < maximum)) issues.push({ code: 'too_big', origin: 'number', maximum, inclusive: false, continue: true, path: [] });
  };
}

/** A pattern the document states (`format: 'regex'`), or the pattern of a string format (datetime, date). */
export const matches =
  (pattern: RegExp, format = 'regex'): Rule =>
  (value: string, issues) => {
    pattern.lastIndex = 0;
    if (!pattern.test(value)) issues.push({ code: 'invalid_format', origin: 'string', format, pattern: String(pattern), continue: true, path: [] });
  };

/** `z.url()`: what the runtime's URL parser accepts, after trimming. */
export const url: Rule = (value: string, issues) => {
  let ok: boolean;
  try {
    const input = value.trim();
    if (typeof URL.canParse === 'function') ok = URL.canParse(input);
    else {
      new URL(input);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) issues.push({ code: 'invalid_format', format: 'url', continue: true, path: [] });
};

/** Strings count code points, as zod does. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

function lengthOrigin(value: unknown) {
  return Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : 'unknown';
}

export function minLength(minimum: number): Rule {
  return Object.assign(
    (value: { length: number }, issues: RawIssue[]) => {
      const units = value.length;
      const length = typeof value === 'string' && units >= minimum && units < minimum * 2 ? codePoints(value) : units;
      if (!(length >= minimum)) issues.push({ code: 'too_small', origin: lengthOrigin(value), minimum, inclusive: true, continue: true, path: [] });
    },
    { w: true },
  );
}

export function maxLength(maximum: number): Rule {
  return Object.assign(
    (value: { length: number }, issues: RawIssue[]) => {
      const units = value.length;
      const length = typeof value === 'string' && units > maximum ? codePoints(value) : units;
      if (!(length <= maximum)) issues.push({ code: 'too_big', origin: lengthOrigin(value), maximum, inclusive: true, continue: true, path: [] });
    },
    { w: true, max: maximum },
  );
}

/** The other-values branch of an open union: a value the known variants own is theirs to check. */
export function notOneOf(known: readonly unknown[]): Rule {
  return (value: unknown, issues) => {
    if (known.includes(value)) issues.push({ code: 'custom', params: { knownDiscriminator: true }, continue: false, path: [] });
  };
}

export const literal =
  (values: readonly unknown[]): Check =>
  (value, issues) => {
    if (!values.includes(value)) issues.push({ code: 'invalid_value', values, path: [] });
  };

/** The check a wrapper that passes `undefined` runs on anything else (the innermost, through wrappers of the same kind). */
const skipping = (check: Check): Check => check.u ?? check;

export const optional = (check: Check): Check => {
  const u = skipping(check);
  return Object.assign(
    (value: unknown, issues: RawIssue[]) => {
      if (value !== undefined) u(value, issues);
    },
    { f: 3, u },
  );
};

/** A field with a default (`z._default`): absent or undefined passes, the service fills it in. */
export const defaulted = (check: Check): Check => {
  const u = skipping(check);
  return Object.assign(
    (value: unknown, issues: RawIssue[]) => {
      if (value !== undefined) u(value, issues);
    },
    { f: 1, u },
  );
};

export const nullable = (check: Check): Check =>
  Object.assign(
    (value: unknown, issues: RawIssue[]) => {
      if (value !== null) check(value, issues);
    },
    { f: check.f ?? 0 },
  );

export const array = (element: Check, ...rules: Rule[]): Check => {
  // zod refuses an array over its maximum before looking at a single item (the leading length rules).
  const leading = rules.slice(0, (rules.findIndex((r) => !r.w) + 1 || rules.length + 1) - 1);
  const caps = leading.filter((r) => r.max !== undefined && r.max >= 0);
  const cap = Math.min(...caps.map((r) => r.max!));
  return (value, issues) => {
    const start = issues.length;
    if (Array.isArray(value) && value.length > cap) {
      const rule = caps.find((r) => value.length > r.max!)!;
      rule(value as never, issues);
      issues[start]!.continue = false;
      return;
    }
    checkArray(element, rules, value, issues, start);
  };
};

function checkArray(element: Check, rules: readonly Rule[], value: unknown, issues: RawIssue[], start: number): void {
  if (!Array.isArray(value)) issues.push({ code: 'invalid_type', expected: 'array', path: [] });
  else {
    for (let i = 0; i < value.length; i++) {
      const before = issues.length;
      element(value[i], issues);
      if (issues.length !== before) prefix(issues, before, i);
    }
  }
  if (rules.length) runRules(value, issues, start, rules);
}

/** An object: each field checked (unknown fields pass, as the service adds them). */
export const object = (shape: Record<string, Check>): Check => {
  const keys = Object.keys(shape);
  const checks = keys.map((key) => shape[key]!);
  const flags = checks.map((check) => check.f ?? 0);
  // A field whose check passes `undefined` (optional, defaulted) runs the check inside it on a value that is there.
  const inner = checks.map((check) => check.u);
  return (value, issues) => {
    if (!isObject(value)) {
      issues.push({ code: 'invalid_type', expected: 'object', path: [] });
      return;
    }
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const f = flags[i]!;
      const present = key in value;
      if (!present && f === 3) continue;
      const before = issues.length;
      const field = value[key];
      const u = inner[i];
      if (u === undefined) checks[i]!(field, issues);
      else if (field !== undefined) u(field, issues);
      if (issues.length !== before) prefix(issues, before, key);
      else if (!present && !(f & 1)) {
        issues.push({ code: 'invalid_type', expected: 'nonoptional', path: [key] });
      }
    }
  };
};

/** `z.record(z.string(), value)`. */
export const record =
  (entry: Check): Check =>
  (value, issues) => {
    if (!isPlainObject(value)) {
      issues.push({ code: 'invalid_type', expected: 'record', path: [] });
      return;
    }
    for (const key of Reflect.ownKeys(value)) {
      if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
      if (typeof key !== 'string') {
        issues.push({ code: 'invalid_key', origin: 'record', path: [key] });
        continue;
      }
      const before = issues.length;
      entry(value[key], issues);
      if (issues.length !== before) prefix(issues, before, key);
    }
  };

/** zod's union: the first option that passes; else the one option that did not abort; else every option's issues. */
export const union = (options: readonly Check[]): Check => {
  const f = (options.some((o) => (o.f ?? 0) & 1) ? 1 : 0) | (options.some((o) => (o.f ?? 0) & 2) ? 2 : 0);
  if (options.length === 1) return options[0]!;
  return Object.assign(
    (value: unknown, issues: RawIssue[]) => {
      const results: RawIssue[][] = [];
      for (const option of options) {
        const own: RawIssue[] = [];
        option(value, own);
        if (own.length === 0) return;
        results.push(own);
      }
      const open = results.filter((r) => !aborted(r, 0));
      if (open.length === 1) issues.push(...open[0]!);
      else issues.push({ code: 'invalid_union', errors: results, path: [] });
    },
    { f },
  );
};

/** zod's discriminated union: the variant is looked up by the discriminator's value. */
export const variants = (discriminator: string, byValue: Map<unknown, Check | null>): Check => {
  const options = [...byValue.keys()].filter((value) => byValue.get(value) !== null);
  return (value, issues) => {
    if (!isObject(value)) {
      issues.push({ code: 'invalid_type', expected: 'object', path: [] });
      return;
    }
    const variant = byValue.get(value[discriminator]);
    if (variant) variant(value, issues);
    else issues.push({ code: 'invalid_union', errors: [], note: 'No matching discriminator', discriminator, options, path: [discriminator] });
  };
};

/** `z.intersection` of two objects: both sides' issues. */
export const both =
  (left: Check, right: Check): Check =>
  (value, issues) => {
    left(value, issues);
    right(value, issues);
  };
