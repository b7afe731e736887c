/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): the methods
 * of Transactions. What is not one call of an operation is written in ./transactions-methods.
 * @module
 */
export { Transactions } from '../generated/resources';
export { MIN_POLL_INTERVAL_MS, TERMINAL_STATUSES, type WaitForOptions } from './transactions-methods';
