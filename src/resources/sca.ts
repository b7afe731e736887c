/**
 * Generated from the document (`x-sdk-resources` and each operation's `x-sdk` in openapi/openapi.yaml): the methods
 * of ScaFactors, ScaLogin, ScaResets and ScaEvents. `Sca` only holds the four.
 * @module
 */
import { APIResource } from '../core/resource';
import { ScaEvents, ScaFactors, ScaLogin, ScaResets } from '../generated/resources';

export { ScaEvents, ScaFactors, ScaLogin, ScaResets };

/**
 * Strong Customer Authentication (production's): the factors of a customer, SCA logins, factor resets and security
 * events. Only customers of a region where SCA is required (the EU) have it; any other customer is answered 409.
 * A quote that needs SCA is authorized with `cb.quotes.authorize`, a beneficiary trusted with
 * `cb.externalAccounts.trust`.
 */
export class Sca extends APIResource {
  readonly factors = new ScaFactors(this._client);
  readonly login = new ScaLogin(this._client);
  readonly resets = new ScaResets(this._client);
  readonly events = new ScaEvents(this._client);
}
