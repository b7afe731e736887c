/**
 * The Vercel / Next.js edge runtime, as `@edge-runtime/vm` runs it: the packed package bundled for
 * the edge (support.ts `browserBundle`) and evaluated in an `EdgeVM`, a realm of its own whose
 * Web APIs (WebCrypto, TextEncoder, Request) come from the host. Typed arrays crossing between the
 * two realms are the known trap: WebCrypto refused the wallet's. See support.ts.
 */
import { EdgeVM } from '@edge-runtime/vm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { browserBundle, expectedVerdict, ServiceSide, record, smoke, versionOf, within, type Begun, type Finished } from './support';

const packed = inject('packed');
const service = new ServiceSide();
afterAll(() => service.close());

describe(`edge runtime (@edge-runtime/vm ${versionOf('@edge-runtime/vm')})`, () => {
  it('key pair, sandbox-sealed session key, stamp, webhooks.unwrap', { timeout: 60_000 }, async () => {
    const vm = new EdgeVM();
    vm.evaluate(await browserBundle(packed));
    // Values cross the realm boundary as JSON text, parsed on the side that uses them.
    const call = async <T>(step: 'begin' | 'finish', input?: unknown): Promise<T> => {
      const argument = input === undefined ? '' : `JSON.parse(${JSON.stringify(JSON.stringify(input))})`;
      const text = await within(20_000, `edge ${step}`, vm.evaluate(`globalThis.__crossborderSmoke.${step}(${argument}).then((answer) => JSON.stringify(answer))`) as Promise<string>);
      return JSON.parse(text) as T;
    };
    const run = await smoke(service, async (between) => {
      const begun = await call<Begun>('begin');
      const finished = await call<Finished>('finish', await between(begun));
      return { begun, finished };
    });
    expect(run.begun.runtime).toBe('edge-runtime (edge-runtime)');
    record('edge-runtime', `@edge-runtime/vm ${versionOf('@edge-runtime/vm')}`, run);
    expect(run.verdict).toEqual(expectedVerdict('OperationError'));
  });
});
