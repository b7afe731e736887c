/**
 * The one client of a running sandbox that the commands use (`sandbox` verbs, `listen`, `trigger`,
 * `fixtures`): its API through a {@link CrossborderCore} (the SDK's auth, API version, retries and
 * errors: `PATCH /config` is the `updateConfig` operation), and its `/_sandbox/` controls with the
 * same credentials and the control token (`CROSSBORDER_SANDBOX_TOKEN`) when one is set.
 * @module
 */
import { CrossborderCore } from '../core/client';
import { CHECKED } from '../core/parts';
import { API_VERSION } from '../core/settings';
import { operations } from '../generated/operations';
import type { PlatformConfig, PlatformConfigUpdateParams } from '../generated/named';
import { readBounded } from '../core/read-bounded';
import { STATE_LIMIT_BYTES } from './files';
import { LOCAL_SANDBOX_URL, originOf, shownUrl, targetOf } from './shared';

export { API_VERSION };

/** The default address of a running sandbox. */
export const DEFAULT_SANDBOX_URL = LOCAL_SANDBOX_URL;

/** The credentials the CLI gives a sandbox (it accepts any Basic credentials). */
export const SANDBOX_CREDENTIALS = { tokenId: 'sandbox', clientSecret: 'sandbox' } as const;

/** The header of the sandbox's control token (what `crossborder-sdk/sandbox` exports as `CONTROL_TOKEN_HEADER`; not imported, to keep the sandbox out of the CLI's start). */
const CONTROL_TOKEN_HEADER = 'x-sandbox-token';

/**
 * The sandbox a command drives: `--url` (or `--base-url`), else `CROSSBORDER_BASE_URL`, else
 * http://127.0.0.1:4010, the rule of every command ({@link targetOf}); the origin of that address.
 */
export function sandboxUrl(given?: string | undefined): string {
  return originOf(targetOf({ baseUrl: given }).baseUrl);
}

/** Headers of a call to the sandbox's controls: its Basic credentials, and its control token when CROSSBORDER_SANDBOX_TOKEN gives one. */
export function controlHeaders(): Record<string, string> {
  const token = process.env.CROSSBORDER_SANDBOX_TOKEN;
  return {
    authorization: `Basic ${btoa(`${SANDBOX_CREDENTIALS.tokenId}:${SANDBOX_CREDENTIALS.clientSecret}`)}`,
    ...(token ? { [CONTROL_TOKEN_HEADER]: token } : {}),
  };
}

/** The SDK client of a sandbox's API: sandbox credentials, and the control token (PATCH /config asks for it beyond loopback). */
export function sandboxCore(url: string | undefined): CrossborderCore {
  const token = process.env.CROSSBORDER_SANDBOX_TOKEN;
  return new CrossborderCore(
    {
      ...SANDBOX_CREDENTIALS,
      baseUrl: sandboxUrl(url),
      environment: 'sandbox',
      ...(token ? { defaultHeaders: { [CONTROL_TOKEN_HEADER]: token } } : {}),
    },
    CHECKED,
  );
}

/** The platform configuration of a sandbox (`getConfig`). */
export function sandboxConfig(url: string | undefined): Promise<PlatformConfig> {
  return reachable(url, sandboxCore(url).call(operations.getConfig, {}));
}

/** Changes a sandbox's platform configuration (`updateConfig`, `PATCH /config`). */
export function updateSandboxConfig(url: string | undefined, patch: PlatformConfigUpdateParams): Promise<PlatformConfig> {
  return reachable(url, sandboxCore(url).call(operations.updateConfig, { body: patch }));
}

/** A call's failure to connect said as "no sandbox is running". */
async function reachable<T>(url: string | undefined, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (/ECONNREFUSED/.test(String((error as Error).message)) || ((error as Error).cause as { code?: string } | undefined)?.code === 'ECONNREFUSED')
      throw new SandboxNotRunning(sandboxUrl(url));
    throw error;
  }
}

