/**
 * Logging: levels, a pluggable logger, and redaction of secrets and personal data.
 * Nothing is formatted unless its level is enabled.
 * @module
 */
import type { FormBytes } from './form';
import type { Logger, LogLevel } from './log-types';
import type { ValidationIssueReport } from './options';
import { MASK, type Scrub } from './scrub';

export type { Logger, LogLevel } from './log-types';
export { MASK } from './scrub';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Headers whose values are never logged. */
const SECRET_HEADERS = new Set(['authorization', 'service-wallet-signature', 'cookie', 'set-cookie', 'proxy-authorization']);

/**
 * Body fields that carry personal or secret data, masked wherever they appear. A field of this list
 * that holds an object or an array is a personal-data object: every value in it is masked but the
 * short allow-list below ({@link PII_ALLOWED_FIELDS}), whatever its fields are called.
 */
const MASKED_FIELDS = new Set(
  // Personal-data objects of the document: account info, beneficiary, identity (KYC/KYB), address.
  (
    'accountInfo beneficiary businessInfo address senderCustomerInfo receiverCustomerInfo counterpartyInformation ' +
    'beneficiaryVerifiedData identity kyc personalInfo ' +
    // Personal data.
    'fullName firstName lastName legalName doingBusinessAs nickname birthDate nationality countryOfResidence line1 line2 ' +
    'city postalCode taxId registrationNumber accountNumber routingNumber iban bic swiftCode pixKey email phoneNumber ' +
    'umaAddress inviterUma inviteeUma receiverUmaAddress senderUmaAddress toUmaAddress identifier ' +
    // Secrets.
    'otp oidcToken clientPublicKey encryptedSessionSigningKey encryptedWalletCredentials kycUrl token privateKey ' +
    'sessionKey payloadToSign signature attestation assertion clientSecret ' +
    // Card secrets: the reveal's frame URL (its token shows the number and CVC), the 3-D Secure password of an issue.
    'panEmbedUrl threeDSecurePassword ' +
    // A stablecoin provider's API secret, sent once when its account is linked.
    'apiClientSecret ' +
    // SCA: a TOTP factor's shared secret (and its URI), its recovery codes, a liveness token and link, a passkey's proofs.
    'secret secretBase32Encoded totpUri recoveryCodes livenessAccessToken verificationLink passkeyAssertion credential ' +
    // An agent's credential, answered once by a device code's redemption.
    'accessToken'
  ).split(' '),
);

/**
 * `code` is a service's code (an error's `INVALID_INPUT`, a currency's `USD`) and also a secret: the customer's
 * one-time code in SCA and contact verification (`123456`), an agent's device code (`GRID-AGENT-X7K9-M2P4`,
 * redeemable for the agent's credential). A `code` is masked unless its value has a service code's form.
 */
const SERVICE_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * Fields of an object that are a personal-data object by their presence: an account of any kind
 * (`accountType`, the open union: `EUR_ACCOUNT` with an `iban` as much as `USD_ACCOUNT`), a customer
 * (`customerType`), a beneficiary (`beneficiaryType`).
 */
const PII_MARKERS = ['accountType', 'customerType', 'beneficiaryType'];

/** Service ids (`Customer:123`), upper-case codes and statuses (`USD`, `EUR_ACCOUNT`, `APPROVED`). */
const ID_VALUE = /^[A-Za-z]{1,40}:[A-Za-z0-9._-]{1,80}$/;
const CODE_VALUE = /^[A-Z][A-Z_]{0,39}$/;

/**
 * What stays readable inside a personal-data object: ids, types, currency codes and statuses, and
 * only when the value has that form (a free text under `status` is masked too).
 */
export const PII_ALLOWED_FIELDS: ReadonlyMap<string, RegExp> = new Map([
  ['id', ID_VALUE],
  ['customerId', ID_VALUE],
  ['accountId', ID_VALUE],
  ['accountType', CODE_VALUE],
  ['beneficiaryType', CODE_VALUE],
  ['customerType', CODE_VALUE],
  ['pixKeyType', CODE_VALUE],
  ['accountCategory', CODE_VALUE],
  ['assetType', CODE_VALUE],
  ['currency', CODE_VALUE],
  ['currencies', CODE_VALUE],
  ['status', CODE_VALUE],
  ['kycStatus', CODE_VALUE],
  ['beneficiaryVerificationStatus', CODE_VALUE],
]);

