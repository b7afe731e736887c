/**
 * `npm run bench`: every benchmark of the SDK in one run, printed as a table and written to
 * docs/benchmarks.md with each figure's target and the command that reproduces it.
 * Ratios are measured in one run (SDK and raw fetch interleaved), because absolute times on a
 * shared 2-core machine are noisy.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIZE_BUDGET } from './budget';
import { benchClient, formatRows } from './client';
import { benchPagination } from './pagination';
import { formatProfile, profileRequests } from './profile';
import { benchSize, kB } from './size';
import { benchStartup } from './startup';
import { REMAINS } from './remains';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const ok = (pass: boolean) => (pass ? '✓ met' : '✗ not met');
const tsx = (script: string) =>
  execFileSync(process.execPath, ['--import', 'tsx', join(here, script)], { cwd: root, encoding: 'utf8', timeout: 600_000 }).trim();

console.log('client per-request …');
const client = await benchClient();
console.log(formatRows(client));
console.log('per-request profile …');
const profile = formatProfile(await profileRequests());
console.log(profile);
console.log('pagination …');
const pag = await benchPagination();
console.log(JSON.stringify(pag));
console.log('bundle size …');
const [call, wallet] = await benchSize();
console.log('startup (import, type-check) …');
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
const startup = benchStartup();
console.log(JSON.stringify(startup));
console.log('webhooks …');
const webhooks = tsx('webhooks.ts');
console.log(webhooks);
console.log('sandbox throughput …');
const sandbox = tsx('sandbox.ts');
console.log(sandbox);

const [get, post] = client;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const x = (n: number, digits = 2) => `${n.toFixed(digits)}×`;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const md = `# Benchmarks

Measured by \`npm run bench\` (this file is written by it) on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version},
${new Date().toISOString().slice(0, 10)}. Each ratio comes from one run in which the SDK and its baseline alternate, so machine
noise hits both alike; absolute times on this shared machine are indicative only (they move by ±20 % between runs).

## Summary

| figure | measured | target | |
|---|---:|---:|---|
| GET list first page, SDK ÷ raw fetch (wall) | ${x(get!.ratio)} | ≤ 1.10× | ${ok(get!.ratio <= 1.1)} |
| POST quote create, SDK ÷ raw fetch (wall) | ${x(post!.ratio)} | ≤ 1.25× | ${ok(post!.ratio <= 1.25)} |
| auto-pagination of ${pag.items.toLocaleString('en-US')} items ÷ raw cursor loop | ${x(pag.ratio)} | ≤ 1.05× | ${ok(pag.ratio <= 1.05)} |
| retained heap while iterating 10k → 100k items | ${mb(pag.heap10k)} → ${mb(pag.heap100k)} | flat | ${ok(pag.heap100k < pag.heap10k * 1.25)} |
| prefetch, I/O-bound work per item: raw loop ÷ SDK | ${x(pag.prefetchIoSpeedup)} faster | > 1× | ${ok(pag.prefetchIoSpeedup > 1)} |
| prefetch, CPU-bound work per item: raw loop ÷ SDK | ${x(pag.prefetchSpeedup)} faster | > 1× | ${ok(pag.prefetchSpeedup > 1)} |
| bundle: \`import { Crossborder }\` + one call, min+gzip | ${kB(call!.callGzip)} | ≤ 12 kB | ${ok(call!.callGzip <= 12_000)} |
| bundle: \`import\` alone, min+gzip | ${kB(call!.importGzip)} | — | |
| bundle: \`crossborder-sdk/wallet\` (browser), min+gzip | ${kB(wallet!.callGzip)} | reported | |
| cold import over \`node -e ""\`, ESM \`import\` | +${ms(startup.importDeltaMs)} | ≤ +10 ms | ${ok(startup.importDeltaMs <= 10)} |
| cold import over \`node -e ""\`, CJS \`require\` | +${ms(startup.importCjsDeltaMs)} | ≤ +10 ms | ${ok(startup.importCjsDeltaMs <= 10)} |
| consumer type-check, 10 calls, over baseline | +${startup.tscDeltaS.toFixed(2)} s | ≤ +0.10 s | ${ok(startup.tscDeltaS <= 0.1)} |

## Per request: SDK vs raw \`fetch\`

A loopback node:http server in its own process answers the document's own example bodies; the
contenders run in one process, in interleaved rounds of the same number of sequential requests.
The middle contender is raw \`fetch\` given \`AbortSignal.timeout()\`: the SDK gives every attempt a
timeout (a payment request must not hang for ever), and that alone costs what the column shows.
Command: \`npx tsx scripts/bench/client.ts\`.

${formatRows(client)}

Where the SDK's own time goes: the V8 profiler (through \`node:inspector\`) over 8,000 warm
\`customers.list()\` calls, self time per call grouped by who spends it. openapi-fetch, zod and the
SDK's own code (src/) are code a bare \`fetch\` never runs; JSON.parse is the same work raw \`fetch\`
does; the timer and AbortSignal group is partly undici's (it makes a signal for every request) and
partly the SDK's timeout. The last group is shared with raw \`fetch\` and swings by tens of µs between
runs on this VM, which is why the interleaved wall times above, not this profile, measure the total.
Command: \`npx tsx scripts/bench/profile.ts\`.

${profile}

## Auto-pagination

${pag.items.toLocaleString('en-US')} customers in pages of 100 from a list server in its own process (so the server's
work is not counted against the client). Command: \`npx tsx scripts/bench/pagination.ts\`.

| | time | ÷ raw cursor loop |
|---|---:|---:|
| raw cursor loop (\`fetch\`, \`for…of\` over each page) | ${ms(pag.rawMs)} | 1.00× |
| the same loop as an async generator of items, read with \`for await\` | ${ms(pag.rawAsyncMs)} | ${x(pag.rawAsyncMs / pag.rawMs)} |
| SDK: \`for await (const c of cb.customers.list({ limit: 100 }))\` | ${ms(pag.sdkMs)} | ${x(pag.ratio)} (÷ async generator: ${x(pag.asyncRatio)}) |
| SDK: \`for await (const page of cb.customers.list({ limit: 100 }).pages())\` | ${ms(pag.pagesMs)} | ${x(pag.pagesRatio)} |

With work per item (${pag.workUs} µs of CPU per item; I/O-bound work then waits one turn of the event
loop, as a database write would), the raw loop against the SDK with \`prefetch: true\`:

| work per item | raw loop | SDK with \`prefetch\` | speed-up |
|---|---:|---:|---:|
| I/O-bound (${pag.workUs} µs + one event-loop turn) | ${ms(pag.rawIoMs)} | ${ms(pag.prefetchIoMs)} | ${x(pag.prefetchIoSpeedup)} |
| CPU-bound (${pag.workUs} µs busy loop) | ${ms(pag.rawWorkMs)} | ${ms(pag.prefetchMs)} | ${x(pag.prefetchSpeedup)} |

Without work, the raw loop's process waits for the server ${(pag.rawWaitShare * 100).toFixed(0)} % of its wall time and computes the rest
(parsing pages, HTTP): a page fetched ahead can only overlap that waiting with CPU-bound work on the same thread.

Memory, in a child process that iterates and forces a GC every 1,000 items: largest retained heap
${mb(pag.heap10k)} for 10,000 items and ${mb(pag.heap100k)} for 100,000; peak RSS ${mb(pag.rss10k)} and ${mb(pag.rss100k)}.
Pages are released as soon as their items are consumed.

## Bundle size

esbuild, minified, code-split, gzip -9, for a browser bundle of \`import { Crossborder }\` and one
\`list()\` call. A call loads the entry and the chunk of generated schemas (params validation).
Command: \`npx tsx scripts/bench/size.ts\`. \`npm test\` enforces ceilings (scripts/bench/budget.ts):
call ${kB(SIZE_BUDGET.call)}, import ${kB(SIZE_BUDGET.importOnly)}, wallet ${kB(SIZE_BUDGET.wallet)}.

| bundle | loaded by a call | import alone | never loaded by a call |
|---|---:|---:|---:|
| ${call!.name} | ${kB(call!.callGzip)} | ${kB(call!.importGzip)} | ${kB(call!.lazyGzip)} (webhook verification) |
| ${wallet!.name} | ${kB(wallet!.callGzip)} | ${kB(wallet!.importGzip)} | — |

Largest inputs of a call (minified bytes): ${call!.top.map(([n, b]) => `${n} ${b}`).join(', ')}.

Largest inputs of the wallet entry: ${wallet!.top.slice(0, 5).map(([n, b]) => `${n} ${b}`).join(', ')}.

## Startup

On the built package (\`dist/\`), medians of interleaved runs. Command: \`npx tsx scripts/bench/startup.ts\`.

| | baseline | with the SDK | delta |
|---|---:|---:|---:|
| \`node\` ESM \`await import('crossborder-sdk')\` | ${ms(startup.importBaselineMs)} | ${ms(startup.importEsmMs)} | +${ms(startup.importDeltaMs)} |
| \`node\` CJS \`require('crossborder-sdk')\` | ${ms(startup.importBaselineMs)} | ${ms(startup.importCjsMs)} | +${ms(startup.importCjsDeltaMs)} |
| for comparison: ESM \`import\` of a one-line module (Node starting its ESM loader) | ${ms(startup.importBaselineMs)} | — | +${ms(startup.esmFloorDeltaMs)} |
| \`tsc --noEmit\` on a file making 10 calls | ${startup.tscBaselineS.toFixed(2)} s | ${startup.tscSdkS.toFixed(2)} s | +${startup.tscDeltaS.toFixed(2)} s |

## Webhook verification

Command: \`npx tsx scripts/bench/webhooks.ts\`.

\`\`\`
${webhooks}
\`\`\`

## Sandbox throughput over HTTP

Sandbox in a child process, keep-alive connections. Target ≥ 3,000 requests/s for GET list.
Command: \`npx tsx scripts/bench/sandbox.ts\`.

\`\`\`
${sandbox}
\`\`\`

${REMAINS}
`;
writeFileSync(join(root, 'docs/benchmarks.md'), md);
console.log('wrote docs/benchmarks.md');
