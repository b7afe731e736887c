/**
 * Reading what the service answered: the body (parsed once, by {@link parseBody}), non-2xx answers as
 * typed errors, a 2xx without its resource, list envelopes (202 wallet challenges: ./signed-retry). Every text built
 * from an answer goes through a {@link Scrub} first: a gateway that echoes the request must not put
 * the client's credentials into an error message.
 * @module
 */
import type { WithResponse } from './api-promise';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './errors';
import { maskBody } from './logger';
import { MASK as REDACTED, requestIdOf, type Scrub } from './scrub';

export { base64Forms, createScrub, requestIdOf, type Scrub } from './scrub';
import type { ListEnvelope } from './pagination';
import type { OperationPlan } from './plan';
import { parseRetryAfter, unknownOutcomeHint } from './retry';

/**
 * The field errors of a 400 answer (production's `details.errors[]`: `{ field, message?, constraint? }`) as
 * {@link ValidationIssue}s; `rule` is `invalid_value` for an enum constraint, `invalid_format` for a pattern
 * or format, else `invalid`. Entries without a `field` string are skipped: a malformed detail never hides
 * the service's error.
 */
export function fieldErrorIssues(details: Record<string, unknown> | undefined): ValidationIssue[] {
  const errors = details?.errors;
  const issues: ValidationIssue[] = [];
  for (const entry of Array.isArray(errors) ? errors : []) {
    const { field, message, constraint: c = {} } = (entry ?? {}) as { field?: unknown; message?: unknown; constraint?: Record<string, unknown> };
    if (typeof field !== 'string') continue;
    const rule = c.enum ? 'invalid_value' : c.pattern || c.format ? 'invalid_format' : 'invalid';
    issues.push({ path: field, rule, message: typeof message === 'string' && message ? message : `refused: ${JSON.stringify(c)}` });
  }
  return issues;
}

/** What reading an answer needs of its operation's plan: its label, and what it decides of an unknown outcome. */
export type AnswerPlan = Pick<OperationPlan, 'label' | 'op' | 'write' | 'outcomeUnknownAfter'>;

/** An answer's body, parsed once. */
export interface Body {
  /**
   * The parsed JSON; `undefined` for a 204 or an empty body; for a non-2xx answer whose text is not
   * JSON (a gateway's HTML page), that text.
   */
  data: unknown;
  /** Set when a 2xx answer's text is not JSON (a proxy's page): the call cannot give its result. */
  notJson: Error | undefined;
}

const EMPTY: Body = { data: undefined, notJson: undefined };

/** Parses an answer's text once, as openapi-fetch reads a `parseAs: 'json'` answer (a 204 has no body). */
export function parseBody(status: number, text: string): Body {
  if (status === 204 || text === '') return status >= 200 && status < 300 ? EMPTY : { data: text, notJson: undefined };
  try {
    return { data: JSON.parse(text), notJson: undefined };
  } catch (error) {
    if (status >= 200 && status < 300) return { data: undefined, notJson: error instanceof Error ? error : new Error(String(error)) };
    return { data: text, notJson: undefined };
  }
}

/** What came back from the transport for one leg: the final answer, its body, and the attempts made. */
export interface Exchange extends Body {
  response: Response;
  text: string;
  attempts: number;
}

/**
 * The result of one leg, or its error: a non-2xx answer becomes the error of its status, a 2xx whose
 * body is not JSON or lacks the resource an {@link APIConnectionError} (its outcome unknown for a write).
 * Only a DELETE answers 204 (revocations); the escape hatch (no documented answer) also takes a 202 or
 * 204 without body, or a JSON null. Every documented answer is an object (a resource, an envelope).
 */
export function readAnswer(plan: AnswerPlan, exchange: Exchange, idempotencyKey: string | undefined, scrub: Scrub): WithResponse<unknown> {
  const { response, data, notJson } = exchange;
  const { label: operation, op } = plan;
  const { status } = response;
  const requestId = requestIdOf(response, scrub);
  if (notJson) {
    const outcomeUnknown = plan.outcomeUnknownAfter(status);
    throw new APIConnectionError(`${operation} answered ${status} with a body that is not JSON` + (outcomeUnknown ? unknownOutcomeHint(idempotencyKey) : ''), {
      outcomeUnknown,
      idempotencyKey,
      operation,
      cause: Object.assign(new Error(scrub(notJson.message)), { name: notJson.name }),
      status,
      requestId,
    });
  }
  if (!response.ok) throw toAPIError(response, data, plan, idempotencyKey, scrub);
  const documented = op.resource === true || op.response !== undefined;
  const missing = data === undefined || data === null || (documented && (typeof data !== 'object' || Array.isArray(data)));
  const expected = (status === 204 && (op.method === 'DELETE' || !documented)) || (!documented && (status === 202 || data === null));
  if (missing && !expected) {
    const outcomeUnknown = plan.outcomeUnknownAfter(status);
    throw new APIConnectionError(`${operation} answered ${status} without the resource` + (outcomeUnknown ? unknownOutcomeHint(idempotencyKey) : ''), {
      outcomeUnknown,
      idempotencyKey,
      operation,
      status,
      requestId,
    });
  }
  return { data, response, idempotencyKey, requestId };
}

