import { createSandbox } from 'crossborder-sdk/sandbox';

/** A local sandbox playing what a batch meets in production. */
export function productionLike() {
  const sandbox = createSandbox({
    faults: {
      rateLimit: { requestsPerSecond: 50 }, // 429 RATE_LIMITED with Retry-After
      dailyVolumeLimit: { USD: 1_000_000 }, // 429 DAILY_VOLUME_LIMIT_EXCEEDED past it (per UTC day of the sandbox clock)
      failAfterProcessing: { rate: 0.05, reason: 'OFFRAMP_FAILED' }, // FAILED at settlement, the sender refunded
      latency: { ms: 20, jitterMs: 10 },
    },
  });
  // sandbox.faults.set({}) turns them off; sandbox.ledger.executions has one entry per execution:
  // quote, transaction, Idempotency-Key, description, amount.
  return sandbox;
}
