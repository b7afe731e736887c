/**
 * Wallet authentication end to end, with the real device-side crypto of src/wallet: HPKE-sealed
 * session keys opened on the "device", and stamps verified by the sandbox.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { generateClientKeyPair, WalletSession } from '../../src/wallet/index';
import { accountOf, createCustomer, expectError, roundTrip, setup, type Call } from './helpers';
import { b64url } from '../helpers/encoding';

const { sandbox, call } = setup();
afterEach(() => sandbox.reset());

/** A JWT-shaped identity token issued `ageMs` ago on the sandbox clock. */
const idToken = (ageMs = 0, claims: Record<string, unknown> = {}) =>
  `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ iss: 'https://idp.example', sub: 'user-1', email: 'ada@idp.example', iat: Math.floor((sandbox.clock.now() - ageMs) / 1000), ...claims })}.${b64url('signature')}`;

const attestation = {
  credentialId: 'Y3JlZGVudGlhbC1pZC0x',
  clientDataJson: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
  attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YQ',
  transports: ['internal'],
};
const passkeyBody = (accountId: string) => ({
  type: 'PASSKEY',
  accountId,
  nickname: 'Ada’s laptop',
  challenge: 'dGhlLXJlZ2lzdHJhdGlvbi1jaGFsbGVuZ2U',
  attestation,
});

async function newWallet(call: Call) {
  const customer = await createCustomer(call);
  const account = await accountOf(call, customer.id, 'USD');
  return { account, walletId: account.id.replace('InternalAccount:', 'EmbeddedWallet:') };
}

/** Registers the first EMAIL_OTP credential and verifies it: the session as the device holds it. */
async function emailOtpSession(call: Call, walletId: string) {
  const created = await call('POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: walletId });
  expect(created.status).toBe(201);
  const keyPair = await generateClientKeyPair();
  const verified = await call('POST', `/auth/credentials/${created.body.id}/verify`, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: keyPair.publicKey });
  expect(verified.status).toBe(200);
  return { credential: created.body, session: await WalletSession.fromVerify(verified.body, keyPair, created.body.id), answer: verified.body };
}

/** Sends a signed-retry operation: unsigned first (202), then the identical request signed. */
async function signed(method: string, path: string, body: unknown, session: WalletSession) {
  const first = await call(method, path, body);
  expect(first.status).toBe(202);
  const signature = await session.signer(first.body);
  const second = await call(method, path, body, { 'service-wallet-signature': signature, 'request-id': first.body.requestId });
  return { challenge: first.body, answer: second, signature };
}

