/**
 * The node:http adapter: serves the sandbox core on 127.0.0.1 with keep-alive. Loaded only by
 * `listen()` (dynamic import) and the CLI, so browser bundles of the sandbox never reach node:*.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { bodyLimit, decodeUtf8, isMultipart, MAX_STREAM_BUFFER_BYTES, tooLarge, type SandboxRequest, type SandboxResponse } from './http';

/** A running HTTP server. */
export interface ListeningServer {
  /** `http://127.0.0.1:<port>`, without the version segment (the SDK adds it). */
  url: string;
  /** Stops accepting requests and closes open keep-alive connections. */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<{ body: string | undefined; bodyError?: string; bytes?: Uint8Array }> {
  // A state import (PUT /_sandbox/state) may be as large as what GET exported; everything else 1 MiB.
  const limit = bodyLimit(req.method ?? 'GET', req.url ?? '/');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit keep draining (so the answer can still be sent) but stop keeping bytes.
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > limit) return resolve({ body: undefined, bodyError: tooLarge(limit) });
      if (size === 0) return resolve({ body: undefined });
      const bytes = Buffer.concat(chunks, size);
      const body = decodeUtf8(bytes);
      // A multipart body's file parts are bytes: read from `bytes`, not refused for not being text.
      const multipart = isMultipart(typeof req.headers['content-type'] === 'string' ? req.headers['content-type'] : undefined);
      resolve(body === undefined && !multipart ? { body: undefined, bodyError: 'The request body is not valid UTF-8.' } : { body, bytes });
    });
    req.on('error', reject);
  });
}

/** How long a live stream may stay unable to write (`res.write` answered false, no 'drain') before it is closed. */
export const STREAM_STALL_MS = 15_000;

function send(res: ServerResponse, response: SandboxResponse): void {
  res.writeHead(response.status, response.headers);
  if (response.stream) {
    res.flushHeaders();
    // A subscriber that falls behind is closed rather than buffered for: past MAX_STREAM_BUFFER_BYTES
    // waiting, or unable to take more for STREAM_STALL_MS.
    let closed = false;
    let stalled: ReturnType<typeof setTimeout> | undefined;
    let stop: () => void = () => {};
    const close = () => {
      if (closed) return;
      closed = true;
      if (stalled !== undefined) clearTimeout(stalled);
      stop();
      res.destroy();
    };
    res.on('drain', () => {
      if (stalled !== undefined) clearTimeout(stalled);
      stalled = undefined;
    });
    res.on('close', close);
    stop = response.stream((chunk) => {
      if (closed) return;
      if (!res.write(chunk) && stalled === undefined) stalled = setTimeout(close, STREAM_STALL_MS);
      if (res.writableLength > MAX_STREAM_BUFFER_BYTES) close();
    });
    if (closed) stop(); // closed while replaying
    return;
  }
  res.end(response.body);
}

/** Starts serving `handle` on 127.0.0.1:`port` (0 picks a free port). */
export async function serve(handle: (req: SandboxRequest) => Promise<SandboxResponse>, port = 0, host = '127.0.0.1'): Promise<ListeningServer> {
  const sockets = new Set<Socket>();
  const server = createServer({ keepAlive: true }, (req, res) => {
    readBody(req)
      .then(({ body, bodyError, bytes }) =>
        handle({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          header: (name) => {
            const value = req.headers[name];
            return Array.isArray(value) ? value.join(', ') : value;
          },
          body,
          bodyError,
          bytes,
        }),
      )
      .then(
        (response) => send(res, response),
        () => {
          if (!res.headersSent)
            send(res, {
              status: 500,
              headers: { 'content-type': 'application/json' },
              body: '{"status":500,"code":"INTERNAL_ERROR","message":"The sandbox failed to read the request."}',
            });
        },
      );
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A request that is not HTTP at all gets a plain 400 instead of a silently dropped socket.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${bound}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
