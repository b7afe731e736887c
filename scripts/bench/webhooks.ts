/**
 * Webhook verification throughput for a 1 kB body, with the package as built (dist/): signed by
 * `crossborder-sdk/sandbox`'s signWebhook, checked by `cb.webhooks.verify` and `cb.webhooks.unwrap`,
 * against `crypto.verify` (node:crypto, sync, a KeyObject) of the same signature and body.
 *
 * The contenders take turns in interleaved rounds (who goes first rotates), each round a block of
 * sequential calls; a ratio is the median of the rounds' `contender ÷ crypto.verify` deliveries per CPU
 * second (process CPU time, every thread: a receiver under a burst is bound by it), so machine noise hits
 * both alike; the wall-time ratios are printed too. Also shown: `crypto.subtle.verify` alone (what the SDK
 * used on Node before issue 36), and 64 deliveries in flight.
 *
 *   npx tsx scripts/bench/webhooks.ts [--json] [--rounds 30] [--calls 300]
 */
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSdk, root } from './dist';
import { arg, interleaved, isMain, load1, loadText, median } from './rounds';
import { incomingPaymentCompleted } from '../../test/helpers/events';

/** What the benchmark reports: deliveries per second of each contender (medians) and the ratios to crypto.verify. */
export interface WebhooksResult {
  node: string;
  rounds: number;
  callsPerRound: number;
  /** Deliveries per second of wall time, median over the rounds. */
  perSecond: Record<string, number>;
  /** Deliveries per second of CPU time, median over the rounds. */
  perCpuSecond?: Record<string, number>;
  /**
   * `cb.webhooks.verify` ÷ `crypto.verify`, median of per-round ratios of deliveries per CPU second: what a
   * receiver busy with a burst gets, and what a shared machine measures steadily (wall-time ratios, in
   * `wall`, swing with other processes' load).
   */
  verifyRatio: number;
  /** `cb.webhooks.unwrap` ÷ `crypto.verify`, the same way. */
  unwrapRatio: number;
  /** `crypto.subtle.verify` alone ÷ `crypto.verify` (WebCrypto, what the SDK used on Node before issue 36). */
  subtleRatio: number;
  /** The same three ratios from wall time. */
  wall?: { verify: number; unwrap: number; subtle: number };
  /** Lowest and highest per-round ratio of verify and unwrap. */
  spread: { verify: [number, number]; unwrap: [number, number] };
  load: [number, number];
}

/**
 * A 1,024-byte INCOMING_PAYMENT.COMPLETED delivery that matches the document (what the service sends),
 * so unwrap's event check passes, as it does for real deliveries.
 */
function body1k(): string {
  const event = incomingPaymentCompleted({ now: new Date().toISOString(), id: 'Webhook:bench', transactionId: 'Transaction:bench-1', description: '' });
  event.data.description = 'x'.repeat(1024 - JSON.stringify(event).length);
  const text = JSON.stringify(event);
  if (text.length !== 1024) throw new Error(`body is ${text.length} bytes`);
  return text;
}

/** Deliveries per second of wall time, and per second of this process's CPU time (user + system, every thread). */
interface Rate {
  wall: number;
  cpu: number;
}

/** `calls` sequential calls (or `inFlight` at a time). */
async function rate(op: () => unknown, calls: number, inFlight = 1): Promise<Rate> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  if (inFlight === 1) for (let i = 0; i < calls; i++) await op();
  else for (let i = 0; i < calls; i += inFlight) await Promise.all(Array.from({ length: inFlight }, op));
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { wall: (calls * 1000) / ms, cpu: (calls * 1e6) / (cpu.user + cpu.system) };
}

