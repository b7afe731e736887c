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
  ScaRequiredError,
  SignatureRequiredError,
  ValidationError,
  WalletCryptoError,
} from './sdk';
import { formatAmount } from '../helpers/money';
import { UsageError } from './table';

/**
 * Exit codes, by error class. 0: done. 1: anything else. 2: the command line (or the parameters the
 * SDK checks before sending). 3: credentials refused (401/403). 4: not found. 5: refused by the
 * service (400/409/422, another 4xx). 6: rate limited. 7: no answer or a 5xx (the outcome may be
 * unknown: retry with the Idempotency-Key printed). 8: a wallet signature is needed. 9: the payment waits for the
 * customer's Strong Customer Authentication (nothing moved: authorize the quote).
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  refused: 5,
  rateLimited: 6,
  unavailable: 7,
  signatureRequired: 8,
  scaRequired: 9,
} as const;

/** The exit code of an error. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || error instanceof ValidationError || error instanceof ConfigurationError) return EXIT.usage;
  if (error instanceof SignatureRequiredError || (error instanceof WalletCryptoError && error.reason === 'session_expired')) return EXIT.signatureRequired;
  if (error instanceof ScaRequiredError) return EXIT.scaRequired;
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return EXIT.auth;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (error instanceof RateLimitError) return EXIT.rateLimited;
  if (error instanceof APIConnectionError) return EXIT.unavailable;
  if (error instanceof APIError) return error.status >= 500 ? EXIT.unavailable : EXIT.refused;
  return EXIT.failure;
}

/**
 * Characters a terminal acts on rather than shows: C0 controls (ESC among them), DEL, C1 controls, and the
 * bidirectional overrides and isolates (and marks) that reorder what follows them.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every character a terminal would act on written visibly (`\x1b`, `\u202e`): a reference cannot forge a line, a colour or its own order. */
