/**
 * How a table shows money (issue 50 §3), on rows shaped as the service sends them: major units with the
 * currency's decimals (JPY 0, USD 2, BTC 8), grouped by thousands, with the code; a currency without decimals
 * never guessed; ids and money whole at any width; the rest cut or left out first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { displayRow, objectTable, rowsTable } from '../../src/cli/output';
import { formatAmount } from '../../src/helpers/money';

const USD = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 };
const JPY = { code: 'JPY', name: 'Yen', symbol: '¥', decimals: 0 };
const BTC = { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 };

const columns = process.env.COLUMNS;
afterEach(() => {
  if (columns === undefined) delete process.env.COLUMNS;
  else process.env.COLUMNS = columns;
});

describe('formatAmount grouping', () => {
  it("groups the whole part by thousands, exactly, in each currency's decimals", () => {
    expect(formatAmount({ amount: 123456, currency: USD }, { code: true, grouping: true })).toBe('1,234.56 USD');
    expect(formatAmount({ amount: 123456789, currency: JPY }, { code: true, grouping: true })).toBe('123,456,789 JPY');
    expect(formatAmount({ amount: 1000, currency: JPY }, { grouping: true })).toBe('1,000');
    expect(formatAmount({ amount: 999, currency: JPY }, { grouping: true })).toBe('999');
    expect(formatAmount({ amount: -100000000, currency: USD }, { grouping: true })).toBe('-1,000,000.00');
    expect(formatAmount({ amount: 1, currency: BTC }, { code: true, grouping: true })).toBe('0.00000001 BTC');
    expect(formatAmount({ amount: 123456789012, currency: BTC }, { grouping: true })).toBe('1,234.56789012');
    // Without the option, as before.
    expect(formatAmount({ amount: 123456, currency: USD })).toBe('1234.56');
  });
});

describe('displayRow', () => {
  it("shows the API's money as money, a currency by its code, and leaves other nested values out", () => {
    const { text, money } = displayRow({
      id: 'Transaction:0195',
      sentAmount: { amount: 250000, currency: USD },
      receivedAmount: { amount: 36000, currency: JPY },
      fees: { amount: 199, currency: USD },
      destination: { accountId: 'InternalAccount:1', currency: 'USD' },
      status: 'COMPLETED',
      note: null,
    });
    expect(text).toEqual({
      id: 'Transaction:0195',
      sentAmount: '2,500.00 USD',
      receivedAmount: '36,000 JPY',
      fees: '1.99 USD',
      status: 'COMPLETED',
      note: 'null',
    });
    expect([...money]).toEqual(['sentAmount', 'receivedAmount', 'fees']);
  });

  it('a currency without decimals shows the smallest units as sent, said so (no guess)', () => {
    expect(displayRow({ balance: { amount: 5000, currency: { code: 'XYZ' } } }).text).toEqual({ balance: '5000 XYZ (smallest units)' });
  });

  it('an exchange rate: its plain amounts in the currency each one is in, fees by their total, the rate with both codes', () => {
    const rate = {
      sourceCurrency: USD,
      sendingAmount: 10000,
      minSendingAmount: 1,
      maxSendingAmount: 100000000000,
      destinationCurrency: BTC,
      destinationPaymentRail: 'LIGHTNING',
      receivingAmount: 104631,
      exchangeRate: 95000,
      fees: { fixed: 30, total: 60 },
      updatedAt: '2026-12-02T00:00:00Z',
    };
    expect(displayRow(rate).text).toEqual({
      sourceCurrency: 'USD',
      sendingAmount: '100.00 USD',
      minSendingAmount: '0.01 USD',
      maxSendingAmount: '1,000,000,000.00 USD',
      destinationCurrency: 'BTC',
      destinationPaymentRail: 'LIGHTNING',
      receivingAmount: '0.00104631 BTC',
      exchangeRate: '1 BTC = 95000 USD',
      fees: '0.60 USD',
      updatedAt: '2026-12-02T00:00:00Z',
    });
  });

  it("a quote's sending and receiving currencies price its totals and its fees", () => {
    const quote = {
      id: 'Quote:1',
      sendingCurrency: USD,
      receivingCurrency: JPY,
      totalSendingAmount: 10050,
      totalReceivingAmount: 14800,
      exchangeRate: 0.0068,
      feesIncluded: 50,
    };
    expect(displayRow(quote).text).toMatchObject({
      totalSendingAmount: '100.50 USD',
      totalReceivingAmount: '14,800 JPY',
      feesIncluded: '0.50 USD',
      exchangeRate: '1 JPY = 0.0068 USD',
    });
  });

  it('without both currencies, a plain number is left as it is', () => {
    expect(displayRow({ sendingAmount: 10000, exchangeRate: 1.5 }).text).toEqual({ sendingAmount: '10000', exchangeRate: '1.5' });
  });
});

describe('rowsTable', () => {
  const accounts = [
    {
      id: 'InternalAccount:00000003-9d3f-b64a-febe-de10d4e8eb2a',
      customerId: 'Customer:00000002-9c43-a8c3-b7cf-3c25632b9240',
      balance: { amount: 123456, currency: USD },
      fundingPaymentInstructions: [{ reference: 'x' }],
      createdAt: '2026-12-02T00:55:49.091Z',
      updatedAt: '2026-12-02T00:55:49.178Z',
      privateEnabled: false,
      type: 'INTERNAL_FIAT',
      status: 'OPEN',
      totalBalance: { amount: 123456, currency: USD },
    },
    {
      id: 'InternalAccount:00000004-aaaa-bbbb-cccc-dddddddddddd',
      customerId: 'Customer:00000002-9c43-a8c3-b7cf-3c25632b9240',
      balance: { amount: 700, currency: JPY },
      createdAt: '2026-12-02T00:55:49.091Z',
      updatedAt: '2026-12-02T00:55:49.178Z',
      privateEnabled: false,
      type: 'INTERNAL_FIAT',
      status: 'OPEN',
      totalBalance: { amount: 700, currency: JPY },
    },
  ];

  it('ids first, then money, then the other fields, dates last; 7 columns', () => {
    delete process.env.COLUMNS;
    const lines = rowsTable(accounts).split('\n');
    expect(lines[0]!.split(/\s{2,}/)).toEqual(['ID', 'CUSTOMERID', 'BALANCE', 'TOTALBALANCE', 'PRIVATEENABLED', 'TYPE', 'STATUS']);
    expect(lines[1]!.split(/\s{2,}/)).toEqual([accounts[0]!.id, accounts[0]!.customerId, '1,234.56 USD', '1,234.56 USD', 'false', 'INTERNAL_FIAT', 'OPEN']);
    expect(lines[2]!.split(/\s{2,}/)).toEqual([accounts[1]!.id, accounts[1]!.customerId, '700 JPY', '700 JPY', 'false', 'INTERNAL_FIAT', 'OPEN']);
  });

  it('at a narrow width, ids and money stay whole: the other columns are cut, then left out', () => {
    process.env.COLUMNS = '150';
    const narrow = rowsTable(accounts).split('\n');
    expect(narrow[1]).toContain('1,234.56 USD');
    expect(narrow[1]).toContain(accounts[0]!.id);
    expect(narrow[0]!.length).toBeLessThanOrEqual(150);
    process.env.COLUMNS = '40';
    const tight = rowsTable(accounts).split('\n');
    // Ids are never left out; money goes once nothing else is left, never cut.
    expect(tight[0]!.split(/\s{2,}/)).toEqual(['ID', 'CUSTOMERID']);
    expect(tight.join('\n')).not.toMatch(/USD…|…USD/);
  });

  it("objectTable shows a resource's money as money, its other nested values as JSON", () => {
    const table = objectTable({ id: 'InternalAccount:1', balance: { amount: 123456, currency: USD }, fundingPaymentInstructions: [{ reference: 'x' }] });
    expect(table).toBe(
      'id                          InternalAccount:1\nbalance                     1,234.56 USD\nfundingPaymentInstructions  [{"reference":"x"}]\n',
    );
  });
});
