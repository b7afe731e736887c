/**
 * The external account types production lists, and the `accountInfo` fields production marks required
 * for each: the one table the sandbox checks an external account create against.
 *
 * Source: `lightsparkdev/grid-api`, bundled `openapi.yaml` at commit
 * `000c418665efa3901ff733a61dd2b824bfb09c4b` (`info.version: '2025-10-13'`), read 2026-11-25. The create
 * request's `accountInfo` is `ExternalAccountCreateInfoOneOf`, discriminated by `accountType`:
 * - a bank type `<Cur>_ACCOUNT` is `<Cur>ExternalAccountCreateInfo` = `BaseExternalAccountInfo` +
 *   `<Cur>AccountInfoBase` + a required `beneficiary`; `required` below is `<Cur>AccountInfoBase.required`
 *   less `accountType` (`SWIFT_ACCOUNT`: `SwiftAccountInfoBase`);
 * - a chain wallet is `<Chain>WalletExternalAccountInfo` (`<Chain>WalletInfo` requires `address`);
 * - `LIGHTNING` is `LightningInfo` (requires nothing beyond `accountType`; its description asks for one of
 *   `invoice`, `bolt12`, `lightningAddress`, which the schema does not mark required).
 *
 * Types whose fields depend on the payment rail (INR, SLV: production's description lists them per rail)
 * require only what the schema marks required, since the sandbox is never stricter than the service.
 * Production also requires a `beneficiary` on every bank type (`<Cur>ExternalAccountCreateInfo`); the
 * sandbox checks it where `beneficiary` is set below: USD_ACCOUNT, whose refusal production's service was seen to answer. The
 * other bank types are not checked yet, which is less strict than the service, never more.
 * @module
 */

/** What the sandbox knows of one account type. */
export interface AccountType {
  /** The currency a bank account of this type holds; undefined when any known currency or asset goes (wallets, SWIFT). */
  readonly currency: string | undefined;
  /** The `accountInfo` fields production marks required (besides `accountType`). */
  readonly required: readonly string[];
  /**
   * The spec's five types only: what the spec's form needs, as groups of which each needs one member (the
   * spec's field or production's of the same thing). The sandbox checks this instead of `required`, so
   * the spec's form and production's are both accepted.
   */
  readonly spec?: readonly (readonly string[])[];
  /** A crypto wallet: the body's `cryptoNetwork` applies to it. */
  readonly wallet: boolean;
  /** `cryptoNetwork` must be sent. No type needs it now: production's document takes a SPARK_WALLET without it, as its wallet types. */
  readonly cryptoNetworkRequired: boolean;
  /**
   * A `beneficiary` must be sent, with its `beneficiaryType` and the name that type requires (INDIVIDUAL:
   * `fullName`, BUSINESS: `legalName`; production's `UsdBeneficiary` and `BusinessBeneficiary`).
   */
  readonly beneficiary?: boolean;
}

const bank = (currency: string | undefined, ...required: string[]): AccountType => ({ currency, required, wallet: false, cryptoNetworkRequired: false });
const chainWallet: AccountType = { currency: undefined, required: ['address'], wallet: true, cryptoNetworkRequired: false };

