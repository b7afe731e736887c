/**
 * External accounts of every type production lists (issue 27, item 7), against the in-process sandbox and
 * the sandbox over HTTP on 127.0.0.1, through the SDK client and raw calls: each type is accepted with the
 * fields production marks required, a create missing one is refused with production's 400 shape
 * (`details.errors[]` naming the field, read by the client as `BadRequestError.issues`), the spec's forms
 * keep working, and the sandbox is never stricter than the service.
 *
 * The oracle below is production's contract, typed out independently of src/sandbox/domain/account-types.ts:
 * `lightsparkdev/grid-api` bundled openapi.yaml at 000c418665efa3901ff733a61dd2b824bfb09c4b,
 * `ExternalAccountType` and, per type, `<Cur>AccountInfoBase.required` / `<Chain>WalletInfo.required`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, Crossborder } from '../../src/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { rejected } from '../helpers/client';
import { caller, createCustomer, type Call } from './helpers';

/** Production's ExternalAccountType, in its order, with the fields each create requires besides accountType. */
const PRODUCTION: [type: string, required: string[]][] = [
  ['AED_ACCOUNT', ['iban']],
  ['BDT_ACCOUNT', ['bankName']],
  ['BRL_ACCOUNT', ['pixKey', 'pixKeyType', 'taxId']],
  ['BWP_ACCOUNT', ['phoneNumber', 'provider']],
  ['CAD_ACCOUNT', ['bankCode', 'branchCode', 'accountNumber']],
  ['COP_ACCOUNT', ['bankName']],
  ['DKK_ACCOUNT', ['iban']],
  ['EGP_ACCOUNT', ['bankName']],
  ['EUR_ACCOUNT', ['iban']],
  ['GBP_ACCOUNT', ['sortCode', 'accountNumber']],
  ['GHS_ACCOUNT', ['bankName']],
  ['GTQ_ACCOUNT', ['accountNumber', 'bankAccountType', 'bankName']],
  ['HKD_ACCOUNT', ['accountNumber', 'swiftCode']],
  ['HTG_ACCOUNT', ['phoneNumber']],
  ['IDR_ACCOUNT', ['bankName', 'accountNumber', 'swiftCode', 'phoneNumber']],
  ['INR_ACCOUNT', []],
  ['JMD_ACCOUNT', ['accountNumber', 'branchCode', 'bankAccountType', 'bankName']],
  ['KES_ACCOUNT', ['phoneNumber', 'provider']],
  ['MWK_ACCOUNT', ['phoneNumber', 'provider']],
  ['MXN_ACCOUNT', ['clabeNumber']],
  ['MYR_ACCOUNT', ['bankName', 'accountNumber', 'swiftCode']],
  ['NGN_ACCOUNT', ['accountNumber', 'bankName']],
  ['PHP_ACCOUNT', ['bankName', 'accountNumber']],
  ['PKR_ACCOUNT', ['bankName']],
  ['RWF_ACCOUNT', ['phoneNumber', 'provider']],
  ['SGD_ACCOUNT', ['accountNumber', 'swiftCode']],
  ['SLV_ACCOUNT', []],
  ['THB_ACCOUNT', ['bankName', 'accountNumber', 'swiftCode']],
  ['TZS_ACCOUNT', ['phoneNumber', 'provider']],
  ['UGX_ACCOUNT', ['phoneNumber', 'provider']],
  ['USD_ACCOUNT', ['accountNumber', 'routingNumber']],
  ['VND_ACCOUNT', ['bankName', 'accountNumber', 'swiftCode']],
  ['XAF_ACCOUNT', ['phoneNumber', 'provider', 'region']],
  ['XOF_ACCOUNT', ['phoneNumber', 'provider', 'region']],
  ['ZAR_ACCOUNT', ['accountNumber', 'bankName']],
  ['ZMW_ACCOUNT', ['phoneNumber', 'provider']],
  ['SWIFT_ACCOUNT', ['swiftCode', 'bankName', 'country']],
  ['BASE_WALLET', ['address']],
  ['ETHEREUM_WALLET', ['address']],
  ['LIGHTNING', []],
  ['PLASMA_WALLET', ['address']],
  ['ARBITRUM_WALLET', ['address']],
  ['POLYGON_WALLET', ['address']],
  ['SOLANA_WALLET', ['address']],
  ['SPARK_WALLET', ['address']],
  ['TRON_WALLET', ['address']],
  ['CNY_ACCOUNT', ['bankName']],
  ['ILS_ACCOUNT', ['iban', 'bankName']],
];

