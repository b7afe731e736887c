/**
 * A call's own options, checked before anything is sent: the Idempotency-Key rule, the signed
 * second leg, retries and timeout overrides, extra headers. A call without options skips all of it.
 * @module
 */
import type { ValidationIssue } from './errors';
import type { ListOptions, RequestOptions, SignedRequestOptions } from './options';
import { retriesProblem, timeoutProblem } from './settings';
import { headerIn } from './wire';

/**
 * The options `CrossborderCore.call` and `CrossborderCore.list` take: a request's own options (retries,
 * timeout, signal, headers, Idempotency-Key), a signed operation's (`signer`, or a relayed `signature` and
 * `requestId`) and a list's.
 */
export type CallOptions = RequestOptions & SignedRequestOptions & ListOptions;

/** What the options decide for one call. */
export interface CallSettings {
  /** The caller's Idempotency-Key (option or header), when given. */
  userKey: string | undefined;
  maxRetries: number;
  timeout: number;
  /** The headers option without `Idempotency-Key` (which is the idempotencyKey option). */
  headers: Record<string, string> | undefined;
}

/** True when the object has no own enumerable key (the common `{}` or a missing options argument). */
export function isEmpty(options: object): boolean {
  for (const _ in options) return false;
  return true;
}

/** Reads a call's options, pushing what is wrong with them onto `issues` (in the order the caller reads them). */
export function readCallOptions(
  options: CallOptions,
  operation: string,
  honoursKey: boolean | undefined,
  write: boolean,
  defaults: { maxRetries: number; timeout: number },
  issues: ValidationIssue[],
): CallSettings {
  const userKey = userIdempotencyKey(options, operation, honoursKey, issues);
  if (options.idempotencyKey !== undefined && !honoursKey) {
    issues.push({ path: 'options.idempotencyKey', rule: 'unsupported', message: `${operation} does not honour Idempotency-Key` });
  } else if (userKey !== undefined && (typeof userKey !== 'string' || userKey.length === 0 || userKey.length > 255)) {
    issues.push({ path: 'options.idempotencyKey', rule: 'invalid_format', message: 'must be a non-empty string of at most 255 characters' });
  }
  if ((options.signature === undefined) !== (options.requestId === undefined)) {
    issues.push({
      path: options.signature === undefined ? 'options.signature' : 'options.requestId',
      rule: 'required',
      message: 'signature and requestId go together (the second leg of a signed call)',
    });
  }
  if ((options.signature !== undefined || options.signer !== undefined) && !write) {
    issues.push({ path: 'options.signer', rule: 'unsupported', message: `${operation} is a read: reads are never signed` });
  }
  if (options.signer !== undefined && typeof options.signer !== 'function') {
    issues.push({ path: 'options.signer', rule: 'invalid_type', message: 'expected a function (challenge) => Promise<string>' });
  }
  let maxRetries = defaults.maxRetries;
  if (options.maxRetries !== undefined) {
    const problem = retriesProblem(options.maxRetries);
    if (problem) issues.push({ path: 'options.maxRetries', rule: 'invalid_value', message: problem });
    maxRetries = problem ? 0 : options.maxRetries;
  }
  let timeout = defaults.timeout;
  if (options.timeout !== undefined) {
    const problem = timeoutProblem(options.timeout);
    if (problem) issues.push({ path: 'options.timeout', rule: 'invalid_value', message: problem });
    timeout = problem ? 1 : options.timeout;
  }
  return { userKey: userKey as string | undefined, maxRetries, timeout, headers: withoutKey(options.headers) };
}

/**
 * The caller's Idempotency-Key. `Idempotency-Key` among the headers is the idempotencyKey option,
 * by one rule: never replaced, never smuggled (refused where the operation does not honour one,
 * and when given twice with different values).
 */
export function userIdempotencyKey(options: CallOptions, operation: string, honoursKey: boolean | undefined, issues: ValidationIssue[]): unknown {
  let headerKey: unknown;
  for (const name in options.headers ?? {}) {
    if (name.toLowerCase() !== 'idempotency-key') continue;
    const value = options.headers![name];
    if (headerKey !== undefined && value !== headerKey) {
      issues.push({ path: `options.headers.${name}`, rule: 'conflict', message: 'Idempotency-Key is given twice with different values: give the key once' });
    }
    headerKey ??= value;
  }
  if (headerKey === undefined) return options.idempotencyKey;
  if (!honoursKey) {
    issues.push({
      path: 'options.headers.Idempotency-Key',
      rule: 'unsupported',
      message: `${operation} does not honour Idempotency-Key (the service would ignore it)`,
    });
  } else if (options.idempotencyKey !== undefined && options.idempotencyKey !== headerKey) {
    issues.push({ path: 'options.headers.Idempotency-Key', rule: 'conflict', message: 'differs from options.idempotencyKey: give the key once' });
  }
  return options.idempotencyKey ?? headerKey;
}

/** The headers option without `Idempotency-Key` (which is the idempotencyKey option). */
export function withoutKey(headers: Record<string, string> | undefined | null): Record<string, string> | undefined {
  if (!headers || headerIn(headers, 'idempotency-key') === undefined) return headers ?? undefined;
  const out: Record<string, string> = {};
  for (const name in headers) if (name.toLowerCase() !== 'idempotency-key') out[name] = headers[name]!;
  return out;
}
