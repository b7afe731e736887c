/**
 * What a logger is to the client: the `logger` and `logLevel` options' types, apart from the logger's code
 * (./logger), so that the options read them without importing the code that reads the options' reports.
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
