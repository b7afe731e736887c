/**
 * Wallet flows through the SDK and `crossborder-sdk/wallet`, against an msw double of the service
 * whose crypto is node:crypto only (independent of the SDK): HPKE-sealed session keys, stamps
 * verified over the exact payload, single-use requestIds, identical-request repeats.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { useMswServer } from '../helpers/msw';
import { Crossborder } from '../../src/client';
import { AuthenticationError, SignatureRequiredError } from '../../src/core/errors';
import { generateClientKeyPair, WalletSession } from '../../src/wallet/index';
import { rejected } from '../helpers/client';
import { nodeCheckStamp, nodeHpkeSeal, nodePrivateKey } from './node-reference';

const BASE = 'https://wallet.test.invalid';
const API = `${BASE}/2025-10-13`;
const ACCOUNT = 'EmbeddedWallet:w1';
// Unicode (incl. a combining accent) in the payload, and CRLF, tabs and trailing spaces around it:
// any re-serialization or normalization before signing would break the signature.
const PAYLOAD_NOTE = 'café — 💸 e\u0301';

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The service double. */
function service() {
  const recorded: Recorded[] = [];
  const sessionSecrets: string[] = [];
  const credentials = new Map<string, { type: string; accountId: string }>();
  const sessions = new Map<string, { credentialId: string; publicKey: string; expiresAt: number }>();
  const challenges = new Map<string, { payload: string; method: string; url: string; body: string; used: boolean; expiresAt: number }>();
  const passkeyChallenges = new Map<string, { credentialId: string; clientPublicKey: string }>();
  let n = 0;

  const error = (status: number, code: string) => HttpResponse.json({ status, code, message: code }, { status });

  /** The signed-retry gate: 202 on the unsigned call; on the signed one, checks and names the signing credential. */
  function gate(req: Recorded, accountId: string): Response | { credentialId: string } {
    const signature = req.headers['service-wallet-signature'];
    const requestId = req.headers['request-id'];
    if (!signature) {
      const id = `req-${++n}`;
      const payload = `{"requestId":"${id}",  "action":"${req.method} ${new URL(req.url).pathname}",\r\n\t"note":"${PAYLOAD_NOTE}"}  \t`;
      challenges.set(id, { payload, method: req.method, url: req.url, body: req.body, used: false, expiresAt: Date.now() + 300_000 });
      return HttpResponse.json(
        { type: 'EMAIL_OTP', payloadToSign: payload, requestId: id, expiresAt: new Date(Date.now() + 300_000).toISOString() },
        { status: 202 },
      );
    }
    const challenge = requestId ? challenges.get(requestId) : undefined;
    if (!challenge) return error(401, 'REQUEST_ID_MISSING');
    if (challenge.used) return error(401, 'REQUEST_ID_REUSED');
    challenge.used = true;
    if (challenge.method !== req.method || challenge.url !== req.url || challenge.body !== req.body) return error(401, 'WALLET_SIGNATURE_INVALID');
    const stamp = nodeCheckStamp(signature, challenge.payload);
    if (!stamp.verified || stamp.parsed.scheme !== 'SIGNATURE_SCHEME_TK_API_P256') return error(401, 'WALLET_SIGNATURE_INVALID');
    const session = [...sessions.values()].find((s) => s.publicKey === stamp.parsed.publicKey && s.expiresAt > Date.now());
    if (!session || credentials.get(session.credentialId)?.accountId !== accountId) return error(401, 'WALLET_SIGNATURE_INVALID');
    return { credentialId: session.credentialId };
  }

  function issueSession(credentialId: string, clientPublicKey: string) {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const priv = nodePrivateKey(ecdh);
    sessionSecrets.push(priv.toString('hex'), priv.toString('base64'));
    const id = `Session:${++n}`;
    const expiresAt = Date.now() + 900_000;
    sessions.set(id, { credentialId, publicKey: ecdh.getPublicKey('hex', 'compressed'), expiresAt });
    return {
      id,
      accountId: credentials.get(credentialId)!.accountId,
      type: credentials.get(credentialId)!.type,
      encryptedSessionSigningKey: nodeHpkeSeal(clientPublicKey, priv),
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  const record = async (request: Request): Promise<Recorded> => {
    const r = { method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() };
    recorded.push(r);
    return r;
  };

  const handlers = [
    http.post(`${API}/auth/credentials`, async ({ request }) => {
      const req = await record(request);
      const body = JSON.parse(req.body) as { type: string; accountId: string };
      const existing = [...credentials.values()].filter((c) => c.accountId === body.accountId);
      if (existing.some((c) => c.type === body.type && body.type !== 'OAUTH')) return error(400, `${body.type}_CREDENTIAL_ALREADY_EXISTS`);
      if (existing.length > 0) {
        const gated = gate(req, body.accountId);
        if (gated instanceof Response) return gated;
      }
      const id = `AuthMethod:${++n}`;
      credentials.set(id, { type: body.type, accountId: body.accountId });
      const now = new Date().toISOString();
      return HttpResponse.json({ id, accountId: body.accountId, type: body.type, nickname: 'n', createdAt: now, updatedAt: now }, { status: 201 });
    }),
    http.post(`${API}/auth/credentials/:id/challenge`, async ({ request, params }) => {
      const req = await record(request);
      const id = decodeURIComponent(String(params.id));
      const requestId = `pk-${++n}`;
      passkeyChallenges.set(requestId, { credentialId: id, clientPublicKey: (JSON.parse(req.body) as { clientPublicKey: string }).clientPublicKey });
      const now = new Date().toISOString();
      return HttpResponse.json({
        id,
        accountId: ACCOUNT,
        type: 'PASSKEY',
        credentialId: 'cred-raw',
        nickname: 'n',
        createdAt: now,
        updatedAt: now,
        challenge: 'Y2hhbGxlbmdl',
        requestId,
        expiresAt: new Date(Date.now() + 300_000).toISOString(),
      });
    }),
    http.post(`${API}/auth/credentials/:id/verify`, async ({ request, params }) => {
      const req = await record(request);
      const id = decodeURIComponent(String(params.id));
      const body = JSON.parse(req.body) as { type: string; otp?: string; clientPublicKey?: string };
      if (body.type === 'EMAIL_OTP') {
        if (body.otp !== '000000') return error(401, 'UNAUTHORIZED');
        return HttpResponse.json(issueSession(id, body.clientPublicKey!));
      }
      const pending = passkeyChallenges.get(req.headers['request-id'] ?? '');
      if (!pending || pending.credentialId !== id) return error(401, 'REQUEST_ID_MISSING');
      passkeyChallenges.delete(req.headers['request-id']!);
      return HttpResponse.json(issueSession(id, pending.clientPublicKey));
    }),
    http.delete(`${API}/auth/credentials/:id`, async ({ request, params }) => {
      const req = await record(request);
      const id = decodeURIComponent(String(params.id));
      const target = credentials.get(id);
      if (!target) return error(404, 'CREDENTIAL_NOT_FOUND');
      const gated = gate(req, target.accountId);
      if (gated instanceof Response) return gated;
      if (gated.credentialId === id) return error(401, 'WALLET_SIGNATURE_INVALID');
      if ([...credentials.values()].filter((c) => c.accountId === target.accountId).length === 1) return error(400, 'CANNOT_REVOKE_LAST_CREDENTIAL');
      credentials.delete(id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.post(`${API}/internal-accounts/:id/export`, async ({ request, params }) => {
      const req = await record(request);
      const gated = gate(req, decodeURIComponent(String(params.id)));
      if (gated instanceof Response) return gated;
      const { clientPublicKey } = JSON.parse(req.body) as { clientPublicKey: string };
      return HttpResponse.json({
        id: decodeURIComponent(String(params.id)),
        encryptedWalletCredentials: nodeHpkeSeal(clientPublicKey, new TextEncoder().encode('seed words')),
      });
    }),
  ];
  return { handlers, recorded, sessionSecrets, credentials };
}

const mswServer = useMswServer();

describe('wallet flows (independent node:crypto double)', () => {
  it('first credential → verify → add a second through the signed retry → revoke with another credential → export', async () => {
    const svc = service();
    mswServer.use(...svc.handlers);
    const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: BASE });

    // 1. The first credential answers 201 at once; registration issues no session.
    const otpCred = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: ACCOUNT });
    expect(otpCred.type).toBe('EMAIL_OTP');

    // 2. Verify with the sandbox OTP and a fresh client key pair; open the session key on the "device".
    const kp1 = await generateClientKeyPair();
    const answer1 = await cb.auth.credentials.verify(otpCred.id, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: kp1.publicKey });
    const otpSession = await WalletSession.fromVerify(answer1, kp1, otpCred.id);

    // 3. A second credential needs a signature from an active session: the signer does the signed retry.
    const signed: string[] = [];
    const passkey = await cb.auth.credentials.create(
      {
        type: 'PASSKEY',
        accountId: ACCOUNT,
        nickname: 'laptop',
        challenge: 'cmVnaXN0ZXI',
        attestation: { credentialId: 'cred-raw', clientDataJson: 'e30', attestationObject: 'o2Nm', transports: ['internal'] },
      },
      { signer: async (challenge) => (signed.push(challenge.payloadToSign), otpSession.signer(challenge)) },
    );
    expect(passkey.type).toBe('PASSKEY');
    expect(signed[0]).toContain(PAYLOAD_NOTE);
    expect(signed[0]).toMatch(/,\r\n\t"note".*\}  \t$/s);

    // 4. PASSKEY session: fresh key pair, challenge, assertion, verify with Request-Id.
    const kp2 = await generateClientKeyPair();
    const challenge = (await cb.auth.credentials.challenge(passkey.id, { clientPublicKey: kp2.publicKey })) as { requestId: string };
    const answer2 = await cb.auth.credentials.verify(
      passkey.id,
      { type: 'PASSKEY', assertion: { credentialId: 'cred-raw', clientDataJson: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln', userHandle: null } },
      { requestId: challenge.requestId },
    );
    const passkeySession = await WalletSession.fromVerify(answer2, kp2, passkey.id);

    // 5. A credential cannot revoke itself …
    const self = await rejected(cb.auth.credentials.revoke(passkey.id, { signer: passkeySession.signer }));
    expect(self).toBeInstanceOf(AuthenticationError);
    expect(self.code).toBe('WALLET_SIGNATURE_INVALID');
    // … but a session of another credential can.
    await expect(cb.auth.credentials.revoke(otpCred.id, { signer: passkeySession.signer })).resolves.toBeUndefined();
    expect(svc.credentials.has(otpCred.id)).toBe(false);

    // 6. Export, signed by the remaining credential's session.
    const exportKp = await generateClientKeyPair();
    const exported = await cb.internalAccounts.export(ACCOUNT, { clientPublicKey: exportKp.publicKey }, { signer: passkeySession.signer });
    expect(exported.encryptedWalletCredentials).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/); // base58check, like the session bundle

    // The session private keys never travelled in any request.
    const wire = JSON.stringify(svc.recorded);
    for (const secret of svc.sessionSecrets) expect(wire).not.toContain(secret);
    // Every signed repeat was byte-identical to the call that got the challenge (the double refuses otherwise).
    expect(svc.recorded.filter((r) => r.headers['service-wallet-signature']).length).toBe(4);
  });

  it('relay mode: no signer → SignatureRequiredError; the device signs; { signature, requestId } completes', async () => {
    const svc = service();
    mswServer.use(...svc.handlers);
    const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: BASE });
    const first = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: ACCOUNT });
    const kp = await generateClientKeyPair();
    const session = await WalletSession.fromVerify(
      await cb.auth.credentials.verify(first.id, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: kp.publicKey }),
      kp,
      first.id,
    );
    const params = { type: 'OAUTH' as const, accountId: ACCOUNT, oidcToken: 'eyJ.fresh.token' };
    const err = await rejected(cb.auth.credentials.create(params));
    expect(err).toBeInstanceOf(SignatureRequiredError);
    expect(err.challenge.payloadToSign).toContain(PAYLOAD_NOTE);
    // …the backend relays payloadToSign to the device, which answers with a stamp:
    const signature = await session.signer(err.challenge);
    const oauth = await cb.auth.credentials.create(params, { signature, requestId: err.challenge.requestId });
    expect(oauth.type).toBe('OAUTH');
    // A second use of the same requestId is refused locally.
    await expect(cb.auth.credentials.create(params, { signature, requestId: err.challenge.requestId })).rejects.toMatchObject({
      name: 'SignatureChallengeError',
    });
  });
});
