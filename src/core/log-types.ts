/**
 * What a logger is to the client: the `logger` and `logLevel` options' types, apart from the logger's code
 * (./logger), so that the options read them without importing the code that reads the options' reports.
 * @module
 */
/**
 * Any object with these methods: `console`, pino, winston, bunyan. Both argument orders are
 * understood: console's `(message, details)` and pino's / bunyan's `(details, message)` (told apart
 * by the logger's own shape), so the details reach the log either way. What a method returns is not used (winston's
 * return the logger), and it may be async: the SDK does not wait for a promise it returns, and a rejection of it is
 * handled (dropped), as a throw is: logging never changes a call's result, and never leaves an unhandled rejection.
 */
export interface Logger {
  debug(message: string, details?: Record<string, unknown>): unknown;
  info(message: string, details?: Record<string, unknown>): unknown;
  warn(message: string, details?: Record<string, unknown>): unknown;
  error(message: string, details?: Record<string, unknown>): unknown;
}

/** `off` logs nothing; each level includes the ones above it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';
