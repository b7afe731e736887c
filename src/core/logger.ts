/**
 * Logging: levels, a pluggable logger, and redaction of secrets and personal data.
 * Nothing is formatted unless its level is enabled.
 * @module
 */

/**
 * Any object with these methods: `console`, pino, winston, bunyan. Both argument orders are
 * understood: console's `(message, details)` and pino's / bunyan's `(details, message)` (told apart
 * by the logger's own shape), so the details reach the log either way.
 */
export interface Logger {
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/** `off` logs nothing; each level includes the ones above it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Headers whose values are never logged. */
const SECRET_HEADERS = new Set(['authorization', 'service-wallet-signature', 'cookie', 'set-cookie', 'proxy-authorization']);

/** Body fields that carry personal or secret data: masked at every depth. */
const MASKED_FIELDS = new Set([
  'fullName',
  'firstName',
  'legalName',
  'doingBusinessAs',
  'nickname',
  'birthDate',
  'address',
  'taxId',
  'accountNumber',
  'routingNumber',
  'pixKey',
  'otp',
  'oidcToken',
  'clientPublicKey',
  'encryptedSessionSigningKey',
  'encryptedWalletCredentials',
  'privateKey',
  'sessionKey',
  'payloadToSign',
  'signature',
  'attestation',
  'assertion',
  'email',
  'phoneNumber',
  'umaAddress',
  'inviterUma',
  'inviteeUma',
  'receiverUmaAddress',
  'senderUmaAddress',
  'senderCustomerInfo',
  'receiverCustomerInfo',
  'counterpartyInformation',
  'beneficiaryVerifiedData',
]);

const MASK = '[redacted]';

type Level = Exclude<LogLevel, 'off'>;

/** True for loggers that take `(details, message)`: pino (`levels.values`) and bunyan (`streams`). */
function objectFirst(logger: Logger): boolean {
  const l = logger as unknown as { levels?: { values?: unknown }; streams?: unknown };
  return (typeof l.levels === 'object' && l.levels !== null && typeof l.levels.values === 'object') || Array.isArray(l.streams);
}

/** Level and logger from the options, else from `CROSSBORDER_LOG` (which logs to the console). */
export function logFromOptions(logger: Logger | undefined, level: LogLevel | undefined, envLevel: string | undefined): Log {
  const fromEnv = envLevel !== undefined && envLevel in RANK ? (envLevel as LogLevel) : undefined;
  const chosen = logger ?? (fromEnv && fromEnv !== 'off' ? (console as Logger) : undefined);
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
}

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

/** Copy of a JSON value with personal and secret fields masked, at any depth. */
export function maskBody(value: unknown, depth = 0): unknown {
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskBody(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = MASKED_FIELDS.has(k) ? MASK : maskBody(v, depth + 1);
  }
  return out;
}

/** Parses a logged body text and masks it; a body that is not JSON is summarised, not shown. */
export function maskBodyText(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return maskBody(JSON.parse(text));
  } catch {
    return `[${text.length} bytes, not JSON]`;
  }
}