export async function benchWebhooks(rounds = arg('rounds', 30), calls = arg('calls', 300)): Promise<WebhooksResult> {
  const { Crossborder } = await loadSdk();
  const { generateWebhookKeyPair, signWebhook } = (await import(pathToFileURL(join(root, 'dist/sandbox.js')).href)) as typeof import('../../src/sandbox/index');
  const keys = await generateWebhookKeyPair();
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', webhookPublicKey: keys.publicKeyPem });
  const body = body1k();
  const bytes = new TextEncoder().encode(body);
  const signature = await signWebhook(body, keys.privateKeyPem);
  const headers = { 'x-service-signature': signature };
  const der = Buffer.from(JSON.parse(signature).s as string, 'base64');
  const publicKeyObject = createPublicKey(keys.publicKeyPem);
  const subtleKey = await crypto.subtle.importKey('spki', publicKeyObject.export({ format: 'der', type: 'spki' }), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const p1363 = new Uint8Array(64);
  {
    // The r‖s form of the same signature, for crypto.subtle.verify.
    const rLen = der[3]!;
    const r = der.subarray(4, 4 + rLen);
    const s = der.subarray(6 + rLen);
    p1363.set(r.subarray(Math.max(0, r.length - 32)), 32 - Math.min(32, r.length));
    p1363.set(s.subarray(Math.max(0, s.length - 32)), 64 - Math.min(32, s.length));
  }

  const baseline = () => {
    if (!nodeVerify('sha256', bytes, { key: publicKeyObject, dsaEncoding: 'der' }, der)) throw new Error('baseline did not verify');
  };
  const contenders: [string, () => unknown, number?][] = [
    ['baseline: node:crypto verify (sync, KeyObject)', baseline],
    ['cb.webhooks.verify (Uint8Array)', () => cb.webhooks.verify(bytes, headers)],
    ['cb.webhooks.unwrap (Uint8Array)', () => cb.webhooks.unwrap(bytes, headers)],
    ['crypto.subtle.verify alone', async () => {
      if (!(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, subtleKey, p1363, bytes))) throw new Error('subtle did not verify');
    }],
    ['cb.webhooks.verify (string)', () => cb.webhooks.verify(body, headers)],
    ['cb.webhooks.verify (64 in flight)', () => cb.webhooks.verify(bytes, headers), 64],
  ];
  const event = (await cb.webhooks.unwrap(bytes, headers)) as { type: string; issues?: unknown[] };
  if (event.type !== 'INCOMING_PAYMENT.COMPLETED' || event.issues) throw new Error(`the bench delivery does not match the document: ${JSON.stringify(event.issues)}`);
  for (const [, op, inFlight] of contenders) await rate(op, 256, inFlight ?? 1); // warm-up: JIT, the key cache, the verifier
  const before = load1();
  const results = await interleaved(rounds, contenders.map(([, op, inFlight]) => () => rate(op, calls, inFlight ?? 1)));
  const load: [number, number] = [before, load1()];
  const ratios = (k: number, key: keyof Rate = 'cpu') => results[0]!.map((b, i) => results[k]![i]![key] / b[key]);
  const [v, u, s] = [ratios(1), ratios(2), ratios(3)];
  const per = (key: keyof Rate) => Object.fromEntries(contenders.map(([name], k) => [name, Math.round(median(results[k]!.map((r) => r[key])))]));
  return {
    node: process.version,
    rounds,
    callsPerRound: calls,
    perSecond: per('wall'),
    perCpuSecond: per('cpu'),
    verifyRatio: median(v),
    unwrapRatio: median(u),
    subtleRatio: median(s),
    wall: { verify: median(ratios(1, 'wall')), unwrap: median(ratios(2, 'wall')), subtle: median(ratios(3, 'wall')) },
    spread: { verify: [Math.min(...v), Math.max(...v)], unwrap: [Math.min(...u), Math.max(...u)] },
    load,
  };
}

/** The result for people: deliveries per second, then the ratios. */
export function formatWebhooks(r: WebhooksResult): string {
  const rows = Object.entries(r.perSecond).map(([name, n]) => `${name.padEnd(48)} ${n.toLocaleString('en-US').padStart(9)} /s${r.perCpuSecond ? `, ${r.perCpuSecond[name]!.toLocaleString('en-US').padStart(7)} per CPU second` : ''}`);
  const ratio = (name: string, n: number, spread?: [number, number]) => `${name.padEnd(48)} ${n.toFixed(3)}×${spread ? ` [${spread.map((x) => x.toFixed(2)).join('–')}]` : ''}`;
  return [
    `node ${r.node}, 1024-byte body, ${r.rounds} interleaved rounds of ${r.callsPerRound} calls, load ${loadText(r.load)}`,
    ...rows,
    'ratio to node:crypto verify, deliveries per CPU second (median of per-round ratios [lowest–highest]):',
    ratio('cb.webhooks.verify', r.verifyRatio, r.spread.verify),
    ratio('cb.webhooks.unwrap', r.unwrapRatio, r.spread.unwrap),
    ratio('crypto.subtle.verify alone', r.subtleRatio),
    ...(r.wall ? [`the same from wall time: verify ${r.wall.verify.toFixed(3)}×, unwrap ${r.wall.unwrap.toFixed(3)}×, crypto.subtle.verify ${r.wall.subtle.toFixed(3)}×`] : []),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const result = await benchWebhooks();
  console.log(process.argv.includes('--json') ? JSON.stringify(result) : formatWebhooks(result));
}
