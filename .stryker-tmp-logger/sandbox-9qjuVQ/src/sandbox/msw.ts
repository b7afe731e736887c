/**
 * `crossborder-sdk/sandbox/msw`: the sandbox as msw request handlers, for tests that already
 * intercept `fetch` with msw. The only entry that needs msw (an optional peer dependency of the
 * package): `crossborder-sdk/sandbox` itself imports nothing from it.
 *
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createSandbox } from 'crossborder-sdk/sandbox';
 * import { sandboxHandlers } from 'crossborder-sdk/sandbox/msw';
 *
 * const server = setupServer(...sandboxHandlers(createSandbox()));
 * ```
 * @module crossborder-sdk/sandbox/msw
 */
// @ts-nocheck

import { http, type HttpHandler } from 'msw';
import { API_VERSION } from './core';

/**
 * msw handlers that answer every `<any origin>/2025-10-13/...` request with `sandbox` (anything with
 * the sandbox's Fetch-level `handle`, such as `createSandbox()`).
 */
export function sandboxHandlers(sandbox: { handle(request: Request): Promise<Response> }): HttpHandler[] {
  return [http.all(`*/${API_VERSION}/*`, ({ request }) => sandbox.handle(request))];
}
