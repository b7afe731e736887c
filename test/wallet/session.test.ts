import util from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateClientKeyPair, WalletCryptoError, WalletSession } from '../../src/wallet';
import { generateSessionKeyPair, sealSessionKey } from '../../src/sandbox/domain/wallet-crypto';
import { nodeCheckStamp } from './node-reference';

const inFiveMinutes = () => new Date(Date.now() + 300_000).toISOString();

async function verifiedSession(expiresAt = inFiveMinutes()) {
  const keyPair = await generateClientKeyPair();
  const session = generateSessionKeyPair();
  const answer = {
    id: 'Session:1',
    accountId: 'EmbeddedWallet:9',
    type: 'EMAIL_OTP',
    expiresAt,
    encryptedSessionSigningKey: await sealSessionKey(keyPair.publicKey, session.privateKey),
  };
  return { keyPair, session, answer, wallet: await WalletSession.fromVerify(answer, keyPair, 'AuthMethod:7') };
}

describe('WalletSession', () => {
  it('is built from a verify answer and signs challenges', async () => {
    const { wallet, session } = await verifiedSession();
    expect(wallet).toMatchObject({
      id: 'Session:1',
      credentialId: 'AuthMethod:7',
      accountId: 'EmbeddedWallet:9',
      publicKey: session.publicKeyCompressedHex,
    });
    expect(wallet.isExpired()).toBe(false);
    const value = await wallet.signer({ payloadToSign: 'pay', requestId: 'Request:1', expiresAt: inFiveMinutes() });
    expect(nodeCheckStamp(value, 'pay')).toMatchObject({ verified: true, parsed: { publicKey: session.publicKeyCompressedHex } });
  });

  it('knows when it has expired, and then refuses to sign', async () => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const { wallet } = await verifiedSession(expiresAt);
    expect(wallet.isExpired(Date.parse(expiresAt) - 1)).toBe(false);
    expect(wallet.isExpired(Date.parse(expiresAt))).toBe(true);

    const { wallet: old } = await verifiedSession(new Date(Date.now() - 1).toISOString());
    expect(old.isExpired()).toBe(true);
    const error = await old.signer({ payloadToSign: 'p', requestId: 'R', expiresAt: inFiveMinutes() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletCryptoError);
    expect((error as WalletCryptoError).reason).toBe('session_expired');
  });

  it('is redacted in JSON and inspect', async () => {
    const { wallet, session } = await verifiedSession();
    const secret = Buffer.from(session.privateKey);
    const views = [
      JSON.stringify(wallet),
      util.inspect(wallet, { depth: 10, showHidden: true }),
      util.inspect(wallet, { depth: 10, showHidden: true, customInspect: false }),
    ];
    for (const view of views) {
      expect(view).not.toContain(secret.toString('hex'));
      expect(view).not.toContain(secret.toString('base64url'));
    }
    expect(JSON.parse(JSON.stringify(wallet))).toEqual({
      id: 'Session:1',
      credentialId: 'AuthMethod:7',
      accountId: 'EmbeddedWallet:9',
      expiresAt: wallet.expiresAt,
      publicKey: session.publicKeyCompressedHex,
    });
  });

  it('refuses a verify answer it cannot use', async () => {
    const { answer, keyPair } = await verifiedSession();
    const other = await generateClientKeyPair();
    await expect(WalletSession.fromVerify(answer, other, 'AuthMethod:7')).rejects.toMatchObject({ reason: 'decrypt_failed' });
    await expect(WalletSession.fromVerify(answer, keyPair, '')).rejects.toBeInstanceOf(WalletCryptoError);
  });

  it('takes a verify answer without a readable expiresAt: the session has no known end, and the service decides', async () => {
    const { answer, keyPair } = await verifiedSession();
    for (const expiresAt of [undefined, 'soon']) {
      const session = await WalletSession.fromVerify({ ...answer, expiresAt }, keyPair, 'AuthMethod:7');
      expect(session.expiresAt).toBeUndefined();
      expect(session.isExpired()).toBe(false);
      expect(await session.signer({ payloadToSign: 'pay', requestId: 'Request:2', expiresAt: inFiveMinutes() })).toMatch(/^[A-Za-z0-9_-]+$/);
    }
  });
});