describe('wallet credentials and sessions, end to end', () => {
  it('EMAIL_OTP → session → add PASSKEY by signed retry → passkey session → revoke → export → privacy', async () => {
    const { account, walletId } = await newWallet(call);

    // 1. The first credential is created directly, with no session.
    const { credential: otp, session: otpSession, answer } = await emailOtpSession(call, walletId);
    expect(otp).toMatchObject({ accountId: walletId, type: 'EMAIL_OTP', nickname: 'wallet-user@sandbox.invalid' });
    expect(otp.id).toMatch(/^AuthMethod:/);
    expect(answer).toMatchObject({ accountId: walletId, type: 'EMAIL_OTP' });
    expect(answer.id).toMatch(/^Session:/);
    expect(Date.parse(answer.expiresAt) - sandbox.clock.now()).toBeGreaterThan(14 * 60_000);
    // The production bundle: base58check of compressed enc (33) ‖ sealed 32-byte key ‖ tag (16) (+ 4 checksum bytes).
    expect(answer.encryptedSessionSigningKey).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
    expect(answer.encryptedSessionSigningKey.length).toBeGreaterThan(100); // 85 bytes: about 116 base58 characters

    // 2. A second credential needs the signed retry with the session key.
    const add = await signed('POST', '/auth/credentials', passkeyBody(walletId), otpSession);
    expect(add.challenge.type).toBe('ADD_CREDENTIAL');
    const payload = JSON.parse(add.challenge.payloadToSign);
    expect(payload).toMatchObject({
      type: 'ADD_CREDENTIAL',
      walletId,
      credentialType: 'PASSKEY',
      requestId: add.challenge.requestId,
      expiresAt: add.challenge.expiresAt,
    });
    expect(payload.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(payload.note).toMatch(/[^\x00-\x7f]/); // non-ASCII on purpose: the exact UTF-8 bytes are signed
    expect(add.answer.status).toBe(201);
    const passkey = add.answer.body;
    expect(passkey).toMatchObject({ type: 'PASSKEY', credentialId: attestation.credentialId, nickname: 'Ada’s laptop', accountId: walletId });

    // 3. A requestId is single use.
    const reused = await call('POST', '/auth/credentials', passkeyBody(walletId), {
      'service-wallet-signature': add.signature,
      'request-id': add.challenge.requestId,
    });
    expectError(reused, 401, 'REQUEST_ID_REUSED');

    // 4. Verify the passkey: /challenge binds a fresh client key, /verify takes the assertion.
    const passkeyKeys = await generateClientKeyPair();
    const challenge = await call('POST', `/auth/credentials/${passkey.id}/challenge`, { clientPublicKey: passkeyKeys.publicKey });
    expect(challenge.status).toBe(200);
    expect(challenge.body).toMatchObject({ id: passkey.id, type: 'PASSKEY', credentialId: attestation.credentialId });
    expect(challenge.body.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const assertion = {
      credentialId: attestation.credentialId,
      clientDataJson: b64url({ type: 'webauthn.get', challenge: challenge.body.challenge }),
      authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
      signature: 'MEUCIQDx2b1cexample',
      userHandle: null,
    };
    const verified = await call('POST', `/auth/credentials/${passkey.id}/verify`, { type: 'PASSKEY', assertion }, { 'request-id': challenge.body.requestId });
    expect(verified.status).toBe(200);
    const passkeySession = await WalletSession.fromVerify(verified.body, passkeyKeys, passkey.id);
    expectError(
      await call('POST', `/auth/credentials/${passkey.id}/verify`, { type: 'PASSKEY', assertion }, { 'request-id': challenge.body.requestId }),
      401,
      'REQUEST_ID_REUSED',
    );

    const credentials = await call('GET', `/auth/credentials?accountId=${walletId}`);
    expect(credentials.body.data.map((c: any) => c.type)).toEqual(['EMAIL_OTP', 'PASSKEY']);
    const sessions = await call('GET', `/auth/sessions?accountId=${walletId}`);
    expect(sessions.body.data.map((s: any) => s.type)).toEqual(['EMAIL_OTP', 'PASSKEY']);

    // 5. A credential cannot revoke itself; another credential's session can.
    const self = await signed('DELETE', `/auth/credentials/${otp.id}`, undefined, otpSession);
    expectError(self.answer, 401, 'WALLET_SIGNATURE_INVALID');
    expect(self.answer.body.details.reason).toBe('self_revoke');
    const revoked = await signed('DELETE', `/auth/credentials/${otp.id}`, undefined, passkeySession);
    expect(revoked.answer.status).toBe(204);
    expect(revoked.answer.text).toBe('');
    expect((await call('GET', `/auth/credentials?accountId=${walletId}`)).body.data.map((c: any) => c.id)).toEqual([passkey.id]);
    // Its sessions went with it.
    expect((await call('GET', `/auth/sessions?accountId=${walletId}`)).body.data.map((s: any) => s.id)).toEqual([passkeySession.id]);
    const stale = await signed('PATCH', `/internal-accounts/${walletId}`, { privateEnabled: true }, otpSession);
    expectError(stale.answer, 401, 'WALLET_SIGNATURE_INVALID');

    // 6. The last credential stays, before and after a signature.
    expectError(await call('DELETE', `/auth/credentials/${passkey.id}`), 400, 'CANNOT_REVOKE_LAST_CREDENTIAL');

    // 7. Export: the wallet secret sealed to the given key; the same secret on every export.
    const exportKeys = [await generateClientKeyPair(), await generateClientKeyPair()];
    const exported: string[] = [];
    for (const keys of exportKeys) {
      const res = await signed('POST', `/internal-accounts/${account.id}/export`, { clientPublicKey: keys.publicKey }, passkeySession);
      expect(res.challenge.type).toBe('EXPORT_WALLET');
      expect(res.answer.status).toBe(200);
      expect(res.answer.body.id).toBe(walletId);
      exported.push((await keys.decryptSessionKey(res.answer.body.encryptedWalletCredentials)).publicKey);
    }
    expect(exported[0]).toBe(exported[1]);
    await expect(
      exportKeys[0]!.decryptSessionKey(
        (await signed('POST', `/internal-accounts/${walletId}/export`, { clientPublicKey: exportKeys[1]!.publicKey }, passkeySession)).answer.body
          .encryptedWalletCredentials,
      ),
    ).rejects.toThrow();

    // 8. Privacy.
    const privacy = await signed('PATCH', `/internal-accounts/${walletId}`, { privateEnabled: true }, passkeySession);
    expect(privacy.challenge.type).toBe('UPDATE_WALLET_PRIVACY');
    expect(privacy.answer.status).toBe(200);
    expect(privacy.answer.body).toMatchObject({ id: account.id, privateEnabled: true });

    // 9. Sessions: revoke one with the signed retry.
    const end = await signed('DELETE', `/auth/sessions/${passkeySession.id}`, undefined, passkeySession);
    expect(end.answer.status).toBe(204);
    expect((await call('GET', `/auth/sessions?accountId=${walletId}`)).body.data).toEqual([]);
    expectError(await call('DELETE', `/auth/sessions/${passkeySession.id}`), 404, 'SESSION_NOT_FOUND');

    // 10. What this left behind exports and imports back, record by record checked.
    expect(roundTrip(sandbox)).toMatchObject({ credentials: 1, sessions: 2, signedChallenges: 9, passkeyChallenges: 1 });
  });

  it('signs the exact bytes: a re-serialized payload does not verify', async () => {
    const { walletId } = await newWallet(call);
    const { session } = await emailOtpSession(call, walletId);
    const body = { privateEnabled: true };
    const first = await call('PATCH', `/internal-accounts/${walletId}`, body);
    // Sign the same content with other bytes: pretty-printed, or with the non-ASCII note escaped.
    const reformatted = JSON.stringify(JSON.parse(first.body.payloadToSign), null, 1);
    const escaped = first.body.payloadToSign.replace(/[^\x00-\x7f]/g, (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(JSON.parse(escaped)).toEqual(JSON.parse(first.body.payloadToSign));
    for (const wrongBytes of [reformatted, escaped]) {
      const signature = await session.signer({ ...first.body, payloadToSign: wrongBytes });
      const res = await call('PATCH', `/internal-accounts/${walletId}`, body, { 'service-wallet-signature': signature, 'request-id': first.body.requestId });
      expectError(res, 401, 'WALLET_SIGNATURE_INVALID');
      expect(res.body.details.reason).toBe('bad_signature');
    }
    // The exact bytes still work afterwards: failed attempts do not spend the requestId.
    const good = await session.signer(first.body);
    const ok = await call('PATCH', `/internal-accounts/${walletId}`, body, { 'service-wallet-signature': good, 'request-id': first.body.requestId });
    expect(ok.status).toBe(200);
  });

  it('refuses missing, malformed, foreign and expired signatures and non-identical repeats', async () => {
    const { walletId } = await newWallet(call);
    const { session } = await emailOtpSession(call, walletId);
    const other = await newWallet(call);
    const { session: foreign } = await emailOtpSession(call, other.walletId);
    const body = { privateEnabled: true };
    const path = `/internal-accounts/${walletId}`;
    const first = (await call('PATCH', path, body)).body;
    const good = await session.signer(first);

    expectError(await call('PATCH', path, body, { 'request-id': first.requestId }), 401, 'WALLET_SIGNATURE_MISSING');
    expectError(await call('PATCH', path, body, { 'service-wallet-signature': good }), 401, 'REQUEST_ID_MISSING');
    expectError(
      await call('PATCH', path, body, { 'service-wallet-signature': 'bm90LWEtc3RhbXA', 'request-id': first.requestId }),
      401,
      'WALLET_SIGNATURE_MALFORMED',
    );
    expectError(await call('PATCH', path, body, { 'service-wallet-signature': '***', 'request-id': first.requestId }), 401, 'WALLET_SIGNATURE_MALFORMED');
    const unknown = await call('PATCH', path, body, { 'service-wallet-signature': good, 'request-id': 'not-a-request' });
    expectError(unknown, 401, 'WALLET_SIGNATURE_INVALID');
    expect(unknown.body.details.reason).toBe('unknown_request_id');
    const wrongKey = await call('PATCH', path, body, { 'service-wallet-signature': await foreign.signer(first), 'request-id': first.requestId });
    expectError(wrongKey, 401, 'WALLET_SIGNATURE_INVALID');
    expect(wrongKey.body.details.reason).toBe('no_active_session');
    const changed = await call('PATCH', path, { privateEnabled: false }, { 'service-wallet-signature': good, 'request-id': first.requestId });
    expectError(changed, 401, 'WALLET_SIGNATURE_INVALID');
    expect(changed.body.details.reason).toBe('request_mismatch');
    const respaced = await call('PATCH', path, '{ "privateEnabled": true }', { 'service-wallet-signature': good, 'request-id': first.requestId });
    expect(respaced.body.details.reason).toBe('request_mismatch');
    const otherPath = await call('PATCH', `/internal-accounts/${other.walletId}`, body, { 'service-wallet-signature': good, 'request-id': first.requestId });
    expect(otherPath.body.details.reason).toBe('request_mismatch');

    // Past expiresAt (5 minutes on the sandbox clock) the challenge is refused.
    sandbox.clock.advance(5 * 60_000);
    const expired = await call('PATCH', path, body, { 'service-wallet-signature': good, 'request-id': first.requestId });
    expectError(expired, 401, 'WALLET_SIGNATURE_INVALID');
    expect(expired.body.details.reason).toBe('challenge_expired');
    // A new unsigned call gets a new challenge that works.
    const again = await signed('PATCH', path, body, session);
    expect(again.answer.status).toBe(200);
    // Sessions end after 15 minutes.
    sandbox.clock.advance(15 * 60_000);
    const late = await call('PATCH', path, body);
    // The device still signs (its own expiry check runs on real time, which the sandbox clock is
    // ahead of here), so it is the sandbox that must refuse the expired session.
    const lateSignature = await session.signer(late.body);
    const refused = await call('PATCH', path, body, { 'service-wallet-signature': lateSignature, 'request-id': late.body.requestId });
    expect(refused.body.details.reason).toBe('no_active_session');
  });

  it('enforces one EMAIL_OTP and one PASSKEY per wallet, before any signature', async () => {
    const { walletId } = await newWallet(call);
    const { session } = await emailOtpSession(call, walletId);
    expectError(await call('POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: walletId }), 400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
    expect((await signed('POST', '/auth/credentials', passkeyBody(walletId), session)).answer.status).toBe(201);
    expectError(await call('POST', '/auth/credentials', passkeyBody(walletId)), 400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS');
    expectError(
      await call('POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: 'EmbeddedWallet:nope', email: 'a@b.example' }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expectError(await call('POST', '/auth/credentials', { type: 'SMS', accountId: walletId }), 400, 'INVALID_INPUT');
    // The production id of the same wallet (InternalAccount:…) names the same credentials.
    const byInternalId = await call('GET', `/auth/credentials?accountId=${walletId.replace('EmbeddedWallet', 'InternalAccount')}`);
    expect(byInternalId.body.data.map((c: { type: string }) => c.type).sort()).toEqual(['EMAIL_OTP', 'PASSKEY']);
    expectError(await call('GET', '/auth/credentials'), 400, 'INVALID_INPUT');
  });

  it('verifies EMAIL_OTP only with 000000 and a valid client key; rate-limits OTP re-challenges', async () => {
    const { walletId } = await newWallet(call);
    const created = (await call('POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: walletId })).body;
    const keys = await generateClientKeyPair();
    expectError(
      await call('POST', `/auth/credentials/${created.id}/verify`, { type: 'EMAIL_OTP', otp: '123456', clientPublicKey: keys.publicKey }),
      401,
      'UNAUTHORIZED',
    );
    const offCurve = `04${'ff'.repeat(64)}`;
    expectError(
      await call('POST', `/auth/credentials/${created.id}/verify`, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: offCurve }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await call('POST', `/auth/credentials/${created.id}/verify`, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: '04abc' }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await call('POST', `/auth/credentials/${created.id}/verify`, { type: 'OAUTH', oidcToken: idToken(), clientPublicKey: keys.publicKey }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await call('POST', '/auth/credentials/AuthMethod:nope/verify', { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: keys.publicKey }),
      404,
      'CREDENTIAL_NOT_FOUND',
    );

    const first = await call('POST', `/auth/credentials/${created.id}/challenge`);
    expect(first.status).toBe(200);
    // The same credential, with a fresh target bundle (one code, one bundle).
    const { otpEncryptionTargetBundle: reissued, ...credential } = first.body;
    const { otpEncryptionTargetBundle: original, ...createdCredential } = created;
    expect(credential).toEqual(createdCredential);
    expect(typeof reissued).toBe('string');
    expect(reissued).not.toBe(original);
    const tooSoon = await call('POST', `/auth/credentials/${created.id}/challenge`);
    expectError(tooSoon, 429, 'RATE_LIMITED');
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    sandbox.clock.advance(20_000);
    const stillSoon = await call('POST', `/auth/credentials/${created.id}/challenge`);
    expect(Number(stillSoon.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    sandbox.clock.advance(10_000);
    expect((await call('POST', `/auth/credentials/${created.id}/challenge`)).status).toBe(200);
    const fresh = await generateClientKeyPair();
    const session = await call('POST', `/auth/credentials/${created.id}/verify`, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: fresh.publicKey });
    await expect(WalletSession.fromVerify(session.body, fresh, created.id)).resolves.toBeInstanceOf(WalletSession);
    // A session key sealed to one client key does not open with another.
    await expect(WalletSession.fromVerify(session.body, keys, created.id)).rejects.toThrow(/decrypt/);
  });

  it('OAUTH: the identity token must be at most 60 s old and not from the future', async () => {
    const { walletId } = await newWallet(call);
    const create = (token: string) => call('POST', '/auth/credentials', { type: 'OAUTH', accountId: walletId, oidcToken: token });
    expectError(await create(idToken(61_000)), 401, 'UNAUTHORIZED');
    expectError(await create(idToken(-5_000)), 401, 'UNAUTHORIZED');
    expectError(await create('not-a-jwt'), 400, 'INVALID_INPUT');
    expectError(await create(`${b64url({ alg: 'none' })}.${b64url({ sub: 'x' })}.sig`), 400, 'INVALID_INPUT');
    const created = await create(idToken(59_000));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'OAUTH', nickname: 'ada@idp.example' });
    expectError(await call('POST', `/auth/credentials/${created.body.id}/challenge`), 400, 'INVALID_INPUT');
    const keys = await generateClientKeyPair();
    const verify = (token: string) =>
      call('POST', `/auth/credentials/${created.body.id}/verify`, { type: 'OAUTH', oidcToken: token, clientPublicKey: keys.publicKey });
    const token = idToken();
    sandbox.clock.advance(61_000); // the cached token is now too old
    expectError(await verify(token), 401, 'UNAUTHORIZED');
    expectError(await verify(idToken(0, { sub: 'someone-else', email: 'eve@idp.example' })), 401, 'UNAUTHORIZED');
    const ok = await verify(idToken(1_000));
    expect(ok.status).toBe(200);
    expect(ok.body.type).toBe('OAUTH');
    await WalletSession.fromVerify(ok.body, keys, created.body.id);
  });

  it('PASSKEY verify needs its challenge: Request-Id, same credential, in time', async () => {
    const { walletId } = await newWallet(call);
    const passkey = (await call('POST', '/auth/credentials', passkeyBody(walletId))).body;
    expect(passkey.type).toBe('PASSKEY');
    const keys = await generateClientKeyPair();
    expectError(await call('POST', `/auth/credentials/${passkey.id}/challenge`), 400, 'INVALID_INPUT');
    expectError(await call('POST', `/auth/credentials/${passkey.id}/challenge`, { clientPublicKey: `04${'00'.repeat(64)}` }), 400, 'INVALID_INPUT');
    const challenge = (await call('POST', `/auth/credentials/${passkey.id}/challenge`, { clientPublicKey: keys.publicKey })).body;
    const assertion = { credentialId: attestation.credentialId, clientDataJson: 'e30', authenticatorData: 'AAAA', signature: 'MEUC' };
    const verify = (body: unknown, requestId?: string) =>
      call('POST', `/auth/credentials/${passkey.id}/verify`, body, requestId ? { 'request-id': requestId } : {});
    expectError(await verify({ type: 'PASSKEY', assertion }), 401, 'REQUEST_ID_MISSING');
    expectError(await verify({ type: 'PASSKEY', assertion }, 'nope'), 401, 'UNAUTHORIZED');
    expectError(await verify({ type: 'PASSKEY', assertion: { ...assertion, credentialId: 'b3RoZXI' } }, challenge.requestId), 401, 'UNAUTHORIZED');
    expectError(await verify({ type: 'PASSKEY', assertion: { ...assertion, signature: 'not base64url!' } }, challenge.requestId), 400, 'INVALID_INPUT');
    expectError(await verify({ type: 'PASSKEY', assertion: { credentialId: attestation.credentialId } }, challenge.requestId), 400, 'INVALID_INPUT');
    sandbox.clock.advance(5 * 60_000);
    expectError(await verify({ type: 'PASSKEY', assertion }, challenge.requestId), 401, 'UNAUTHORIZED');
    const next = (await call('POST', `/auth/credentials/${passkey.id}/challenge`, { clientPublicKey: keys.publicKey })).body;
    const ok = await verify({ type: 'PASSKEY', assertion }, next.requestId);
    expect(ok.status).toBe(200);
    await WalletSession.fromVerify(ok.body, keys, passkey.id);
  });
});
