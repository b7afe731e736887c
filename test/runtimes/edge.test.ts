/**
 * The Vercel / Next.js edge runtime, as `@edge-runtime/vm` runs it: the packed package bundled for
 * the edge (support.ts `browserBundle`) and evaluated in an `EdgeVM`, a realm of its own whose
 * Web APIs (WebCrypto, TextEncoder, Request) come from the host. Typed arrays crossing between the
 * two realms are the known trap: WebCrypto refused the wallet's. See support.ts.
 */
import { EdgeVM } from '@edge-runtime/vm';
import { afterAll, describe, inject, it } from 'vitest';
import { browserBundle, expectPassed, ServiceSide, smokeBySteps, versionOf, within } from './support';

const packed = inject('packed');
const service = new ServiceSide();
afterAll(() => service.close());

describe(`edge runtime (@edge-runtime/vm ${versionOf('@edge-runtime/vm')})`, () => {
  it('key pair, sandbox-sealed session key, stamp, webhooks.unwrap', { timeout: 60_000 }, async () => {
    const vm = new EdgeVM();
    vm.evaluate(await browserBundle(packed));
    // Values cross the realm boundary as JSON text, parsed on the side that uses them.
    const run = await smokeBySteps(service, async (step, input) => {
      const argument = input === undefined ? '' : `JSON.parse(${JSON.stringify(JSON.stringify(input))})`;
      const text = await within(
        20_000,
        `edge ${step}`,
        vm.evaluate<Promise<string>>(`globalThis.__crossborderSmoke.${step}(${argument}).then((answer) => JSON.stringify(answer))`),
      );
      return JSON.parse(text);
    });
    expectPassed(run, 'edge-runtime (edge-runtime)', 'edge-runtime', `@edge-runtime/vm ${versionOf('@edge-runtime/vm')}`);
  });
});
