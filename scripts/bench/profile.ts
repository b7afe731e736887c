/**
 * Where the time per request goes: the V8 sampling profiler (through node:inspector) over warm
 * `customers.list()` calls of the SDK as built (dist/), and over the same number of raw `fetch`
 * calls with the same timeout mechanism, to a loopback server in its own process. Self time per
 * call, grouped by who spends it; run sequentially and with 64 in flight.
 *
 *   npx tsx scripts/bench/profile.ts [--calls 10000]
 */
import { Session } from 'node:inspector/promises';
import { startChildServer } from './child-server';
import { loadSdk } from './dist';
import { arg, isMain, load1 } from './rounds';
import { TIMEOUT_MS, timeoutDispatcher } from './timeouts';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Who spends a sample, by the function it was in (self time). First match wins. */
export const GROUPS: [string, (url: string, fn: string) => boolean][] = [
  ['openapi-fetch', (u) => u.includes('/openapi-fetch/')],
  ['the SDK (dist/)', (u) => u.includes('/dist/')],
  ['JSON.parse / stringify', (_u, f) => f === 'parse' || f === 'stringify'],
  ['undici (fetch, HTTP, streams)', (u) => u.includes('undici') || u.includes('internal/webstreams') || u.includes('internal/streams')],
  ['timers, AbortSignal, events', (u) => /node:internal\/(abort_controller|event_target|timers)|node:timers|node:events|node:internal\/events/.test(u)],
  ['garbage collector', (_u, f) => f === '(garbage collector)'],
  ['idle (waiting for the server)', (_u, f) => f === '(idle)'],
  ['sockets, microtasks and the rest', () => true],
];

export interface ProfileRow {
  group: string;
  /** µs per call. */
  sdk: number;
  raw: number;
}

export interface ProfileResult {
  calls: number;
  inFlight: number;
  rows: ProfileRow[];
  load: [number, number];
  /** The SDK's own code per call: dist/ self time less `parseBody` (the JSON.parse of the answer), µs; absent in older results. */
  sdkOwnUs?: number;
  /** `parseBody`'s self time per call, µs: the JSON.parse of the answer, which raw fetch does too. */
  jsonParseUs?: number;
  /** Raw fetch's busy time per call, µs (the yardstick of the machine's state: ~100 µs on a quiet one). */
  rawBusyUs?: number;
  /** The SDK's functions by self time, µs per call (name and place in dist/). */
  topSdk?: [string, number][];
}

async function sample(
  session: Session,
  calls: number,
  inFlight: number,
  fn: () => PromiseLike<unknown>,
  byFunction?: Map<string, number>,
): Promise<Map<string, number>> {
  const us = new Map<string, number>(GROUPS.map(([name]) => [name, 0]));
  await session.post('Profiler.start');
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < calls) await fn();
    }),
  );
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const { url, functionName } = byId.get(id)!.callFrame;
    const [name] = GROUPS.find(([, match]) => match(url, functionName))!;
    us.set(name, us.get(name)! + (profile.timeDeltas[i] ?? 0) / calls);
    if (byFunction && name === 'the SDK (dist/)') {
      const node = byId.get(id)!.callFrame as { functionName: string; url: string; lineNumber?: number; columnNumber?: number };
      const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${node.columnNumber ?? 0}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / calls);
    }
  });
  return us;
}

export async function profileRequests(calls = arg('calls', 10_000), inFlight = 1): Promise<ProfileResult> {
  const { Crossborder } = await loadSdk();
  const { base, stop } = await startChildServer('canned-server.ts');
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' });
  const url = `${base}/2025-10-13/customers?limit=20`;
  const headers = { authorization: `Basic ${btoa('tok:sec')}`, accept: 'application/json' };
  const dispatcher = timeoutDispatcher(TIMEOUT_MS);
  const raw = async () => (await fetch(url, { headers, dispatcher } as RequestInit)).json();
  const sdk = () => cb.customers.list({ limit: 20 });
  const session = new Session();
  session.connect();
  const before = load1();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    for (let i = 0; i < 1000; i++) (await sdk(), await raw()); // warm up: compiled code, open sockets
    const byFunction = new Map<string, number>();
    const s = await sample(session, calls, inFlight, sdk, byFunction);
    const r = await sample(session, calls, inFlight, raw);
    // parseBody is the JSON.parse of the answer (V8 counts the builtin in its caller), which raw fetch does
    // too (in undici's json()): the SDK's own code is its self time without it.
    const jsonParseUs = [...byFunction].filter(([name]) => name.startsWith('parseBody ')).reduce((n, [, us]) => n + us, 0);
    const sdkSelf = s.get('the SDK (dist/)')!;
    return {
      calls,
      inFlight,
      rows: GROUPS.map(([group]) => ({ group, sdk: s.get(group)!, raw: r.get(group)! })),
      load: [before, load1()],
      sdkOwnUs: sdkSelf - jsonParseUs,
      jsonParseUs,
      rawBusyUs: GROUPS.filter(([g]) => !g.startsWith('idle')).reduce((n, [g]) => n + r.get(g)!, 0),
      topSdk: [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, arg('top', 12)),
    };
  } finally {
    session.disconnect();
    stop();
  }
}

export function formatProfile(result: ProfileResult): string {
  const lines = [
    `| who spends it (${result.inFlight === 1 ? 'sequential' : `${result.inFlight} in flight`}) | SDK, µs per call | raw fetch, µs per call | difference |`,
    '|---|---:|---:|---:|',
  ];
  let sdk = 0;
  let raw = 0;
  for (const r of result.rows) {
    if (r.group.startsWith('idle')) continue; // waiting is not cost
    sdk += r.sdk;
    raw += r.raw;
    lines.push(`| ${r.group} | ${r.sdk.toFixed(1)} | ${r.raw.toFixed(1)} | ${(r.sdk - r.raw >= 0 ? '+' : '') + (r.sdk - r.raw).toFixed(1)} |`);
  }
  lines.push(`| **busy in total** | **${sdk.toFixed(1)}** | **${raw.toFixed(1)}** | **${(sdk - raw >= 0 ? '+' : '') + (sdk - raw).toFixed(1)}** |`);
  if (result.sdkOwnUs !== undefined && result.jsonParseUs !== undefined) {
    const share = result.rawBusyUs
      ? ` (${((100 * result.sdkOwnUs) / result.rawBusyUs).toFixed(1)} % of raw fetch's busy time per call, ${result.rawBusyUs.toFixed(0)} µs)`
      : '';
    lines.push(
      '',
      `The SDK's own code: ${result.sdkOwnUs.toFixed(1)} µs per call${share}: its self time less \`parseBody\`, ${result.jsonParseUs.toFixed(1)} µs, the JSON.parse of the answer.`,
    );
    if (result.topSdk?.length) lines.push(`By function (µs per call, self): ${result.topSdk.map(([name, us]) => `\`${name}\` ${us.toFixed(2)}`).join(', ')}.`);
  }
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  const calls = arg('calls', 10_000);
  const results = [await profileRequests(calls, 1), await profileRequests(calls, 64)];
  if (process.argv.includes('--json')) console.log(JSON.stringify(results));
  else for (const r of results) console.log(`${formatProfile(r)}\nload ${r.load.map((l) => l.toFixed(2)).join(' → ')}\n`);
}
