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

/** Prints an error (as a JSON line with `--json`) and answers its exit code. */
export function reportError(error: unknown, json: boolean): number {
  const code = exitCodeOf(error);
  const info = describeError(error);
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

/** Rows as a table: the columns are the first rows' scalar fields (up to 7), ids first. */
export function rowsTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)\n';
  const columns: string[] = [];
  for (const row of rows.slice(0, 20)) for (const [k, v] of Object.entries(row)) if (scalar(v) && !columns.includes(k)) columns.push(k);
  const shown = ['id', ...columns.filter((c) => c !== 'id')].filter((c) => columns.includes(c)).slice(0, 7);
  const cells = rows.map((r) => shown.map((c) => cell(r[c])));
  const widths = shown.map((c, i) => Math.min(48, Math.max(c.length, ...cells.map((row) => row[i]!.length))));
  const line = (values: string[]) => values.map((v, i) => (v.length > widths[i]! ? `${v.slice(0, widths[i]! - 1)}…` : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(shown.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n') + '\n';
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
