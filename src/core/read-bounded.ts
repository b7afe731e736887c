/**
 * One bounded reader for bodies that come from a peer: the sandbox's webhook delivery reads its
 * receiver's answer with it, and the CLI's `listen` reads both the deliveries it receives and its
 * forward target's answers with it. A peer may send without end; no more than `limit` bytes are
 * ever kept.
 * @module
 */

/** What {@link readBounded} read. */
export interface BoundedRead {
  /** The bytes kept: at most `limit`. */
  bytes: Uint8Array;
  /** True when the body was longer than `limit` (then `bytes` holds its first `limit` bytes). */
  cut: boolean;
}

/** How {@link readBounded} treats what comes past the limit. */
export interface ReadBoundedOptions {
  /**
   * `cancel` (default): stop reading and cancel the body (a response the reader no longer wants).
   * `drain`: keep reading to the end without keeping anything, so the peer can still be answered
   * (a request answered 413); bound it in time elsewhere (a request timeout).
   */
  rest?: 'cancel' | 'drain';
}

/**
 * Reads at most `limit` bytes of `body` (a Fetch body or a Node stream such as an `IncomingMessage`).
 * Never keeps more than `limit` bytes whatever the peer sends.
 */
export async function readBounded(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null | undefined,
  limit: number,
  options: ReadBoundedOptions = {},
): Promise<BoundedRead> {
  if (!body) return { bytes: new Uint8Array(0), cut: false };
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let cut = false;
  const take = (chunk: Uint8Array): boolean => {
    if (cut) return options.rest === 'drain';
    const room = limit - kept;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      kept = limit;
      cut = true;
      return options.rest === 'drain';
    }
    chunks.push(chunk);
    kept += chunk.length;
    return true;
  };
  if (typeof (body as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!take(value)) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  } else {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      if (!take(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk)) break; // leaving the loop destroys the stream
    }
  }
  const bytes = new Uint8Array(kept);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, cut };
}
