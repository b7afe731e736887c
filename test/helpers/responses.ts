/** Fetch answers for stubbed `fetch` functions. */

/** A JSON answer: `body` serialized (none when undefined), `content-type: application/json` and `headers`. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
