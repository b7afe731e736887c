/** Test clients: recorded sleeps instead of timers, and synthetic operations independent of the document. */
import { CrossborderCore, type Operation } from '../../src/core/client';
import type { ClientOptions } from '../../src/core/options';

export const SECRET = 'sk_test_SUPER_SECRET_VALUE_123';

export function testClient(options: ClientOptions = {}) {
  const sleeps: number[] = [];
  const client = new CrossborderCore({
    tokenId: 'tok_test',
    clientSecret: SECRET,
    baseUrl: 'https://api.test.invalid',
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
    ...options,
  });
  return { client, sleeps };
}

export function op(partial: Partial<Operation> & Pick<Operation, 'method' | 'path'>): Operation {
  return { id: partial.path, idempotent: false, signed: false, sandboxOnly: false, paginated: false, ...partial };
}

/** Resolves with the rejection reason; fails the test if the promise resolves instead. */
export function rejected(p: PromiseLike<unknown>): Promise<any> {
  return Promise.resolve(p).then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
