/**
 * The sandbox over HTTP (node:http, loaded on first use): each server knows the address it bound
 * (the `Host` check) and whether it asks for the control token; a sandbox closes the servers it started.
 * @module
 */
import { generateControlToken, isLoopbackHost, requiresControlToken, type Binding, type Exposure } from './exposure';
import type { SandboxRequest, SandboxResponse } from './http';

/** A running HTTP server of the sandbox. */
export interface SandboxServer {
  /** `http://127.0.0.1:<port>`, without the version segment. */
  url: string;
  /**
   * The control token this server asks for (`X-Sandbox-Token`): the `controlToken` option, or one
   * generated because the address is not loopback; undefined when none is asked. Print it for whoever
   * drives the controls; never log it with the requests.
   */
  controlToken?: string | undefined;
  close(): Promise<void>;
}

/** What the servers of one sandbox share. */
export interface ListenOptions {
  /** The `controlToken` option of the sandbox. */
  controlToken?: string | undefined;
  /** The `allowedHosts` option of the sandbox. */
  allowedHosts?: string[] | undefined;
}

/** Starts servers over `handle` and closes them all. */
export interface Listener {
  listen(port?: number, host?: string): Promise<SandboxServer>;
  /** Closes every server started and not closed yet. */
  closeAll(): Promise<void>;
}

/** The servers of one sandbox, answering through `handle`. */
export function createListener(handle: (req: SandboxRequest, exposure: Exposure) => Promise<SandboxResponse>, options: ListenOptions): Listener {
  const servers = new Set<SandboxServer>();
  return {
    async listen(port = 0, host = '127.0.0.1') {
      const { serve } = await import('./node');
      const loopback = isLoopbackHost(host);
      // Beyond loopback the control plane always takes a token: the one given, else a new one.
      const controlToken = requiresControlToken(host, options.controlToken) ? (options.controlToken ?? generateControlToken()) : undefined;
      const binding: Binding = { host, port, allowedHosts: options.allowedHosts };
      const exposure: Exposure = { loopback, binding, controlToken };
      const server = await serve((req) => handle(req, exposure), port, host);
      binding.port = Number(new URL(server.url).port); // before any request is read
      const tracked: SandboxServer = {
        url: server.url,
        controlToken,
        close: async () => {
          servers.delete(tracked);
          await server.close();
        },
      };
      servers.add(tracked);
      return tracked;
    },
    closeAll: async () => void (await Promise.all([...servers].map((s) => s.close()))),
  };
}
