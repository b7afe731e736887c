import { Queue } from 'bullmq';
import type { Crossborder } from 'crossborder-sdk';
import { enqueuePayouts, RedisJournal, startPayoutWorker, type PayoutInstruction } from 'crossborder-sdk/payouts';

/** The producer: one job per reference, its id derived from (batch id, reference, instruction): enqueuing twice adds nothing, a fixed row is a new job. */
export async function enqueue(connection: { host: string; port: number }, instructions: Iterable<PayoutInstruction>) {
  const queue = new Queue('payouts', { connection });
  try {
    return await enqueuePayouts(queue, 'payroll-2026-11', instructions, { jobOptions: { attempts: 50, backoff: { type: 'fixed', delay: 1000 } } });
  } finally {
    await queue.close();
  }
}

/** A worker (run as many as you like, on any machine): the runner's own step, the same keys, one shared journal. */
export async function worker(connection: { host: string; port: number }, client: Crossborder) {
  const journal = await RedisJournal.connect(`redis://${connection.host}:${connection.port}`);
  const running = await startPayoutWorker({
    queueName: 'payouts',
    connection: { ...connection, maxRetriesPerRequest: null },
    client,
    journal,
    concurrency: 16,
    workerOptions: { limiter: { max: 50, duration: 1000 } }, // BullMQ's rate limit across workers
  });
  return {
    journal,
    async close() {
      await running.close();
      await journal.close();
    },
  };
}
