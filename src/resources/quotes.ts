/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): the methods
 * of Quotes, TransferIn and TransferOut. What is not one call of an operation is written in ./quotes-methods.
 * @module
 */
export { Quotes, TransferIn, TransferOut } from '../generated/resources';
export { isExpired } from './quotes-methods';
