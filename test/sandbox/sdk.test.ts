/**
 * The SDK client against the sandbox over real HTTP (listen on 127.0.0.1): the two must agree on
 * every shape the document defines, including the signed retry and webhook signatures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crossborder, ConflictError, RateLimitError, SignatureRequiredError } from '../../src/index';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SandboxServer } from '../../src/sandbox/sandbox';
import { generateClientKeyPair, sessionKeySigner, WalletSession } from '../../src/wallet/index';

let sandbox: Sandbox;
let server: SandboxServer;
let cb: Crossborder;
const delivered: { body: string; headers: Record<string, string> }[] = [];

beforeAll(async () => {
  sandbox = createSandbox({
    webhookDelivery: {
      fetch: async (_url, init) => {
        delivered.push({ body: init.body as string, headers: init.headers as Record<string, string> });
        return new Response(null, { status: 200 });
      },
    },
  });
  server = await sandbox.listen();
  cb = new Crossborder({
    tokenId: 'tok_sandbox',
    clientSecret: 'sk_sandbox',
    environment: 'sandbox',
    baseUrl: server.url,
    webhookPublicKey: sandbox.webhookPublicKey.pem,
  });
});
afterAll(() => sandbox.close());

describe('Crossborder client over HTTP', () => {
  it('customers, accounts, quotes, transactions and incoming payments', async () => {
    await cb.config.update({ webhookEndpoint: 'https://platform.example/hooks' });
    const customer = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
      region: 'US',
      currencies: ['USD', 'EUR'],
    });
    expect(customer.kycStatus).toBe('UNVERIFIED'); // no address yet
    const accounts = await cb.internalAccounts.list({ customerId: customer.id });
    const usd = accounts.data.find((a) => a.balance.currency.code === 'USD')!;
    await cb.sandbox.fundInternalAccount(usd.id, { amount: 100_000 });
    const bank = await cb.externalAccounts.create({
      customerId: customer.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    const lookup = await cb.receiver.lookupUma('$bob@receiver.example', { customerId: customer.id });
    const quote = await cb.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$bob@receiver.example', currency: 'MXN' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 50_000,
      lookupId: lookup.lookupId,
      senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
    });
    const executed = await cb.quotes.execute(quote);
    expect(executed.status).toBe('PROCESSING');
    await expect(cb.quotes.execute(quote.id)).rejects.toBeInstanceOf(ConflictError);
    await cb.transferIn.create({ source: { accountId: bank.id }, destination: { accountId: usd.id }, amount: 2_500 });
    await cb.sandbox.receiveUmaPayment({
      senderUmaAddress: '$sam@sandbox.uma.example',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 1_500,
      customerId: customer.id,
    });
    sandbox.clock.advance(2_000);
    const seen: string[] = [];
    for await (const tx of cb.transactions.list({ customerId: customer.id, limit: 1 })) seen.push(`${tx.type}:${tx.status}`);
    expect(seen.sort()).toEqual(['INCOMING:COMPLETED', 'INCOMING:COMPLETED', 'OUTGOING:COMPLETED']);
    const after = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
    expect(after.data[0]!.balance.amount).toBe(100_000 - quote.totalSendingAmount + 2_500 + 1_500);

    await sandbox.webhooks.flush();
    const events = [];
    for (const d of delivered) events.push(await cb.webhooks.unwrap(d.body, d.headers));
    expect(events.map((e) => e.type)).toContain('OUTGOING_PAYMENT.COMPLETED');
    await expect(cb.webhooks.unwrap(delivered[0]!.body.replace('"', ' "'), delivered[0]!.headers)).rejects.toThrow();
  });

  it('wallet: verify, then the signed retry through the client’s signer option', async () => {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', region: 'US' });
    const account = (await cb.internalAccounts.list({ customerId: customer.id })).data[0]!;
    const walletId = account.id.replace('InternalAccount:', 'EmbeddedWallet:');
    const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
    const keys = await generateClientKeyPair();
    const answer = await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: keys.publicKey });
    const session = await WalletSession.fromVerify(answer, keys, otp.id);

    // Without a signer the client hands the challenge back; with one it completes the retry.
    const error = await cb.internalAccounts.update(walletId, { privateEnabled: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureRequiredError);
    const relayed = await cb.internalAccounts.update(
      walletId,
      { privateEnabled: true },
      {
        signature: await session.signer((error as SignatureRequiredError).challenge),
        requestId: (error as SignatureRequiredError).challenge.requestId,
      },
    );
    expect(relayed.privateEnabled).toBe(true);
    const passkey = await cb.auth.credentials.create(
      {
        type: 'PASSKEY',
        accountId: walletId,
        nickname: 'laptop',
        challenge: 'Y2hhbGxlbmdl',
        attestation: { credentialId: 'Y3JlZA', clientDataJson: 'e30', attestationObject: 'o2M' },
      },
      { signer: session.signer },
    );
    expect(passkey.type).toBe('PASSKEY');
    const exportKeys = await generateClientKeyPair();
    const exported = await cb.internalAccounts.export(walletId, { clientPublicKey: exportKeys.publicKey }, { signer: session.signer });
    await expect(exportKeys.decryptSessionKey(exported.encryptedWalletCredentials)).resolves.toBeDefined();
    await cb.auth.credentials.challenge(otp.id);
    await expect(cb.auth.credentials.challenge(otp.id, undefined, { maxRetries: 0 })).rejects.toBeInstanceOf(RateLimitError);
    const sessions = await cb.auth.sessions.list({ accountId: walletId });
    expect(sessions.data).toHaveLength(1);
  });

  it('wallet, production ids and a client-held session: InternalAccount ids, EMAIL_OTP without email, a compressed clientPublicKey', async () => {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Katherine Johnson', region: 'US' });
    const walletId = (await cb.internalAccounts.list({ customerId: customer.id })).data[0]!.id; // InternalAccount:…
    const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
    expect(otp.type).toBe('EMAIL_OTP');
    const keys = await generateClientKeyPair();
    const answer = await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: keys.publicKeyCompressed });
    // Sent compressed: the service seals nothing, the client key pair is the session key.
    expect(answer.encryptedSessionSigningKey).toBeUndefined();
    const session = await WalletSession.fromVerify(answer, keys, otp.id);
    expect(session.publicKey).toBe(keys.publicKeyCompressed);
    const updated = await cb.internalAccounts.update(walletId, { privateEnabled: true }, { signer: session.signer });
    expect(updated.privateEnabled).toBe(true);
    // A stamp from another key is refused by the sandbox: the client-held key is really the one checked.
    const stranger = await generateClientKeyPair();
    const err = await cb.internalAccounts
      .update(walletId, { privateEnabled: false }, { signer: (c) => sessionKeySigner(stranger.sessionKey())(c) })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401 });
  });

  it('everything these flows left behind exports and imports back, each record checked', async () => {
    const { roundTrip } = await import('./helpers');
    const counts = roundTrip(sandbox);
    for (const table of [
      'customers',
      'internalAccounts',
      'externalAccounts',
      'quotes',
      'transactions',
      'lookups',
      'verifications',
      'credentials',
      'sessions',
      'signedChallenges',
    ]) {
      expect({ table, records: counts[table]! > 0 }).toEqual({ table, records: true });
    }
  });
});
