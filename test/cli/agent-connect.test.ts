/**
 * A command's client with an agent's credential (`CROSSBORDER_AGENT_TOKEN`): the local default does not put the
 * sandbox's platform credentials in its place, so the client, and `mcp`, act as the agent; a profile's platform
 * credentials win over it, as the SDK's options do over its environment.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect } from '../../src/cli/client';

afterEach(() => {
  vi.unstubAllEnvs();
});

const clear = () => {
  for (const name of ['CROSSBORDER_BASE_URL', 'CROSSBORDER_TOKEN_ID', 'CROSSBORDER_CLIENT_SECRET', 'CROSSBORDER_AGENT_TOKEN', 'CROSSBORDER_CONFIG'])
    vi.stubEnv(name, '');
};

describe('connect with an agent credential', () => {
  it('the local default with CROSSBORDER_AGENT_TOKEN is the agent, not the sandbox platform', () => {
    clear();
    vi.stubEnv('CROSSBORDER_AGENT_TOKEN', 'gat_0123456789abcdef');
    const connection = connect({});
    expect([connection.target.from, connection.agent, connection.sandboxCredentials]).toEqual(['default', true, false]);
  });

  it('without it the local default is the sandbox platform; platform credentials in the environment are not an agent', () => {
    clear();
    expect([connect({}).agent, connect({}).sandboxCredentials]).toEqual([false, true]);
    vi.stubEnv('CROSSBORDER_TOKEN_ID', 'tok');
    vi.stubEnv('CROSSBORDER_CLIENT_SECRET', 'sk');
    expect(connect({ baseUrl: 'http://127.0.0.1:1' }).agent).toBe(false);
    // Beside the platform's in the environment, the agent's credential is the one used (as the SDK reads them).
    vi.stubEnv('CROSSBORDER_AGENT_TOKEN', 'gat_0123456789abcdef');
    expect(connect({ baseUrl: 'http://127.0.0.1:1' }).agent).toBe(true);
  });

  it('a command whose operation takes no credential (redeem-device-code) runs without one; any other is refused', () => {
    clear();
    expect(() => connect({ baseUrl: 'http://127.0.0.1:1' })).toThrow(/CROSSBORDER_TOKEN_ID/);
    const connection = connect({ baseUrl: 'http://127.0.0.1:1', anonymous: true });
    expect([connection.agent, connection.sandboxCredentials]).toEqual([false, false]);
  });
});
