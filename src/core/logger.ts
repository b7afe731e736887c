/**
 * Logging: levels, a pluggable logger, and redaction of secrets and personal data.
 * Nothing is formatted unless its level is enabled.
 * @module
 */

/** Any object with these methods: `console` and pino both fit. */
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
  'senderCustomerInfo',
  'receiverCustomerInfo',
  'counterpartyInformation',
  'beneficiaryVerifiedData',
]);

const MASK = '[redacted]';

/** The level gate plus the logger: built once per client. */
export class Log {
  private readonly rank: number;
  constructor(
    private readonly logger: Logger | undefined,
    level: LogLevel,
  ) {
    this.rank = logger ? RANK[level] : 0;
  }
  /** True when messages of this level are written: check before building details. */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return this.rank >= RANK[level];
  }
  debug(message: string, details?: () => Record<string, unknown>): void {
    if (this.rank >= 4) this.logger!.debug(message, details?.());
  }
  info(message: string, details?: () => Record<string, unknown>): void {
    if (this.rank >= 3) this.logger!.info(message, details?.());
  }
  warn(message: string, details?: () => Record<string, unknown>): void {
    if (this.rank >= 2) this.logger!.warn(message, details?.());
  }
  error(message: string, details?: () => Record<string, unknown>): void {
    if (this.rank >= 1) this.logger!.error(message, details?.());
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
