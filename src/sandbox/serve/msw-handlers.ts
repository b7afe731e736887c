/**
 * What both builds of `crossborder-sdk/sandbox/msw` share: the handlers made with the msw each build
 * loads (ESM: `await import('msw')`, CommonJS: `require('msw')`), and the error a missing msw becomes.
 * @module
 */
import type { HttpHandler } from 'msw';
import { API_VERSION } from '../../core/version';

/** msw's namespace, as each build loads it. */
export type Msw = Pick<typeof import('msw'), 'http'>;

/** What a missing msw is reported as: the optional peer to install. */
export const MSW_MISSING_MESSAGE =
  'crossborder-sdk/sandbox/msw needs msw, an optional peer dependency of crossborder-sdk that is not installed: run `npm install --save-dev msw`';

/** msw as loaded, or why it could not be: a missing msw is named as the optional peer to install. */
export type LoadedMsw = { msw: Msw } | { error: unknown };

/** The outcome of loading msw with `load` (either build's loader), never throwing. */
export function settle(load: () => Msw): LoadedMsw;
export function settle(load: () => Promise<Msw>): Promise<LoadedMsw>;
export function settle(load: () => Msw | Promise<Msw>): LoadedMsw | Promise<LoadedMsw> {
  const missing = (cause: unknown): LoadedMsw => {
    const code = (cause as { code?: unknown } | null)?.code;
    return { error: code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' ? new Error(MSW_MISSING_MESSAGE, { cause }) : cause };
  };
  try {
    const msw = load();
    return msw instanceof Promise ? msw.then((m): LoadedMsw => ({ msw: m }), missing) : { msw };
  } catch (cause) {
    return missing(cause);
  }
}

/** The handlers: every `<any origin>/2025-10-13/...` request answered by `sandbox`. */
export function handlersOf(loaded: LoadedMsw, sandbox: { handle(request: Request): Promise<Response> }): HttpHandler[] {
  if ('error' in loaded) throw loaded.error;
  return [loaded.msw.http.all(`*/${API_VERSION}/*`, ({ request }) => sandbox.handle(request))];
}