/** The spec's five types: their spec form is checked instead (so spec forms keep working). */
const SPEC_TYPES = new Set(['USD_ACCOUNT', 'GBP_ACCOUNT', 'AED_ACCOUNT', 'BRL_ACCOUNT', 'SPARK_WALLET']);

const SAMPLE: Record<string, string> = {
  accountNumber: '1234567890',
  routingNumber: '021000021',
  sortCode: '123456',
  iban: 'DE89370400440532013000',
  pixKey: 'user@example.com',
  pixKeyType: 'EMAIL',
  taxId: '11111111111',
  bankName: 'Example Bank',
  phoneNumber: '+1234567890',
  provider: 'Example Provider',
  bankCode: '001',
  branchCode: '00012',
  bankAccountType: 'CHECKING',
  swiftCode: 'DEUTDEFF',
  clabeNumber: '123456789012345678',
  region: 'BJ',
  country: 'NG',
  address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12',
};

/** The create body of production's form of `type`, without the fields in `omit`. */
function body(customerId: string, type: string, required: string[], omit: string[] = []): Record<string, unknown> {
  const accountInfo: Record<string, unknown> = { accountType: type };
  for (const field of required) if (!omit.includes(field)) accountInfo[field] = SAMPLE[field];
  const wallet = type.endsWith('_WALLET');
  const currency =
    type === 'SPARK_WALLET' || type === 'LIGHTNING' ? 'BTC' : wallet ? 'USDC' : type === 'SWIFT_ACCOUNT' || type === 'SLV_ACCOUNT' ? 'USD' : type.slice(0, 3);
  if (type === 'LIGHTNING') accountInfo.invoice = 'lnbc15u1p3xnhl2pp5example';
  // Production's form of every bank type names its beneficiary (the sandbox checks it on USD_ACCOUNT).
  else if (!wallet && !omit.includes('beneficiary')) accountInfo.beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' };
  return { customerId, currency, accountInfo, ...(type === 'SPARK_WALLET' ? { cryptoNetwork: 'SPARK_TESTNET' } : {}) };
}

const transports: [string, (sandbox: Sandbox) => Promise<{ cb: Crossborder; call: Call }>][] = [
  [
    'in-process',
    async (sandbox) => ({
      cb: new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl: 'http://sandbox.test', fetch: sandbox.fetch }),
      call: caller((input, init) => sandbox.fetch(input, init)),
    }),
  ],
  [
    'HTTP',
    async (sandbox) => {
      const server = await sandbox.listen();
      return {
        cb: new Crossborder({ tokenId: 'tok', clientSecret: 'sk_sandbox', environment: 'sandbox', baseUrl: server.url }),
        call: caller((input, init) => fetch(input, init), server.url),
      };
    },
  ],
];

