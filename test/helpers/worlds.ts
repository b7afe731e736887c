/**
 * The two worlds the operation tests run in: the sandbox in-process behind msw, and the sandbox over HTTP on
 * 127.0.0.1 (a free port). Each records the requests it served and the webhooks it delivered (answered 200).
 */
import { setupServer } from 'msw/node';
import { expect } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index';
import { sandboxHandlers } from '../../src/sandbox/msw';
import type { RequestLogEntry } from '../../src/sandbox/serve/request-log';

/** A webhook delivery: its body and headers. */
export interface Hook {
  body: string;
  headers: Record<string, string>;
}

export interface World {
  sandbox: Sandbox;
  baseUrl: string;
  /** The requests the sandbox served. */
  logged: RequestLogEntry[];
  /** The webhooks it delivered. */
  hooks: Hook[];
  close(): Promise<void>;
}

/**
 * `[name, make]` for `describe.each`: the in-process world answers at `https://<host>`; `options` are the sandbox's
 * (a clock, faults), beside the request log and the delivery this helper sets.
 */
export function sandboxWorlds(host: string, options: Omit<SandboxOptions, 'onRequest' | 'webhookDelivery'> = {}): [string, () => Promise<World>][] {
  const make = () => {
    const logged: RequestLogEntry[] = [];
    const hooks: Hook[] = [];
    const sandbox = createSandbox({
      ...options,
      onRequest: (e) => logged.push(e),
      webhookDelivery: {
        fetch: async (_url: string, init: RequestInit) => {
          hooks.push({ body: init.body as string, headers: init.headers as Record<string, string> });
          return new Response('{}', { status: 200 });
        },
        initialBackoffMs: 10,
      },
    });
    return { sandbox, logged, hooks };
  };
  return [
    [
      'in-process (msw)',
      async () => {
        const { sandbox, logged, hooks } = make();
        const msw = setupServer(...sandboxHandlers(sandbox));
        msw.listen({ onUnhandledRequest: 'error' });
        return {
          sandbox,
          baseUrl: `https://${host}`,
          logged,
          hooks,
          close: async () => {
            msw.close();
            await sandbox.close();
          },
        };
      },
    ],
    [
      'HTTP on 127.0.0.1',
      async () => {
        const { sandbox, logged, hooks } = make();
        const server = await sandbox.listen();
        expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        return { sandbox, baseUrl: server.url, logged, hooks, close: () => sandbox.close() };
      },
    ],
  ];
}
