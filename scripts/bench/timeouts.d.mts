/** Types of timeouts.mjs. */
export interface Dispatcher {
  dispatch(options: Record<string, unknown>, handler: unknown): boolean;
}
/** A dispatcher that gives every request `ms` for its headers and between body chunks. */
export function timeoutDispatcher(ms: number): Dispatcher;
/** The SDK's default per-attempt timeout. */
export const TIMEOUT_MS: number;
