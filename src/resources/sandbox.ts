/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): every
 * method of Sandbox is one operation.
 * @module
 */
export { Sandbox } from '../generated/resources';