export function visible(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `text` made {@link visible} line by line: its own line breaks kept, every other control written visibly. */
export function visibleLines(text: string): string {
  return text.split('\n').map(visible).join('\n');
}

/** One JSON line, its value unchanged, with what `visible` escapes written as `\uXXXX` (JSON leaves DEL, C1 and bidi controls raw). */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
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
  const e = error as Error &
    Partial<{
      status: number;
      code: string;
      requestId: string;
      idempotencyKey: string;
      outcomeUnknown: boolean;
      issues: unknown;
      details: unknown;
      challenge: unknown;
    }>;
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
    // A payment held for SCA: the quote to authorize and its challenge (factor, expiry; no secret in it).
    ...(error instanceof ScaRequiredError ? { quoteId: error.quoteId, scaChallenge: error.challenge } : {}),
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

/**
 * Set by `connect` when the command's client is an agent (its credential, `CROSSBORDER_AGENT_TOKEN`, took the place
 * of the platform's): a refused credential then says so, since the platform's may be right beside it.
 */
let asAgent = false;

/** Notes whether this command's client is an agent (see {@link reportError}). */
export function noteAgent(agent: boolean): void {
  asAgent = agent;
}

/** Prints an error (as a JSON line with `--json`) and answers its exit code. Its text is redacted ({@link redact}). */
export function reportError(error: unknown, json: boolean): number {
  const code = exitCodeOf(error);
  const { challenge, ...described } = describeError(error);
  // The challenge is relayed byte for byte (its payloadToSign is signed elsewhere): shown as it is.
  const info: Record<string, unknown> = { ...(redactDeep(described) as Record<string, unknown>), ...(challenge !== undefined ? { challenge } : {}) };
  // A credential refused while the client is an agent: the command may be the platform's, whose credentials the
  // agent's took the place of.
  const agentRefused = asAgent && code === EXIT.auth && !/ \/agents\/me\b/.test(String((error as { operation?: unknown }).operation));
  if (agentRefused) info.asAgent = true;
  if (json) {
    err(jsonLine(info));
    return code;
  }
  // Every value that came from the service or the user (a message, an id, a factor) is printed visibly: an
  // answer cannot move the cursor, colour the terminal or forge a line of this report.
  const v = (value: unknown) => visible(String(value));
  err(`crossborder-sdk: ${error instanceof CrossborderError ? `${v(error.name)}: ` : ''}${v(info.message)}\n`);
  if (info.requestId) err(`  request id: ${v(info.requestId)}\n`);
  if (info.outcomeUnknown && info.idempotencyKey) {
    err(`  the outcome is unknown: the service may have done it. Retry with the same key: --idempotency-key ${v(info.idempotencyKey)}\n`);
  }
  if (error instanceof SignatureRequiredError) {
    err(
      `  a wallet signature is needed: give --session-key FILE, or sign this challenge elsewhere and repeat with --signature SIG --request-id ${v(error.challenge.requestId)}\n`,
    );
    err(`  challenge: ${jsonLine(error.challenge)}`);
  }
  if (agentRefused) {
    err(
      "  this command ran as the agent of CROSSBORDER_AGENT_TOKEN, which takes the place of the platform's credentials: an agent calls `agents me …` only. Unset it to run as the platform.\n",
    );
  }
  if (error instanceof ScaRequiredError) {
    const proof = error.challenge.factor === 'PASSKEY' ? '--passkey-assertion JSON --origin ORIGIN' : '--code CODE';
    err(`  nothing has moved: the customer authenticates (${v(error.challenge.factor)}), then: crossborder quotes authorize ${v(error.quoteId)} ${proof}\n`);
  }
  return code;
}

const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

type CurrencyLike = { code: string; decimals?: unknown };
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** The API's currency object (`{ code, name, symbol, decimals }`; production marks every field optional): one with a code. */
const currencyOf = (v: unknown): CurrencyLike | undefined =>
  isObject(v) && typeof v.code === 'string' && v.code !== '' && !('amount' in v) ? (v as CurrencyLike) : undefined;

/**
 * An amount in smallest units as money: major units with the currency's decimals, grouped by thousands, and
 * its code (`123456` of USD: `1,234.56 USD`; JPY has 0 decimals, BTC 8). A currency without `decimals` (the
 * service may leave them out) shows the smallest units as sent, said so; never a guess.
 */
function money(amount: number, currency: CurrencyLike): string {
  const decimals = currency.decimals;
  if (typeof decimals === 'number' && Number.isInteger(decimals) && decimals >= 0 && decimals <= 18 && Number.isSafeInteger(amount)) {
    return formatAmount({ amount, currency: { code: currency.code, decimals } }, { code: true, grouping: true });
  }
  return `${amount} ${currency.code} (smallest units)`;
}

/** `{ amount, currency: { code, decimals } }`, the API's CurrencyAmount, as money; undefined for anything else. */
function moneyOf(v: unknown): string | undefined {
  if (!isObject(v) || typeof v.amount !== 'number') return undefined;
  const currency = currencyOf(v.currency);
  return currency ? money(v.amount, currency) : undefined;
}

/** What a cell of a table shows for each field of a row: its text, and whether it holds money (printed whole, shown first). */
interface Shown {
  text: Record<string, string>;
  money: Set<string>;
}

/**
 * A row's fields as a table shows them. Scalars as they are; the API's money (`{ amount, currency }`: sent and
 * received amounts, balances, fees) in major units with its code; a currency object by its code. A row that
 * names a sending and a receiving currency (an exchange rate, a quote: `sourceCurrency` / `sendingCurrency` and
 * `destinationCurrency` / `receivingCurrency`) has plain whole-number amounts: a sending amount or a fee in the
 * first, a receiving amount in the second; its fees (`{ fixed, total }`) by their total; its `exchangeRate`
 * (sending units per receiving unit) with both codes, `1 EUR = 1.085 USD`. Other nested values stay out.
 */
export function displayRow(row: Record<string, unknown>): Shown {
  const text: Record<string, string> = {};
  const moneyFields = new Set<string>();
  const from = currencyOf(row.sourceCurrency) ?? currencyOf(row.sendingCurrency);
  const to = currencyOf(row.destinationCurrency) ?? currencyOf(row.receivingCurrency);
  const shown = (key: string, value: string, isMoney = true) => {
    text[key] = visible(value);
    if (isMoney) moneyFields.add(key);
  };
  for (const [key, value] of Object.entries(row)) {
    const asMoney = moneyOf(value);
    if (asMoney !== undefined) shown(key, asMoney);
    else if (currencyOf(value)) shown(key, currencyOf(value)!.code);
    else if (from && to && key === 'exchangeRate' && typeof value === 'number') shown(key, `1 ${to.code} = ${value} ${from.code}`);
    else if (from && Number.isSafeInteger(value) && /sendingAmount$|^fees?(Included|Total)?$/i.test(key))
      shown(key, money(value as number, from), !/^(min|max)/i.test(key));
    else if (to && Number.isSafeInteger(value) && /receivingAmount$/i.test(key)) shown(key, money(value as number, to), !/^(min|max)/i.test(key));
    else if (from && key === 'fees' && isObject(value) && Number.isSafeInteger(value.total)) shown(key, money(value.total as number, from));
    else if (scalar(value)) text[key] = visible(String(value));
  }
  return { text, money: moneyFields };
}
const cell = (v: unknown) => visible(v === undefined ? '' : scalar(v) ? String(v) : JSON.stringify(v));

/** An object as two columns (field, value). */
export function objectTable(value: Record<string, unknown>): string {
  const keys = Object.keys(value);
  const width = Math.max(0, ...keys.map((k) => visible(k).length));
  // Money as money (the nested rest as JSON, as before).
  const { text, money: moneyFields } = displayRow(value);
  return keys.map((k) => `${visible(k).padEnd(width)}  ${moneyFields.has(k) ? text[k] : cell(value[k])}`).join('\n') + '\n';
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

/** Columns a table shows at most. */
const MAX_COLUMNS = 7;

/**
 * Rows as a table: up to 7 columns of the first rows' fields as {@link displayRow} shows them: ids first, then
 * money (amounts, balances, fees, rates with their currencies), then the other fields in the row's order, dates
 * (`…At`) and limits (`min…`, `max…`) last. Ids and money are printed whole at any width; to fit the terminal
 * (`COLUMNS`), the other columns are cut (with `…`), down to {@link MIN_CELL} characters, then left out from
 * the right.
 */
export function rowsTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)\n';
  const display = rows.map((row) => displayRow(row ?? {}));
  const columns: string[] = [];
  const moneyColumns = new Set<string>();
  for (const { text, money: m } of display.slice(0, 20)) {
    for (const k of Object.keys(text)) if (!columns.includes(k)) columns.push(k);
    for (const k of m) moneyColumns.add(k);
  }
  const valuesOf = (c: string) => display.map((d) => d.text[c] ?? '');
  const idColumns = new Set(columns.filter((c) => isIdColumn(c, valuesOf(c))));
  const rank = (c: string) => (c === 'id' ? 0 : idColumns.has(c) ? 1 : moneyColumns.has(c) ? 2 : /At$|^(min|max)[A-Z]/.test(c) ? 4 : 3);
  const order = (list: string[]) => [...list].sort((a, b) => rank(a) - rank(b) || columns.indexOf(a) - columns.indexOf(b));
  let shown = order(columns).slice(0, MAX_COLUMNS);
  const whole = new Set(shown.filter((c) => idColumns.has(c) || moneyColumns.has(c)));
  const natural = new Map(shown.map((c) => [c, Math.max(visible(c).length, ...valuesOf(c).map((v) => v.length))]));
  const widths = new Map(shown.map((c) => [c, whole.has(c) ? natural.get(c)! : Math.min(MAX_CELL, natural.get(c)!)]));
  const budget = terminalWidth();
  if (budget !== undefined) {
    const total = () => shown.reduce((sum, c) => sum + widths.get(c)!, 0) + 2 * (shown.length - 1);
    // Cut the widest other column, one character at a time, down to MIN_CELL; then leave columns out from the right
    // (never an id; money once nothing else is left to leave out).
    for (;;) {
      if (total() <= budget) break;
      const widest = shown.filter((c) => !whole.has(c) && widths.get(c)! > MIN_CELL).sort((a, b) => widths.get(b)! - widths.get(a)!)[0];
      if (widest !== undefined) {
        widths.set(widest, widths.get(widest)! - 1);
        continue;
      }
      const last = shown.findLastIndex((c) => !idColumns.has(c));
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
  return [line(shown.map((c) => visible(c).toUpperCase())), ...display.map((d) => line(shown.map((c) => d.text[c] ?? '')))].join('\n') + '\n';
}

/** One result: a JSON line, or a table (a `{ data: [...] }` answer as rows). */
export function printResult(value: unknown, json: boolean): void {
  if (json) return out(jsonLine(value ?? null));
  if (value === undefined || value === null) return out('done\n');
  if (Array.isArray(value)) return out(rowsTable(value as Record<string, unknown>[]));
  if (typeof value !== 'object') return out(`${visible(String(value))}\n`);
  const data = (value as { data?: unknown }).data;
  if (Array.isArray(data)) {
    out(rowsTable(data as Record<string, unknown>[]));
    const { hasMore, nextCursor, totalCount } = value as { hasMore?: boolean; nextCursor?: string; totalCount?: number };
    if (totalCount !== undefined || hasMore)
      out(
        `${data.length}${totalCount !== undefined ? ` of ${visible(String(totalCount))}` : ''}${hasMore ? `; more with --cursor ${visible(nextCursor ?? '')} or --all` : ''}\n`,
      );
    return;
  }
  out(objectTable(value as Record<string, unknown>));
}
