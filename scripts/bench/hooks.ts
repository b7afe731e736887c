/**
 * What request hooks cost, on the package as built (dist/): the plain client (no `hooks` option) against the same
 * client with `hooks: {}` (hooks off: the cost must be nothing measurable, no view or closure is made) and with four
 * no-op hooks (each attempt builds the redacted views and awaits each hook). Same loopback server in its own process
 * and the same two requests as scripts/bench/client.ts, contenders in interleaved rounds.
 *
 *   npx tsx scripts/bench/hooks.ts [--rounds 40] [--requests 500] [--warmup 300]
 */
import { requestExample } from '../../test/helpers/document';
import { startChildServer } from './child-server';
import { loadSdk } from './dist';
import { arg, compareRequests, loadText, main, median, medianRatio, of, type PerRequest, REQUESTS, rowsOf } from './rounds';

export interface HooksRow {
  name: string;
  /** Median wall time per request, µs: plain client, `hooks: {}`, four no-op hooks. */
  plainUs: number;
  offUs: number;
  onUs: number;
  /** Medians of the per-round ratios over the plain client (wall and CPU). */
  offRatio: number;
  onRatio: number;
  offCpuRatio: number;
  onCpuRatio: number;
  requestsPerContender: number;
  load: [number, number];
}

export async function benchHooks(rounds = arg('rounds', 40), requests = arg('requests', 500), warmup = arg('warmup', 300)): Promise<HooksRow[]> {
  const { Crossborder } = await loadSdk();
  const { base, stop } = await startChildServer('canned-server.ts');
  const options = { tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' } as const;
  const noop = () => undefined;
  const clients = {
    plain: new Crossborder(options),
    off: new Crossborder({ ...options, hooks: {} }),
    on: new Crossborder({ ...options, hooks: { beforeRequest: noop, afterResponse: noop, beforeRetry: noop, onError: noop } }),
  };
  const params = requestExample('createQuote');
  const call = (cb: InstanceType<typeof Crossborder>, kind: 'get' | 'post') =>
    kind === 'get' ? () => cb.customers.list({ limit: 20 }) : () => cb.quotes.create(params);

  return rowsOf(
    REQUESTS,
    async ([name, kind]): Promise<HooksRow> => {
      const { results, load } = await compareRequests([call(clients.plain, kind), call(clients.off, kind), call(clients.on, kind)], {
        rounds,
        requests,
        warmup,
      });
      const [plain, off, on] = results as [PerRequest[], PerRequest[], PerRequest[]];
      return {
        name,
        plainUs: median(of(plain, 'wall')),
        offUs: median(of(off, 'wall')),
        onUs: median(of(on, 'wall')),
        offRatio: medianRatio(of(plain, 'wall'), of(off, 'wall')),
        onRatio: medianRatio(of(plain, 'wall'), of(on, 'wall')),
        offCpuRatio: medianRatio(of(plain, 'cpu'), of(off, 'cpu')),
        onCpuRatio: medianRatio(of(plain, 'cpu'), of(on, 'cpu')),
        requestsPerContender: rounds * requests,
        load,
      };
    },
    stop,
  );
}

await main(
  import.meta.url,
  () => benchHooks(),
  (r) =>
    `${r.name}: plain ${r.plainUs.toFixed(0)} µs, hooks: {} ${r.offUs.toFixed(0)} µs, 4 no-op hooks ${r.onUs.toFixed(0)} µs; ` +
    `off ÷ plain ${r.offRatio.toFixed(3)}× (CPU ${r.offCpuRatio.toFixed(3)}×), on ÷ plain ${r.onRatio.toFixed(3)}× (CPU ${r.onCpuRatio.toFixed(3)}×); ` +
    `${r.requestsPerContender} requests each; load ${loadText(r.load)}`,
);
