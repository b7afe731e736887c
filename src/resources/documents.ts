/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): every
 * method of Documents is one operation. A method that is not one operation would be written here, in a subclass.
 * @module
 */
export { Documents } from '../generated/resources';
