/**
 * What the commands print: results as readable tables or as JSON (one JSON value per result, one
 * line each), errors on stderr with their request id and, when the outcome is unknown, the
 * Idempotency-Key to retry with; and the exit code of each error class.
 * @module
 */
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  ConfigurationError,
  CrossborderError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  SignatureRequiredError,
  ValidationError,
  WalletCryptoError,
} from '../core/errors';
import { UsageError } from './table';

/**
 * Exit codes, by error class. 0: done. 1: anything else. 2: the command line (or the parameters the
 * SDK checks before sending). 3: credentials refused (401/403). 4: not found. 5: refused by the
 * service (400/409/422, another 4xx). 6: rate limited. 7: no answer or a 5xx (the outcome may be
 * unknown: retry with the Idempotency-Key printed). 8: a wallet signature is needed.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, auth: 3, notFound: 4, refused: 5, rateLimited: 6, unavailable: 7, signatureRequired: 8 } as const;

/** The exit code of an error. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || error instanceof ValidationError || error instanceof ConfigurationError) return EXIT.usage;
  if (error instanceof SignatureRequiredError || (error instanceof WalletCryptoError && error.reason === 'session_expired')) return EXIT.signatureRequired;
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return EXIT.auth;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (error instanceof RateLimitError) return EXIT.rateLimited;
  if (error instanceof APIConnectionError) return EXIT.unavailable;
  if (error instanceof APIError) return error.status >= 500 ? EXIT.unavailable : EXIT.refused;
  return EXIT.failure;
}

/** Writes to stdout; a reader that went away (EPIPE) ends the process quietly instead of crashing it. */
export function out(text: string): void {
  process.stdout.write(text);
}

/** Writes to stderr. */
export function err(text: string): void {
  process.stderr.write(text);
}

/** The fields of an error that help: class, status, code, request id, the key to retry with. */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const e = error as Error & Partial<{ status: number; code: string; requestId: string; idempotencyKey: string; outcomeUnknown: boolean; issues: unknown; details: unknown; challenge: unknown }>;
  return {
    error: error instanceof CrossborderError || error instanceof UsageError ? error.name : 'Error',
    message: error.message,
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(e.requestId ? { requestId: e.requestId } : {}),
    ...(e.outcomeUnknown ? { outcomeUnknown: true } : {}),
    ...(e.idempotencyKey ? { idempotencyKey: e.idempotencyKey } : {}),
    ...(e.issues !== undefined ? { issues: e.issues } : {}),
    ...(e.details !== undefined ? { details: e.details } : {}),
    ...(error instanceof SignatureRequiredError ? { challenge: e.challenge } : {}),
  };
}

/**
 * A URL's userinfo replaced by `***` (`https://user:pass@host` → `https://***@host`), anywhere in
 * `text`: a base URL may carry credentials, and error messages (Node's own among them) quote it.
 */
export function redactUserinfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"]*@/gi, '$1***@');
}

/**
 * Text for the terminal: URLs' userinfo never reaches it. (The SDK's errors are already scrubbed of
 * the client's credentials; config and session files are never quoted, see ./files.)
 */
export function redact(text: string): string {
  return redactUserinfo(text);
}

/** Every string in a value, redacted ({@link redact}). */
function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
  return value;
}

/** Prints an error (as a JSON line with `--json`) and answers its exit code. Its text is redacted ({@link redact}). */
export function reportError(error: unknown, json: boolean): number {
  const code = exitCodeOf(error);
  const { challenge, ...described } = describeError(error);
  // The challenge is relayed byte for byte (its payloadToSign is signed elsewhere): shown as it is.
  const info: Record<string, unknown> = { ...(redactDeep(described) as Record<string, unknown>), ...(challenge !== undefined ? { challenge } : {}) };
  if (json) {
    err(`${JSON.stringify(info)}\n`);
    return code;
  }
  err(`crossborder-sdk: ${error instanceof CrossborderError ? `${error.name}: ` : ''}${String(info.message)}\n`);
  if (info.requestId) err(`  request id: ${String(info.requestId)}\n`);
  if (info.outcomeUnknown && info.idempotencyKey) {
    err(`  the outcome is unknown: the service may have done it. Retry with the same key: --idempotency-key ${String(info.idempotencyKey)}\n`);
  }
  if (error instanceof SignatureRequiredError) {
    err(`  a wallet signature is needed: give --session-key FILE, or sign this challenge elsewhere and repeat with --signature SIG --request-id ${error.challenge.requestId}\n`);
    err(`  challenge: ${JSON.stringify(error.challenge)}\n`);
  }
  return code;
}

