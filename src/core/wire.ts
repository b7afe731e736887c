/**
 * What the schemas cannot see but the wire refuses, checked before anything is sent: path segments,
 * strings that cannot be encoded, header names and values. A refusal here is a `ValidationError`
 * (nothing left the process), never a connection error with an unknown outcome.
 * @module
 */
import type { ValidationIssue } from './errors';

/** An unpaired surrogate: such a string cannot be encoded as UTF-8 (nor percent-encoded). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Header values: Latin-1 without control characters (a newline would split the header). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Header names: an HTTP token (RFC 9110). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) and `expect`: the HTTP layer owns them, and undici refuses
 * them locally, which would otherwise look like a request that may have been sent.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect']);

/** True when `value` can be sent as a header value. */
export function isHeaderValue(value: unknown): value is string {
  return typeof value === 'string' && HEADER_VALUE.test(value);
}

/** Problems of one header bag (`path` prefixes the field named in each issue). */
export function headerProblems(headers: Record<string, unknown> | undefined, path: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (headers === undefined || headers === null) return issues;
  if (typeof headers !== 'object') return [{ path, rule: 'invalid_type', message: 'expected an object of header names to values' }];
  for (const name in headers) {
    const value = headers[name];
    if (!HEADER_NAME.test(name)) issues.push({ path: `${path}.${name}`, rule: 'invalid_header', message: 'is not a valid header name' });
    else if (HOP_BY_HOP.has(name.toLowerCase())) {
      issues.push({ path: `${path}.${name}`, rule: 'invalid_header', message: 'is a hop-by-hop header the HTTP layer manages; it cannot be set per request' });
    } else if (value !== undefined && !isHeaderValue(value)) {
      issues.push({ path: `${path}.${name}`, rule: 'invalid_header', message: 'must be a string of Latin-1 characters without line breaks' });
    }
  }
  return issues;
}

/**
 * Path parameters that are not one URL segment, strings that are not well-formed UTF-16, header
 * values with a newline or beyond Latin-1, header names that are not tokens.
 */
export function wireProblems(
  path: Record<string, unknown> | undefined,
  query: Record<string, unknown> | undefined,
  headers: [path: string, value: unknown][],
  headerBags: [path: string, bag: Record<string, unknown> | undefined][],
  issues: ValidationIssue[] = [],
): ValidationIssue[] {
  if (path) {
    for (const name in path) {
      const value = path[name];
      if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
        issues.push({ path: name, rule: 'invalid_segment', message: 'must be a non-empty string other than "." or ".."' });
      } else if (LONE_SURROGATE.test(value)) {
        issues.push({ path: name, rule: 'invalid_string', message: 'contains an unpaired surrogate' });
      }
    }
  }
  if (query) {
    for (const name in query) {
      const value = query[name];
      if (typeof value === 'string' && LONE_SURROGATE.test(value))
        issues.push({ path: name, rule: 'invalid_string', message: 'contains an unpaired surrogate' });
    }
  }
  for (const [name, value] of headers) {
    if (value !== undefined && !isHeaderValue(value)) {
      issues.push({ path: name, rule: 'invalid_header', message: 'must be a string of Latin-1 characters without line breaks' });
    }
  }
  for (const [name, bag] of headerBags) issues.push(...headerProblems(bag, name));
  return issues;
}

/** Dates become ISO strings (openapi-fetch drops them), undefined entries go; a query without either is used as it is. */
export function normalizeQuery(query: object): Record<string, unknown> {
  let plain = true;
  for (const key in query) {
    const value = (query as Record<string, unknown>)[key];
    if (value === undefined || value instanceof Date) {
      plain = false;
      break;
    }
  }
  if (plain && Object.getPrototypeOf(query) === Object.prototype) return query as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    out[key] = value instanceof Date ? (Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()) : value;
  }
  return out;
}

/** Copies headers into `target` under lower-case names (undefined values are skipped). */
export function mergeHeaders(target: Record<string, string>, source: Record<string, string | undefined> | undefined | null): Record<string, string> {
  if (source) {
    for (const name in source) {
      const value = source[name];
      if (value !== undefined) target[name.toLowerCase()] = value;
    }
  }
  return target;
}

/** The value of a header in a plain bag, whatever the case of its name. */
export function headerIn(bag: Record<string, unknown> | undefined | null, name: string): unknown {
  if (!bag) return undefined;
  for (const key in bag) if (key.toLowerCase() === name) return bag[key];
  return undefined;
}
