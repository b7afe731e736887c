/**
 * Whether an address is this machine: the one rule of the sandbox's exposure (who may reach it) and of
 * the CLI (`listen`'s receiver, where `mcp` may point without `--allow-remote`).
 * @module
 */

/**
 * True for an address only this machine reaches: 127.0.0.0/8, ::1 (and its IPv4-mapped form) and
 * `localhost` (and `*.localhost`, which browsers resolve to loopback themselves). `0.0.0.0` and `::`
 * listen on every interface, so they are not.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  // WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h)) return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** `host[:port]` of a `Host` header, the brackets of an IPv6 literal removed; undefined when it is not one. */
export function splitHost(value: string): { name: string; port: number | undefined } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/@]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m) return undefined;
  return { name: m[1]!.toLowerCase().replace(/^\[(.*)\]$/, '$1'), port: m[2] === undefined ? undefined : Number(m[2]) };
}
