/**
 * The sandbox over Fetch objects: a `Request` in, its `Response` out (what `sandbox.fetch`, msw and
 * `sandbox.handle` run). The body is read whole, within its limit, and decoded as strict UTF-8.
 * @module
 */
import { bodyLimit, decodeUtf8, isMultipart, tooLarge, type SandboxRequest, type SandboxResponse } from './http';

/** A Fetch handler over `handle`. */
export function fetchAdapter(handle: (req: SandboxRequest) => Promise<SandboxResponse>): (request: Request) => Promise<Response> {
  return async (request) => {
    request.signal?.throwIfAborted();
    let body: string | undefined;
    let bodyError: string | undefined;
    let bytes: Uint8Array | undefined;
    if (request.body) {
      bytes = new Uint8Array(await request.arrayBuffer());
      const limit = bodyLimit(request.method, request.url);
      if (bytes.length > limit) {
        bodyError = tooLarge(limit);
        bytes = undefined;
      } else if (bytes.length > 0) {
        body = decodeUtf8(bytes);
        // A multipart body's file parts are bytes: read from `bytes`, not refused for not being text.
        if (body === undefined && !isMultipart(request.headers.get('content-type') ?? undefined)) bodyError = 'The request body is not valid UTF-8.';
      }
    }
    const req: SandboxRequest = { method: request.method, url: request.url, header: (name) => request.headers.get(name) ?? undefined, body, bodyError, bytes };
    const res = await handle(req);
    return new Response(res.body ?? null, { status: res.status, headers: res.headers });
  };
}
