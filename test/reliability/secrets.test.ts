/**
 * Secrets stay where the protocol puts them. A client at `logLevel: 'debug'` with a recording logger
 * drives every method against the sandbox (over HTTP, through the fault proxy) on success and error
 * paths: 4xx, 5xx, timeouts, lost responses, refused connections, the signed retry with a signer
 * and in relay mode, validation errors. Every log line, every error (message, stack,
 * `JSON.stringify`, `util.inspect(err, { depth: 10 })`), `util.inspect(client)` and every request on
 * the wire is then searched for the client secret and its Basic credential, OTPs, OIDC tokens,
 * session and device private keys, the `Service-Wallet-Signature` stamps, an agent's credential and
 * what SCA answers (a TOTP factor's secret and URI, its recovery codes, a reset's liveness token).
 *
 * Allowed: the Basic credential in the `Authorization` header; an OTP in the body of its `/verify`;
 * an OIDC token in the body of its OAUTH create or `/verify`; a stamp in its own header; the agent's
 * `accessToken` in the answer of its redeem and as `Authorization: Bearer` of the agent's own calls
 * (`/agents/me`, by a client made with `agentToken`); a TOTP secret in its enrollment's answer (and,
 * the raw secret, in the confirm's body), its recovery codes in the confirm's answer, a liveness
 * token in the reset start's answer. Private keys: nowhere.
 */
