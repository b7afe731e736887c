/**
 * The CommonJS build of `crossborder-sdk/sandbox/msw` (msw.ts is the ES module build and the types):
 * the same handlers, with msw loaded by `require` since a CommonJS module has no top-level await.
 * @module
 */
import type { HttpHandler } from 'msw';
import { handlersOf, settle, type Msw } from './serve/msw-handlers';

export { MSW_MISSING_MESSAGE } from './serve/msw-handlers';

const loaded = settle(() => require('msw') as Msw);

/** See msw.ts. */
export function sandboxHandlers(sandbox: { handle(request: Request): Promise<Response> }): HttpHandler[] {
  return handlersOf(loaded, sandbox);
}
