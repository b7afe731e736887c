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
import { API_VERSION } from './core';

type Msw = typeof import('msw');

/** What a missing msw is reported as: the optional peer to install. */
export const MSW_MISSING_MESSAGE =
  'crossborder-sdk/sandbox/msw needs msw, an optional peer dependency of crossborder-sdk that is not installed: run `npm install --save-dev msw`';

let msw: Msw | undefined;

/**
 * msw, loaded on first use rather than imported, so that a missing msw is reported as the optional
 * peer to install instead of a bare "Cannot find package 'msw'". msw marks its handlers by a `kind`
 * field, not by class, so handlers from this copy work with the user's `setupServer`.
 */
function loadMsw(): Msw {
  if (msw) return msw;
  let load: ((id: string) => unknown) | undefined;
  // The CommonJS build: this module's own require (`module.require`, not `require`, which a bundler
  // rewrites into a shim that throws in an ES module).
  if (typeof module === 'object' && module !== null && typeof module.require === 'function') {
    load = (id) => module.require(id);
  } else {
    // The ES module build, in Node: a require rooted at this file, found without importing node:module.
    const nodeModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:module') as
      | typeof import('node:module')
      | undefined;
    load = nodeModule?.createRequire(import.meta.url);
  }
  if (!load) throw new Error(`${MSW_MISSING_MESSAGE} (or this runtime cannot load it synchronously: Node ≥ 20.16 can)`);
  try {
    msw = load('msw') as Msw;
  } catch (cause) {
    const code = (cause as { code?: unknown } | null)?.code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') throw new Error(MSW_MISSING_MESSAGE, { cause });
    throw cause;
  }
  return msw;
}

/**
 * msw handlers that answer every `<any origin>/2025-10-13/...` request with `sandbox` (anything with
 * the sandbox's Fetch-level `handle`, such as `createSandbox()`).
 * @throws Error naming the optional peer to install (`npm install --save-dev msw`) when msw is not installed.
 */
export function sandboxHandlers(sandbox: { handle(request: Request): Promise<Response> }): HttpHandler[] {
  const { http } = loadMsw();
  return [http.all(`*/${API_VERSION}/*`, ({ request }) => sandbox.handle(request))];
}