/** Objects nested deeper than this are replaced whole by the mask. */
const MAX_DEPTH = 32;

type Level = Exclude<LogLevel, 'off'>;

/** True for loggers that take `(details, message)`: pino (`levels.values`) and bunyan (`streams`). */
function objectFirst(logger: Logger): boolean {
  const l = logger as unknown as { levels?: { values?: unknown }; streams?: unknown };
  return (typeof l.levels === 'object' && l.levels !== null && typeof l.levels.values === 'object' && l.levels.values !== null) || Array.isArray(l.streams);
}

/** Level and logger from the options, else from `CROSSBORDER_LOG` (which logs to the console). */
export function logFromOptions(logger: Logger | undefined, level: LogLevel | undefined, envLevel: string | undefined): Log {
  const fromEnv = envLevel !== undefined && Object.hasOwn(RANK, envLevel) ? (envLevel as LogLevel) : undefined;
  const chosen = logger ?? (fromEnv && fromEnv !== 'off' ? console : undefined);
  return new Log(chosen, level ?? fromEnv ?? 'warn');
}

/**
 * The level gate plus the logger: built once per client. Logging never changes a result: a logger
 * that throws is ignored.
 */
export class Log {
  private readonly rank: number;
  private readonly objectFirst: boolean;
  constructor(
    private readonly logger: Logger | undefined,
    level: LogLevel,
  ) {
    this.rank = logger ? (RANK[level] ?? RANK.warn) : 0;
    this.objectFirst = logger ? objectFirst(logger) : false;
  }
  /** True when messages of this level are written: check before building details. */
  enabled(level: Level): boolean {
    return this.rank >= RANK[level];
  }
  private write(level: Level, message: string, details?: () => Record<string, unknown>): void {
    if (this.rank < RANK[level]) return;
    try {
      const fields = details?.();
      const logger = this.logger!;
      if (fields === undefined) ignoreRejection(logger[level](message));
      else if (this.objectFirst) ignoreRejection((logger[level] as unknown as (obj: object, msg: string) => unknown)(fields, message));
      else ignoreRejection(logger[level](message, fields));
    } catch {
      // A broken logger must not turn a call that succeeded into a failure.
    }
  }
  debug(message: string, details?: () => Record<string, unknown>): void {
    this.write('debug', message, details);
  }
  info(message: string, details?: () => Record<string, unknown>): void {
    this.write('info', message, details);
  }
  warn(message: string, details?: () => Record<string, unknown>): void {
    this.write('warn', message, details);
  }
  error(message: string, details?: () => Record<string, unknown>): void {
    this.write('error', message, details);
  }
  /**
   * The debug line of an attempt about to go out: the operation's path template (never the URL, whose values
   * may be personal data), the headers redacted, the body masked. Methods of the log, so that the transport of
   * a core without the logging part holds none of its lines, redaction or masking (the worker bundle).
   */
  sending(operation: string, attempt: number, headers: Record<string, string>, body: string | FormBytes | undefined): void {
    this.debug(`→ ${operation}`, () => ({ attempt, headers: redactHeaders(headers), body: maskBodyText(bodyText(body)) }));
  }
  /**
   * The info line of an answer (method, path template, status, ms since `started`, request id, attempt), then its
   * debug line with the headers redacted and the body masked, both scrubbed.
   */
  answered(
    plan: { label: string; op: { method: string; path: string } },
    response: Response,
    text: string,
    started: number,
    requestId: string | undefined,
    attempt: number,
    scrub: Scrub,
  ): void {
    const { label: operation, op } = plan;
    const { status } = response;
    const ms = Math.round(performance.now() - started);
    this.info(`${operation} ${status} ${ms}ms`, () => ({ method: op.method, path: op.path, status, ms, requestId, attempt }));
    this.debug(`← ${status} ${operation}`, () => ({ headers: scrub(redactHeaders(response.headers)), body: maskBodyText(scrub(text)) }));
  }
  /** The warning of an answer's drift from the document, when `warn` is enabled: false when it is not (nothing written). */
  drift(report: ValidationIssueReport): boolean {
    if (!this.enabled('warn')) return false;
    this.warn(driftMessage(report), () => ({ ...report }));
    return true;
  }
  /** The info line of a retry: `what` failed (a failure's message, or `status 503`). */
  retrying(operation: string, what: string, delay: number): void {
    this.info(`${operation}: ${what}; retrying in ${delay} ms`);
  }
}

