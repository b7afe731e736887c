/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): the methods
 * of Credentials, Sessions and DelegatedKeys. What is not one call of an operation is written in ./auth-methods;
 * `Auth` only holds the three.
 * @module
 */
import { APIResource } from '../core/resource';
import { Credentials, DelegatedKeys, Sessions } from '../generated/resources';

export { Credentials, DelegatedKeys, Sessions };
export type { VerifyOptions } from './auth-methods';

/** Embedded-wallet authentication. */
export class Auth extends APIResource {
  readonly credentials = new Credentials(this._client);
  readonly sessions = new Sessions(this._client);
  readonly delegatedKeys = new DelegatedKeys(this._client);
}
