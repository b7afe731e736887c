/**
 * workerd (Cloudflare Workers' runtime) through miniflare, WITHOUT the `nodejs_compat` flag: the
 * packed package bundled for workers as a user's bundler would (support.ts `browserBundle`), run
 * as a module worker; `begin` and `finish` are two requests to it. See support.ts.
 */
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { browserBundle, expectedVerdict, ServiceSide, record, smoke, versionOf, within, type Begun, type Finished } from './support';

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
    const call = async <T>(path: string, body?: unknown): Promise<T> => {
      const response = await within(20_000, `workerd ${path}`, miniflare!.dispatchFetch(`http://smoke.test${path}`, { method: 'POST', body: JSON.stringify(body ?? {}) }));
      const text = await response.text();
      if (response.status !== 200) throw new Error(`workerd ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    };
    const run = await smoke(service, async (between) => {
      const begun = await call<Begun>('/begin');
      const finished = await call<Finished>('/finish', await between(begun));
      return { begun, finished };
    });
    expect(run.begun.runtime).toBe('workerd');
    record('workerd', `workerd ${versionOf('workerd')} (miniflare ${versionOf('miniflare')})`, run);
    expect(run.verdict).toEqual(expectedVerdict('OperationError'));
  });
});