import crypto from 'node:crypto';
import { nodeHpkeOpen } from '../wallet/node-reference';
import util from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import { CrossborderError, ScaRequiredError, SignatureRequiredError, type SignatureChallenge } from '../../src/core/errors';
import { operations, type OperationId } from '../../src/generated/operations';
import { MAGIC, createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import { generateClientKeyPair, importSessionKey, sessionKeySigner, WalletSession } from '../../src/wallet/index';
import { header, only, script, startFaultProxy, type Fault, type FaultProxy, type ProxyRecord } from './proxy';
import { command, report, SEED } from './support';
import { METHODS } from './methods';
import { requestExample } from '../helpers/document';
import { b64url } from '../helpers/encoding';

const TOKEN_ID = 'tok_secrets_suite';
const SECRET = `sk_live_${crypto.randomBytes(18).toString('hex')}`;
const BASIC = Buffer.from(`${TOKEN_ID}:${SECRET}`).toString('base64');
const BAD_OTP = '913527';
/** A wrong SCA one-time code (contact verification, SMS, TOTP): the customer's secret like an OTP. */
const BAD_SCA_CODE = '482915';
/** Personal data the run sends: never in a log line or an error (it belongs on the wire only). */
const PII = { iban: 'DE89370400440532013000', beneficiary: 'Grace Beneficiary', email: 'grace@beneficiary.example' };
const PERSONAL = [
  'Ada Secretkeeper',
  'Ada S. Keeper',
  '1990-12-10',
  '1 Main',
  'Austin',
  '78701',
  '000123456789',
  '000999888777',
  '000555444333',
  PII.iban,
  PII.beneficiary,
  PII.email,
];
/** A beneficial owner's identity (KYB): names, birth date, street, id number. */
const OWNER = {
  firstName: 'Olga',
  lastName: 'Ownerhidden',
  birthDate: '1971-02-03',
  nationality: 'US',
  address: { line1: '9 Hidden Lane', postalCode: '10001', country: 'US' },
  idType: 'SSN',
  identifier: '987-65-4321',
};
PERSONAL.push(OWNER.lastName, OWNER.birthDate, OWNER.address.line1, OWNER.identifier);
/** The SCA customer (an EEA region): her name and street. */
const EVE = { fullName: 'Eve Scaholder', line1: '7 Rue Cachee' };
PERSONAL.push(EVE.fullName, EVE.line1);
/** Personal values only the service's answers carry (a hosted KYC link and its provider token). */
const ANSWERED: string[] = [];
const MAGIC_OTP = '000000';

let sandbox: Sandbox;
let server: SandboxServer;
let proxy: FaultProxy;
let cb: Crossborder;
const lines: { level: string; message: string; details?: unknown }[] = [];
const errors: unknown[] = [];
const inspected: string[] = [];
const stamps: string[] = [];
const tokens: string[] = [];
const privateKeys: string[] = [];
/** The agent's credential, answered once by a device code's redemption. */
const agentTokens: string[] = [];
/** What the SCA answers: a TOTP factor's secret, its base32 form and URI, its recovery codes, a reset's liveness token. */
const scaSecrets = { totp: [] as string[], totpUri: [] as string[], recoveryCodes: [] as string[], liveness: [] as string[] };
const reached = new Set<OperationId>();
/** The caller's own signer failing: passed through unchanged (it is the caller's error, not the SDK's). */
const deviceOffline = new Error('device offline');
const errorPaths = new Set<string>();

/** An OIDC identity token issued now, with a distinctive signature part. */
function oidcToken(sub: string): string {
  const token = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ iss: 'https://idp.example', sub, email: `${sub}@idp.example`, iat: Math.floor(sandbox.clock.now() / 1000) })}.${b64url(`oidc-signature-${crypto.randomBytes(24).toString('hex')}`)}`;
  tokens.push(token);
  return token;
}

/** A signer that records the stamps it makes. */
function recording(signer: (c: SignatureChallenge) => Promise<string>) {
  return async (c: SignatureChallenge) => {
    const stamp = await signer(c);
    stamps.push(stamp);
    return stamp;
  };
}

/** Runs a call; keeps its error (and says which error path it was). */
async function attempt<T>(path: string, call: () => PromiseLike<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    errors.push(error);
    errorPaths.add(`${path}: ${(error as Error).name}`);
    return undefined;
  }
}

const newClient = (baseUrl: string, extra: Partial<ConstructorParameters<typeof Crossborder>[0]> = {}) =>
  new Crossborder({
    tokenId: TOKEN_ID,
    clientSecret: SECRET,
    environment: 'sandbox',
    baseUrl,
    logLevel: 'debug',
    logger: {
      debug: (message, details) => lines.push({ level: 'debug', message, details }),
      info: (message, details) => lines.push({ level: 'info', message, details }),
      warn: (message, details) => lines.push({ level: 'warn', message, details }),
      error: (message, details) => lines.push({ level: 'error', message, details }),
    },
    sleep: async () => {},
    ...extra,
  });

beforeAll(async () => {
  sandbox = createSandbox({ seed: SEED, webhookDelivery: { fetch: async () => new Response(null, { status: 200 }) } });
  server = await sandbox.listen();
  proxy = await startFaultProxy(server.url);
  cb = newClient(proxy.url);
  const verifyPath = (r: { method: string; url: string }) => r.method === 'POST' && /\/verify$/.test(r.url.split('?')[0]!);

  // Customers, accounts, money.
  const ada = await cb.customers.create({
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Secretkeeper',
    birthDate: '1990-12-10',
    nationality: 'GB',
    region: 'US',
    currencies: ['USD', 'EUR'],
    address: { line1: '1 Main', city: 'Austin', postalCode: '78701', country: 'US' },
  });
  await cb.customers.retrieve(ada.id);
  await cb.customers.update(ada.id, { customerType: 'INDIVIDUAL', fullName: 'Ada S. Keeper' });
  const temp = await cb.customers.create({ customerType: 'BUSINESS', region: 'US', businessInfo: { legalName: 'Temp Ltd' } });
  await cb.customers.delete(temp.id);
  for await (const _ of cb.customers.list({ limit: 1 })) void _;
  const accounts = (await cb.internalAccounts.list({ customerId: ada.id })).data;
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')!;
  const eur = accounts.find((a) => a.balance.currency.code === 'EUR')!;
  await cb.sandbox.fundInternalAccount(usd.id, { amount: 1_000_000 });
  const bank = await cb.externalAccounts.create({
    customerId: ada.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    },
  });
  await cb.externalAccounts.list({ customerId: ada.id });
  await cb.platform.externalAccounts.create({
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '000999888777',
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    },
  });
  // An account kind the SDK does not know yet (the open union), with a beneficiary: personal data
  // under field names the log's list does not have (issue 22, defect 4).
  await attempt('open-union account', () =>
    cb.externalAccounts.create({
      customerId: ada.id,
      currency: 'EUR',
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: PII.iban,
        bic: 'COBADEFFXXX',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: PII.beneficiary, nationality: 'GB', countryOfResidence: 'FR', email: PII.email },
      },
    }),
  );
  await cb.platform.externalAccounts.list();
  // Production's operations on one external account: wallets prove their ownership, then are read and deleted.
  const spark = (address: string) => ({ currency: 'BTC', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'SPARK_WALLET' as const, address } });
  const wallet = await cb.externalAccounts.create({ customerId: ada.id, ...spark('sp1qsecretkeeperwallet0000000000000000000') });
  const walletChallenge = await cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
  if (walletChallenge.method === 'WALLET_SIGNATURE')
    await cb.externalAccounts.verify(wallet.id, { signature: `${MAGIC.ownershipSignaturePrefix}${walletChallenge.messageToSign}` });
  await cb.externalAccounts.retrieve(wallet.id);
  await cb.externalAccounts.delete(wallet.id);
  const platformWallet = await cb.platform.externalAccounts.create(spark('sp1qsecretkeeperplatform00000000000000000'));
  await cb.platform.externalAccounts.challenge(platformWallet.id, { method: 'WALLET_SIGNATURE' });
  await attempt('400 wrong ownership signature', () => cb.platform.externalAccounts.verify(platformWallet.id, { signature: 'not-the-wallet' }));
  await cb.platform.externalAccounts.retrieve(platformWallet.id);
  await cb.platform.externalAccounts.delete(platformWallet.id);
  await cb.config.retrieve();
  await cb.receiver.lookupExternalAccount(bank.id, { customerId: ada.id });
  const lookup = await cb.receiver.lookupUma('$bob@receiver.example', { customerId: ada.id });
  const quote = await cb.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usd.id },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$bob@receiver.example', currency: 'MXN' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
    lookupId: lookup.lookupId,
    senderCustomerInfo: { FULL_NAME: 'Ada' },
  });
  await cb.quotes.retrieve(quote.id);
  await cb.quotes.execute(quote.id);
  await attempt('409 execute twice', () => cb.quotes.execute(quote.id));
  const quote2 = await cb.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usd.id },
    destination: { destinationType: 'ACCOUNT', accountId: eur.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 5_000,
  });
  await cb.transferIn.create({ source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: 2_500 });
  const held1 = await cb.sandbox.receiveUmaPayment({
    senderUmaAddress: '$sam@sandbox.uma.example',
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: MAGIC.holdForApprovalAmount,
    customerId: ada.id,
  });
  const held2 = await cb.sandbox.receiveUmaPayment({
    senderUmaAddress: '$sue@sandbox.uma.example',
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: MAGIC.holdForApprovalAmount,
    customerId: ada.id,
  });
  await cb.transactions.approve(held1.id, { receiverCustomerInfo: { FULL_NAME: 'Ada' } });
  await cb.transactions.reject(held2.id, { reason: 'test' });
  await cb.transactions.retrieve(held1.id);
  await cb.transactions.list({ customerId: ada.id, limit: 2 });
  const invitation = await cb.invitations.create({ inviterUma: ada.umaAddress, firstName: 'Bob', amountToSend: 2_000 });
  await cb.invitations.retrieve(invitation.code);
  await cb.invitations.claim(invitation.code, { inviteeUma: '$bob@wallet.example' });
  await attempt('400 claimed invitation cancelled', () => cb.invitations.cancel(invitation.code));
  await cb.customers.endUserTerms();
  const { jobId } = await cb.customers.importCsv({ file: 'umaAddress,platformCustomerId,customerType,fullName\n$csv@platform.example,csv-1,INDIVIDUAL,Csv\n' });
  await cb.customers.retrieveImportJob(jobId);
  await cb.verifications.list({ customerId: ada.id });
  // KYC/KYB: a business, its owner (personal data), a submission, the hosted link (its URL and token are the customer's).
  const acme = await cb.customers.create({
    customerType: 'BUSINESS',
    region: 'US',
    businessInfo: { legalName: 'Acme Ltd', taxId: '12-3456789', incorporatedOn: '2019-03-01' },
    address: { line1: '1 Main', city: 'Austin', postalCode: '78701', country: 'US' },
  });
  const owner = await cb.beneficialOwners.create({ customerId: acme.id, roles: ['CONTROL_PERSON'], ownershipPercentage: 30, personalInfo: OWNER });
  await cb.beneficialOwners.retrieve(owner.id);
  await cb.beneficialOwners.update(owner.id, { personalInfo: { email: 'olga@hidden.example' } });
  await cb.beneficialOwners.list({ customerId: acme.id });
  await cb.verifications.retrieve((await cb.verifications.create({ customerId: acme.id })).id);
  const link = await cb.customers.createKycLink(acme.id, { redirectUri: 'https://app.example/kyc-done' });
  PERSONAL.push('olga@hidden.example');
  ANSWERED.push(link.kycUrl, link.token!);
  await cb.umaProviders.list({ limit: 2 });
  await cb.config.update({ supportedCurrencies: (await cb.config.retrieve()).supportedCurrencies });
  void quote2;
  // Production's money group (issue 34 §2).
  const out = await cb.transferOut.create({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 1_000 });
  await cb.transactions.confirm(out.id);
  await attempt('cancel (a 409 once the transfer settled)', () => cb.transactions.cancel(out.id));
  const [platformUsdc] = (await cb.platform.internalAccounts.list({ currency: 'USDC' })).data;
  await cb.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: ['EUR'] });
  await cb.crypto.estimateWithdrawalFee({
    internalAccountId: platformUsdc!.id,
    currency: 'USDC',
    cryptoNetwork: 'SOLANA',
    amount: 1_000_000,
    destinationAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  });
  // API tokens (a created secret is in its create answer only), discoveries and VASPs.
  const apiToken = await cb.tokens.create({ name: 'secrets run', permissions: ['VIEW'] });
  await cb.tokens.list({ limit: 5 });
  await cb.tokens.retrieve(apiToken.id);
  await cb.tokens.delete(apiToken.id);
  await cb.discoveries.list({ country: 'PH', currency: 'PHP' });
  await cb.vasps.list({ limit: 2 });
  // SCA (production's): an EEA customer is an SCA customer. Its contacts verified, its factors enrolled (a TOTP
  // factor answers its secret and, confirmed, its recovery codes: secrets in those answers only), a login session,
  // a beneficiary trusted and untrusted, a payment held for authorization and released, a factor reset.
  const eve = await cb.customers.create({
    customerType: 'INDIVIDUAL',
    fullName: EVE.fullName,
    birthDate: '1988-04-05',
    nationality: 'FR',
    region: 'FR',
    currencies: ['EUR'],
    address: { line1: EVE.line1, city: 'Paris', postalCode: '75005', country: 'FR' },
  });
  await cb.customers.verifyEmail(eve.id);
  await attempt('400 wrong SCA code', () => cb.customers.confirmEmail(eve.id, { code: BAD_SCA_CODE }));
  await cb.customers.confirmEmail(eve.id, { code: MAGIC.scaCode });
  await cb.customers.verifyPhone(eve.id);
  await cb.customers.confirmPhone(eve.id, { code: MAGIC.scaCode });
  const totp = await cb.sca.factors.enroll(eve.id, { type: 'TOTP' });
  if (totp.type !== 'TOTP') throw new Error(`expected a TOTP enrollment, got ${totp.type}`);
  scaSecrets.totp.push(totp.secret);
  scaSecrets.totpUri.push(totp.secretBase32Encoded, totp.totpUri);
  const totpDone = await cb.sca.factors.confirm(eve.id, { type: 'TOTP', secret: totp.secret, code: MAGIC.scaCode });
  if (totpDone.type !== 'TOTP') throw new Error(`expected a TOTP confirmation, got ${totpDone.type}`);
  scaSecrets.recoveryCodes.push(...totpDone.recoveryCodes);
  await cb.sca.factors.enroll(eve.id, { type: 'PASSKEY' });
  const passkeyDone = await cb.sca.factors.confirm(eve.id, {
    type: 'PASSKEY',
    origin: MAGIC.scaPasskeyOrigin,
    credential: { id: 'Y3JlZC1zY2E', type: 'public-key' },
  });
  if (passkeyDone.type !== 'PASSKEY') throw new Error(`expected a PASSKEY confirmation, got ${passkeyDone.type}`);
  await cb.sca.factors.list(eve.id);
  await cb.sca.factors.delete(eve.id, passkeyDone.factor.credentialId!);
  await cb.sca.events.record(eve.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
  const scaLogin = await cb.sca.login.start(eve.id, { factor: 'SMS_OTP' });
  await cb.sca.login.complete(eve.id, { factor: 'SMS_OTP', challengeId: scaLogin.challengeId, code: MAGIC.scaCode, endUserIpAddress: '203.0.113.42' });
  const eveEur = (await cb.internalAccounts.list({ customerId: eve.id, currency: 'EUR' })).data[0]!;
  await cb.sandbox.fundInternalAccount(eveEur.id, { amount: 50_000 });
  const evePayee = await cb.externalAccounts.create({
    customerId: eve.id,
    currency: 'EUR',
    accountInfo: { accountType: 'EUR_ACCOUNT', iban: PII.iban, swiftCode: 'DEUTDEFF' },
  });
  const trust = await cb.externalAccounts.trust(evePayee.id);
  await cb.externalAccounts.confirmTrust(evePayee.id, { challengeId: trust.scaChallenge?.id, code: MAGIC.scaCode });
  const untrust = await cb.externalAccounts.untrust(evePayee.id);
  await cb.externalAccounts.confirmUntrust(evePayee.id, { challengeId: untrust.scaChallenge?.id, code: MAGIC.scaCode });
  const eveQuote = await cb.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: eveEur.id },
    destination: { destinationType: 'ACCOUNT', accountId: evePayee.id, currency: 'EUR' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  const held = await attempt('SCA: execute held for authorization', () => cb.quotes.execute(eveQuote.id));
  expect(held).toBeUndefined();
  expect(errors.at(-1)).toBeInstanceOf(ScaRequiredError);
  await cb.quotes.resendAuthorization(eveQuote.id);
  expect((await cb.quotes.authorize(eveQuote.id, { code: MAGIC.scaCode, endUserIpAddress: '203.0.113.42' })).status).not.toBe('PENDING_AUTHORIZATION');
  const reset = await cb.sca.resets.start(eve.id, { factor: 'TOTP' });
  if (reset.livenessAccessToken) scaSecrets.liveness.push(reset.livenessAccessToken);
  sandbox.clock.advance(MAGIC.livenessPassesAfterMs);
  expect((await cb.sca.resets.retrieve(eve.id, reset.resetId)).status).toBe('LIVENESS_PASSED');
  await cb.sca.resets.complete(eve.id, reset.resetId);

  // Agents: the platform creates one for Ada under a policy and redeems a device code for its credential
  // (`accessToken`, a secret answered once); a client made with it is the agent and calls every /agents/me operation
  // (as `Authorization: Bearer`). Its actions above the threshold wait: the platform approves one and rejects one.
  const { agent, deviceCode: firstCode } = await cb.agents.create({
    name: 'Secrets bot',
    customerId: ada.id,
    policy: {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 10 },
      approvalThresholds: { currency: 'USD', amount: 20_000 },
    },
  });
  await cb.agents.list({ customerId: ada.id });
  await cb.agents.retrieve(agent.id);
  await cb.agents.update(agent.id, { name: 'Secrets bot (renamed)' });
  await cb.agents.updatePolicy(agent.id, { spendingLimits: { monthlyLimit: 2_000_000 } });
  const deviceCode = await cb.agents.createDeviceCode(agent.id);
  await attempt('400 redeem of a device code a newer one replaced', () => cb.agents.redeemDeviceCode(firstCode.code));
  const { accessToken } = await cb.agents.redeemDeviceCode(deviceCode.code);
  agentTokens.push(accessToken);
  await cb.agents.getDeviceCodeStatus(deviceCode.code);
  const bot = newClient(proxy.url, { tokenId: undefined, clientSecret: undefined, agentToken: accessToken });
  await bot.agents.me.retrieve();
  await bot.agents.me.internalAccounts.list();
  await bot.agents.me.externalAccounts.list();
  const botPayee = await bot.agents.me.externalAccounts.create({
    customerId: ada.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '000555444333',
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    },
  });
  await bot.agents.me.externalAccounts.retrieve(botPayee.id);
  await bot.agents.me.externalAccounts.delete(botPayee.id);
  const paid = await bot.agents.me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 1_000 });
  await bot.agents.me.transferIn({ source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: 1_000 });
  const toApprove = await bot.agents.me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 30_000 });
  const toReject = await bot.agents.me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 25_000 });
  expect([paid.status, toApprove.status, toReject.status]).toEqual(['APPROVED', 'PENDING_APPROVAL', 'PENDING_APPROVAL']);
  await attempt('403 agent beyond its per-transaction limit', () =>
    bot.agents.me.transferOut({ source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 60_000 }),
  );
  const botQuote = await bot.agents.me.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usd.id },
    destination: { destinationType: 'ACCOUNT', accountId: eur.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 2_500,
  });
  await bot.agents.me.quotes.retrieve(botQuote.id);
  await bot.agents.me.quotes.execute(botQuote.id);
  await bot.agents.me.transactions.list({ limit: 2 });
  await bot.agents.me.transactions.retrieve(paid.transaction!.id);
  await bot.agents.me.actions.list({ status: 'PENDING_APPROVAL' });
  await bot.agents.me.actions.retrieve(toApprove.id);
  await cb.agents.listApprovals({ agentId: agent.id });
  await cb.agents.approveAction(agent.id, toApprove.id);
  await cb.agents.rejectAction(agent.id, toReject.id, { reason: 'USER_CANCELLATION' });
  await cb.agents.delete(agent.id);
  await attempt("401 a deleted agent's credential", () => bot.agents.me.retrieve());
  inspected.push(util.inspect(bot, { depth: 10, showHidden: true }), JSON.stringify(bot), String(bot));

  await attempt('400 sandbox send of a quote funded from an account', () => cb.sandbox.send({ quoteId: quote2.id, currencyCode: 'USD' }));
  await attempt('400 test webhook without an endpoint', () => cb.sandbox.sendTestWebhook());

  // Wallet: EMAIL_OTP session with a device key whose bytes the test holds.
  const walletId = usd.id.replace('InternalAccount:', 'EmbeddedWallet:');
  const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
  const device = crypto.createECDH('prime256v1');
  device.generateKeys();
  privateKeys.push(device.getPrivateKey('hex'));
  await attempt('401 wrong OTP', () => cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: BAD_OTP, clientPublicKey: device.getPublicKey('hex') }));
  const verified = await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: MAGIC_OTP, clientPublicKey: device.getPublicKey('hex') });
  const scalar = nodeHpkeOpen(device, verified.encryptedSessionSigningKey!);
  privateKeys.push(scalar.toString('hex'));
  const s1 = recording(sessionKeySigner(await importSessionKey(scalar.toString('hex'))));
  scalar.fill(0);

  // A second credential (OAUTH) by the signed retry, then its session through the wallet module.
  const oauth = await cb.auth.credentials.create({ type: 'OAUTH', accountId: walletId, oidcToken: oidcToken('ada-oauth') }, { signer: s1 });
  const keyPair = await generateClientKeyPair();
  const oauthAnswer = await cb.auth.credentials.verify(oauth.id, { type: 'OAUTH', oidcToken: oidcToken('ada-oauth'), clientPublicKey: keyPair.publicKey });
  const s2session = await WalletSession.fromVerify(oauthAnswer, keyPair, oauth.id);
  const s2 = recording(s2session.signer);
  inspected.push(util.inspect(s2session, { depth: 10, showHidden: true }), JSON.stringify(s2session), util.inspect(keyPair, { depth: 10, showHidden: true }));

  // PASSKEY: created with the signer, challenged and verified with its Request-Id.
  const passkey = await cb.auth.credentials.create(
    {
      type: 'PASSKEY',
      accountId: walletId,
      nickname: 'laptop',
      challenge: 'Y2hhbGxlbmdl',
      attestation: { credentialId: 'Y3JlZC1pZC0x', clientDataJson: 'e30', attestationObject: 'o2M' },
    },
    { signer: s2 },
  );
  const pkKeys = await generateClientKeyPair();
  // Expected to succeed; kept as attempts so that a failure here is reported by name and the search still runs.
  const pkChallenge = (await attempt('unexpected: PASSKEY challenge', () =>
    cb.auth.credentials.challenge(passkey.id, { clientPublicKey: pkKeys.publicKey }),
  )) as { challenge: string; requestId: string } | undefined;
  if (pkChallenge) {
    await attempt('unexpected: PASSKEY verify', () =>
      cb.auth.credentials.verify(
        passkey.id,
        {
          type: 'PASSKEY',
          assertion: {
            credentialId: 'Y3JlZC1pZC0x',
            clientDataJson: b64url({ type: 'webauthn.get', challenge: pkChallenge.challenge }),
            authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
            signature: 'MEUCIQDx2b1cexample',
            userHandle: null,
          },
        },
        { requestId: pkChallenge.requestId },
      ),
    );
  }
  await cb.auth.credentials.challenge(otp.id);
  await attempt('429 OTP too soon', () => cb.auth.credentials.challenge(otp.id, undefined, { maxRetries: 0 }));
  await cb.auth.credentials.list({ accountId: walletId });
  const sessions = await cb.auth.sessions.list({ accountId: walletId });

  // Signed retry with a signer; and in relay mode (the challenge goes to the "device" and back).
  await cb.internalAccounts.update(walletId, { privateEnabled: true }, { signer: s1 });
  const exportKeys = await generateClientKeyPair();
  const challengeError = await attempt('202 relay: SignatureRequiredError', () =>
    cb.internalAccounts.export(walletId, { clientPublicKey: exportKeys.publicKey }),
  );
  expect(challengeError).toBeUndefined();
  const relay = errors.at(-1) as SignatureRequiredError;
  expect(relay).toBeInstanceOf(SignatureRequiredError);
  const relayStamp = await s1(relay.challenge);
  await cb.internalAccounts.export(walletId, { clientPublicKey: exportKeys.publicKey }, { signature: relayStamp, requestId: relay.challenge.requestId });
  await attempt('relay requestId reused (client side)', () =>
    cb.internalAccounts.export(walletId, { clientPublicKey: exportKeys.publicKey }, { signature: relayStamp, requestId: relay.challenge.requestId }),
  );
  await attempt('401 REQUEST_ID_REUSED (service side)', () =>
    newClient(proxy.url).internalAccounts.export(
      walletId,
      { clientPublicKey: exportKeys.publicKey },
      { signature: relayStamp, requestId: relay.challenge.requestId },
    ),
  );
  await attempt('401 self revoke, signed', () => cb.auth.credentials.revoke(otp.id, { signer: s1 }));
  await attempt('validation: signature without requestId', () => cb.auth.credentials.revoke(otp.id, { signature: relayStamp }));

  // Error paths with the secrets in the request: 5xx, timeout, lost response, refused connection, validation.
  proxy.setPlan(
    only(
      verifyPath,
      script([
        { kind: 'status', status: 500 },
        { kind: 'delay', ms: 500 },
        { kind: 'reset-after' },
        { kind: 'truncate' },
        { kind: 'html', status: 502 },
      ] as Fault[]),
    ),
  );
  await attempt('500 on verify (OTP)', () =>
    cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: BAD_OTP, clientPublicKey: device.getPublicKey('hex') }),
  );
  await attempt('timeout on verify (OTP)', () =>
    cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: BAD_OTP, clientPublicKey: device.getPublicKey('hex') }, { timeout: 100 }),
  );
  await attempt('lost response on verify (OIDC)', () =>
    cb.auth.credentials.verify(oauth.id, { type: 'OAUTH', oidcToken: oidcToken('ada-oauth'), clientPublicKey: keyPair.publicKey }),
  );
  await attempt('truncated answer on verify (OTP)', () =>
    cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: MAGIC_OTP, clientPublicKey: device.getPublicKey('hex') }),
  );
  await attempt('HTML 502 on verify (OIDC)', () =>
    cb.auth.credentials.verify(oauth.id, { type: 'OAUTH', oidcToken: oidcToken('ada-oauth'), clientPublicKey: keyPair.publicKey }),
  );
  proxy.setPlan(
    script([
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    ]),
  );
  await attempt('503 storm on a GET (retries logged)', () => cb.config.retrieve());
  proxy.setPlan(() => ({ kind: 'pass' }));
  await attempt('404', () => cb.customers.retrieve('Customer:does-not-exist'));
  await attempt('401 OIDC token of another user', () =>
    cb.auth.credentials.verify(oauth.id, { type: 'OAUTH', oidcToken: `${oidcToken('someone-else')}`, clientPublicKey: keyPair.publicKey }),
  );
  const closed = await startFaultProxy(server.url);
  const closedUrl = closed.url;
  await closed.close();
  await attempt('connection refused (OTP)', () =>
    newClient(closedUrl).auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: BAD_OTP, clientPublicKey: device.getPublicKey('hex') }),
  );
  await attempt('connection refused (OIDC create)', () =>
    newClient(closedUrl).auth.credentials.create({ type: 'OAUTH', accountId: walletId, oidcToken: oidcToken('x') }, { signer: s1 }),
  );
  await attempt('validation: OTP of the wrong type', () =>
    cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: Number(BAD_OTP), clientPublicKey: 'nope' }),
  );
  await attempt('validation: OIDC token with a bad account id', () =>
    cb.auth.credentials.create({ type: 'OAUTH', accountId: 'Wallet:bad', oidcToken: oidcToken('y') }),
  );
  await attempt('validation: PASSKEY verify without requestId', () =>
    cb.auth.credentials.verify(passkey.id, {
      type: 'PASSKEY',
      assertion: { credentialId: 'x', clientDataJson: 'x', authenticatorData: 'x', signature: relayStamp },
    }),
  );
  await attempt('signer that fails', () =>
    cb.internalAccounts.update(walletId, { privateEnabled: false }, { signer: async () => Promise.reject(deviceOffline) }),
  );
  for (const [tokenId, baseUrl] of [
    ['a:b', proxy.url],
    [TOKEN_ID, 'not a url'],
  ] as const) {
    try {
      new Crossborder({ tokenId, clientSecret: SECRET, baseUrl });
    } catch (error) {
      errors.push(error);
      errorPaths.add(`configuration: ${(error as Error).name}`);
    }
  }

  // Production's session refresh (signed by the session refreshed) and a delegated key (signed twice), listed, read, revoked.
  const refreshKeys = await generateClientKeyPair();
  await cb.auth.sessions.refresh(verified.id, { clientPublicKey: refreshKeys.publicKeyCompressed }, { signer: s1 });
  const delegated = await cb.auth.delegatedKeys.create({ cardId: 'Card:1', internalAccountId: walletId, nickname: 'card' }, { signer: s1 });
  await cb.auth.delegatedKeys.list({ accountId: walletId });
  await cb.auth.delegatedKeys.retrieve(delegated.id);
  await cb.auth.delegatedKeys.revoke(delegated.id);

  // Revoke a session and a credential (both signed by another credential's session).
  const s2Id = sessions.data.find((s) => s.type === 'OAUTH')!.id;
  await cb.auth.sessions.revoke(s2Id, { signer: s1 });
  await cb.auth.credentials.revoke(oauth.id, { signer: s1 });

  // Every operation no flow above reached (stablecoins, cards, documents): once, with the document's request example
  // and ids the sandbox may not know (a 404 or a 400 is an answer like any other here: what matters is what is sent
  // and logged). Not the agent's own calls: those go through the agent's client only (above).
  const reachedSoFar = reachedBy(proxy.records);
  for (const [id, op] of Object.entries(operations) as [OperationId, (typeof operations)[OperationId]][]) {
    if (reachedSoFar.has(id) || op.path.startsWith('/agents/me')) continue;
    const path = Object.fromEntries([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, `Thing:019542f5-b3e7-1d02-0000-00000000000${m.index % 10}`]));
    let body: unknown;
    try {
      body = requestExample(id);
    } catch {
      body = undefined;
    }
    await attempt(`new areas ${id}`, () => METHODS[id](cb, { path, query: {}, body, options: {} }));
  }

  inspected.push(
    util.inspect(cb, { depth: 10, showHidden: true }),
    util.inspect({ ...cb }, { depth: 10 }),
    JSON.stringify(cb),
    JSON.stringify({ ...cb }),
    String(cb),
    util.inspect(cb.auth, { depth: 10, showHidden: true }),
  );
  for (const id of reachedBy(proxy.records)) reached.add(id);
}, 120_000);

/** Each operation's method and path template, matched against a request (literal segments win over parameters). */
const TEMPLATES = (Object.keys(operations) as OperationId[])
  .map((id) => ({
    id,
    method: operations[id].method,
    re: new RegExp(`^/2025-10-13${operations[id].path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    params: (operations[id].path.match(/\{/g) ?? []).length,
  }))
  .sort((a, b) => a.params - b.params);

