/**
 * The closing section of docs/benchmarks.md: which costs remain against the targets and why.
 * Written by hand (it is analysis, not a measurement); the figures it leans on are the tables
 * `npm run bench` writes above it, and the one-off measurements it names (with their commands).
 */
export const REMAINS = `## What remains, and why

Met: retained heap of auto-pagination (flat, within 2 MB of the raw loop) and the first call after
import (well within +20 ms). Not met: per-request wall time, 64 in flight, auto-pagination time,
cold import and bundle size. For each, the profile says which cost is left.

- **Per request (GET, POST ≤ 1.05×; 64 in flight ≥ 0.95×).** Since issue 26 the SDK no longer calls
  openapi-fetch's \`createClient().request()\`: the plan builds the URL with openapi-fetch's two
  serializers and the transport calls \`fetch\` itself (DESIGN.md), so the SDK runs below openapi-fetch
  alone in every run ("SDK ÷ openapi-fetch" column: about 0.92–0.98× on GET, 0.77–0.80× on POST), and
  at 1.05–1.12× raw \`fetch\` with the same timeout (1.11–1.21× before issue 26; the SDK's own CPU per
  call against a canned \`fetch\` fell to 0.83–0.93× of before: [benchmark notes](benchmark-notes.md)).
  What is left per call is what other issues require: the compiled checks of the parameters, the wire
  checks, the Idempotency-Key, the attempt loop's timeout and bookkeeping, reading and parsing the body
  once, scrubbing secrets from what is logged or thrown, and the promise turns of an async pipeline:
  tens of µs over a loopback request of 470–840 µs here, 1–2 % over a real network. At 64 in flight the
  same work weighs more (0.87–0.89× raw throughput).
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
- **Bundle (initial ≤ 12 kB, one file ≤ 25 kB; the worker of issue 26 ≤ 12 kB).** The initial chunk
  holds no validation (the checks load with each operation's first call, webhook verification with
  \`unwrap\`, response checks with \`validateResponses\`); the composition above says what each part of
  its 18.4 kB costs. Issue 26 took out openapi-fetch's \`createClient\` (−1.4 kB) and @scure/base from
  the core (−1.5 kB one file), and made the rest tree-shakeable: a \`CrossborderCore\` with only the
  resources a program calls leaves out the other resources, their operation rows and checks, and the
  OpenTelemetry recorder (the worker row: about 23 kB, against about 33 kB for \`Crossborder\` with the same
  calls). The generated checks are cut along the resources (a one-file bundle keeps every constant of
  a module loaded by \`import()\`), which took the worker from 25.4 to 22.9 kB. What is left is what its
  two calls do, by what stubbing each part out saves (min+gzip, esbuild; the parts overlap a little):
  schema checks 3.8 kB, webhook signature verification 2.6 kB, option checks 2.4 kB, the attempt loop
  2.1 kB, typed errors by status 2.1 kB, logging with PII masking 1.1 kB, retries and timeouts 1.1 kB,
  error classes 0.9 kB, the webhook envelope 0.8 kB, pagination 0.8 kB, openapi-fetch's serializer
  0.7 kB, signed retry and the telemetry gate 0.5 kB (docs/performance.md). The Stainless-generated
  peer's 12.3 kB has no webhook verification, local checks, Idempotency-Key handling, signed retry,
  scrubbing, redaction or wire checks; each of ours is required by an issue and tested. Making the
  schema checks, logging, signed retry, telemetry gate and undici timeouts optional parts would leave
  17.2 kB, still over 12 kB, and a worker would
  then behave differently from \`Crossborder\` on the same call: not done.
`;
