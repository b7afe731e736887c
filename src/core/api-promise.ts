/**
 * The value every method returns: awaitable for the result, with `.withResponse()` for the raw
 * `Response`, the Idempotency-Key used and the request id.
 * @module
 */

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

/** What the caller does with a leg's result in the same step (a write's client looks for a wallet challenge). */
export type AfterLeg = (result: WithResponse<unknown>) => WithResponse<unknown> | Promise<WithResponse<unknown>>;

/** The resolve function of the APIPromise being made: its executor is one function for every call, not a closure per call. */
let made: ((value: never) => void) | undefined;
function keepResolve(resolve: (value: never) => void): void {
  made = resolve;
}

/**
 * The result of a call's answer. A `then` on the call's own promise, not an async function around an
 * `await`: one reaction instead of an async frame, and V8's async stack traces follow a native `then`
 * chain as they follow an `await` (test/package/error-stacks.test.ts).
 */
const dataOf = <T>(result: WithResponse<T>): T => result.data;

/**
 * Awaitable result of an SDK call; `.withResponse()` adds the response and keys.
 *
 * A native `Promise` (a subclass), settled through native promise links only: V8's async stack
 * traces follow those, so an error a call rejects with keeps the caller's frame
 * (`at async yourFunction (app.ts:12)`), which a thenable hides. Derived promises (`then`, `catch`,
 * `finally`) are plain `Promise`s.
 */
export class APIPromise<T> extends Promise<T> {
  /** @internal */
  declare protected readonly raw: Promise<WithResponse<T>>;
  /** Resolves this promise; dropped once the result is asked for (`then`, `await`, `catch`, `finally`). */
  #resolve: ((value: unknown) => void) | undefined;

  /** Derived promises are plain promises (they are not calls: no `withResponse()`). */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** @internal */
  constructor(raw: Promise<WithResponse<T>>) {
    super(keepResolve);
    this.#resolve = made as (value: unknown) => void;
    made = undefined;
    this.raw = raw;
  }

  /** Resolves with the result plus the response, Idempotency-Key and request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.raw;
  }

  /**
   * Connects the result on first use only: a call whose caller reads only `withResponse()` must not
   * leave this promise rejected with no handler (Node would report an unhandled rejection).
   */
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,

    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    const resolve = this.#resolve;
    if (resolve !== undefined) {
      this.#resolve = undefined;
      resolve(this.raw.then(dataOf));
    }
    return super.then(onfulfilled, onrejected);
  }

  override get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
