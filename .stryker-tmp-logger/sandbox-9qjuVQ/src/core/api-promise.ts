/**
 * The value every method returns: awaitable for the result, with `.withResponse()` for the raw
 * `Response`, the Idempotency-Key used and the request id.
 * @module
 */
// @ts-nocheck


/** A result together with what came with it on the wire. */
export interface WithResponse<T> {
  /** The parsed result (what awaiting the promise gives). */
  data: T;
  /** The final HTTP response (its body already read). */
  response: Response;
  /** The Idempotency-Key sent, when the operation honours one: keep it to reconcile after a crash. */
  idempotencyKey: string | undefined;
  /** `X-Request-Id` of the response. */
  requestId: string | undefined;
}

/** Awaitable result of an SDK call; `.withResponse()` adds the response and keys. */
export class APIPromise<T> implements PromiseLike<T> {
  /** @internal */
  protected readonly raw: Promise<WithResponse<T>>;
  private parsed: Promise<T> | undefined;

  /** @internal */
  constructor(raw: Promise<WithResponse<T>>) {
    this.raw = raw;
  }

  /** Resolves with the result plus the response, Idempotency-Key and request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.raw;
  }

  private result(): Promise<T> {
    return (this.parsed ??= this.raw.then((r) => r.data));
  }

  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- same as Promise
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // The usual `await`: one promise, not a parsed one and then another.
    if (this.parsed === undefined && onfulfilled) return this.raw.then((r) => onfulfilled(r.data), onrejected);
    return this.result().then(onfulfilled, onrejected);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- same as Promise
  catch<R = never>(onrejected?: ((reason: any) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.result().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.result().finally(onfinally);
  }

  get [Symbol.toStringTag]() {
    return 'APIPromise';
  }
}