/** What a warning of drift says: the operation, the status and the first issue. */
export function driftMessage(report: ValidationIssueReport): string {
  const first = report.issues[0];
  return `${report.operation} answered ${report.status} with a body that differs from the document: ${first?.path || '(root)'}: ${first?.message ?? ''}`;
}

/**
 * The log of a core without the `logging` part: every level off, so the transport never builds a line.
 * A plain object, so that such a bundle holds neither the {@link Log} class nor the redaction.
 */
export const SILENT_LOG = {
  enabled: () => false,
  debug() {},
  info() {},
  warn() {},
  error() {},
  sending() {},
  answered() {},
  retrying() {},
  drift: () => false,
} as unknown as Log;

/**
 * A user's callback (logger method, validation hook) may be async: its rejection is dropped here,
 * since an unhandled rejection can end the process, and a broken logger must never change a result.
 */
export function ignoreRejection(result: unknown): void {
  if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
    (result as PromiseLike<unknown>).then(undefined, () => undefined);
  }
}

/** Copy of the headers with secret values replaced. */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    out[key] = SECRET_HEADERS.has(key) ? MASK : value;
  }
  return out;
}

/**
 * Copy of a JSON value with personal and secret data masked, at any depth: the fields named above,
 * and inside a personal-data object (one of those fields holding an object, or an object with an
 * `accountType`, `customerType` or `beneficiaryType`) every value but the allow-list. Past
 * {@link MAX_DEPTH} levels everything is masked. Safe to ship to a log aggregator.
 */
export function maskBody(value: unknown, depth = 0, inPii = false): unknown {
  if (depth > MAX_DEPTH) return MASK;
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object') return inPii ? MASK : value;
  if (Array.isArray(value)) return value.map((v) => maskBody(v, depth + 1, inPii));
  const record = value as Record<string, unknown>;
  const pii = inPii || PII_MARKERS.some((marker) => typeof record[marker] === 'string');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    // A `code` is masked unless it is a string of a service code's form (a one-time code, a device code, a number: masked).
    const named = MASKED_FIELDS.has(k) || (k === 'code' && !SERVICE_CODE.test(v as string));
    // An allow-listed value is a string or a list of strings: nothing below it to mask.
    if (pii && !named && depth < MAX_DEPTH && allowed(k, v)) out[k] = Array.isArray(v) ? [...(v as unknown[])] : v;
    else out[k] = maskBody(v, depth + 1, pii || named);
  }
  return out;
}

/** True for an allow-listed field whose value has the allowed form (a string, or strings). */
function allowed(field: string, value: unknown): boolean {
  const form = PII_ALLOWED_FIELDS.get(field);
  if (form === undefined) return false;
  if (typeof value === 'string') return form.test(value);
  return Array.isArray(value) && value.length <= 64 && value.every((v) => typeof v === 'string' && form.test(v));
}

/** What the log and the hooks see of a request body: its text, or a multipart body's description (never a file's content). */
export const bodyText = (body: string | FormBytes | undefined): string | undefined => (typeof body === 'object' ? body.described : body);

/** Parses a logged body text and masks it; a body that is not JSON is summarised, not shown. */
export function maskBodyText(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return maskBody(JSON.parse(text));
  } catch {
    return `[${text.length} bytes, not JSON]`;
  }
}
