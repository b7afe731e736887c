/**
 * The base class of every error, the webhook verification error and the validation error: a module of their own,
 * so that the webhook code (loaded with the first delivery) and the multipart encoder (loaded by its operation's
 * row) do not take the whole hierarchy into their chunks. A bundle without splitting wraps every module a lazily
 * loaded one imports in a lazy initializer: the encoder importing `errors.ts` would wrap the whole hierarchy in
 * every bundle of the core (the list-only worker, +72 B minified).
 * @module
 */
/** Base class of every error thrown by crossborder-sdk. */
export class CrossborderError extends Error {
  override name = 'CrossborderError';

  /**
   * `JSON.stringify(error)` gives `name`, `message` and the error's fields (`status`, `code`,
   * `requestId`, `outcomeUnknown`, …): what a structured log needs. Never a secret: the SDK keeps
   * none on its errors.
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) if (value !== undefined && key !== 'name') out[key] = value;
    return out;
  }
}

/** A webhook delivery failed verification: the reason says which check failed. */
export class WebhookVerificationError extends CrossborderError {
  override name = 'WebhookVerificationError';
  /** Machine-readable reason. */
  declare readonly reason:
    | 'missing_header'
    | 'malformed_signature'
    | 'invalid_signature'
    | 'invalid_key'
    | 'missing_key'
    | 'invalid_body'
    | 'invalid_event'
    | 'stale_event'
    | 'future_event';
  constructor(reason: WebhookVerificationError['reason'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** Fields shared by errors that relate to one HTTP call. */
export interface RequestContext {
  /** The `Idempotency-Key` the SDK sent (or would have resent); retry with it to reconcile. */
  idempotencyKey?: string | undefined;
  /** HTTP method and path template of the operation, e.g. `POST /quotes`. */
  operation?: string | undefined;
}

/** One problem found in the parameters. */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `source.accountId`; empty for the whole value. */
  path: string;
  /** What rule failed, in words. */
  message: string;
  /** Machine-readable rule (e.g. `too_big`, `invalid_type`, `invalid_format`). */
  rule: string;
}

/**
 * Parameters were refused before anything was sent. `issues` names every field and rule;
 * the message names the first. No request was made.
 */
export class ValidationError extends CrossborderError {
  override name = 'ValidationError';
  declare readonly issues: ValidationIssue[];
  /** Path of the first failing field. */
  declare readonly field: string;
  constructor(issues: ValidationIssue[], what = 'params') {
    const first = issues[0] ?? { path: '', message: 'invalid', rule: 'invalid' };
    const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
    super(`Invalid ${what}: ${first.path || '(root)'}: ${first.message}${more}`);
    this.issues = issues;
    this.field = first.path;
  }
}
