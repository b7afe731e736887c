/**
 * `crossborder-sdk listen --forward-to URL`: receives the local sandbox's webhook deliveries and
 * forwards each one to URL, printing one line per event.
 *
 * It opens a receiver on 127.0.0.1 and points the sandbox's `webhookEndpoint` at it (PATCH /config).
 * Each delivery is forwarded as the sandbox sent it: the same raw bytes and the same
 * `X-Service-Signature`, which the sandbox made with its own key. Nothing is re-signed, so the
 * receiver's verification stays honest: it checks the very bytes the sandbox signed, with the
 * sandbox's public key (the one `crossborder-sdk sandbox` prints), and a body changed on the way
 * fails it as it would in production. `listen` holds no private key. The receiver's status and body
 * go back to the sandbox, so approval answers (200, 202, 403, 422) work through it.
 *
 * It keeps running across sandbox restarts: it follows the sandbox's `/_sandbox/events` stream, and
 * when that ends (the sandbox stopped) it reconnects with a bounded backoff (0.5 s doubling to 5 s;
 * it gives up after `--give-up-after`, default 10 minutes without a sandbox) and points the new
 * sandbox at itself again.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { isLoopbackHost, splitHost } from '../sandbox/serve/exposure';
import { readAnswer } from '../sandbox/domain/webhooks';
import { out } from './output';
import { sandboxUrl as sandboxUrlOf } from './control';
import { API_VERSION, controlHeaders, watchParent } from './sandbox';
import { UsageError } from './table';

type Action = (json: boolean, body: () => Promise<void>) => Promise<void>;

interface ListenOptions {
  forwardTo: string;
  events?: string;
  url?: string;
  json?: boolean;
  giveUpAfter: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The largest delivery forwarded: the sandbox's own request body limit. */
const MAX_DELIVERY_BYTES = 1024 * 1024;
/**
 * The whole request must arrive within this (the sandbox sends a delivery at once): a sender dripping
 * a byte now and then, or stalling mid-body, is answered 408 and dropped instead of holding the
 * receiver. Node checks it once a second here (its default is every 30 s).
 */
const REQUEST_TIMEOUT_MS = 5_000;

/** Reads a request's raw bytes; undefined past {@link MAX_DELIVERY_BYTES} (the rest is drained, not kept). */
function rawBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_DELIVERY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_DELIVERY_BYTES ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Why a request to the receiver is not a delivery of the local sandbox, if it is not: the sandbox
 * POSTs server to server on loopback, so a browser page (any `Origin`) or a foreign `Host` (DNS
 * rebinding) is refused before anything is forwarded; listen would otherwise relay a page's request
 * to the forward URL and hand the page its answer.
 */
function refusal(req: IncomingMessage): { status: number; reason: string } | undefined {
  if (req.headers.origin !== undefined) return { status: 403, reason: 'a request from a browser page (Origin)' };
  const host = splitHost(req.headers.host ?? '');
  if (!host || !isLoopbackHost(host.name)) return { status: 421, reason: 'a Host that is not loopback' };
  if (req.method !== 'POST') return { status: 405, reason: `${req.method ?? '?'} instead of POST` };
  return undefined;
}

