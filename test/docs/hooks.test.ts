import { HookError, type QuoteCreateParams } from 'crossborder-sdk';
import { describe, expect, it, vi } from 'vitest';
import { createQuoteDespiteHooks } from '../../examples/guides/hooks/answered';
import { correlationHooks } from '../../examples/guides/hooks/correlation';
import { metricsHooks, type CallMetric } from '../../examples/guides/hooks/metrics';
import { fundedCustomer, sandboxClient } from './support';

const quoteParams = (accountId: string, payeeId: string): QuoteCreateParams => ({
  source: { sourceType: 'ACCOUNT', accountId },
  destination: { destinationType: 'ACCOUNT', accountId: payeeId },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 1_000,
});

describe('docs/hooks.md', () => {
  it('metrics: a line per attempt with the template, status and request id, and one per failed call', async () => {
    const metrics: CallMetric[] = [];
    const { cb } = sandboxClient({}, { hooks: metricsHooks((m) => metrics.push(m)), maxRetries: 0 });
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
    await cb.customers.retrieve('Customer:does-not-exist').catch(() => undefined);
    expect(metrics.map((m) => [m.operation, m.status, m.attempt])).toEqual([
      ['POST /customers', 200, 1],
      ['GET /customers/{customerId}', 404, 1],
      ['GET /customers/{customerId}', 'NotFoundError', 0],
    ]);
    expect(metrics[0]!.requestId).toMatch(/\S/);
    expect(JSON.stringify(metrics)).not.toContain(customer.id.slice(9)); // no values, templates only
  });

  it('correlation: the header reaches the service on every attempt', async () => {
    const { sandbox } = sandboxClient();
    const seen: (string | null)[][] = [];
    const { cb: traced } = sandboxClient(
      {},
      {
        hooks: correlationHooks(() => 'corr-42'),
        fetch: (input, init) => {
          const headers = new Headers(init.headers);
          seen.push([headers.get('x-correlation-id'), headers.get('x-attempt')]);
          return sandbox.fetch(input, init);
        },
      },
    );
    await traced.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Grace Hopper' });
    expect(seen).toEqual([['corr-42', '1']]);
  });

  it('a throwing afterResponse still gives the created quote', async () => {
    const { cb: setup, sandbox } = sandboxClient();
    const { account, payee } = await fundedCustomer(setup);
    const { Crossborder } = await import('crossborder-sdk');
    const cb = new Crossborder({
      tokenId: 'test',
      clientSecret: 'test',
      environment: 'sandbox',
      fetch: sandbox.fetch,
      hooks: {
        afterResponse: () => {
          throw new Error('metrics backend down');
        },
      },
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const quote = await createQuoteDespiteHooks(cb, quoteParams(account.id, payee.id));
      expect(quote.id).toMatch(/^Quote:/);
      expect((await setup.quotes.retrieve(quote.id)).id).toBe(quote.id);
      expect(warn.mock.calls[0]![0]).toMatch(/^hooks\.afterResponse threw: metrics backend down \(request \S+\); the quote was created$/);
      // Any other failure is thrown as is.
      const refused = await createQuoteDespiteHooks(cb, quoteParams('InternalAccount:missing', payee.id)).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(HookError);
      expect((refused as HookError).status).toBe(404);
    } finally {
      warn.mockRestore();
    }
  });
});