/** The error class of each status with one of its own (400 takes its field errors; any other 5xx is an InternalServerError). */
const BY_STATUS: Record<number, typeof APIError | undefined> = {
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** Maps a non-2xx answer to the error class of its status, whatever its body. */
export function toAPIError(response: Response, body: unknown, plan: AnswerPlan, idempotencyKey: string | undefined, scrub: Scrub): APIError {
  const operation = plan.label;
  const parsed = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const text = typeof body === 'string' ? body : '';
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = scrub(value);
  });
  // Production's 429 body names its message `reason`.
  const bodyMessage = typeof parsed.message === 'string' ? parsed.message : typeof parsed.reason === 'string' ? parsed.reason : undefined;
  const rawMessage =
    bodyMessage !== undefined
      ? bodyMessage
      : text
        ? `${response.statusText || 'error'}: ${text
            .replace(/<[^>]*>/g, ' ')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 200)}`
        : response.statusText || undefined;
  const redirect = response.status >= 300 && response.status < 400;
  const location = response.headers.get('location');
  const init = {
    status: response.status,
    code: typeof parsed.code === 'string' ? scrub(parsed.code) : redirect ? 'REDIRECT' : undefined,
    message: redirect
      ? `the service answered a redirect${location ? ` to ${scrub(location)}` : ''}; API calls do not follow redirects (check baseUrl)`
      : rawMessage === undefined
        ? undefined
        : scrub(rawMessage),
    // Masked like the debug log: an error is logged and shipped as often as a log line.
    details:
      parsed.details !== null && typeof parsed.details === 'object'
        ? (maskBody(scrub(parsed.details as Record<string, unknown>)) as Record<string, unknown>)
        : undefined,
    requestId: requestIdOf(response, scrub),
    headers,
    idempotencyKey,
    operation,
    // The plan decides: a write that failed inside the service, or a 303 to the result of one it processed.
    outcomeUnknown: plan.outcomeUnknownAfter(response.status),
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
  };
  if (response.status === 400) return new BadRequestError({ ...init, issues: fieldErrorIssues(init.details) });
  const ErrorOfStatus = BY_STATUS[response.status] ?? (response.status >= 500 ? InternalServerError : APIError);
  return new ErrorOfStatus(init);
}

/**
 * Reads a list envelope. Only an answer that cannot be a list at all (no `data` array) is an error;
 * a missing `hasMore` or `totalCount` is worked out and reported through `report` (the service may
 * change, a list call must not fail for it).
 */
export function readEnvelope<T>(
  data: unknown,
  response: Response,
  operation: string,
  paginated: boolean | undefined,
  report: (issues: ValidationIssue[]) => void,
  scrub: Scrub,
): ListEnvelope<T> {
  const e = data as { data?: unknown; hasMore?: unknown; nextCursor?: unknown; totalCount?: unknown } | null;
  if (e === null || typeof e !== 'object' || !Array.isArray(e.data)) {
    throw new ResponseValidationError(
      [
        e === null || typeof e !== 'object'
          ? { path: '', rule: 'invalid_type', message: 'expected object' }
          : { path: 'data', rule: 'invalid_type', message: 'expected array' },
      ],
      { status: response.status, operation, requestId: requestIdOf(response, scrub) },
    );
  }
  const issues: ValidationIssue[] = [];
  const cursor = typeof e.nextCursor === 'string' && e.nextCursor !== '' ? e.nextCursor : undefined;
  if (e.nextCursor !== undefined && e.nextCursor !== null && typeof e.nextCursor !== 'string') {
    issues.push({ path: 'nextCursor', rule: 'invalid_type', message: 'expected string' });
  }
  let hasMore: boolean;
  if (typeof e.hasMore === 'boolean') hasMore = e.hasMore;
  else {
    hasMore = cursor !== undefined;
    if (paginated) issues.push({ path: 'hasMore', rule: 'invalid_type', message: `expected boolean (taken as ${hasMore})` });
  }
  if (issues.length) report(issues);
  const envelope = e as ListEnvelope<T>;
  envelope.hasMore = hasMore;
  envelope.nextCursor = cursor;
  if (typeof envelope.totalCount !== 'number') envelope.totalCount = envelope.data.length;
  return envelope;
}
