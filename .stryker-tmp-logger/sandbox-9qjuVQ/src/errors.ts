/**
 * The error classes alone, published as `crossborder-sdk/errors` (the main entry exports the same
 * classes). Every entry of the package throws these: the `sandbox` and `wallet` builds import them
 * from here, so one `instanceof` works whichever entry threw.
 * @module
 */
// @ts-nocheck

export * from './core/errors';
