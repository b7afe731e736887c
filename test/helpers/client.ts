/** Test clients: recorded sleeps instead of timers, and synthetic operations independent of the document. */
import { Crossborder } from '../../src/client';
import { CrossborderCore, type CoreParts, type Operation } from '../../src/core/client';
import { openTelemetry } from '../../src/core/telemetry';
import { logging, requestChecks, responseChecks } from '../../src/core/parts';
import type { ClientOptions } from '../../src/core/options';
import { signing } from '../../src/core/signing';

export const SECRET = 'sk_test_SUPER_SECRET_VALUE_123';

/** A `sleep` option that records each wait in `sleeps` instead of waiting (an aborted signal still throws). */
export function recordedSleep(sleeps: number[]): NonNullable<ClientOptions['sleep']> {
  return async (ms, signal) => {
    sleeps.push(ms);
    if (signal?.aborted) throw signal.reason;
  };
}

/** A core client as `Crossborder` has it (every part: OpenTelemetry recorder, checks, logging), with test credentials against https://api.test.invalid; `sleeps` records its waits. */
export function testClient(options: ClientOptions = {}, parts: CoreParts = {}) {
  const sleeps: number[] = [];
  const client = new CrossborderCore(
    { tokenId: 'tok_test', clientSecret: SECRET, baseUrl: 'https://api.test.invalid', sleep: recordedSleep(sleeps), ...options },
    { telemetry: openTelemetry, requestChecks, responseChecks, logging, ...parts },
  );
  return { client, sleeps };
}

/**
 * The SDK's client as users make it, with test credentials, the sandbox environment and
 * https://api.test.invalid (each overridden by `options`); `sleeps` records its waits.
 */
export function testCrossborder(options: ClientOptions = {}) {
  const sleeps: number[] = [];
  const cb = new Crossborder({
    tokenId: 'tok_test',
    clientSecret: SECRET,
    baseUrl: 'https://api.test.invalid',
    environment: 'sandbox',
    sleep: recordedSleep(sleeps),
    ...options,
  });
  return { cb, sleeps };
}

export function op(partial: Partial<Operation> & Pick<Operation, 'method' | 'path'>): Operation {
  // A write carries the signed retry's loader, as every generated write row does.
  return {
    id: partial.path,
    idempotent: false,
    signed: false,
    sandboxOnly: false,
    paginated: false,
    ...(partial.method === 'GET' ? {} : { signing }),
    ...partial,
  };
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
