/**
 * Errors the sandbox answers with. Route code throws {@link SandboxError}; the core turns it into the
 * error body of decisions.md: `{ status, code, message, details? }`.
 * @module
 */

/** A non-2xx answer, thrown from route code and rendered by the core. */
export class SandboxError extends Error {
  override name = 'SandboxError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** Extra response headers (e.g. `Retry-After`, `Allow`). */
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /** The JSON error body. */
  toBody(): { status: number; code: string; message: string; details?: Record<string, unknown> } {
    return this.details === undefined
      ? { status: this.status, code: this.code, message: this.message }
      : { status: this.status, code: this.code, message: this.message, details: this.details };
  }
}

/** 400 INVALID_INPUT naming the offending field. */
export function invalidInput(field: string, message: string, details: Record<string, unknown> = {}): SandboxError {
  return new SandboxError(400, 'INVALID_INPUT', message, { field, ...details });
}

/** 404 `<RESOURCE>_NOT_FOUND`. */
export function notFound(code: string, what: string, id: string): SandboxError {
  return new SandboxError(404, code, `${what} ${id} was not found.`, { id });
}

/** 409 INVALID_STATE_TRANSITION. */
export function invalidTransition(what: string, id: string, from: string, action: string): SandboxError {
  return new SandboxError(409, 'INVALID_STATE_TRANSITION', `${what} ${id} is ${from}; it cannot be ${action}.`, { id, status: from });
}
