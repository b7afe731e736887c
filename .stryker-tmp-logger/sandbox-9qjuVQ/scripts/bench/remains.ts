/**
 * The closing section of docs/benchmarks.md: which costs remain against the targets and why.
 * Written by hand (it is analysis, not a measurement); the figures it leans on are the tables
 * `npm run bench` writes above it, and the one-off measurements it names (with their commands).
 */
// @ts-nocheck

export const REMAINS = `## What remains, and why

Met: retained heap of auto-pagination (flat, within 2 MB of the raw loop) and the first call after
import (well within +20 ms). Not met: per-request wall time, 64 in flight, auto-pagination time,
cold import and bundle size. For each, the profile says which cost is left.

- **Per request (GET, POST ≤ 1.05×; 64 in flight ≥ 0.95×).** The issue keeps openapi-fetch as the
  request layer, and openapi-fetch alone, with the same timeout, is already past every one of these
  targets in the same runs: 1.15–1.20× raw on GET, 1.37–1.47× on POST, 0.85–0.88× at 64 in flight
  (the "openapi-fetch alone" columns). The SDK, with its checks, Idempotency-Key, retries, error
  mapping and pages, runs at openapi-fetch's level or below: SDK ÷ openapi-fetch 0.98–1.03× on GET,
  0.78–0.82× on POST (it hands openapi-fetch a plain request class, its own serialized body and an
  already buffered answer, so openapi-fetch builds no \`Request\`, \`Headers\` or second \`Response\`).
  What is left, per warm \`customers.list()\` (V8 profiler, 10,000 calls, functions by self time;
  a one-off run of the profile above with a per-function breakdown):
  - openapi-fetch's own call, about 12 µs: \`coreFetch\` (the options spread, the middleware loop,
    the URL from its serializer) 6 µs, \`request\` 4 µs, the query serializer 1.7 µs. It is the
    layer the SDK must keep; its \`getResponseData\` row (≈ 20 µs self) is almost all the JSON.parse
    of the page, which raw \`fetch\` pays as well inside undici's \`json()\`.
  - the SDK's own code, about 12 µs sequential and 18 µs at 64 in flight ("the SDK (dist/)" row):
    the attempt loop and its bookkeeping (2 µs), reading the body (2.7 µs, the same read raw
    \`fetch\` does in \`json()\`), the call (\`#run\`, \`#send\`) 2.6 µs, the compiled checks of the
    query 1.4 µs, the wire checks (a path parameter that is one URL segment, header values without
    a newline) 0.4 µs, scrubbing and the log-level test 0.5 µs. Each is a behaviour another issue
    requires (issue 16: nothing sent twice, no secret in a text, typed refusals before sending).
  - the garbage and the extra promise turns of those two layers: the "garbage collector" and
    "sockets, microtasks and the rest" rows, 3 µs and 26 µs sequential.
  That is 25–30 µs of work over a loopback request of 320–430 µs on this machine: 1.11–1.15×, as
  measured. Over a real network (milliseconds per request) it is 1–2 %. At 64 in flight the same
  work weighs more (openapi-fetch 55 µs and the SDK 18 µs per call in the second profile table,
  partly offset by less time inside undici, whose per-request timer work the dispatcher timeout
  removes): the SDK runs at 0.93–0.94× openapi-fetch alone's throughput, which is itself at
  0.85–0.88× raw. The layer the issue keeps is what puts 64 in flight under 0.95×.
- **Auto-pagination time (≤ 1.05×).** One request per page of 100 items: the per-request cost above,
  once per page, about 25–30 µs over a raw page fetch of 470–700 µs, hence 1.05–1.1×; the runs range
  0.98–1.12× and the same raw loop written as an async generator (the "raw loop as an async
  generator" column) moves as much, so the figure is at the level of the machine's noise. Iterating
  items adds nothing measurable over iterating pages (\`.pages()\` ÷ raw 0.95–1.11×).
- **Cold import (ESM ≤ +8 ms, CJS ≤ +5 ms).** On this machine Node's own ESM loader costs +6.5 to
  +7.9 ms for a one-line ES module file (the startup table), and +10 ms in a separate run
  (\`node -e ""\` 121 ms, one-line module 131 ms, openapi-fetch's ESM build alone 131 ms, the SDK
  142 ms; medians of 25 interleaved processes): the ESM target is at Node's floor. What the SDK
  adds over it (about 11 ms) is Node's loader, not the SDK's code: a CPU profile of \`require\`
  shows resolving \`openapi-fetch\` through its \`exports\` map and the real path of its folder
  (about 3/4 of the evaluation) and compiling four modules (the entry, two small shared chunks and
  openapi-fetch, 94 kB in all); the SDK's top-level code runs in 0.3 ms. Minifying identifiers
  as well changed nothing measurable (19.6 ms before and after, same run). Bundling openapi-fetch
  into the entry would save the package lookup (about 1–2 ms) but make it a copy the user's
  \`npm audit\` and updates no longer reach.
- **Bundle (initial ≤ 12 kB, one file ≤ 25 kB).** The initial chunk holds no validation (the checks
  load with each operation's first call, webhook verification with \`unwrap\`, response checks with
  \`validateResponses\`). Its 18.2 kB are, by what stubbing each part out saves (composition
  above): openapi-fetch 2.2 kB, the resource classes 2.3 kB, the operation table and the loaders of
  the checks 1.7 kB, error classes 1.0 kB, and the pipeline: transport 2.0 kB, answers (error
  mapping, secret scrubbing, unknown-outcome rules) 1.7 kB, settings 1.2 kB, plan 1.2 kB,
  pagination 0.9 kB, logger with redaction 0.7 kB, wire checks 0.6 kB, retry rules 0.5 kB, call
  options 0.5 kB, signed retry 0.3 kB, the Node timeout dispatcher 0.3 kB. The peer's 12.2 kB has
  no Idempotency-Key handling, signed retry, scrubbing, redaction or wire checks; each of ours is
  required by an issue and tested, and none can be loaded later without making the first call pay
  for it (the first-call figure, 22.0 kB, is what a call really loads). The one-file figure (30.4 kB)
  adds what a call never loads: webhook verification with @scure/base (one encoding module, as
  issue 15 asks), the response checks and the messages of failed checks.
`;
