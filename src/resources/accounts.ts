/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): the methods
 * of InternalAccounts, ExternalAccounts and the platform's own accounts. `Platform` only holds the latter two.
 * @module
 */
import { APIResource } from '../core/resource';
import { ExternalAccounts, InternalAccounts, PlatformExternalAccounts, PlatformInternalAccounts } from '../generated/resources';

export { ExternalAccounts, InternalAccounts, PlatformExternalAccounts, PlatformInternalAccounts };

/** Platform-level resources. */
export class Platform extends APIResource {
  /** The platform's own external accounts. */
  readonly externalAccounts = new PlatformExternalAccounts(this._client);
  /** The platform's own internal accounts. */
  readonly internalAccounts: PlatformInternalAccounts = new PlatformInternalAccounts(this._client);
}
