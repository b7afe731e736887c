/**
 * docs/testing.md shows the CLI's request log: every `METHOD /path → STATUS` line it shows is
 * replayed against the sandbox, and the status shown is the one the sandbox answers (a create
 * answers what the sandbox answers, not what a reader might expect).
 */
import { Crossborder } from 'crossborder-sdk';
import { createSandbox, type RequestLogEntry } from 'crossborder-sdk/sandbox';
import { describe, expect, it } from 'vitest';
import { codeBlocks, read } from './markdown';

const guide = read('docs/testing.md');
/** `# POST /2025-10-13/customers → 201 3ms req_…` in the guide's shell blocks. */
const shown = codeBlocks(guide)
  .filter((b) => b.lang === 'sh')
  .flatMap((b) => [...b.code.matchAll(/^# (GET|POST|PATCH|PUT|DELETE) (\/\S+) → (\d{3}) /gm)])
  .map((m) => ({ method: m[1]!, path: m[2]!, status: Number(m[3]) }));

/** The call that makes each request the guide may show. */
const CALLS: Record<string, (cb: Crossborder) => Promise<unknown>> = {
  'GET /2025-10-13/customers': (cb) => cb.customers.list(),
  'POST /2025-10-13/customers': (cb) => cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' }),
  'GET /2025-10-13/transactions': (cb) => cb.transactions.list(),
};

describe('docs/testing.md request log lines', () => {
  it('shows at least one', () => {
    expect(shown.length).toBeGreaterThan(0);
  });

  for (const line of shown) {
    it(`${line.method} ${line.path} → ${line.status} is what the sandbox answers`, async () => {
      const call = CALLS[`${line.method} ${line.path}`];
      expect(call, `no call known for ${line.method} ${line.path}: add one to CALLS`).toBeDefined();
      const logged: RequestLogEntry[] = [];
      const sandbox = createSandbox({ onRequest: (entry) => void logged.push(entry) });
      try {
        await call!(new Crossborder({ tokenId: 'sandbox', clientSecret: 'sandbox', environment: 'sandbox', fetch: sandbox.fetch }));
      } finally {
        await sandbox.close();
      }
      expect(logged.map((e) => `${e.method} ${e.path} → ${e.status}`)).toEqual([`${line.method} ${line.path} → ${line.status}`]);
    });
  }
});
