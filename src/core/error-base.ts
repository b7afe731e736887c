/**
 * The base class of every error, and the webhook verification error: a module of their own, so that the webhook
 * code (loaded with the first delivery) does not take the whole hierarchy into its chunk.
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