async function listen(opts: ListenOptions): Promise<void> {
  let target: URL;
  try {
    target = new URL(opts.forwardTo);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(`--forward-to needs an http(s) URL such as http://localhost:3000/webhooks, got '${opts.forwardTo}'`);
  }
  const giveUpMs = Number(opts.giveUpAfter) * 1_000;
  if (!Number.isFinite(giveUpMs) || giveUpMs <= 0) throw new UsageError(`--give-up-after needs seconds, got '${opts.giveUpAfter}'`);
  const filter = opts.events ? new Set(opts.events.split(',').map((t) => t.trim()).filter(Boolean)) : undefined;
  const sandboxUrl = sandboxUrlOf(opts.url);
  const print = (fields: Record<string, unknown>, text: string) => out(opts.json ? `${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n` : `${new Date().toISOString().slice(11, 23)} ${text}\n`);

  const receiver = createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const started = performance.now();
      const refused = refusal(req);
      if (refused) {
        req.resume();
        res.writeHead(refused.status, { connection: 'close' }).end();
        print({ kind: 'refused', status: refused.status, reason: refused.reason }, `refused ${refused.reason} (${refused.status}); nothing forwarded`);
        return;
      }
      const body = await rawBody(req);
      if (body === undefined) {
        res.writeHead(413).end();
        print({ kind: 'refused', status: 413, reason: `a body over ${MAX_DELIVERY_BYTES} bytes` }, `refused a body over ${MAX_DELIVERY_BYTES} bytes (413); nothing forwarded`);
        return;
      }
      let type = '?';
      let id = '?';
      try {
        const event = JSON.parse(body.toString('utf8')) as { type?: string; id?: string };
        type = String(event.type);
        id = String(event.id);
      } catch {
        // forwarded as it came: the receiver decides
      }
      if (filter && !filter.has(type)) {
        res.statusCode = 200;
        res.end();
        print({ kind: 'skipped', type, id }, `${type} ${id} skipped (--events)`);
        return;
      }
      const headers: Record<string, string> = { 'content-type': req.headers['content-type'] ?? 'application/json' };
      const signature = req.headers['x-service-signature'];
      if (typeof signature === 'string') headers['x-service-signature'] = signature;
      try {
        const answer = await fetch(target, { method: 'POST', headers, body: new Uint8Array(body), signal: AbortSignal.timeout(25_000) });
        // The forward target's answer goes back to the sandbox: no more than a delivery may carry.
        const { text } = await readAnswer(answer, MAX_DELIVERY_BYTES);
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
        res.end(text);
        const ms = Math.round(performance.now() - started);
        print({ kind: 'forwarded', type, id, status: answer.status, ms }, `${type} ${id} → ${answer.status} ${ms}ms`);
      } catch (error) {
        const cause = ((error as Error).cause as { code?: string } | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
        res.statusCode = 502;
        res.end();
        print({ kind: 'failed', type, id, error: cause }, `${type} ${id} → not delivered to ${target.href}: ${cause}`);
      }
    })().catch(() => res.destroy()); // the sandbox's connection broke mid-body: nothing to forward
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

  let stopping = false;
  let stream: AbortController | undefined;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    stream?.abort();
    receiver.close();
    receiver.closeAllConnections();
    if (!opts.json) process.stderr.write(`listen: ${why}; stopped.\n`);
    setTimeout(() => process.exit(process.exitCode ?? 0), 50).unref();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  watchParent((reason) => stop(reason));

  /** Points the sandbox at the receiver; resolves when it is done, rejects when the sandbox is not there. */
  const attach = async () => {
    const res = await fetch(`${sandboxUrl}/${API_VERSION}/config`, {
      method: 'PATCH',
      headers: { ...controlHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ webhookEndpoint: endpoint }),
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) throw new Error(`the sandbox refused the webhookEndpoint: ${res.status} ${await res.text()}`);
  };
  /** Follows /_sandbox/events until it ends (the sandbox stopped): its end is how a restart is seen. */
  const follow = async () => {
    stream = new AbortController();
    const res = await fetch(`${sandboxUrl}/_sandbox/events`, { headers: controlHeaders(), signal: stream.signal });
    if (!res.ok || !res.body) throw new Error(`no event stream: ${res.status}`);
    const reader = res.body.getReader();
    for (;;) {
      const { done } = await reader.read();
      if (done) return;
    }
  };

  let first = true;
  let delay = 500;
  let lostSince: number | undefined;
  while (!stopping) {
    try {
      await attach();
      print({ kind: 'ready', endpoint, sandbox: sandboxUrl, forwardTo: target.href, events: filter ? [...filter] : 'all' }, first
        ? `Ready: the sandbox at ${sandboxUrl} delivers to ${endpoint}; forwarding ${filter ? [...filter].join(', ') : 'every event'} to ${target.href} (signatures unchanged). Ctrl-C stops.`
        : `Reconnected to the sandbox at ${sandboxUrl}; webhooks delivered to ${endpoint} again.`);
      first = false;
      delay = 500;
      lostSince = undefined;
      await follow().catch(() => undefined);
      if (stopping) break;
      print({ kind: 'disconnected', sandbox: sandboxUrl }, `The sandbox at ${sandboxUrl} went away; waiting for it to come back.`);
    } catch (error) {
      if (stopping) break;
      lostSince ??= Date.now();
      if (Date.now() - lostSince > giveUpMs) {
        process.stderr.write(`listen: no sandbox at ${sandboxUrl} for ${opts.giveUpAfter} s; giving up.\n`);
        process.exitCode = 1;
        stop('gave up');
        return;
      }
      if (first && delay === 500) {
        const code = ((error as Error).cause as { code?: string } | undefined)?.code;
        print({ kind: 'waiting', sandbox: sandboxUrl, error: code ?? (error as Error).message }, `No sandbox at ${sandboxUrl} yet (${code ?? (error as Error).message}); retrying.`);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 5_000);
    }
  }
}

/** Adds `listen`. */
export function addListenCommand(program: Command, action: Action): void {
  program
    .command('listen')
    .description("receive the local sandbox's webhooks and forward each one to URL, signature unchanged; one line per event")
    .requiredOption('--forward-to <url>', 'where to forward each delivery (your webhook handler)')
    .option('--events <types>', 'only these event types, comma-separated (others are acknowledged and not forwarded)')
    .option('--url <url>', 'the sandbox (default: CROSSBORDER_BASE_URL, else http://127.0.0.1:4010)')
    .option('--give-up-after <seconds>', 'stop after this long without reaching the sandbox', '600')
    .option('--json', 'one JSON line per event')
    .action(async (opts: ListenOptions) => action(opts.json === true, () => listen(opts)));
}
