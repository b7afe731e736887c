/**
 * The loader of the 202 signed retry (./signed-retry), which the row of every write carries (`signing`) and
 * `request(core, …)` gives the operations it makes: a bundle whose operations only read holds none of it.
 * @module
 */

/**
 * Loads the signed retry: the bookkeeping of challenges and the loop that answers a write's challenges. Give it to
 * a write `Operation` of your own (`{ ..., signing }`) so that a 202 wallet challenge is signed as on every
 * generated write; `request()` does.
 */
export const signing = (): Promise<unknown> => import('./signed-retry');
