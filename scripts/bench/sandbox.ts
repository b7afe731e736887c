/**
 * Sandbox throughput over HTTP with keep-alive: `npx tsx scripts/bench/sandbox.ts`.
 *
 * Starts the CLI sandbox as built (dist/cli.js) in a child process (so server and client do not share one event loop),
 * seeds it, then sends a fixed number of requests over CONNECTIONS keep-alive connections for
 * GET /customers (a page of 20 out of SEED_CUSTOMERS) and POST /quotes. Prints requests/s and
 * latency percentiles. Target: ≥ 3,000 req/s for the list on a 2-core machine.
 *
 * Knobs (env): BENCH_REQUESTS (default 20000), BENCH_CONNECTIONS (default 32), BENCH_CUSTOMERS (default 100).
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SEED_CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100);
const AUTH = `Basic ${Buffer.from('bench:bench').toString('base64')}`;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** Starts `crossborder-sdk sandbox --port 0` and resolves its base URL. */
function startSandbox(): Promise<{ url: string; stop: () => void }> {
  // BENCH_SANDBOX_ARGS=--quiet measures without the request log (the CLI logs one line per request by default).
  const extra = (process.env.BENCH_SANDBOX_ARGS ?? '').split(' ').filter(Boolean);
  // The CLI as built (dist/cli.js): what `npx crossborder-sdk sandbox` runs.
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'sandbox', '--port', '0', ...extra], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    // Only the start-up lines are kept and scanned; once the URL is read the rest of stdout (the
    // request log, one line per request) is drained and dropped, so reading it costs the sandbox
    // nothing but the pipe (a growing string scanned on every chunk used to stall it).
    let out = '';
    let started = false;
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) return;
      out += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        started = true;
        out = '';
        clearTimeout(timer);
        resolve({ url: match[1]!, stop: () => child.kill('SIGTERM') });
      }
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}${started ? '' : `: ${out}`}`)));
  });
}

function send(url: string, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/2025-10-13${path}`,
      { method, agent, headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function measure(name: string, url: string, method: string, path: string, body?: string): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      next++;
      const t0 = performance.now();
      const { status } = await send(url, method, path, body);
      latencies.push(performance.now() - t0);
      if (status !== 200) failures++;
    }
  };
  // Warm-up: JIT on both sides, sockets opened.
  for (let i = 0; i < 500; i++) await send(url, method, path, body);
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(2);
  console.log(
    `${name.padEnd(28)} ${Math.round(REQUESTS / seconds)
      .toLocaleString('en-US')
      .padStart(7)} req/s   ` +
      `p50 ${pct(50)} ms  p99 ${pct(99)} ms  (${REQUESTS} requests, ${CONNECTIONS} connections${failures ? `, ${failures} non-200` : ''})`,
  );
}

const sandbox = await startSandbox();
try {
  let fundedAccount = '';
  for (let i = 0; i < SEED_CUSTOMERS; i++) {
    const customer = JSON.parse(
      (
        await send(
          sandbox.url,
          'POST',
          '/customers',
          JSON.stringify({ customerType: 'INDIVIDUAL', fullName: `Bench Customer ${i}`, region: 'US', currencies: ['USD', 'EUR'] }),
        )
      ).text,
    );
    if (i === 0) {
      const accounts = JSON.parse((await send(sandbox.url, 'GET', `/customers/internal-accounts?customerId=${customer.id}&currency=USD`)).text);
      fundedAccount = accounts.data[0].id;
    }
  }
  const eur = JSON.parse((await send(sandbox.url, 'GET', `/customers/internal-accounts?currency=EUR&limit=1`)).text).data[0].id;
  await send(sandbox.url, 'POST', `/sandbox/internal-accounts/${fundedAccount}/fund`, JSON.stringify({ amount: 100_000_000_000 }));
  const quote = JSON.stringify({
    source: { sourceType: 'ACCOUNT', accountId: fundedAccount },
    destination: { destinationType: 'ACCOUNT', accountId: eur },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  console.log(`node ${process.version}; sandbox seeded with ${SEED_CUSTOMERS} customers`);
  await measure('GET /customers (limit 20)', sandbox.url, 'GET', '/customers');
  await measure('POST /quotes', sandbox.url, 'POST', '/quotes', quote);
} finally {
  agent.destroy();
  sandbox.stop();
}
