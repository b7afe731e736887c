/**
 * Webhook verification throughput for a 1 kB body, with the package as built (dist/): signed by
 * `crossborder-sdk/sandbox`'s signWebhook, checked by `cb.webhooks.verify` and `cb.webhooks.unwrap`,
 * against `crypto.verify` (node:crypto, sync, a KeyObject) of the same signature and body.
 *
 * The contenders take turns in interleaved rounds (who goes first rotates), each a block of sequential
 * calls with a block of `crypto.verify` before and after it (`B C₁ B C₂ B …`): a contender's ratio in a round
 * is its deliveries per CPU second (process CPU time, every thread: a receiver under a burst is bound by it)
 * ÷ the mean of the two `crypto.verify` blocks around it, so it is compared with the baseline measured just
 * before and just after it, not up to six blocks away; the figure is the median over the rounds, and the
 * wall-time ratios are printed too. Also shown: `crypto.subtle.verify` alone (what the SDK
 * used on Node before issue 36), 64 deliveries in flight, and the floor of any unwrap: `crypto.verify`, then
 * strict UTF-8 decoding and `JSON.parse` of the same body, with no check of the event.
 *
 * It runs under tsx (`npm run bench` starts each script with `--import tsx`) while users run dist/ in plain
 * node; the hook costs the SDK nothing per delivery: over 10,000 unwraps the loader's thread used 0 CPU ticks
 * and the main thread the same as in plain node, and a CPU profile of the loop holds no sample under a tsx or
 * source-map frame (docs/benchmark-notes.md, issue 36 §1 fourth pass).
 *
 *   npx tsx scripts/bench/webhooks.ts [--json] [--rounds 30] [--calls 300]
 */
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSdk, root } from './dist';
import { arg, isMain, load1, loadText, median } from './rounds';
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
  /** `crypto.verify` + strict UTF-8 decoding + `JSON.parse` of the body (no SDK code) ÷ `crypto.verify`: the floor of any unwrap. */
  floorRatio?: number;
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

/** A contender's block and the baseline blocks just before and after it. */
interface Bracketed {
  before: Rate;
  rate: Rate;
  after: Rate;
}

/**
 * `rounds` rounds of every contender but the first (the baseline), in an order that rotates, each block
 * between two blocks of the baseline (`B C₁ B C₂ B …`). The baseline's own entries are its blocks, bracketed
 * by their neighbours.
 */
