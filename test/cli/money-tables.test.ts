/**
 * Tables that show the money (issue 50 §3), from the packed bin against the HTTP sandbox: a list's amounts,
 * balances, fees and rates in major units with their currency ("1,234.56 USD", each currency's decimals), ids
 * whole, `--json` as the service sent it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, json, startSandbox, type Sandbox } from './helpers';

let sandbox: Sandbox;
let env: Record<string, string>;
let customerId: string;

beforeAll(async () => {
  sandbox = await startSandbox(['--quiet']);
  env = { ...envFor(sandbox), COLUMNS: '250' };
  customerId = json<{ id: string }>(
    await cli(['customers', 'create', '--customer-type', 'INDIVIDUAL', '--region', 'US', '--currencies', 'USD', '--full-name', 'Money Table', '--json'], {
      env,
    }),
  ).id;
  const received = await cli(
    [
      'sandbox',
      'uma',
      'receive',
      '--sender-uma-address',
      '$sender@sandbox.uma.example',
      '--receiving-currency-code',
      'USD',
      '--receiving-currency-amount',
      '123456',
      '--customer-id',
      customerId,
      '--json',
    ],
    { env },
  );
  expect(received.code, received.err).toBe(0);
}, 120_000);
afterAll(async () => {
  expect(await sandbox.stop()).toBe(0);
});

/** A table's rows as { COLUMN: cell }, cut where the header's columns begin (cells are padded to their column); the count line after a page (`1 of 1`) left out. */
function parse(table: string): Record<string, string>[] {
  const [header, ...lines] = table
    .trimEnd()
    .split('\n')
    .filter((line) => !/^\d+ of \d+$|; more with --cursor/.test(line));
  const starts = [...header!.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index }));
  return lines.map((line) => Object.fromEntries(starts.map(({ name, at }, i) => [name, line.slice(at, starts[i + 1]?.at).trim()])));
}

describe('CLI list tables show money', () => {
  it('transactions list: the received amount in major units with its currency, ids whole; --json unchanged', async () => {
    const ran = await cli(['transactions', 'list', '--customer-id', customerId], { env });
    expect(ran.code, ran.err).toBe(0);
    const rows = parse(ran.out);
    const asJson = json<{ data: { id: string; receivedAmount: { amount: number; currency: { code: string; decimals: number } } }[] }>(
      await cli(['transactions', 'list', '--customer-id', customerId, '--json'], { env }),
    );
    // --json is the service's answer: smallest units, the whole currency object.
    expect(asJson.data).toHaveLength(1);
    expect(asJson.data[0]!.receivedAmount).toMatchObject({ amount: 123456, currency: { code: 'USD', decimals: 2 } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ID).toBe(asJson.data[0]!.id);
    expect(rows[0]!.CUSTOMERID).toBe(customerId);
    expect(rows[0]!.RECEIVEDAMOUNT).toBe('1,234.56 USD');
    expect(rows[0]!.STATUS).toBe('COMPLETED');
  }, 60_000);

  it('internal-accounts list: the balance as money', async () => {
    const ran = await cli(['internal-accounts', 'list', '--customer-id', customerId], { env });
    expect(ran.code, ran.err).toBe(0);
    const rows = parse(ran.out);
    const usd = rows.find((r) => r.BALANCE?.endsWith(' USD'));
    expect(usd?.BALANCE).toBe('1,234.56 USD');
    expect(usd?.ID).toMatch(/^InternalAccount:\S+$/);
  }, 60_000);

  it("exchange-rates: each row with both currencies, its amounts in each one's decimals, its fees and its rate", async () => {
    const ran = await cli(['exchange-rates', 'retrieve', '--source-currency', 'USD'], { env });
    expect(ran.code, ran.err).toBe(0);
    const rows = parse(ran.out);
    const asJson = json<{ data: { destinationCurrency: { code: string }; receivingAmount: number; exchangeRate: number; fees: { total: number } }[] }>(
      await cli(['exchange-rates', 'retrieve', '--source-currency', 'USD', '--json'], { env }),
    );
    expect(rows.map((r) => r.DESTINATIONCURRENCY)).toEqual(asJson.data.map((r) => r.destinationCurrency.code));
    const eur = rows.find((r) => r.DESTINATIONCURRENCY === 'EUR')!;
    const eurJson = asJson.data.find((r) => r.destinationCurrency.code === 'EUR')!;
    expect(eur).toMatchObject({ SOURCECURRENCY: 'USD', SENDINGAMOUNT: '100.00 USD', FEES: `${(eurJson.fees.total / 100).toFixed(2)} USD` });
    expect(eur.RECEIVINGAMOUNT).toBe(`${(eurJson.receivingAmount / 100).toFixed(2)} EUR`);
    expect(eur.EXCHANGERATE).toBe(`1 EUR = ${eurJson.exchangeRate} USD`);
    // Bitcoin has 8 decimals, USDC 6: each amount in its own currency's.
    const btc = asJson.data.find((r) => r.destinationCurrency.code === 'BTC')!;
    expect(rows.find((r) => r.DESTINATIONCURRENCY === 'BTC')!.RECEIVINGAMOUNT).toBe(`${(btc.receivingAmount / 1e8).toFixed(8)} BTC`);
    const usdc = asJson.data.find((r) => r.destinationCurrency.code === 'USDC')!;
    expect(rows.find((r) => r.DESTINATIONCURRENCY === 'USDC')!.RECEIVINGAMOUNT).toBe(`${(usdc.receivingAmount / 1e6).toFixed(6)} USDC`);
  }, 60_000);
});