/** Every account type production lists (`ExternalAccountType` at the commit above), with its required fields. */
export const ACCOUNT_TYPES: Readonly<Record<string, AccountType>> = {
  // The spec's types: production's required fields, and the spec's form, which the sandbox checks.
  // USD: the spec lists routingNumber and beneficiary among accountInfo's fields without saying which are
  // required, and every USD request example of the spec's document carries both: production's rule holds.
  USD_ACCOUNT: { ...bank('USD', 'accountNumber', 'routingNumber'), spec: [['accountNumber'], ['routingNumber']], beneficiary: true },
  GBP_ACCOUNT: { ...bank('GBP', 'sortCode', 'accountNumber'), spec: [['accountNumber']] },
  AED_ACCOUNT: { ...bank('AED', 'iban'), spec: [['accountNumber', 'iban']] },
  BRL_ACCOUNT: { ...bank('BRL', 'pixKey', 'pixKeyType', 'taxId'), spec: [['pixKey', 'accountNumber']] },
  SPARK_WALLET: { currency: 'BTC', required: ['address'], spec: [['address', 'invoice']], wallet: true, cryptoNetworkRequired: false },
  // Production's types.
  BDT_ACCOUNT: bank('BDT', 'bankName'),
  BWP_ACCOUNT: bank('BWP', 'phoneNumber', 'provider'),
  CAD_ACCOUNT: bank('CAD', 'bankCode', 'branchCode', 'accountNumber'),
  CNY_ACCOUNT: bank('CNY', 'bankName'),
  COP_ACCOUNT: bank('COP', 'bankName'),
  DKK_ACCOUNT: bank('DKK', 'iban'),
  EGP_ACCOUNT: bank('EGP', 'bankName'),
  EUR_ACCOUNT: bank('EUR', 'iban'),
  GHS_ACCOUNT: bank('GHS', 'bankName'),
  GTQ_ACCOUNT: bank('GTQ', 'accountNumber', 'bankAccountType', 'bankName'),
  HKD_ACCOUNT: bank('HKD', 'accountNumber', 'swiftCode'),
  HTG_ACCOUNT: bank('HTG', 'phoneNumber'),
  IDR_ACCOUNT: bank('IDR', 'bankName', 'accountNumber', 'swiftCode', 'phoneNumber'),
  ILS_ACCOUNT: bank('ILS', 'iban', 'bankName'),
  INR_ACCOUNT: bank('INR'),
  JMD_ACCOUNT: bank('JMD', 'accountNumber', 'branchCode', 'bankAccountType', 'bankName'),
  KES_ACCOUNT: bank('KES', 'phoneNumber', 'provider'),
  MWK_ACCOUNT: bank('MWK', 'phoneNumber', 'provider'),
  MXN_ACCOUNT: bank('MXN', 'clabeNumber'),
  MYR_ACCOUNT: bank('MYR', 'bankName', 'accountNumber', 'swiftCode'),
  NGN_ACCOUNT: bank('NGN', 'accountNumber', 'bankName'),
  PHP_ACCOUNT: bank('PHP', 'bankName', 'accountNumber'),
  PKR_ACCOUNT: bank('PKR', 'bankName'),
  RWF_ACCOUNT: bank('RWF', 'phoneNumber', 'provider'),
  SGD_ACCOUNT: bank('SGD', 'accountNumber', 'swiftCode'),
  SLV_ACCOUNT: bank('USD'), // El Salvador's accounts hold US dollars (production's examples: SLV_ACCOUNT in USD)
  THB_ACCOUNT: bank('THB', 'bankName', 'accountNumber', 'swiftCode'),
  TZS_ACCOUNT: bank('TZS', 'phoneNumber', 'provider'),
  UGX_ACCOUNT: bank('UGX', 'phoneNumber', 'provider'),
  VND_ACCOUNT: bank('VND', 'bankName', 'accountNumber', 'swiftCode'),
  XAF_ACCOUNT: bank('XAF', 'phoneNumber', 'provider', 'region'),
  XOF_ACCOUNT: bank('XOF', 'phoneNumber', 'provider', 'region'),
  ZAR_ACCOUNT: bank('ZAR', 'accountNumber', 'bankName'),
  ZMW_ACCOUNT: bank('ZMW', 'phoneNumber', 'provider'),
  SWIFT_ACCOUNT: bank(undefined, 'swiftCode', 'bankName', 'country'),
  LIGHTNING: { currency: 'BTC', required: [], wallet: false, cryptoNetworkRequired: false },
  BASE_WALLET: chainWallet,
  ETHEREUM_WALLET: chainWallet,
  PLASMA_WALLET: chainWallet,
  ARBITRUM_WALLET: chainWallet,
  POLYGON_WALLET: chainWallet,
  SOLANA_WALLET: chainWallet,
  TRON_WALLET: chainWallet,
};

/**
 * The account type named `name`, or undefined when the table does not list it. Own entries only:
 * `__proto__`, `constructor` or `toString` are names the service does not list, not the table's prototype.
 */
export function accountTypeNamed(name: unknown): AccountType | undefined {
  return typeof name === 'string' && Object.hasOwn(ACCOUNT_TYPES, name) ? ACCOUNT_TYPES[name] : undefined;
}

/** The groups of fields the sandbox checks for `type`: the spec's form for the spec's types, else production's fields one by one. */
export function checkedFields(type: AccountType): readonly (readonly string[])[] {
  return type.spec ?? type.required.map((field) => [field]);
}
