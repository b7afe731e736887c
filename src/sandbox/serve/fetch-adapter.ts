/**
 * The sandbox over Fetch objects: a `Request` in, its `Response` out (what `sandbox.fetch`, msw and
 * `sandbox.handle` run). The body is read whole, within its limit, and decoded as strict UTF-8.
 * @module
 */
import { bodyLimit, decodeUtf8, tooLarge, type SandboxRequest, type SandboxResponse } from './http';

/** A Fetch handler over `handle`. */
export function fetchAdapter(handle: (req: SandboxRequest) => Promise<SandboxResponse>): (request: Request) => Promise<Response> {
  return async (request) => {
    request.signal?.throwIfAborted();
    let body: string | undefined;
    let bodyError: string | undefined;
    if (request.body) {
      const bytes = new Uint8Array(await request.arrayBuffer());
      const limit = bodyLimit(request.method, request.url);
      if (bytes.length > limit) bodyError = tooLarge(limit);
      else if (bytes.length > 0) {
        body = decodeUtf8(bytes);
        if (body === undefined) bodyError = 'The request body is not valid UTF-8.';
      }
    }
    const req: SandboxRequest = { method: request.method, url: request.url, header: (name) => request.headers.get(name) ?? undefined, body, bodyError };
    const res = await handle(req);
    return new Response(res.body ?? null, { status: res.status, headers: res.headers });
  };
}