/** The operations that `records` reached. */
function reachedBy(records: readonly ProxyRecord[]): Set<OperationId> {
  const out = new Set<OperationId>();
  for (const record of records) {
    const path = record.url.split('?')[0]!;
    const op = TEMPLATES.find((t) => t.method === record.method && t.re.test(path));
    if (op) out.add(op.id);
  }
  return out;
}

/** A request of the agent's own calls (`/agents/me`), which carry its credential instead of the platform's. */
const agentCall = (r: ProxyRecord) => /^\/2025-10-13\/agents\/me(\/|\?|$)/.test(r.url);

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

/** Every text the SDK produced that a platform might log, print or ship to an error tracker. */
function outputs(): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  for (const [i, l] of lines.entries())
    out.push({ where: `log ${i} (${l.level}) ${l.message}`, text: `${l.message}\n${JSON.stringify(l.details)}\n${util.inspect(l.details, { depth: 10 })}` });
  for (const [i, e] of errors.entries()) {
    const err = e as Error;
    out.push({
      where: `error ${i} ${err.name}`,
      text: [
        err.message,
        err.stack,
        String(err),
        JSON.stringify(err),
        util.inspect(err, { depth: 10 }),
        util.inspect(err, { depth: 10, showHidden: true }),
      ].join('\n'),
    });
  }
  for (const [i, t] of inspected.entries()) out.push({ where: `inspect ${i}`, text: t });
  return out;
}

