/**
 * Base of every resource class: a resource only names the operation, the params and the result.
 * @module
 */
// @ts-nocheck

import type { CoreClient } from './client';

export abstract class APIResource {
  /** @internal */
  protected declare readonly _client: CoreClient;
  /** @internal */
  constructor(client: CoreClient) {
    // Not enumerable: `JSON.stringify` and `inspect` of a resource do not walk into the pipeline.
    Object.defineProperty(this, '_client', { value: client, enumerable: false });
  }
}
