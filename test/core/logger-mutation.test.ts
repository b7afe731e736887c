/**
 * The one survivor of issue 22's mutation run of src/core/logger.ts that a test can kill: inside a
 * personal-data object, an allow-listed field's list passes only when every entry is itself a string
 * of the allowed form (a nested list whose text looks like a code is masked, not passed through).
 */
import { expect, it } from 'vitest';
import { maskBody } from '../../src/core/logger';

it('an allow-listed list with a nested list or a number inside personal data is masked, not passed through', () => {
  const account = { accountType: 'USD_ACCOUNT', currencies: [['USD']], status: [['ACTIVE'], 'ACTIVE'], id: [{ toString: () => 'Account:1' }] };
  expect(maskBody(account)).toEqual({
    accountType: 'USD_ACCOUNT',
    currencies: [['[redacted]']],
    status: [['[redacted]'], '[redacted]'],
    id: [{ toString: '[redacted]' }],
  });
  expect(maskBody({ accountType: 'USD_ACCOUNT', currencies: ['USD', 'EUR'] })).toEqual({ accountType: 'USD_ACCOUNT', currencies: ['USD', 'EUR'] });
});
