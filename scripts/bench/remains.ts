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
  call against a canned \`fetch\` fell to 0.83–0.93× of before: benchmark notes (maintainers/benchmark-notes.md, in the repository)).
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
  \`npm audit\` and updates no longer reach; so would URL serializers of our own in its place (tried in
  issue 36 §3's second pass: −0.3 kB on the worker, 1–2.5 ms of CPU at import), which would drop the
  request layer this SDK is asked to be built on: not done.
- **Bundle (initial ≤ 12 kB, one file ≤ 25 kB; the worker ≤ 14 kB, issue 36).** The initial chunk
  holds no validation (the checks load with each operation's first call, webhook verification with
  \`unwrap\`, response checks with \`validateResponses\`); the composition above says what each part of
  it costs (the rows of the 70 operations \`Crossborder\` has: 1.5 kB of its 19.9 kB). Issue 26 took
  out openapi-fetch's \`createClient\` (−1.4 kB) and @scure/base (−1.5 kB one file) and made the rest
  tree-shakeable; issue 36 made local request checks, response checks and the logger parts of a
  \`CrossborderCore\` and every operation a standalone function, which took the worker (\`CrossborderCore\`
  without parts, \`listCustomers(core)\`, \`webhooks.unwrap\`) from 24.9 kB to 20.5 kB, and its §3 to 19.9 kB
  (the telemetry gate and the inline-schema checks moved into their parts, the field declarations of the
  error classes dropped); after the speed work (20.1 kB), its second pass made the same behaviour smaller:
  19.7 kB (the plan's parameter checks and the transport's log lines made by their parts; the webhook code no
  longer taking the whole error hierarchy, which also took 0.3 kB off \`Crossborder\`'s initial chunk), and the
  speed work merged with it took it back to 20.1 kB (a call's common path in one asynchronous step, a caller's
  signal aborting through the attempt's own dispatcher). Its third pass took out what a core without parts can
  never run: 19.7 kB (the multipart encoder brought by the CSV import's row, \`validateResponses\`' check and the drift
  warning's text made by their parts, the rows naming only their true flags; \`Crossborder\` 20.6 kB initial, 40.3 kB
  one file, no larger). Through the bundle's source
  map (\`npx tsx scripts/bench/size.ts --attribution\`, the module table in benchmark notes (maintainers/benchmark-notes.md, in the repository))
  the 19.7 kB are: the pipeline (auth, Idempotency-Key, signed retry, URL, attempt loop with undici's
  timeouts, retries) 6.0 kB, webhook signature verification 3.8 kB, option, call-option and wire checks 2.9 kB,
  typed answers and error classes 2.7 kB, the webhook envelope and event typing 2.1 kB, pagination 1.0 kB, PII
  masking of error details 0.8 kB. The list side alone is 14.7 kB; the production SDK's 12.2 kB
  worker has no webhook verification (5.5 kB here), local checks, Idempotency-Key handling, signed retry,
  scrubbing, masking or wire checks. Each of ours is required of every client by an issue and tested; making any
  of them a part would give a worker that behaves differently from \`Crossborder\` on the same call: not done. The
  largest lever left, what only writes need (the signed retry and its challenges: 0.9 kB of this worker, which only
  reads), is reached from every call of the core because \`core.request()\` may send any write: it needs \`request()\`
  off the core and the write rows to bring it, an API decision. Lazy imports do not shrink a one-file bundle (the bundler inlines them).
`;
