/**
 * What the runner sends and stamps, pinned as bytes: a quote's body is the same on every replay under
 * its Idempotency-Key, whichever version of the runner built it (these strings were written by main's
 * code at f240c16, before the body was built field by field); a record's time is `toISOString`'s.
 */
import { describe, expect, it } from 'vitest';
import { isoNow, quoteBody } from '../../src/payouts/runner';
import type { PayoutRecord } from '../../src/payouts/index';

const record = (instruction: Record<string, unknown>, lookupId?: string) =>
  ({ reference: 'r', instruction: { reference: 'r', amount: 1234, ...instruction }, ...(lookupId ? { lookupId } : {}) }) as unknown as PayoutRecord;

describe('the quote body', () => {
  it('is the same bytes as before, field for field and in order, undefined fields left out', () => {
    const cases: [PayoutRecord, 'immediate' | 'separate', string][] = [
      [
        record({ source: { accountId: 'InternalAccount:a' }, destination: { accountId: 'ExternalAccount:b' } }),
        'immediate',
        '{"source":{"sourceType":"ACCOUNT","accountId":"InternalAccount:a"},"destination":{"destinationType":"ACCOUNT","accountId":"ExternalAccount:b"},"lockedCurrencySide":"RECEIVING","lockedCurrencyAmount":1234,"immediatelyExecute":true}',
      ],
      [
        record({ source: { accountId: 'InternalAccount:a' }, destination: { umaAddress: '$bob@uma.example' }, description: 'd', purposeOfPayment: 'GIFT' }),
        'immediate',
        '{"source":{"sourceType":"ACCOUNT","accountId":"InternalAccount:a"},"destination":{"destinationType":"UMA_ADDRESS","umaAddress":"$bob@uma.example"},"lockedCurrencySide":"RECEIVING","lockedCurrencyAmount":1234,"immediatelyExecute":true,"description":"d","purposeOfPayment":"GIFT"}',
      ],
      [
        record(
          {
            source: { accountId: 'InternalAccount:a', currency: 'USD' },
            destination: { accountId: 'ExternalAccount:b', currency: 'EUR', paymentRail: 'SEPA' },
          },
          'Lookup:1',
        ),
        'immediate',
        '{"source":{"sourceType":"ACCOUNT","accountId":"InternalAccount:a","currency":"USD"},"destination":{"destinationType":"ACCOUNT","accountId":"ExternalAccount:b","currency":"EUR","paymentRail":"SEPA"},"lockedCurrencySide":"RECEIVING","lockedCurrencyAmount":1234,"immediatelyExecute":true,"lookupId":"Lookup:1"}',
      ],
      [
        record({
          source: { accountId: 'InternalAccount:a', currency: undefined },
          destination: { currency: 'EUR', accountId: 'ExternalAccount:c' },
          lockedCurrencySide: 'SENDING',
          senderCustomerInfo: { name: 'A', z: [1, { b: 2 }] },
        }),
        'separate',
        '{"source":{"sourceType":"ACCOUNT","accountId":"InternalAccount:a"},"destination":{"destinationType":"ACCOUNT","accountId":"ExternalAccount:c","currency":"EUR"},"lockedCurrencySide":"SENDING","lockedCurrencyAmount":1234,"senderCustomerInfo":{"name":"A","z":[1,{"b":2}]}}',
      ],
      [
        record(
          {
            source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', customerId: 'Customer:1', cryptoNetwork: 'SOLANA' },
            destination: { umaAddress: '$bob@uma.example', currency: 'MXN' },
            description: 'd',
            purposeOfPayment: 'GIFT',
          },
          'Lookup:1',
        ),
        'immediate',
        '{"source":{"sourceType":"REALTIME_FUNDING","currency":"USDC","customerId":"Customer:1","cryptoNetwork":"SOLANA"},"destination":{"destinationType":"UMA_ADDRESS","umaAddress":"$bob@uma.example","currency":"MXN"},"lockedCurrencySide":"RECEIVING","lockedCurrencyAmount":1234,"lookupId":"Lookup:1","description":"d","purposeOfPayment":"GIFT"}',
      ],
    ];
    for (const [r, execution, bytes] of cases) expect(JSON.stringify(quoteBody(r, execution))).toBe(bytes);
  });
});

describe("a record's time", () => {
  it("is toISOString's, across seconds, days and years, before 1970 and beyond 9999", () => {
    const start = Date.UTC(2026, 11, 31, 23, 59, 58, 990);
    const times = [
      ...Array.from({ length: 3_000 }, (_, i) => start + i),
      -1,
      0,
      -1_001,
      951_782_399_999,
      253_402_300_799_999,
      253_402_300_800_000,
      -62_167_219_200_001,
    ];
    for (const ms of times) expect(isoNow(ms)).toBe(new Date(ms).toISOString());
    const now = Date.now();
    expect(Date.parse(isoNow())).toBeGreaterThanOrEqual(now);
  });
});
