/**
 * Base of every resource class: a resource only names the operation, the params and the result.
 * @module
 */
import type { CrossborderCore } from './client';
import { ConfigurationError } from './errors';

export abstract class APIResource {
  /** @internal */
  declare protected readonly _client: CrossborderCore;
  /**
   * A resource on its own, over a {@link CrossborderCore} (`new Customers(core)`): what `cb.customers` is
   * on a {@link Crossborder}, for a bundle that holds only the resources it uses.
   */
  constructor(client: CrossborderCore) {
    // Plain JavaScript could pass anything (a Crossborder, its options): refuse it here, not at the first call.
    if (typeof (client as Partial<CrossborderCore> | null)?.list !== 'function') {
      throw new ConfigurationError('expected a CrossborderCore: new Customers(new CrossborderCore(options)), or use cb.customers');
    }
    // Not enumerable: `JSON.stringify` and `inspect` of a resource do not walk into the pipeline.
    Object.defineProperty(this, '_client', { value: client, enumerable: false });
  }
}
