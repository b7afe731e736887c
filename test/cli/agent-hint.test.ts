/**
 * An agent's credential in the shell (`CROSSBORDER_AGENT_TOKEN`) takes the place of the platform's (docs/agents.md):
 * a platform command then runs as the agent, and the service refuses it. The packed bin, against a server on
 * 127.0.0.1 that refuses every credential, says why (and that unsetting the variable runs as the platform); not
 * for the agent's own commands, nor without the variable.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers';

const HINT = "this command ran as the agent of CROSSBORDER_AGENT_TOKEN, which takes the place of the platform's credentials";

let server: Server;
let env: Record<string, string>;
const seen: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers.authorization?.split(' ')[0]);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 401, code: 'UNAUTHORIZED', message: 'not a platform credential' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  env = { CROSSBORDER_BASE_URL: `http://127.0.0.1:${port}`, CROSSBORDER_TOKEN_ID: 't', CROSSBORDER_CLIENT_SECRET: 's', CROSSBORDER_ENVIRONMENT: 'sandbox' };
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('a credential refused while the shell holds an agent token', () => {
  it('a platform command says it ran as the agent, and how to run it as the platform (text, and asAgent in --json)', async () => {
    const ran = await cli(['customers', 'list'], { env: { ...env, CROSSBORDER_AGENT_TOKEN: 'gat_test' } });
    expect(ran.code).toBe(3);
    expect(ran.err).toContain(HINT);
    expect(ran.err).toContain('Unset it to run as the platform.');
    expect(seen.at(-1)).toBe('Bearer');
    const asJson = await cli(['customers', 'list', '--json'], { env: { ...env, CROSSBORDER_AGENT_TOKEN: 'gat_test' } });
    expect(JSON.parse(asJson.err.trim())).toMatchObject({ status: 401, asAgent: true });
  });

  it("the agent's own command, and a shell without the agent's token, get no such hint", async () => {
    const own = await cli(['agents', 'me', 'retrieve'], { env: { ...env, CROSSBORDER_AGENT_TOKEN: 'gat_test' } });
    expect(own.code).toBe(3);
    expect(own.err).not.toContain(HINT);
    const platform = await cli(['customers', 'list'], { env });
    expect(platform.code).toBe(3);
    expect(seen.at(-1)).toBe('Basic');
    expect(platform.err).not.toContain(HINT);
    expect(platform.err).toContain('not a platform credential');
  });
});