/** The wire, split into the places a value can be. */
function places(r: ProxyRecord): { where: string; text: string }[] {
  const out = [
    { where: `${r.method} ${r.url} url`, text: r.url },
    { where: `${r.method} ${r.url} body`, text: r.body },
  ];
  for (const [name, value] of Object.entries(r.headers)) out.push({ where: `${r.method} ${r.url} header ${name}`, text: String(value) });
  for (const a of r.upstream) out.push({ where: `${r.method} ${r.url} response`, text: `${JSON.stringify(a.headers)}\n${a.body}` });
  return out;
}

const forms = (hex: string) => [hex, Buffer.from(hex, 'hex').toString('base64'), Buffer.from(hex, 'hex').toString('base64url')];

/** The body of a request that carries an SCA proof: a confirm, a login's completion, a quote's authorization. */
const scaProofBody = (w: string) => / POST \S*\/(confirm|login\/complete|authorize)(\?\S*)? body$/.test(` ${w}`);
/** The sandbox's SCA code (`123456`, which examples contain too) as the value of a `code`. */
const SCA_CODE_IN_TEXT = new RegExp(`\\bcode\\W{1,6}${MAGIC.scaCode}\\b`);

interface Secret {
  name: string;
  values: string[];
  /** Where on the wire the protocol puts it. */
  allowed: (where: string) => boolean;
}

