/**
 * Issue 50 §5: the MCP tools' schemas as strict as production's document, never stricter, and a body field an
 * assistant puts beside `body` (`immediatelyExecute`) read where the document has it. In-process: the tool's
 * input schema and its input handling are the functions the server runs; the SDK refuses the same bound before
 * anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { bodyFieldsInBody, refusal } from '../../src/cli/mcp';
import { commandTable, detailsOf, splitInput, UsageError, type CommandDetails, type JsonSchema } from '../../src/cli/table';
import { CrossborderCore } from '../../src/core/client';
import { ValidationError } from '../../src/core/errors';
import { CHECKED } from '../../src/core/parts';
import { operations } from '../../src/generated/operations';
import { rejected, testCrossborder } from '../helpers/client';
import { json } from '../helpers/responses';

const details = (id: string): Promise<CommandDetails> => detailsOf(commandTable().find((spec) => spec.op.id === id)!);
const bodyField = (spec: CommandDetails, name: string) => ((spec.inputSchema.properties!.body as JsonSchema).properties ?? {})[name] as JsonSchema;

const QUOTE = {
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:2' },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000,
};

describe('amount bounds taken from production', () => {
  it('quotes_create advertises lockedCurrencyAmount > 0 and ≤ 9e15, not the int64 floor', async () => {
    const amount = bodyField(await details('createQuote'), 'lockedCurrencyAmount');
    expect(amount.exclusiveMinimum).toBe(0);
    expect(amount.maximum).toBe(9_000_000_000_000_000);
    expect(amount.minimum).toBeUndefined();
  });

  it('sandbox funding and UMA receive amounts are > 0; a bound production does not state stays open (transfer-out)', async () => {
    expect(bodyField(await details('sandboxFundInternalAccount'), 'amount')).toMatchObject({ exclusiveMinimum: 0, maximum: 100_000_000_000 });
    expect(bodyField(await details('sandboxReceiveUmaPayment'), 'receivingCurrencyAmount').exclusiveMinimum).toBe(0);
    const transferOut = bodyField(await details('createTransferOut'), 'amount');
    expect(transferOut.exclusiveMinimum).toBeUndefined();
    expect(transferOut.minimum).not.toBe(0);
  });

  it("config_update's per-currency limits take production's minimum: 0, and the SDK refuses a negative one before sending", async () => {
    const currency = (bodyField(await details('updateConfig'), 'supportedCurrencies').items as JsonSchema).properties!;
    expect(currency.minAmount).toMatchObject({ minimum: 0 });
    expect(currency.maxAmount).toMatchObject({ minimum: 0 });
    const sent: string[] = [];
    const { cb } = testCrossborder({
      fetch: async (url) => {
        sent.push(url);
        return json({ id: 'Config:1' }, 200);
      },
    });
    const error = await rejected(cb.config.update({ supportedCurrencies: [{ currencyCode: 'USD', minAmount: -1, maxAmount: 100 }] }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['supportedCurrencies.0.minAmount']);
    expect(sent).toEqual([]);
  });

  it('the SDK refuses a zero or negative lockedCurrencyAmount with a ValidationError naming it, and sends nothing', async () => {
    const sent: string[] = [];
    const { cb } = testCrossborder({
      fetch: async (url) => {
        sent.push(url);
        return json({ id: 'Quote:1', status: 'PENDING' }, 201);
      },
    });
    for (const lockedCurrencyAmount of [0, -1]) {
      const error = await rejected(cb.quotes.create({ ...QUOTE, lockedCurrencyAmount } as never));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['lockedCurrencyAmount']);
      expect((error as ValidationError).message).toContain('lockedCurrencyAmount');
    }
    expect(sent).toEqual([]);
    // The smallest amount the bound lets through is sent.
    await cb.quotes.create({ ...QUOTE, lockedCurrencyAmount: 1 } as never);
    expect(sent).toHaveLength(1);
  });
});

describe('the CLI and the MCP server refuse it too', () => {
  it('a core with the parts they build theirs with (CHECKED) refuses lockedCurrencyAmount 0 before sending', async () => {
    const sent: string[] = [];
    const core = new CrossborderCore(
      {
        tokenId: 'tok_test',
        clientSecret: 'sk_test_x',
        baseUrl: 'https://api.test.invalid',
        fetch: async (url) => {
          sent.push(url);
          return json({}, 201);
        },
      },
      CHECKED,
    );
    const error = await rejected(core.call(operations.createQuote, { body: { ...QUOTE, lockedCurrencyAmount: 0 } }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('lockedCurrencyAmount');
    expect(sent).toEqual([]);
  });
});

describe('a body field beside body', () => {
  it('immediatelyExecute beside body goes into the body (no query parameter), where it raises the call to money', async () => {
    const spec = await details('createQuote');
    const call = splitInput(spec.op, bodyFieldsInBody(spec, { body: QUOTE, immediatelyExecute: true }));
    expect(call.query).toBeUndefined();
    expect(call.body).toEqual({ ...QUOTE, immediatelyExecute: true });
    expect(refusal(spec, { allowWrites: true }, call.body)).toBe(
      'quotes_create with immediatelyExecute moves money: start the server with --allow-writes --allow-money-movement',
    );
    expect(refusal(spec, { allowWrites: true, allowMoneyMovement: true }, call.body)).toBeUndefined();
  });

  it('given both beside and inside body with different values, it is refused saying where it goes; the same value is taken', async () => {
    const spec = await details('createQuote');
    expect(() => bodyFieldsInBody(spec, { body: { ...QUOTE, immediatelyExecute: false }, immediatelyExecute: true })).toThrow(UsageError);
    expect(() => bodyFieldsInBody(spec, { body: { ...QUOTE, immediatelyExecute: false }, immediatelyExecute: true })).toThrow(
      /immediatelyExecute is a field of body.*give it inside body only/,
    );
    expect(bodyFieldsInBody(spec, { body: { ...QUOTE, immediatelyExecute: true }, immediatelyExecute: true })).toEqual({
      body: { ...QUOTE, immediatelyExecute: true },
    });
  });

  it('a query parameter, a path parameter or a name the body does not have stays where it is', async () => {
    const list = await details('listCustomers');
    expect(bodyFieldsInBody(list, { limit: 5 })).toEqual({ limit: 5 });
    const quote = await details('createQuote');
    const input = { body: QUOTE, somethingNew: 1 };
    expect(bodyFieldsInBody(quote, input)).toBe(input);
    const fund = await details('sandboxFundInternalAccount');
    expect(bodyFieldsInBody(fund, { accountId: 'InternalAccount:1', body: { amount: 5 } })).toEqual({ accountId: 'InternalAccount:1', body: { amount: 5 } });
  });
});

describe("where a tool's fields go follows the document, not the HTTP method", () => {
  it('every operation: a field beside the path parameters goes to the query when the document gives it no body, else to the body', async () => {
    const { readFileSync } = await import('node:fs');
    const { parse } = await import('yaml');
    const doc = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string; requestBody?: unknown }>>;
    };
    const hasBody = new Map<string, boolean>();
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item)) if (op?.operationId) hasBody.set(op.operationId, op.requestBody !== undefined);
    expect(hasBody.size).toBe(commandTable().length);
    for (const { op } of commandTable()) {
      const path = Object.fromEntries([...op.path.matchAll(/\{([^{}]+)\}/g)].map((m) => [m[1]!, 'X:1']));
      const call = splitInput(op, { ...path, probe: 'p' });
      if (hasBody.get(op.id)) expect(call, op.id).toEqual({ ...(Object.keys(path).length ? { path } : {}), body: { probe: 'p' } });
      else expect(call, op.id).toEqual({ ...(Object.keys(path).length ? { path } : {}), query: { probe: 'p' } });
    }
  });
});
