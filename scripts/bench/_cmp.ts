// Temporary: the SDK's own CPU per call, before (17fb747) and after, canned in-process fetch, interleaved rounds.
import { responseExample } from '../../test/helpers/document';
const customer = responseExample('listCustomers', '200').data[0];
const listPage = JSON.stringify({ ...responseExample('listCustomers', '200'), data: Array.from({ length: 20 }, () => customer) });
const quote = JSON.stringify(responseExample('createQuote', '200'));
const headers = { 'content-type': 'application/json', 'x-request-id': 'req_bench' };
const canned = async (_url: string, init: RequestInit) => new Response(init.method === 'GET' ? listPage : quote, { status: 200, headers });
const before = await import('/tmp/h8-before/dist/index.js');
const after = await import('/work/wt/h8/dist/index.js');
const mk = (m: any) => new m.Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: 'http://127.0.0.1:1', environment: 'sandbox', fetch: canned });
const quoteBody = responseExample('createQuote', '200');
const clients = { before: mk(before), after: mk(after) };
const ops = {
  get: (cb: any) => cb.customers.list({ limit: 20 }),
  post: (cb: any) => cb.quotes.create({ lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1000, sourceAccountId: 'InternalAccount:1', receiverUmaAddress: '$a@b.example' } as any).catch((e: any) => { throw e; }),
};
const baseline = { get: () => canned('', { method: 'GET' }).then((r) => r.json()), post: () => canned('', { method: 'POST' }).then((r) => r.json()) };
async function cpu(fn: () => Promise<unknown>, n: number) { const c0 = process.cpuUsage(); for (let i = 0; i < n; i++) await fn(); const c = process.cpuUsage(c0); return (c.user + c.system) / n; }
const which = (process.argv[2] ?? 'get') as 'get' | 'post';
const fns = [() => baseline[which](), () => ops[which](clients.before), () => ops[which](clients.after)];
for (const f of fns) await cpu(f, 1500);
const rounds = Number(process.argv[3] ?? 20);
const res: number[][] = [[], [], []];
for (let r = 0; r < rounds; r++) for (let k = 0; k < 3; k++) { const i = (r + k) % 3; res[i]!.push(await cpu(fns[i]!, 1000)); }
const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2; };
const [b, x, y] = res.map(med);
const ratios = res[2]!.map((v, i) => v / res[1]![i]!);
console.log(`${which}: canned alone ${b!.toFixed(1)} µs, before ${x!.toFixed(1)}, after ${y!.toFixed(1)}; SDK's own before ${(x! - b!).toFixed(1)} → after ${(y! - b!).toFixed(1)} µs; after÷before median ${med(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`);
