import type { RequestHooks } from 'crossborder-sdk';

/** Sends your own correlation id with every attempt, and the attempt number, so your proxy's logs line up with yours. */
export function correlationHooks(correlationId: () => string): RequestHooks {
  return {
    beforeRequest: ({ attempt }) => ({
      headers: { 'X-Correlation-Id': correlationId(), 'X-Attempt': String(attempt) },
    }),
  };
}
