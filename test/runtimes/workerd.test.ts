/**
 * workerd (Cloudflare Workers' runtime) through miniflare, WITHOUT the `nodejs_compat` flag: the
 * packed package bundled for workers as a user's bundler would (support.ts `browserBundle`), run
 * as a module worker; `begin` and `finish` are two requests to it. See support.ts.
 */
import { Miniflare } from 'miniflare';
import { afterAll, describe, inject, it } from 'vitest';
import { browserBundle, expectPassed, ServiceSide, smokeBySteps, versionOf, within } from './support';

const packed = inject('packed');
const service = new ServiceSide();
let miniflare: Miniflare | undefined;
afterAll(async () => {
  await miniflare?.dispose();
  await service.close();
});

const WORKER = `
export default {
  async fetch(request) {
    const smoke = globalThis.__crossborderSmoke;
    try {
      const answer = new URL(request.url).pathname === '/begin' ? await smoke.begin() : await smoke.finish(await request.json());
      return Response.json(answer);
    } catch (error) {
      return new Response(String(error && error.stack || error), { status: 500 });
    }
  },
};
`;

describe(`workerd ${versionOf('workerd')} (miniflare ${versionOf('miniflare')}, no nodejs_compat)`, () => {
  it('key pair, sandbox-sealed session key, stamp, webhooks.unwrap', { timeout: 60_000 }, async () => {
    const bundle = await browserBundle(packed);
    miniflare = new Miniflare({
      modules: true,
      script: `${bundle}\n${WORKER}`,
      compatibilityDate: '2025-09-01',
      compatibilityFlags: [], // no nodejs_compat: the package must not need Node's modules here
      host: '127.0.0.1',
    });
    const run = await smokeBySteps(service, async (step, input) => {
      const response = await within(
        20_000,
        `workerd /${step}`,
        miniflare!.dispatchFetch(`http://smoke.test/${step}`, { method: 'POST', body: JSON.stringify(input ?? {}) }),
      );
      const text = await response.text();
      if (response.status !== 200) throw new Error(`workerd /${step}: ${response.status} ${text}`);
      return JSON.parse(text);
    });
    expectPassed(run, 'workerd', 'workerd', `workerd ${versionOf('workerd')} (miniflare ${versionOf('miniflare')})`);
  });
});
