/**
 * The sandbox's transport-neutral request and response, and path matching. The fetch, msw and
 * node:http adapters all translate to and from these, so every adapter runs the same handler.
 * @module
 */
import { SANDBOX_CONTROLS } from '../../helpers/sandbox-controls';
import type { Answer } from '../domain/reply';

/** A request as the core sees it. */
export interface SandboxRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Absolute URL, or path plus query (`/2025-10-13/customers?limit=5`). */
  url: string;
  /** Header lookup by lower-case name; undefined when absent. */
  header(name: string): string | undefined;
  /** The body decoded as UTF-8 (undefined or '' when there is none). */
  body: string | undefined;
  /** Set by an adapter that could not read the body (not UTF-8, too large): the core answers 400. */
  bodyError?: string | undefined;
  /** The body's bytes as received (a multipart body's files are read from them, byte for byte). */
  bytes?: Uint8Array | undefined;
}

/** Largest request body the sandbox reads (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Largest state document `PUT /_sandbox/state` reads (128 MiB): what `GET /_sandbox/state` exports must go back in. */
export const MAX_STATE_BODY_BYTES = 128 * 1024 * 1024;

/**
 * Largest document upload or replacement the sandbox reads (16 MiB): above production's 10 MB a file, so that
 * a file a little too large reaches the documents' own check and its 413 `FILE_TOO_LARGE` (domain/documents.ts).
 */
export const MAX_DOCUMENT_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The body limit of a request: {@link MAX_STATE_BODY_BYTES} for a state import, {@link MAX_DOCUMENT_BODY_BYTES}
 * for a document upload (`POST /documents`) or replacement (`PUT /documents/{id}`), else {@link MAX_BODY_BYTES}.
 */
export function bodyLimit(method: string, url: string): number {
  const verb = method.toUpperCase();
  if (verb !== 'PUT' && verb !== 'POST') return MAX_BODY_BYTES;
  let path: string;
  try {
    path = new URL(url, 'http://sandbox.invalid').pathname;
  } catch {
    return MAX_BODY_BYTES;
  }
  if (verb === 'POST' ? /^\/[^/]+\/documents\/?$/.test(path) : /^\/[^/]+\/documents\/[^/]+$/.test(path)) return MAX_DOCUMENT_BODY_BYTES;
  return verb === 'PUT' && path === SANDBOX_CONTROLS.importState.path ? MAX_STATE_BODY_BYTES : MAX_BODY_BYTES;
}

/** Whether a body of `contentType` is multipart: its bytes need not be UTF-8 (a file part may be anything). */
export function isMultipart(contentType: string | undefined): boolean {
  return contentType !== undefined && /^multipart\/form-data\s*;/i.test(contentType);
}

/** What an adapter reports when a body is over its limit. */
export function tooLarge(limit: number): string {
  return `The request body exceeds ${limit} bytes (${limit / 1024 / 1024} MiB).`;
}

/**
 * Most bytes a live stream (`/_sandbox/events`) holds for one subscriber that does not read: past
 * this the HTTP adapter closes it (a browser's EventSource reconnects and gets the recent requests
 * again). The replay of recent requests a new subscriber gets is at most half of it.
 */
export const MAX_STREAM_BUFFER_BYTES = 256 * 1024;

/** The headers of a JSON answer. */
export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8' };

/** A response as the core produces it: an {@link Answer}, which may stream. */
export interface SandboxResponse extends Answer {
  /**
   * A body that goes on (Server-Sent Events): called with a writer once the headers are sent; the
   * returned function is called when the client goes away. Only the HTTP adapter streams.
   */
  stream?: ((write: (chunk: string) => void) => () => void) | undefined;
}

/** A JSON answer of `status` with `body`. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): SandboxResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** An error answer in the service's shape: `{ status, code, message, details? }`. */
export function errorAnswer(
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): SandboxResponse {
  return jsonAnswer(status, { status, code, message, ...(details ? { details } : {}) }, headers);
}

/** One Server-Sent Event: `data` as JSON, under the event name `event` when given (else a message). */
export function sseEvent(data: unknown, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** A held event stream (`text/event-stream`): `open` is called with a writer once the headers are sent, and returns the close. */
export function eventStream(open: (write: (chunk: string) => void) => () => void): SandboxResponse {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' },
    body: undefined,
    stream: open,
  };
}

/** A compiled path template such as `/customers/{customerId}`. */
export interface PathPattern {
  template: string;
  /** Number of literal segments: literal routes win over parameter routes (`/customers/internal-accounts`). */
  literals: number;
  match(path: string): Record<string, string> | undefined;
}

/** Compiles an OpenAPI path template into a matcher over decoded segments. */
export function compilePath(template: string): PathPattern {
  const parts = template.split('/').filter(Boolean);
  const literals = parts.filter((p) => !p.startsWith('{')).length;
  return {
    template,
    literals,
    match(path) {
      const segments = path.split('/').filter(Boolean);
      if (segments.length !== parts.length) return undefined;
      const params: Record<string, string> = {};
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!;
        const segment = segments[i]!;
        if (part.startsWith('{')) {
          let value: string;
          try {
            value = decodeURIComponent(segment);
          } catch {
            return undefined;
          }
          params[part.slice(1, -1)] = value;
        } else if (part !== segment) {
          return undefined;
        }
      }
      return params;
    },
  };
}

/** Reads the body bytes of a Fetch request as strict UTF-8; undefined when it is not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
