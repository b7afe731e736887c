/**
 * Open unions (decisions.md "Identifiers, open sets"): a request body takes a variant this SDK does
 * not know yet, still checked for the fields every known variant has; answers keep the known
 * variants so that narrowing by the discriminator works.
 */
// @ts-nocheck

import { describe, expectTypeOf, it } from 'vitest';
import type { Crossborder, CredentialCreateParams, ExternalAccount, ExternalAccountCreateParams, UsdAccountInfo } from '../../src/index';

declare const cb: Crossborder;

describe('open unions in request bodies', () => {
  it('take an account type and a credential type the SDK does not know, with their own fields', () => {
    void cb.externalAccounts.create({ customerId: 'c', currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' } });
    void cb.platform.externalAccounts.create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' } });
    void cb.auth.credentials.create({ type: 'WEBAUTHN_V2', accountId: 'InternalAccount:1', attestation: {} });
    void cb.auth.credentials.verify('AuthMethod:1', { type: 'SMS_OTP', otp: '123456' });
  });

  it('still require what every known variant requires', () => {
    //  accountId is required whatever the credential type
    const missing: CredentialCreateParams = { type: 'WEBAUTHN_V2' };
    void missing;
    //  accountInfo is required
    const noInfo: ExternalAccountCreateParams = { currency: 'MXN' };
    void noInfo;
  });
});

describe('answers keep the known variants', () => {
  it('narrow by accountType', () => {
    const account = {} as ExternalAccount;
    if (account.accountInfo.accountType === 'USD_ACCOUNT') expectTypeOf(account.accountInfo).toEqualTypeOf<UsdAccountInfo>();
  });
});