/** One call to a running sandbox's controls (`/_sandbox/…`, or an API path under `/<version>/`); the answer's JSON. A stopped sandbox is said so. */
export async function control(url: string | undefined, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const origin = sandboxUrl(url);
  let res: Response;
  try {
    res = await fetch(`${origin}${path}`, {
      method,
      headers: { ...controlHeaders(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    if (code === 'ECONNREFUSED') throw new SandboxNotRunning(origin);
    throw new Error(`cannot reach the sandbox at ${shownUrl(origin)}: ${code ?? (error instanceof Error ? error.message : String(error))}`);
  }
  // Bounded: an answer no sandbox state could be (a peer that lies or never ends) is refused, not buffered.
  const { bytes, cut } = await readBounded(res.body, STATE_LIMIT_BYTES);
  if (cut) throw new Error(`the answer of ${shownUrl(origin)}${path} is larger than the limit of ${STATE_LIMIT_BYTES / 2 ** 20} MiB`);
  const text = new TextDecoder().decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** A delivery target attached to a running sandbox (`POST /_sandbox/webhooks/listeners`), beside its configured endpoint. */
export interface AttachedListener {
  /** `Listener:<n>`. */
  id: string;
  /**
   * Resolves when the attachment ends from the sandbox's side (it stopped or restarted); never
   * rejects. After {@link detach} it resolves too.
   */
  ended: Promise<void>;
  /** Detaches: closes the held connection, and the sandbox stops delivering to the listener at once. */
  detach(): void;
}

/**
 * Attaches `url` to the sandbox at `sandboxUrl` as a webhook delivery target of its own, for as long
 * as this process holds the connection: the configured `webhookEndpoint` is never touched, and a
 * process that exits, is interrupted or is killed is detached by the sandbox when its connection
 * closes. `approvals`: `answer` when the target's answer to an approval request may decide the
 * payment (when no endpoint is configured), `observe` when it must decide nothing.
 */
export async function attachListener(sandboxUrl: string, url: string, approvals: 'answer' | 'observe'): Promise<AttachedListener> {
  const held = new AbortController();
  const timer = setTimeout(() => held.abort(new Error('the sandbox did not confirm the listener within 10 s')), 10_000);
  let res: Response;
  try {
    res = await fetch(`${sandboxUrl.replace(/\/+$/, '')}/_sandbox/webhooks/listeners`, {
      method: 'POST',
      headers: { ...controlHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ url, approvals }),
      signal: held.signal,
    });
  } catch (error) {
    clearTimeout(timer);
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    if (code === 'ECONNREFUSED') throw Object.assign(new SandboxNotRunning(sandboxUrl), { cause: (error as Error).cause });
    throw error;
  }
  if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    clearTimeout(timer);
    const { bytes } = await readBounded(res.body, 4_096).catch(() => ({ bytes: new Uint8Array(0) }));
    throw new Error(`the sandbox at ${sandboxUrl} did not attach the listener: ${res.status} ${new TextDecoder().decode(bytes)}`);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | undefined;
  try {
    while (id === undefined) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the sandbox at ${sandboxUrl} closed the listener's stream before attaching it`);
      buffer += decoder.decode(value, { stream: true });
      if (buffer.length > 65_536) throw new Error(`the sandbox at ${sandboxUrl} sent no listener id`);
      const refused = /event: refused\ndata: (.*)\n/.exec(buffer);
      if (refused)
        throw new Error(`the sandbox at ${sandboxUrl} refused the listener: ${(JSON.parse(refused[1]!) as { message?: string }).message ?? refused[1]}`);
      const attached = /event: attached\ndata: (.*)\n/.exec(buffer);
      if (attached) id = (JSON.parse(attached[1]!) as { id: string }).id;
    }
  } catch (error) {
    held.abort();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // Read what follows (heartbeats) and keep nothing: its end is the sandbox going away.
  const ended = (async () => {
    try {
      for (;;) if ((await reader.read()).done) return;
    } catch {
      // aborted (detach) or the connection broke: ended either way
    }
  })();
  return { id, ended, detach: () => held.abort() };
}

/** Nothing listens at the sandbox's address. */
export class SandboxNotRunning extends Error {
  override name = 'SandboxNotRunning';
  constructor(url: string) {
    super(
      `no sandbox is running at ${shownUrl(url)} (start one with: npx crossborder-sdk sandbox${url === DEFAULT_SANDBOX_URL ? '' : ' --port …'}, or give its --url)`,
    );
  }
}
