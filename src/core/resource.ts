/**
 * Base of every resource class: a resource only names the operation, the params and the result.
 * @module
 */
import type { CoreClient } from './client';

export abstract class APIResource {
  /** @internal */
  protected readonly _client: CoreClient;
  /** @internal */
  constructor(client: CoreClient) {
    this._client = client;
  }
}