function secrets(): Secret[] {
  const verifyBody = (w: string) => / POST .*\/auth\/credentials\/[^/]+\/verify body$/.test(` ${w}`);
  return [
    { name: 'client secret', values: [SECRET], allowed: () => false },
    { name: 'Basic credential', values: [BASIC], allowed: (w) => w.endsWith(' header authorization') },
    { name: 'OTP', values: [BAD_OTP], allowed: verifyBody },
    { name: 'SCA code', values: [BAD_SCA_CODE], allowed: scaProofBody },
    { name: 'OIDC token', values: tokens, allowed: (w) => verifyBody(w) || / POST \S*\/auth\/credentials body$/.test(` ${w}`) },
    { name: 'session / device private key', values: privateKeys.flatMap(forms), allowed: () => false },
    { name: 'Service-Wallet-Signature stamp', values: stamps, allowed: (w) => w.endsWith(' header service-wallet-signature') },
    {
      name: "agent's accessToken",
      values: agentTokens,
      allowed: (w) => w.endsWith(' header authorization') || / POST \S*\/agents\/device-codes\/[^/?]+\/redeem response$/.test(` ${w}`),
    },
    {
      name: 'TOTP secret',
      values: scaSecrets.totp,
      allowed: (w) => / POST \S*\/sca\/factors(\?\S*)? response$/.test(` ${w}`) || / POST \S*\/sca\/factors\/confirm(\?\S*)? body$/.test(` ${w}`),
    },
    { name: 'TOTP base32 secret / otpauth URI', values: scaSecrets.totpUri, allowed: (w) => / POST \S*\/sca\/factors(\?\S*)? response$/.test(` ${w}`) },
    { name: 'TOTP recovery codes', values: scaSecrets.recoveryCodes, allowed: (w) => / POST \S*\/sca\/factors\/confirm(\?\S*)? response$/.test(` ${w}`) },
    { name: 'liveness access token', values: scaSecrets.liveness, allowed: (w) => / POST \S*\/sca\/factors\/reset(\?\S*)? response$/.test(` ${w}`) },
  ];
}

