import type { RequestHooks } from 'crossborder-sdk';

/** One metrics line per attempt, and one per failed call: operation, status, duration, attempt, request id. */
export interface CallMetric {
  operation: string;
  status: number | string;
  ms: number;
  attempt: number;
  requestId: string | undefined;
}

export function metricsHooks(record: (metric: CallMetric) => void): RequestHooks {
  return {
    afterResponse: ({ operation, status, durationMs, attempt, requestId }) => record({ operation, status, ms: durationMs, attempt, requestId }),
    beforeRetry: ({ operation, reason, delayMs }) => console.debug(`${operation}: ${reason}, retrying in ${delayMs} ms`),
    onError: ({ operation, errorName, durationMs, requestId }) => record({ operation, status: errorName, ms: durationMs, attempt: 0, requestId }),
  };
}
