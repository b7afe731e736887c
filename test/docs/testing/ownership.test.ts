import { Crossborder } from 'crossborder-sdk';
import { createSandbox, MAGIC } from 'crossborder-sdk/sandbox';
import { expect, it } from 'vitest';

// A FIRST_PARTY self-custody wallet proves its ownership: challenge, then verify with the wallet's signature.
it('verifies the ownership of a wallet, and a wrong signature leaves it UNVERIFIED', async () => {
  const sandbox = createSandbox();
  const cb = new Crossborder({ tokenId: 'test', clientSecret: 'test', environment: 'sandbox', fetch: sandbox.fetch });
  const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Ada Lovelace' });
  const wallet = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'BTC',
    ownershipType: 'FIRST_PARTY',
    accountInfo: { accountType: 'SPARK_WALLET', address: 'sp1qmywallet0000000000000000000000000000000' },
  });
  expect(wallet.status).toBe('PENDING_OWNERSHIP_VERIFICATION');

  const wrong = await cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
  expect(wrong.method).toBe('WALLET_SIGNATURE');
  await expect(cb.externalAccounts.verify(wallet.id, { signature: '0xnot-the-wallet' })).rejects.toMatchObject({ status: 400, field: 'signature' });
  expect((await cb.externalAccounts.retrieve(wallet.id)).status).toBe('UNVERIFIED');

  // In the sandbox, the wallet's signature of a message is MAGIC.ownershipSignaturePrefix + the message.
  const challenge = await cb.externalAccounts.challenge(wallet.id, { method: 'WALLET_SIGNATURE' });
  if (challenge.method !== 'WALLET_SIGNATURE') throw new Error('expected a message to sign');
  const signature = `${MAGIC.ownershipSignaturePrefix}${challenge.messageToSign}`;
  const verified = await cb.externalAccounts.verify(wallet.id, { signature });
  expect(verified.status).toBe('ACTIVE');
  await sandbox.close();
});