describe('secrets appear only where the protocol puts them', () => {
  it('the run reached every method and every error path', () => {
    expect([...reached].sort()).toEqual(Object.keys(operations).sort());
    for (const path of [
      '409',
      '401 wrong OTP',
      '400 wrong SCA code',
      '429',
      '500 on verify',
      'timeout',
      'lost response',
      'truncated',
      'HTML 502',
      '503 storm',
      'connection refused (OTP)',
      'relay',
      'validation: OTP',
      'configuration',
    ]) {
      expect(
        [...errorPaths].some((p) => p.startsWith(path)),
        `${path} in ${[...errorPaths].join(', ')}`,
      ).toBe(true);
    }
    expect([...errorPaths].filter((p) => p.startsWith('unexpected'))).toEqual([]);
    expect(errors.filter((e) => !(e instanceof CrossborderError) && e !== deviceOffline).map((e) => String(e))).toEqual([]);
    expect(errors).toContain(deviceOffline);
    expect(lines.filter((l) => l.level === 'debug').length).toBeGreaterThan(100);
    expect(lines.some((l) => l.level === 'info' && /retrying/.test(l.message))).toBe(true);
    expect(stamps.length).toBeGreaterThanOrEqual(6);
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    expect(privateKeys).toHaveLength(2);
    expect(agentTokens).toHaveLength(1);
    expect(scaSecrets.totp).toHaveLength(1);
    expect(scaSecrets.totpUri).toHaveLength(2);
    expect(scaSecrets.recoveryCodes).toHaveLength(8);
    expect(scaSecrets.liveness).toHaveLength(1);
  });

  it('no log line, error, or inspected client shows a secret', () => {
    const leaks: string[] = [];
    const outs = outputs();
    for (const s of secrets()) for (const v of s.values) for (const o of outs) if (o.text.includes(v)) leaks.push(`${s.name} in ${o.where}`);
    // The magic sandbox OTP is six zeros, which sandbox ids contain too: look for it next to "otp" instead.
    for (const o of outs) if (/otp\W{1,6}000000/i.test(o.text)) leaks.push(`OTP 000000 in ${o.where}`);
    for (const o of outs) if (SCA_CODE_IN_TEXT.test(o.text)) leaks.push(`SCA code ${MAGIC.scaCode} in ${o.where}`);
    report({
      scenario: 'Secrets: logs, errors, inspect/JSON of client and errors',
      unit: 'texts searched',
      cases: outs.length,
      failures: leaks.length,
      command: command('secrets.test.ts'),
      notes: `${lines.length} log lines, ${errors.length} errors, ${secrets().reduce((n, s) => n + s.values.length, 0)} secret values`,
    });
    expect(leaks).toEqual([]);
  });

  it('no log line or error shows personal data (names, birth date, address, account numbers, an IBAN, a beneficiary)', () => {
    const outs = outputs();
    const leaks = [...PERSONAL, ...ANSWERED].flatMap((v) => outs.filter((o) => o.text.includes(v)).map((o) => `${v} in ${o.where}`));
    expect(ANSWERED).toHaveLength(2);
    // Sanity: the run did send them (on the wire, where they belong).
    const wire = proxy.records.map((r) => r.body).join('\n');
    for (const v of PERSONAL) expect(wire, v).toContain(v);
    expect(leaks).toEqual([]);
  });

  it('on the wire, each secret is only where the protocol puts it', () => {
    const misplaced: string[] = [];
    const wire = proxy.records.flatMap(places);
    let allowedHits = 0;
    for (const s of secrets()) {
      for (const v of s.values) {
        for (const p of wire) {
          if (!p.text.includes(v)) continue;
          // A response carries a secret only where the protocol answers it (a redeem, a TOTP enrollment).
          if (s.allowed(p.where)) allowedHits++;
          else misplaced.push(`${s.name} in ${p.where}`);
        }
      }
    }
    for (const p of wire) if (/"otp"\s*:\s*"000000"/.test(p.text) && !/\/verify body$/.test(p.where)) misplaced.push(`OTP 000000 in ${p.where}`);
    const scaCodes = wire.filter((p) => SCA_CODE_IN_TEXT.test(p.text));
    for (const p of scaCodes) if (!scaProofBody(p.where)) misplaced.push(`SCA code ${MAGIC.scaCode} in ${p.where}`);
    expect(scaCodes.length).toBeGreaterThanOrEqual(7); // the run sent it: contacts, TOTP, login, trust, untrust, authorize
    report({
      scenario: 'Secrets: every request and response on the wire',
      unit: 'requests',
      cases: proxy.records.length,
      failures: misplaced.length,
      command: command('secrets.test.ts'),
      notes: `${allowedHits} appearances where the protocol puts them`,
    });
    expect(misplaced).toEqual([]);
    expect(allowedHits).toBeGreaterThan(proxy.records.length); // the Basic credential on every request, at least
    // The platform's Basic credential on every request but the agent's own calls, which carry the agent's Bearer one,
    // and the redeem of a device code (the document's `security: []`), which carries none.
    const redeem = (r: ProxyRecord) => r.method === 'POST' && /^\/2025-10-13\/agents\/device-codes\/[^/]+\/redeem$/.test(r.url);
    expect(proxy.records.filter(redeem).map((r) => header(r, 'authorization'))).toEqual(proxy.records.filter(redeem).map(() => undefined));
    expect(proxy.records.filter(redeem).length).toBeGreaterThan(0);
    expect(
      proxy.records.filter((r) => !agentCall(r) && !redeem(r) && header(r, 'authorization') !== `Basic ${BASIC}`).map((r) => `${r.method} ${r.url}`),
    ).toEqual([]);
    const asAgent = proxy.records.filter(agentCall);
    expect(asAgent.length).toBeGreaterThanOrEqual(15);
    expect(asAgent.filter((r) => header(r, 'authorization') !== `Bearer ${agentTokens[0]}`).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});
