/**
 * Where the SDK's own time per request goes: the V8 sampling profiler (through node:inspector)
 * over N warm, sequential `customers.list()` calls to a loopback server in its own process, self
 * time per call grouped by who spends it. The groups that raw `fetch` never runs (openapi-fetch,
 * zod, the SDK's own code) are the SDK's cost; the shared ones (undici, sockets, the garbage
 * collector) swing by tens of µs between runs on a shared VM, so the per-request table's interleaved
 * wall times, not this profile, measure the total.
 *
 *   npx tsx scripts/bench/profile.ts [--calls 8000]
 */
import { Session } from 'node:inspector/promises';
import { Crossborder } from '../../src/client';
import { startChildServer } from './child-server';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Who spends a sample, by the function it was in (self time). First match wins. */
const GROUPS: [string, (url: string, fn: string) => boolean][] = [
  ['JSON.parse of the body (raw fetch does the same)', (u, f) => u.endsWith('src/core/transport.ts') && f === 'json'],
  ['openapi-fetch', (u) => u.includes('/openapi-fetch/')],
  ['zod: params check', (u) => u.includes('/zod/')],
  ['SDK pipeline (src/)', (u) => u.includes('/src/')],
  ['timer, AbortSignal and its listeners', (u) => /node:internal\/(abort_controller|event_target|timers)|node:timers|node:events/.test(u)],
  ['undici, sockets, streams, GC, idle and the rest (shared with raw fetch)', () => true],
];

export interface ProfileRow {
  group: string;
  us: number;
}

export async function profileRequests(calls = Number(process.argv[process.argv.indexOf('--calls') + 1]) || 8000): Promise<ProfileRow[]> {
  const { base, stop } = await startChildServer('canned-server.ts');
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' });
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    for (let i = 0; i < 500; i++) await cb.customers.list({ limit: 20 }); // warm up: compiled code, open sockets
    await session.post('Profiler.start');
    for (let i = 0; i < calls; i++) await cb.customers.list({ limit: 20 });
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const us = new Map<string, number>(GROUPS.map(([name]) => [name, 0]));
    profile.samples.forEach((id, i) => {
      const { url, functionName } = byId.get(id)!.callFrame;
      const [name] = GROUPS.find(([, match]) => match(url, functionName))!;
      us.set(name, us.get(name)! + (profile.timeDeltas[i] ?? 0) / calls);
    });
    return GROUPS.map(([group]) => ({ group, us: us.get(group)! }));
  } finally {
    session.disconnect();
    stop();
  }
}

export function formatProfile(rows: ProfileRow[]): string {
  const lines = ['| who spends it | µs per call |', '|---|---:|'];
  for (const r of rows) lines.push(`| ${r.group} | ${r.us.toFixed(1)} |`);
  const own = rows.slice(1, 4).reduce((n, r) => n + r.us, 0);
  lines.push(`| **code raw \`fetch\` never runs (openapi-fetch, zod, src/)** | **${own.toFixed(1)}** |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatProfile(await profileRequests()));
}
