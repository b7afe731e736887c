/**
 * Who may reach the sandbox over HTTP, and with what: the `Host` a request names (DNS rebinding),
 * the control token that guards the control plane and the configuration writes, and loopback
 * origins. Pure (no node:*): the in-process adapters (fetch, msw) never go through these checks.
 * @module
 */
import { isLoopbackHost, splitHost } from '../../core/loopback';

export { CONTROL_TOKEN_HEADER } from '../../helpers/sandbox-controls';

/** The cookie the inspector page gets when opened with `?token=`, so its own reads carry the token. */
export const CONTROL_TOKEN_COOKIE = 'crossborder_sandbox_token';

/**
 * A new control token: 32 random bytes as 64 hex characters (Web Crypto, no node:*). What to pass as
 * `controlToken` to `createSandbox` when serving beyond loopback; print it for whoever drives the
 * controls (`X-Sandbox-Token: <token>`).
 */
export function generateControlToken(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Checks a `controlToken` option: undefined, or at least 16 visible ASCII characters (it travels in a
 * header and a cookie).
 * @throws Error naming the option otherwise (never its value).
 */
export function checkControlToken(token: unknown): void {
  if (token === undefined) return;
  if (typeof token !== 'string' || token.length < 16 || token.length > 512 || !/^[\x21-\x7e]+$/.test(token) || /[;,"\\]/.test(token)) {
    throw new Error('controlToken must be a string of 16 to 512 visible ASCII characters without ; , " or \\ (generateControlToken() makes one)');
  }
}

/** Whether `listen(port, host)` asks for a control token: always when one is given, and beyond loopback. */
export function requiresControlToken(host: string, given: string | undefined): boolean {
  return given !== undefined || !isLoopbackHost(host);
}

/** Equal strings, in a time that does not depend on where they differ. */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i]!;
  return diff === 0;
}

/** The value of cookie `name` in a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

// The loopback rule is the CLI's too (listen, mcp): it lives in core/loopback, shared by both.
export { isLoopbackHost, splitHost } from '../../core/loopback';

/** An IP address literal (v4 dotted, or v6), not a name. */
function isIpLiteral(name: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || (name.includes(':') && /^[0-9a-f:.]+$/.test(name));
}

/** Where a listener is bound. */
export interface Binding {
  /** The address `listen()` was given (`127.0.0.1`, `0.0.0.0`, `192.168.1.20`, `::`). */
  host: string;
  /** The port bound. */
  port: number;
  /** More names a `Host` header may carry (a LAN name such as `devbox.local`). */
  allowedHosts?: readonly string[] | undefined;
}

/**
 * Whether a request's `Host` header may reach a listener bound at `binding` (the DNS rebinding
 * guard): a loopback name (`localhost`, `127.x.x.x`, `[::1]`, any port: a port forward keeps the
 * name), the bound address with the bound port, an address literal when bound to every interface
 * (`0.0.0.0`, `::`: a page cannot rebind a name to an address literal, since its origin would be
 * that address), or a name from `allowedHosts`. A hostile page that rebinds its own name
 * (`rebind.evil.example`) to 127.0.0.1 sends that name, and is refused.
 */
export function hostAllowed(hostHeader: string | undefined, binding: Binding): boolean {
  if (hostHeader === undefined) return false;
  const parsed = splitHost(hostHeader);
  if (!parsed) return false;
  const { name, port } = parsed;
  if (isLoopbackHost(name)) return true;
  const bound = binding.host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const samePort = port === undefined ? binding.port === 80 : port === binding.port;
  if (name === bound) return samePort;
  if ((bound === '0.0.0.0' || bound === '::') && isIpLiteral(name)) return samePort;
  return (binding.allowedHosts ?? []).some((h) => h.toLowerCase() === name || h.toLowerCase() === `${name}:${port}`);
}

/**
 * A loopback origin (`http://localhost:5173`, `http://127.0.0.1:3000`, `http://[::1]:8080`, https
 * too): a page served from this machine. The sandbox allows these by default.
 */
export function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.origin !== origin) return false; // what browsers send: scheme://host[:port], nothing more
  const h = url.hostname;
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** How a request reached the sandbox. */
export interface Exposure {
  /**
   * True when the server is bound to a loopback address (or the call is in-process): the inspector page
   * and its event stream are open. Otherwise both take the Basic credentials too.
   */
  loopback: boolean;
  /**
   * Where the HTTP listener that received the request is bound; undefined for in-process calls (fetch,
   * msw), which cross no network and carry whatever URL the caller chose, so neither `Host` nor
   * `Origin` is checked for them.
   */
  binding?: Binding | undefined;
  /** The control token `/_sandbox/*` and `PATCH /config` take over this listener; undefined: none. */
  controlToken?: string | undefined;
}

/** In-process calls (fetch, msw) never cross a network: treated like loopback. */
export const IN_PROCESS: Exposure = { loopback: true };
