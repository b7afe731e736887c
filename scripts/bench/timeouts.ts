/** The baselines' timeouts (timeouts.mjs, plain JavaScript so that plain-node children share it). */
export { TIMEOUT_MS, timeoutDispatcher, type Dispatcher } from './timeouts.mjs';
