/**
 * The escape hatch: any operation of the API by method and path, through the whole pipeline of a core.
 * @module
 */
import type { APIPromise } from './api-promise';
import type { CallInput, CrossborderCore, Operation } from './client';
import type { SignedRequestOptions } from './options';
import { signing } from './signing';
import { headerIn } from './wire';

/**
 * Calls any operation of the API by method and path over a core, for operations this SDK does not wrap yet
 * (`cb.request()` on the full client). Path parameters go in `input.path` (substituted into `{name}`
 * placeholders), then `query`, `body`; the call goes through the same pipeline as every operation (auth,
 * retries, typed errors, the 202 signed retry). An Idempotency-Key is sent only when you give one.
 *
 * ```ts
 * import { CrossborderCore } from 'crossborder-sdk';
 * import { request } from 'crossborder-sdk/functions';
 * const core = new CrossborderCore({ tokenId, clientSecret });
 * const config = await request(core, 'GET', '/config');
 * ```
 */
export function request<T = unknown>(
  core: CrossborderCore,
  method: Operation['method'],
  path: string,
  input: CallInput | null = {},
  options: SignedRequestOptions | null = {},
): APIPromise<T> {
  const op: Operation = {
    id: `${method} ${path}`,
    method,
    path,
    idempotent: options?.idempotencyKey !== undefined || headerIn(options?.headers, 'idempotency-key') !== undefined,
    signed: true,
    signing,
  };
  return core.call<T>(op, input ?? {}, options);
}