describe.each(transports)('external account types, %s sandbox', (_name, connect) => {
  let sandbox: Sandbox;
  let cb: Crossborder;
  let call: Call;
  let customerId: string;
  beforeAll(async () => {
    sandbox = createSandbox();
    ({ cb, call } = await connect(sandbox));
    customerId = (await createCustomer(call)).id;
  });
  afterAll(() => sandbox.close());

  it('accepts every type production lists, in production form, keeping its fields', async () => {
    expect(PRODUCTION).toHaveLength(48);
    for (const [type, required] of PRODUCTION) {
      const res = await call('POST', '/customers/external-accounts', body(customerId, type, required));
      expect([type, res.status]).toEqual([type, 201]);
      for (const field of required) expect([type, field, res.body.accountInfo[field]]).toEqual([type, field, SAMPLE[field]]);
    }
  });

  it('refuses a production-form create missing a field production requires: 400 INVALID_INPUT, details.errors[] naming it', async () => {
    for (const [type, required] of PRODUCTION) {
      if (SPEC_TYPES.has(type)) continue;
      for (const field of required) {
        const res = await call('POST', '/customers/external-accounts', body(customerId, type, required, [field]));
        expect([type, field, res.status, res.body.code]).toEqual([type, field, 400, 'INVALID_INPUT']);
        expect([type, res.body.details.field]).toEqual([type, `accountInfo.${field}`]);
        expect(res.body.details.errors).toEqual([{ field: `accountInfo.${field}`, message: expect.stringContaining('required') }]);
      }
    }
  });

  it('names every missing field, in production order, and the client reads them as BadRequestError.issues', async () => {
    const err = await rejected(
      cb.externalAccounts.create({ customerId, currency: 'IDR', accountInfo: { accountType: 'IDR_ACCOUNT', accountNumber: '1234567890' } }),
    );
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.issues.map((i: { path: string }) => i.path)).toEqual(['accountInfo.bankName', 'accountInfo.swiftCode', 'accountInfo.phoneNumber']);
    expect(err.field).toBe('accountInfo.bankName');
    const platform = await rejected(
      cb.platform.externalAccounts.create({ currency: 'SGD', accountInfo: { accountType: 'SGD_ACCOUNT', accountNumber: '0123456789' } }),
    );
    expect(platform.issues.map((i: { path: string }) => i.path)).toEqual(['accountInfo.swiftCode']);
    const zar = await cb.externalAccounts.create({
      customerId,
      currency: 'ZAR',
      accountInfo: { accountType: 'ZAR_ACCOUNT', accountNumber: '9876543210', bankName: 'Standard Bank (South Africa)' },
    });
    expect(zar).toMatchObject({
      status: 'ACTIVE',
      currency: 'ZAR',
      accountInfo: { accountType: 'ZAR_ACCOUNT', accountNumber: '9876543210', bankName: 'Standard Bank (South Africa)' },
    });
  });

  it("keeps the spec's forms: the spec's five types are checked by the spec's fields", async () => {
    const ok = async (b: Record<string, unknown>) => expect((await call('POST', '/customers/external-accounts', { customerId, ...b })).status).toBe(201);
    await ok({
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000111222333',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    await ok({ currency: 'GBP', accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '87654321', routingNumber: '040004' } });
    await ok({ currency: 'AED', accountInfo: { accountType: 'AED_ACCOUNT', accountNumber: 'AE070331234567890123456' } });
    await ok({ currency: 'BRL', accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: '123.456.789-09', pixKeyType: 'CPF' } });
    await ok({ currency: 'BTC', cryptoNetwork: 'SPARK_TESTNET', accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qspecform' } });
    const noNumber = await call('POST', '/customers/external-accounts', {
      customerId,
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    });
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.details.errors).toEqual([{ field: 'accountInfo.accountNumber', message: expect.stringContaining('required') }]);
  });

  it('is never stricter than the service: rail-dependent types need no more, production wallets need no cryptoNetwork', async () => {
    const inr = await cb.externalAccounts.create({ customerId, currency: 'INR', accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'user@upi' } });
    expect(inr.accountInfo).toMatchObject({ accountType: 'INR_ACCOUNT', vpa: 'user@upi' });
    const neft = await cb.externalAccounts.create({
      customerId,
      currency: 'INR',
      accountInfo: { accountType: 'INR_ACCOUNT', ifsc: 'HDFC0001234', rail: 'NEFT' },
    });
    expect(neft.accountInfo).toMatchObject({ accountType: 'INR_ACCOUNT', ifsc: 'HDFC0001234' });
    const slv = await cb.externalAccounts.create({ customerId, currency: 'USD', accountInfo: { accountType: 'SLV_ACCOUNT', phoneNumber: '+50312345678' } });
    expect(slv.accountInfo).toMatchObject({ accountType: 'SLV_ACCOUNT', phoneNumber: '+50312345678' });
    const base = await cb.externalAccounts.create({ customerId, currency: 'USDC', accountInfo: { accountType: 'BASE_WALLET', address: SAMPLE.address } });
    expect(base).toMatchObject({ status: 'ACTIVE', currency: 'USDC', accountInfo: { accountType: 'BASE_WALLET', address: SAMPLE.address } });
    expect(base.cryptoNetwork).toBeUndefined();
  });
});
