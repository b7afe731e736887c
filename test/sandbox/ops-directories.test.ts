/**
 * Production's directories, `GET /discoveries` (the receiving institutions of a corridor, not paginated) and
 * `GET /vasps` (the VASPs recognized for counterparty declarations, paginated), through the SDK against the
 * in-process sandbox (msw) and the sandbox over HTTP on 127.0.0.1.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/index';
import { DISCOVERIES, VASPS } from '../../src/sandbox/domain/directories';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { sandboxHandlers } from '../../src/sandbox/msw';

const worlds: [string, () => Promise<{ cb: (limit?: number) => Crossborder; sandbox: Sandbox; close(): Promise<void> }>][] = [
  [
    'in-process (msw)',
    async () => {
      const sandbox = createSandbox();
      const msw = setupServer(...sandboxHandlers(sandbox));
      msw.listen({ onUnhandledRequest: 'error' });
      const base = 'https://api.directories-ops.example';
      return {
        sandbox,
        cb: () => new Crossborder({ tokenId: 't', clientSecret: 's', environment: 'sandbox', baseUrl: base, maxRetries: 0 }),
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
      const sandbox = createSandbox();
      const server = await sandbox.listen();
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      return {
        sandbox,
        cb: () => new Crossborder({ tokenId: 't', clientSecret: 's', environment: 'sandbox', baseUrl: server.url, maxRetries: 0 }),
        close: () => sandbox.close(),
      };
    },
  ],
];

describe.each(worlds)('discoveries and VASPs against the sandbox, %s', (_name, make) => {
  let world: Awaited<ReturnType<(typeof worlds)[number][1]>>;
  let cb: Crossborder;
  beforeAll(async () => {
    world = await make();
    cb = world.cb();
  });
  afterAll(() => world.close());

  it("discoveries: a corridor's institutions, production's Philippine example first; each filter alone; none for an unknown corridor", async () => {
    const ph = await cb.discoveries.list({ country: 'PH', currency: 'PHP' });
    expect(ph).toEqual({
      data: [
        { bankName: 'BDO Unibank', displayName: 'BDO Unibank', country: 'PH', currency: 'PHP' },
        { bankName: 'BPI', displayName: 'Bank of the Philippine Islands', country: 'PH', currency: 'PHP' },
      ],
    });
    expect((await cb.discoveries.list({ currency: 'eur' })).data?.map((d) => [d.country, d.bankName])).toEqual([
      ['DE', 'Deutsche Bank'],
      ['FR', 'BNP Paribas'],
    ]);
    expect((await cb.discoveries.list({ country: 'MX' })).data?.map((d) => d.bankName)).toEqual(['BBVA Mexico', 'Banorte']);
    expect((await cb.discoveries.list()).data).toHaveLength(DISCOVERIES.length);
    expect((await cb.discoveries.list({ country: 'PH', currency: 'USD' })).data).toEqual([]);
  });

  it('VASPs: pages of the directory in a fixed order, walked with for await; a page size beyond 100 is refused before sending', async () => {
    const first = await cb.vasps.list({ limit: 3 });
    expect(first.data).toEqual([
      { vaspName: 'Kraken', url: 'https://www.kraken.com' },
      { vaspName: 'Coinbase', url: 'https://www.coinbase.com' },
      { vaspName: 'Bitstamp', url: 'https://www.bitstamp.net' },
    ]);
    expect(first.hasMore).toBe(true);
    const names: string[] = [];
    for await (const v of cb.vasps.list({ limit: 3 })) names.push(v.vaspName);
    expect(names).toEqual(VASPS.map((v) => v.data.vaspName));
    expect(names).toHaveLength(8);
    const bad = await cb.vasps.list({ limit: 101 }).catch((e: unknown) => e);
    expect((bad as Error).name).toBe('ValidationError');
    expect((bad as Error).message).toContain('limit');
  });
});
