/**
 * The quickstart, end to end, on the built-in local sandbox (no credentials, no network):
 *
 *   npm run demo
 *
 * A customer, funding, an external bank account, a cross-currency payment, the transaction list,
 * an incoming UMA payment, an embedded-wallet credential with its session, a second credential
 * through the signed retry, and a verified webhook delivery.
 */
import { Crossborder, formatAmount, type WebhookEvent } from 'crossborder-sdk';
import { createSandbox } from 'crossborder-sdk/sandbox';
import { generateClientKeyPair, WalletSession } from 'crossborder-sdk/wallet';

export async function quickstart(print: (line: string) => void = console.log): Promise<void> {
  // Webhooks the sandbox delivers land here, as they would on your endpoint.
  const received: WebhookEvent[] = [];
  const sandbox = createSandbox({
    webhookDelivery: {
      fetch: async (_url, init) => {
        const event = await cb.webhooks.unwrap(String(init.body), init.headers as Record<string, string>);
        if (!('unknown' in event)) received.push(event);
        return new Response(null, { status: 200 });
      },
    },
  });
  const cb = new Crossborder({
    tokenId: 'demo',
    clientSecret: 'demo',
    environment: 'sandbox',
    fetch: sandbox.fetch,
    webhookPublicKey: sandbox.webhookPublicKey.pem,
  });
  await cb.config.update({ webhookEndpoint: 'https://platform.example/webhooks' });

  // 1. A customer; its internal USD account comes with it.
  const customer = await cb.customers.create({
    customerType: 'INDIVIDUAL',
    region: 'US',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
  });
  const {
    data: [account],
  } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
  if (!account) throw new Error('the sandbox created no USD account');
  print(`customer   ${customer.id}  ${customer.umaAddress}`);

  // 2. Money in: $1,000.00 (amounts are integers in the smallest unit).
  const funded = await cb.sandbox.fundInternalAccount(account.id, { amount: 100_000 });
  print(`funded     ${account.id}  balance ${formatAmount(funded.balance)} ${funded.balance.currency.code}`);

  // 3. Where the money goes: a UK bank account.
  const payee = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'GBP',
    accountInfo: {
      accountType: 'GBP_ACCOUNT',
      accountNumber: '31926819',
      routingNumber: '601613',
      bankName: 'Example Bank UK',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' },
    },
  });
  print(`payee      ${payee.id}  ${payee.currency} (${payee.status})`);

  // 4. Quote $250.00 → GBP and execute it. Each step carries its own Idempotency-Key: retries never pay twice.
  const quote = await cb.quotes.createAndExecute({
    source: { sourceType: 'ACCOUNT', accountId: account.id },
    destination: { destinationType: 'ACCOUNT', accountId: payee.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 25_000,
    description: 'Invoice 42',
  });
  print(
    `quote      ${quote.id}  ${formatAmount({ amount: quote.totalSendingAmount, currency: quote.sendingCurrency })} ${quote.sendingCurrency.code}` +
      ` → ${formatAmount({ amount: quote.totalReceivingAmount, currency: quote.receivingCurrency })} ${quote.receivingCurrency.code}` +
      ` at ${quote.exchangeRate} (fees ${formatAmount({ amount: quote.feesIncluded, currency: quote.sendingCurrency })}) → ${quote.status}`,
  );
  sandbox.clock.advance(5_000); // settlement takes a few seconds of sandbox time
  const settled = await cb.transactions.waitFor(quote.transactionId);
  print(`payment    ${settled.id}  ${settled.status}`);

  // 5. An incoming UMA payment of $42.00 to the customer.
  const incoming = await cb.sandbox.receiveUmaPayment({
    senderUmaAddress: '$bob@sandbox.example',
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 4_200,
    customerId: customer.id,
  });
  print(`incoming   ${incoming.id}  ${incoming.status}`);

  // 6. Every transaction of the customer, across pages.
  for await (const tx of cb.transactions.list({ customerId: customer.id, limit: 1 })) {
    print(
      `  · ${tx.type.padEnd(8)} ${tx.status.padEnd(10)} ${tx.receivedAmount ? `${formatAmount(tx.receivedAmount)} ${tx.receivedAmount.currency.code}` : ''}`,
    );
  }

  // 7. The embedded wallet: the first credential answers at once; verify gives a session sealed to our key.
  const walletId = account.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');
  const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
  const deviceKeys = await generateClientKeyPair(); // on the user's device in real life
  const verified = await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: deviceKeys.publicKey });
  const session = await WalletSession.fromVerify(verified, deviceKeys, otp.id);
  print(`wallet     ${otp.type} ${otp.id}  session until ${session.expiresAt}`);

  // 8. A second credential needs the session's signature: the SDK answers the 202 challenge and repeats the request.
  const passkey = await cb.auth.credentials.create(
    {
      type: 'PASSKEY',
      accountId: walletId,
      nickname: 'Ada’s laptop',
      challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ',
      attestation: {
        credentialId: 'Y3JlZGVudGlhbC0x',
        clientDataJson: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
        attestationObject: 'o2NmbXRkbm9uZQ',
        transports: ['internal'],
      },
    },
    { signer: session.signer },
  );
  print(`wallet     ${passkey.type} ${passkey.id}  added through the signed retry`);

  // 9. The webhooks the sandbox sent, each verified against its public key.
  await sandbox.webhooks.flush();
  print(`webhooks   ${received.length} verified: ${[...new Set(received.map((e) => e.type))].join(', ')}`);
  await sandbox.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await quickstart();
}
