/**
 * The msw adapter: request handlers that answer every `<any origin>/2025-10-13/...` request with
 * the sandbox, for tests that already intercept fetch with msw (`setupServer(...sandbox.handlers)`).
 * @module
 */
import { http, type HttpHandler } from 'msw';
import { API_VERSION } from './core';

/** msw handlers delegating to `handle` (the sandbox's Fetch-level handler). */
export function mswHandlers(handle: (request: Request) => Promise<Response>): HttpHandler[] {
  return [http.all(`*/${API_VERSION}/*`, ({ request }) => handle(request))];
}
