// @ts-nocheck
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors';
import { formatAmount, toMinorUnits } from '../../src/helpers/money';

const USD = { code: 'USD', decimals: 2 };
const BTC = { code: 'BTC', decimals: 8 };
const USDC = { code: 'USDC', decimals: 6 };
const JPY = { code: 'JPY', decimals: 0 };

describe('money helpers', () => {
  it('formats exactly', () => {
    expect(formatAmount({ amount: 1234, currency: USD })).toBe('12.34');
    expect(formatAmount({ amount: 5, currency: USD })).toBe('0.05');
    expect(formatAmount({ amount: -5, currency: USD })).toBe('-0.05');
    expect(formatAmount({ amount: 1, currency: BTC })).toBe('0.00000001');
    expect(formatAmount({ amount: 1_500_000, currency: USDC })).toBe('1.500000');
    expect(formatAmount({ amount: 1500, currency: JPY })).toBe('1500');
    expect(formatAmount({ amount: 1234, currency: USD }, { code: true })).toBe('12.34 USD');
    expect(formatAmount({ amount: Number.MAX_SAFE_INTEGER, currency: USD })).toBe('90071992547409.91');
  });

  it('parses exactly, with no float rounding', () => {
    expect(toMinorUnits('12.34', USD)).toBe(1234);
    expect(toMinorUnits('0.1', USD)).toBe(10);
    expect(toMinorUnits('1.10', USD)).toBe(110);
    expect(toMinorUnits('1.120', USD)).toBe(112);
    expect(toMinorUnits('0.29', USD)).toBe(29); // 0.29 * 100 = 28.999999999999996 in floats
    expect(toMinorUnits('0.00000001', BTC)).toBe(1);
    expect(toMinorUnits('-3', USDC)).toBe(-3_000_000);
    expect(toMinorUnits(' 7 ', JPY)).toBe(7);
  });

  it('refuses what it cannot represent, naming the field', () => {
    const cases: [() => unknown, string][] = [
      [() => toMinorUnits('12.345', USD), 'value'],
      [() => toMinorUnits('1e3', USD), 'value'],
      [() => toMinorUnits('abc', USD), 'value'],
      [() => toMinorUnits('', USD), 'value'],
      [() => toMinorUnits(12.34 as never, USD), 'value'],
      [() => toMinorUnits('90071992547409.92', USD), 'value'],
      [() => toMinorUnits('1', { decimals: 19 }), 'currency.decimals'],
      [() => formatAmount({ amount: 1.5, currency: USD }), 'amount'],
      [() => formatAmount({ amount: 2 ** 53, currency: USD }), 'amount'],
      [() => formatAmount({ amount: 1, currency: { decimals: -1 } }), 'currency.decimals'],
    ];
    for (const [fn, field] of cases) {
      let error: unknown;
      try {
        fn();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
    }
  });

  it('toMinorUnits(formatAmount(x)) === x for every decimals 0..18', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 18 }), fc.maxSafeInteger(), (decimals, amount) => {
        const currency = { decimals };
        expect(toMinorUnits(formatAmount({ amount, currency }), currency)).toBe(amount);
      }),
      { numRuns: 5_000, seed: 20251013 },
    );
  });
});
