/**
 * `crossborder-sdk listen --forward-to URL`: receives the local sandbox's webhook deliveries and
 * forwards each one to URL, printing one line per event.
 *
 * It opens a receiver on 127.0.0.1 and attaches it to the sandbox as a delivery target of its own
 * (`POST /_sandbox/webhooks/listeners`, a held connection), beside the configured `webhookEndpoint`,
 * which it never changes: the sandbox delivers every event to both. When listen goes away (it ends,
 * is interrupted, or is killed) its connection closes and the sandbox detaches it at once.
 * Each delivery is forwarded as the sandbox sent it: the same raw bytes and the same
 * `X-Service-Signature`, which the sandbox made with its own key. Nothing is re-signed, so the
 * receiver's verification stays honest: it checks the very bytes the sandbox signed, with the
 * sandbox's public key (the one `crossborder-sdk sandbox` prints), and a body changed on the way
 * fails it as it would in production. `listen` holds no private key. The receiver's status and body
 * go back to the sandbox, so approval answers (200, 202, 403, 422) work through it: they decide the
 * payment when no `webhookEndpoint` is configured (else the endpoint's answer decides). A redirect
 * from the forward target is not followed: it is a failed forward (502 to the sandbox).
 *
 * `--events` skips the other types: a skipped notification is acknowledged (200, which decides
 * nothing), and a skipped approval request (`INCOMING_PAYMENT.PENDING`) is answered 202, so the
 * payment stays held for `/approve` or `/reject` as if the platform had deferred it.
 *
 * It keeps running across sandbox restarts: when the held connection ends (the sandbox stopped) it
 * attaches again with a bounded backoff (0.5 s doubling to 5 s; it gives up after `--give-up-after`,
 * default 10 minutes without a sandbox).
 @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { isLoopbackHost, readBounded, splitHost } from './sdk';
import { jsonLine, out, visible } from './output';
import { sandboxUrl as sandboxUrlOf } from './control';
import { attachListener, watchParent, type AttachedListener } from './sandbox';
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

/** The approval request: a skip must not answer it in a way that decides (see the module's notes). */
const APPROVAL_REQUEST = 'INCOMING_PAYMENT.PENDING';

/** Reads a request's raw bytes; undefined past {@link MAX_DELIVERY_BYTES} (the rest is drained, not kept, so the 413 still goes out). */
async function rawBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const { bytes, cut } = await readBounded(req, MAX_DELIVERY_BYTES, { rest: 'drain' });
  return cut ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
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
  const filter = opts.events
    ? new Set(
        opts.events
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      )
    : undefined;
  const sandboxUrl = sandboxUrlOf(opts.url);
  const print = (fields: Record<string, unknown>, text: string) =>
    out(opts.json ? jsonLine({ time: new Date().toISOString(), ...fields }) : `${new Date().toISOString().slice(11, 23)} ${visible(text)}\n`);

  const receiver = createServer(
    { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
    (req: IncomingMessage, res: ServerResponse) => {
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
          print(
            { kind: 'refused', status: 413, reason: `a body over ${MAX_DELIVERY_BYTES} bytes` },
            `refused a body over ${MAX_DELIVERY_BYTES} bytes (413); nothing forwarded`,
          );
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
          // 200 only acknowledges a notification; to an approval request it would approve the payment.
          const held = type === APPROVAL_REQUEST;
          res.statusCode = held ? 202 : 200;
          res.end();
          print(
            { kind: 'skipped', type, id, status: res.statusCode },
            `${type} ${id} skipped (--events)${held ? ': answered 202, the payment stays held for approve/reject' : ''}`,
          );
          return;
        }
        const headers: Record<string, string> = { 'content-type': req.headers['content-type'] ?? 'application/json' };
        const signature = req.headers['x-service-signature'];
        if (typeof signature === 'string') headers['x-service-signature'] = signature;
        try {
          // The signed body goes to the forward target and nowhere else: a redirect is not followed.
          const answer = await fetch(target, { method: 'POST', headers, body: new Uint8Array(body), signal: AbortSignal.timeout(25_000), redirect: 'manual' });
          if (answer.status >= 300 && answer.status < 400) {
            await answer.body?.cancel().catch(() => undefined);
            const location = answer.headers.get('location');
            const reason = `a redirect (${answer.status}${location ? ` to ${location.slice(0, 200)}` : ''}) is not followed`;
            res.statusCode = 502;
            res.end();
            print({ kind: 'failed', type, id, status: answer.status, error: reason }, `${type} ${id} → not delivered to ${target.href}: ${reason}`);
            return;
          }
          // The forward target's answer goes back to the sandbox: no more than a delivery may carry.
          const { bytes } = await readBounded(answer.body, MAX_DELIVERY_BYTES);
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
          res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
          const ms = Math.round(performance.now() - started);
          print({ kind: 'forwarded', type, id, status: answer.status, ms }, `${type} ${id} → ${answer.status} ${ms}ms`);
        } catch (error) {
          const cause = ((error as Error).cause as { code?: string } | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
          res.statusCode = 502;
          res.end();
          print({ kind: 'failed', type, id, error: cause }, `${type} ${id} → not delivered to ${target.href}: ${cause}`);
        }
      })().catch(() => res.destroy()); // the sandbox's connection broke mid-body: nothing to forward
    },
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

  let stopping = false;
  let attached: AttachedListener | undefined;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    attached?.detach(); // the held connection closes: the sandbox detaches this listener at once
    receiver.close();
    receiver.closeAllConnections();
    if (!opts.json) process.stderr.write(`listen: ${why}; stopped.\n`);
    setTimeout(() => process.exit(process.exitCode ?? 0), 50).unref();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  watchParent((reason) => stop(reason));

  let first = true;
  let delay = 500;
  let lostSince: number | undefined;
  while (!stopping) {
    try {
      attached = await attachListener(sandboxUrl, endpoint, 'answer');
      if (stopping) {
        attached.detach();
        break;
      }
      print(
        { kind: 'ready', endpoint, listener: attached.id, sandbox: sandboxUrl, forwardTo: target.href, events: filter ? [...filter] : 'all' },
        first
          ? `Ready: the sandbox at ${sandboxUrl} delivers to ${endpoint} (${attached.id}, beside its webhookEndpoint); forwarding ${filter ? [...filter].join(', ') : 'every event'} to ${target.href} (signatures unchanged). Ctrl-C stops.`
          : `Reconnected to the sandbox at ${sandboxUrl}; webhooks delivered to ${endpoint} again (${attached.id}).`,
      );
      first = false;
      delay = 500;
      lostSince = undefined;
      await attached.ended; // the sandbox stopped (or this process is stopping)
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
        print(
          { kind: 'waiting', sandbox: sandboxUrl, error: code ?? (error as Error).message },
          `No sandbox at ${sandboxUrl} yet (${code ?? (error as Error).message}); retrying.`,
        );
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
    .option(
      '--events <types>',
      'only these event types, comma-separated (others are not forwarded: acknowledged 200, but INCOMING_PAYMENT.PENDING answered 202 so the payment stays held)',
    )
    .option('--url <url>', 'the sandbox (default: CROSSBORDER_BASE_URL, else http://127.0.0.1:4010)')
    .option('--give-up-after <seconds>', 'stop after this long without reaching the sandbox', '600')
    .option('--json', 'one JSON line per event')
    .action(async (opts: ListenOptions) => action(opts.json === true, () => listen(opts)));
}
