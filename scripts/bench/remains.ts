/**
 * The closing section of docs/benchmarks.md: which costs remain against the targets and why they
 * cannot go. Written by hand (it is analysis, not a measurement); the figures it leans on are the
 * tables `npm run bench` writes above it.
 */
export const REMAINS = `## What remains, and why

- **Per request (targets: GET ≤ 1.10×, POST ≤ 1.25×).** The profile table above shows the SDK's own
  code per call; none of the remaining pieces can be removed without removing a feature the SDK
  exists for:
  - *The per-attempt timeout.* Every attempt has a timer and an \`AbortSignal\` so that a stalled
    connection cannot hang a payment for ever; undici then registers listeners on the signal and a
    finalizer per request. The middle column of the per-request table measures exactly this on raw
    \`fetch\` (\`AbortSignal.timeout()\`): it alone uses a good part of the 10 % GET budget.
  - *openapi-fetch*, the transport this SDK is built on: it builds the URL, serializes the query,
    builds its \`Headers\` and reads the response (the "openapi-fetch" row). What could be taken out of
    it is: it gets a plain request class instead of a second \`Request\`, the answer already buffered
    instead of a second \`Response\`, no headers to merge, and a query serializer made once per client.
  - *Params validation* with the zod schemas generated from the document (the "zod" row): compiled
    once, on the first call, and run synchronously after that.
  - *The SDK's own pipeline* (the "src/" row): wire checks that the schemas cannot do (a path
    parameter that is not one URL segment, a header value with a newline), the Idempotency-Key, the
    attempt loop, error mapping and the page object; the garbage-collector row is the objects of all
    of the above.

  Together that is a fixed cost of roughly 60–90 µs per call (about 30 µs of the SDK's own code,
  the timeout, and the garbage those make), against a loopback request of
  roughly 350–450 µs on this machine: about 1.2–1.3× for a small GET. A POST carries more bytes, so
  the same fixed cost weighs a little less: it sits at its 1.25× target and crosses it either way
  with machine noise (1.14× to 1.29× in separate runs of the same code). Over a real network (milliseconds per request) the same microseconds are
  1–2 %. Removed in this issue: a \`Headers\` object handed to \`fetch\` (undici copies a plain object
  faster; measured 25–50 µs per request), the asynchronous step of a params check once schemas are
  loaded, the query serializer built per call, and earlier the second \`Request\` and \`Response\`.
- **Auto-pagination (target ≤ 1.05×).** Reading items with \`for await\` costs next to nothing over the
  same loop written as an async generator (compare those two rows), and memory stays flat. What
  remains is the per-request cost above, paid once per page of 100: about 70 µs over a raw page
  fetch of about 600 µs here, hence ≈ 1.1×.
- **Prefetch with CPU-bound work.** A busy loop per item holds the only thread: the page fetched
  ahead cannot be read or parsed until the loop yields, so only the time the client spends waiting
  for the server can overlap, and the raw loop waits for a small share of its time (the figure under
  the prefetch table): the client side of a page fetch is itself CPU work (HTTP, JSON). The gain is
  therefore within noise, and the target is not met for this kind of consumer. Yielding to the
  event loop after starting the fetch ahead (tried: one to five turns) changed nothing measurable.
  With I/O-bound work (the usual case: a database write per item) the fetch ahead proceeds between
  items and the SDK is faster than the raw loop.
- **Bundle (target 12 kB).** zod is the largest cost and is required: params are checked with the
  zod schemas generated from the document. zod/mini's runtime alone is about 10 kB min+gzip and the
  generated schemas a call can need (every request body and query of the API, with the component
  schemas they reference) about 4–5 kB; openapi-fetch is 2.7 kB. That is ≈ 17 kB before any SDK
  code, so 12 kB cannot be met with zod validation in the bundle. What was done: schemas are not
  built at import (the operation table names them and the client loads them on its first call),
  webhook verification is loaded by \`unwrap\`, response schemas only with \`validateResponses\`.
- **Cold import, ESM.** Part of the ESM figure is Node itself: the first ES module of a process
  starts Node's ESM loader (the "one-line module" row), which a CommonJS \`require\` does not pay.
  The SDK's own share is finding, reading and compiling its modules (a CPU profile of the import
  shows compilation as the largest part): the main entry is one file, two small chunks (the error
  classes, shared with \`crossborder-sdk/errors\`, and the webhook time helpers) and openapi-fetch;
  the generated schemas and webhook verification are chunks loaded on first use; the output is
  minified; sandbox and wallet are built apart and add nothing to it. Bundling openapi-fetch into
  the main file would save about 1 ms more (one package lookup and a smaller file); it stays a
  dependency, so it is updated and audited as one.
- **Type-check.** A consumer's \`tsc\` reads the published declarations: the query of each operation
  is now a named generated type, so the 2,450-line \`operations\` interface is no longer published
  (types 176 kB → 78 kB, 5,165 → 2,896 lines read). The figure now sits at the target and moves
  across it with machine noise (+0.05 s to +0.10 s in separate runs). \`tsc --generateTrace\` shows the
  rest: about 40 ms reading the declarations and about 20 ms checking the first \`new Crossborder()\`
  (the client type with its resources) and the first union-typed body.
- **Wallet entry.** @noble/curves (≈ 30 kB minified) is there for one computation WebCrypto lacks:
  the public point of a decrypted session key, needed to import it as a non-extractable key.`;
