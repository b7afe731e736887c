/**
 * The CLI's one entry into the SDK's core: the client every command runs through ({@link cliCore}, made in this
 * one place), and what the commands name of the core (errors, option types, settings, the bounded reader). The
 * CLI's other modules import the core through here only, so what the CLI depends on is declared in one file.
 * @module
 */
import { CrossborderCore } from '../core/client';
import type { ClientOptions } from '../core/options';
import { CHECKED } from '../core/parts';

export { CrossborderCore };
export {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  ConfigurationError,
  CrossborderError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ScaRequiredError,
  SignatureRequiredError,
  ValidationError,
  WalletCryptoError,
} from '../core/errors';
export type { ClientOptions, SignedRequestOptions, Signer } from '../core/options';
export type { CallInput } from '../core/plan';
export type { Page } from '../core/pagination';
export { API_VERSION, DEFAULT_BASE_URLS, readSettings } from '../core/settings';
export { isLoopbackHost, splitHost } from '../core/loopback';
export { readBounded } from '../core/read-bounded';
export { editDistance } from '../core/suggest';
export { VERSION } from '../core/version';

/**
 * The client of a CLI command, made here and nowhere else: a core with the local checks, the response checks and
 * the logger of `Crossborder`, and no OpenTelemetry recorder (a command is one process, one call).
 */
export function cliCore(options: ClientOptions): CrossborderCore {
  return new CrossborderCore(options, CHECKED);
}
