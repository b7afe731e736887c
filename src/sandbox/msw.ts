/**
 * `crossborder-sdk/sandbox/msw`: the sandbox as msw request handlers, for tests that already
 * intercept `fetch` with msw. The only entry that needs msw (an optional peer dependency of the
 * package, `npm install --save-dev msw`): `crossborder-sdk/sandbox` itself imports nothing from it.
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
import type { HttpHandler } from 'msw';
import { handlersOf, settle, type Msw } from './serve/msw-handlers';

export { MSW_MISSING_MESSAGE } from './serve/msw-handlers';

// Loaded when this module loads, not imported statically, so that a missing msw is reported as the
// optional peer to install (on first use) instead of a bare "Cannot find package 'msw'"; a bundler
// still sees the import and bundles msw. The CommonJS build (msw-cjs.ts) uses `require`.
const loaded = await settle(() => import('msw'));

/**
 * msw handlers that answer every `<any origin>/2025-10-13/...` request with `sandbox` (anything with
 * the sandbox's Fetch-level `handle`, such as `createSandbox()`).
 * @throws Error naming the optional peer to install (`npm install --save-dev msw`) when msw is not installed.
 */
export function sandboxHandlers(sandbox: { handle(request: Request): Promise<Response> }): HttpHandler[] {
  return handlersOf(loaded, sandbox);
}
