/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): every
 * method of Cards is one operation. A method that is not one operation would be written here, in a subclass.
 * @module
 */
export { Cards } from '../generated/resources';