const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const cell = (v: unknown) => (v === undefined ? '' : scalar(v) ? String(v) : JSON.stringify(v));

/** An object as two columns (field, value). */
export function objectTable(value: Record<string, unknown>): string {
  const keys = Object.keys(value);
  const width = Math.max(0, ...keys.map((k) => k.length));
  return keys.map((k) => `${k.padEnd(width)}  ${cell(value[k])}`).join('\n') + '\n';
}

/** The terminal's width: `COLUMNS`, else stdout's when it is a terminal; undefined when neither says (a pipe). */
function terminalWidth(): number | undefined {
  const env = Number(process.env.COLUMNS);
  if (Number.isInteger(env) && env > 0) return env;
  return process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : undefined;
}

/** A column of identifiers (`id`, `customerId`, values such as `Customer:019…`): printed whole, never cut. */
function isIdColumn(name: string, values: string[]): boolean {
  if (name === 'id' || /Id$/.test(name)) return true;
  const given = values.filter((v) => v !== '');
  return given.length > 0 && given.every((v) => /^[A-Z][A-Za-z]*:[^\s:]{6,}$/.test(v));
}

/** Widest a column other than an id gets, and narrowest it is cut to before columns are left out. */
const MAX_CELL = 48;
const MIN_CELL = 8;

/**
 * Rows as a table: the columns are the first rows' scalar fields (up to 7), ids first. Ids are
 * printed whole at any width; to fit the terminal (`COLUMNS`), the other columns are cut (with `…`),
 * down to {@link MIN_CELL} characters, then left out from the right.
 */
export function rowsTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)\n';
  const columns: string[] = [];
  for (const row of rows.slice(0, 20)) for (const [k, v] of Object.entries(row)) if (scalar(v) && !columns.includes(k)) columns.push(k);
  let shown = ['id', ...columns.filter((c) => c !== 'id')].filter((c) => columns.includes(c)).slice(0, 7);
  const valuesOf = (c: string) => rows.map((r) => cell(r[c]));
  const ids = new Set(shown.filter((c) => isIdColumn(c, valuesOf(c))));
  const natural = new Map(shown.map((c) => [c, Math.max(c.length, ...valuesOf(c).map((v) => v.length))]));
  const widths = new Map(shown.map((c) => [c, ids.has(c) ? natural.get(c)! : Math.min(MAX_CELL, natural.get(c)!)]));
  const budget = terminalWidth();
  if (budget !== undefined) {
    const total = () => shown.reduce((sum, c) => sum + widths.get(c)!, 0) + 2 * (shown.length - 1);
    // Cut the widest other column, one character at a time, down to MIN_CELL; then leave columns out from the right.
    for (;;) {
      if (total() <= budget) break;
      const widest = shown.filter((c) => !ids.has(c) && widths.get(c)! > MIN_CELL).sort((a, b) => widths.get(b)! - widths.get(a)!)[0];
      if (widest !== undefined) {
        widths.set(widest, widths.get(widest)! - 1);
        continue;
      }
      const last = shown.findLastIndex((c) => !ids.has(c));
      if (last < 0) break;
      shown = shown.filter((_, i) => i !== last);
    }
  }
  const line = (values: string[]) =>
    values
      .map((v, i) => {
        const w = widths.get(shown[i]!)!;
        return v.length > w ? `${v.slice(0, w - 1)}…` : v.padEnd(w);
      })
      .join('  ')
      .trimEnd();
  return [line(shown.map((c) => c.toUpperCase())), ...rows.map((r) => line(shown.map((c) => cell(r[c]))))].join('\n') + '\n';
}

/** One result: a JSON line, or a table (a `{ data: [...] }` answer as rows). */
export function printResult(value: unknown, json: boolean): void {
  if (json) return out(`${JSON.stringify(value ?? null)}\n`);
  if (value === undefined || value === null) return out('done\n');
  if (Array.isArray(value)) return out(rowsTable(value as Record<string, unknown>[]));
  if (typeof value !== 'object') return out(`${String(value)}\n`);
  const data = (value as { data?: unknown }).data;
  if (Array.isArray(data)) {
    out(rowsTable(data as Record<string, unknown>[]));
    const { hasMore, nextCursor, totalCount } = value as { hasMore?: boolean; nextCursor?: string; totalCount?: number };
    if (totalCount !== undefined || hasMore) out(`${data.length}${totalCount !== undefined ? ` of ${totalCount}` : ''}${hasMore ? `; more with --cursor ${nextCursor ?? ''} or --all` : ''}\n`);
    return;
  }
  out(objectTable(value as Record<string, unknown>));
}