async function bracketed(rounds: number, contenders: (() => Promise<Rate>)[]): Promise<Bracketed[][]> {
  const [baseline, ...others] = contenders;
  const results: Bracketed[][] = contenders.map(() => []);
  for (let round = 0; round < rounds; round++) {
    let previous = await baseline!();
    for (let i = 0; i < others.length; i++) {
      const k = (round + i) % others.length;
      const rate = await others[k]!();
      const next = await baseline!();
      results[k + 1]!.push({ before: previous, rate, after: next });
      results[0]!.push({ before: previous, rate: previous, after: previous });
      previous = next;
    }
  }
  return results;
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
  const subtleKey = await crypto.subtle.importKey(
    'spki',
    publicKeyObject.export({ format: 'der', type: 'spki' }),
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  );
  const p1363 = new Uint8Array(64);
  {
    // The r‖s form of the same signature, for crypto.subtle.verify.
    const rLen = der[3]!;
    const r = der.subarray(4, 4 + rLen);
    const s = der.subarray(6 + rLen);
    p1363.set(r.subarray(Math.max(0, r.length - 32)), 32 - Math.min(32, r.length));
    p1363.set(s.subarray(Math.max(0, s.length - 32)), 64 - Math.min(32, s.length));
  }

  const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
  const baseline = () => {
    if (!nodeVerify('sha256', bytes, { key: publicKeyObject, dsaEncoding: 'der' }, der)) throw new Error('baseline did not verify');
  };
  const contenders: [string, () => unknown, number?][] = [
    ['baseline: node:crypto verify (sync, KeyObject)', baseline],
    ['cb.webhooks.verify (Uint8Array)', () => cb.webhooks.verify(bytes, headers)],
    ['cb.webhooks.unwrap (Uint8Array)', () => cb.webhooks.unwrap(bytes, headers)],
    [
      'crypto.subtle.verify alone',
      async () => {
        if (!(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, subtleKey, p1363, bytes))) throw new Error('subtle did not verify');
      },
    ],
    ['cb.webhooks.verify (string)', () => cb.webhooks.verify(body, headers)],
    ['cb.webhooks.verify (64 in flight)', () => cb.webhooks.verify(bytes, headers), 64],
    [
      'floor: crypto.verify + decode + JSON.parse',
      () => {
        baseline();
        return JSON.parse(strictUtf8.decode(bytes)) as unknown;
      },
    ],
  ];
  const event = (await cb.webhooks.unwrap(bytes, headers)) as { type: string; issues?: unknown[] };
  if (event.type !== 'INCOMING_PAYMENT.COMPLETED' || event.issues)
    throw new Error(`the bench delivery does not match the document: ${JSON.stringify(event.issues)}`);
  for (const [, op, inFlight] of contenders) await rate(op, 256, inFlight ?? 1); // warm-up: JIT, the key cache, the verifier
  const before = load1();
  const results = await bracketed(
    rounds,
    contenders.map(
      ([, op, inFlight]) =>
        () =>
          rate(op, calls, inFlight ?? 1),
    ),
  );
  const load: [number, number] = [before, load1()];
  const ratios = (k: number, key: keyof Rate = 'cpu') => results[k]!.map((r) => r.rate[key] / ((r.before[key] + r.after[key]) / 2));
  const [v, u, s] = [ratios(1), ratios(2), ratios(3)];
  const per = (key: keyof Rate) => Object.fromEntries(contenders.map(([name], k) => [name, Math.round(median(results[k]!.map((r) => r.rate[key])))]));
  return {
    node: process.version,
    rounds,
    callsPerRound: calls,
    perSecond: per('wall'),
    perCpuSecond: per('cpu'),
    verifyRatio: median(v),
    unwrapRatio: median(u),
    subtleRatio: median(s),
    floorRatio: median(ratios(contenders.length - 1)),
    wall: { verify: median(ratios(1, 'wall')), unwrap: median(ratios(2, 'wall')), subtle: median(ratios(3, 'wall')) },
    spread: { verify: [Math.min(...v), Math.max(...v)], unwrap: [Math.min(...u), Math.max(...u)] },
    load,
  };
}

/** The result for people: deliveries per second, then the ratios. */
export function formatWebhooks(r: WebhooksResult): string {
  const rows = Object.entries(r.perSecond).map(
    ([name, n]) =>
      `${name.padEnd(48)} ${n.toLocaleString('en-US').padStart(9)} /s${r.perCpuSecond ? `, ${r.perCpuSecond[name]!.toLocaleString('en-US').padStart(7)} per CPU second` : ''}`,
  );
  const ratio = (name: string, n: number, spread?: [number, number]) =>
    `${name.padEnd(48)} ${n.toFixed(3)}×${spread ? ` [${spread.map((x) => x.toFixed(2)).join('–')}]` : ''}`;
  return [
    `node ${r.node}, 1024-byte body, ${r.rounds} interleaved rounds of ${r.callsPerRound} calls, load ${loadText(r.load)}`,
    ...rows,
    'ratio to node:crypto verify, deliveries per CPU second (median of per-round ratios [lowest–highest]):',
    ratio('cb.webhooks.verify', r.verifyRatio, r.spread.verify),
    ratio('cb.webhooks.unwrap', r.unwrapRatio, r.spread.unwrap),
    ratio('crypto.subtle.verify alone', r.subtleRatio),
    ...(r.floorRatio === undefined ? [] : [ratio('floor: crypto.verify + decode + JSON.parse', r.floorRatio)]),
    ...(r.wall
      ? [`the same from wall time: verify ${r.wall.verify.toFixed(3)}×, unwrap ${r.wall.unwrap.toFixed(3)}×, crypto.subtle.verify ${r.wall.subtle.toFixed(3)}×`]
      : []),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const result = await benchWebhooks();
  console.log(process.argv.includes('--json') ? JSON.stringify(result) : formatWebhooks(result));
}
