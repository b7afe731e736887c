/**
 * Production's wallet operations taken in (issue 34 §2): session refresh and delegated signing keys,
 * through the SDK client against the in-process sandbox and the sandbox over HTTP on 127.0.0.1. The
 * signatures are real: sessions come from `/verify` and sign through `crossborder-sdk/wallet`'s
 * WalletSession, and the sandbox checks each stamp like every other signed wallet operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, ConflictError, Crossborder, NotFoundError, SignatureRequiredError, type DelegatedKey } from '../../src/index';
import { createClock, createSandbox, type Sandbox } from '../../src/sandbox/index';
import { generateClientKeyPair, WalletSession } from '../../src/wallet/index';
import { productionDocument, productionDocumentPath } from '../helpers/production-document';
import { rejected } from '../helpers/client';

/** One request the client sent, and the status answered. */
interface Leg {
  method: string;
  path: string;
  requestId: string | null;
  signed: boolean;
  status: number;
}

/** A frozen sandbox clock from now (the client checks a challenge's expiry against real time). */
const START = Math.ceil(Date.now() / 1000) * 1000;
const MINUTE = 60_000;

/** A client over the in-process sandbox or over HTTP, recording every request it sends. */
const transports: [string, (sandbox: Sandbox, legs: Leg[]) => Promise<Crossborder>][] = [
  ['in-process', async (sandbox, legs) => client('http://sandbox.test', legs, (url, init) => sandbox.fetch(url, init))],
  ['HTTP', async (sandbox, legs) => client((await sandbox.listen()).url, legs, (url, init) => fetch(url, init))],
];

function client(baseUrl: string, legs: Leg[], send: (url: string, init: RequestInit) => Promise<Response>): Crossborder {
  return new Crossborder({
    tokenId: 'tok',
    clientSecret: 'sk_sandbox',
    environment: 'sandbox',
    baseUrl,
    maxRetries: 0,
    fetch: async (url: string, init: RequestInit) => {
      const response = await send(url, init);
      const headers = init.headers as Record<string, string>;
      legs.push({
        method: String(init.method),
        path: decodeURIComponent(new URL(url).pathname).replace(/^\/[\d-]+/, ''),
        requestId: headers['request-id'] ?? null,
        signed: headers['service-wallet-signature'] !== undefined,
        status: response.status,
      });
      return response;
    },
  });
}

/** A request example of production's document (lightsparkdev/grid-api at cf2510ed). */
function requestExample(method: string, path: string, name: string): Record<string, any> {
  return structuredClone(productionDocument().paths[path][method.toLowerCase()].requestBody.content['application/json'].examples[name].value);
}

describe.each(transports)('session refresh and delegated keys, %s sandbox', (_name, connect) => {
  let sandbox: Sandbox;
  let cb: Crossborder;
  let legs: Leg[];
  beforeAll(async () => {
    sandbox = createSandbox({ clock: createClock(START, { frozen: true }) });
    legs = [];
    cb = await connect(sandbox, legs);
  });
  afterAll(() => sandbox.close());

  /** A wallet (a USD internal account) with an EMAIL_OTP credential and a session on it. */
  async function wallet(options: { compressed?: boolean } = {}) {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', fullName: 'Katherine Johnson' });
    const account = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!;
    const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: account.id });
    const session = await login(credential.id, options);
    return { account, credential, session };
  }

  /** A new session of `credentialId` (the sandbox's code is 000000). */
  async function login(credentialId: string, options: { compressed?: boolean } = {}) {
    const keys = await generateClientKeyPair();
    const clientPublicKey = options.compressed ? keys.publicKeyCompressed : keys.publicKey;
    const answer = await cb.auth.credentials.verify(credentialId, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey });
    return WalletSession.fromVerify(answer, keys, credentialId);
  }

  /** The legs sent from `from` on, as [method path, signed, status]. */
  const sentSince = (from: number) => legs.slice(from).map((l) => [`${l.method} ${l.path}`, l.signed, l.status]);

  describe('POST /auth/sessions/{id}/refresh', () => {
    it('signed by the session refreshed: a new session of the same wallet and credential, expiring later; its key signs, and the old session stays active', async () => {
      const { account, credential, session } = await wallet();
      sandbox.clock.advance(10 * MINUTE);
      const keys = await generateClientKeyPair();
      const from = legs.length;
      const refreshed = await cb.auth.sessions.refresh(session.id!, { clientPublicKey: keys.publicKeyCompressed }, { signer: session.signer });
      expect(sentSince(from)).toEqual([
        [`POST /auth/sessions/${session.id}/refresh`, false, 202],
        [`POST /auth/sessions/${session.id}/refresh`, true, 201],
      ]);
      const now = new Date(sandbox.clock.now()).toISOString();
      expect(refreshed).toEqual({
        id: expect.stringMatching(/^Session:/),
        accountId: `EmbeddedWallet:${account.id.slice(account.id.indexOf(':') + 1)}`,
        type: 'EMAIL_OTP',
        nickname: credential.nickname,
        createdAt: now,
        updatedAt: now,
        expiresAt: new Date(sandbox.clock.now() + 15 * MINUTE).toISOString(),
      });
      expect(refreshed.id).not.toBe(session.id);
      expect(Date.parse(refreshed.expiresAt) - Date.parse(session.expiresAt!)).toBe(10 * MINUTE);
      // A compressed key: no key material in the answer, the client key pair is the new session key.
      expect(refreshed.encryptedSessionSigningKey).toBeUndefined();
      const next = await WalletSession.fromVerify(refreshed, keys, credential.id);
      expect(next.publicKey).toBe(keys.publicKeyCompressed);
      // Both sessions are active; the new one signs a wallet action (revoking the old one).
      expect((await cb.auth.sessions.list({ accountId: account.id })).data.map((s) => s.id).sort()).toEqual([session.id, refreshed.id].sort());
      await cb.auth.sessions.revoke(session.id!, { signer: next.signer });
      expect((await cb.auth.sessions.list({ accountId: account.id })).data.map((s) => s.id)).toEqual([refreshed.id]);
    });

    it("production's legacy flow: an uncompressed clientPublicKey gets the new session key sealed to it, and that key signs", async () => {
      const { account, credential, session } = await wallet({ compressed: true });
      const keys = await generateClientKeyPair();
      const refreshed = await cb.auth.sessions.refresh(session.id!, { clientPublicKey: keys.publicKey }, { signer: session.signer });
      expect(refreshed.encryptedSessionSigningKey).toMatch(/^[1-9A-HJ-NP-Za-km-z]{100,}$/);
      const next = await WalletSession.fromVerify(refreshed, keys, credential.id);
      expect(next.publicKey).not.toBe(keys.publicKeyCompressed);
      const updated = await cb.internalAccounts.update(account.id, { privateEnabled: true }, { signer: next.signer });
      expect(updated.privateEnabled).toBe(true);
    });

    it('another session of the same wallet cannot sign the refresh (401, wrong_session), and nothing is issued', async () => {
      const { account, credential, session } = await wallet();
      const other = await login(credential.id);
      const before = (await cb.auth.sessions.list({ accountId: account.id })).data.length;
      const keys = await generateClientKeyPair();
      const err = await rejected(cb.auth.sessions.refresh(session.id!, { clientPublicKey: keys.publicKeyCompressed }, { signer: other.signer }));
      expect(err).toBeInstanceOf(AuthenticationError);
      expect([err.status, err.code, err.details]).toEqual([401, 'WALLET_SIGNATURE_INVALID', { reason: 'wrong_session' }]);
      expect((await cb.auth.sessions.list({ accountId: account.id })).data.length).toBe(before);
    });

    it('relayed: a retry whose clientPublicKey differs from the first call is refused (401), the same one passes', async () => {
      const { session } = await wallet();
      const keys = await generateClientKeyPair();
      const params = { clientPublicKey: keys.publicKeyCompressed };
      const first = (await rejected(cb.auth.sessions.refresh(session.id!, params))) as SignatureRequiredError;
      expect(first).toBeInstanceOf(SignatureRequiredError);
      expect(JSON.parse(first.challenge.payloadToSign)).toMatchObject({
        type: 'REFRESH_SESSION',
        sessionId: session.id,
        clientPublicKey: keys.publicKeyCompressed,
      });
      const signature = await session.signer(first.challenge);
      const swapped = await rejected(
        cb.auth.sessions.refresh(
          session.id!,
          { clientPublicKey: (await generateClientKeyPair()).publicKeyCompressed },
          { signature, requestId: first.challenge.requestId },
        ),
      );
      expect([swapped.status, swapped.code, swapped.details]).toEqual([401, 'WALLET_SIGNATURE_INVALID', { reason: 'request_mismatch' }]);
      // The refused retry spent nothing at the service, but the client never sends a requestId twice: start again.
      const again = (await rejected(cb.auth.sessions.refresh(session.id!, params))) as SignatureRequiredError;
      const refreshed = await cb.auth.sessions.refresh(session.id!, params, {
        signature: await session.signer(again.challenge),
        requestId: again.challenge.requestId,
      });
      expect(refreshed.id).toMatch(/^Session:/);
    });

    it('a session no longer active cannot be refreshed (401 UNAUTHORIZED), an unknown one is 404, a bad key is 400 naming clientPublicKey', async () => {
      const { credential, session } = await wallet();
      const keys = await generateClientKeyPair();
      const bad = await rejected(cb.auth.sessions.refresh(session.id!, { clientPublicKey: '04' + '00'.repeat(64) }, { signer: session.signer }));
      expect(bad).toBeInstanceOf(BadRequestError);
      expect([bad.code, bad.details?.field]).toEqual(['INVALID_INPUT', 'clientPublicKey']);
      const unknown = await rejected(cb.auth.sessions.refresh('Session:00000000-0000-0000-0000-000000000000', { clientPublicKey: keys.publicKeyCompressed }));
      expect(unknown).toBeInstanceOf(NotFoundError);
      expect(unknown.code).toBe('SESSION_NOT_FOUND');
      const other = await login(credential.id);
      await cb.auth.sessions.revoke(session.id!, { signer: other.signer });
      const revoked = await rejected(cb.auth.sessions.refresh(session.id!, { clientPublicKey: keys.publicKeyCompressed }, { signer: session.signer }));
      expect([revoked.status, revoked.code]).toEqual([401, 'UNAUTHORIZED']);
      sandbox.clock.advance(16 * MINUTE); // past the other session's expiresAt
      const expired = await rejected(cb.auth.sessions.refresh(other.id!, { clientPublicKey: keys.publicKeyCompressed }, { signer: other.signer }));
      expect([expired.status, expired.code]).toEqual([401, 'UNAUTHORIZED']);
    });

    it.skipIf(productionDocumentPath() === undefined)("production's request example is sent as is and accepted", async () => {
      const { session } = await wallet();
      const example = requestExample('POST', '/auth/sessions/{id}/refresh', 'refresh');
      const refreshed = await cb.auth.sessions.refresh(session.id!, example as { clientPublicKey: string }, { signer: session.signer });
      expect(refreshed.id).toMatch(/^Session:/);
      expect(refreshed.encryptedSessionSigningKey).toBeUndefined();
    });
  });

  describe('/auth/delegated-keys', () => {
    const card = (n: number) => `Card:019542f5-b3e7-1d02-0000-${String(n).padStart(12, '0')}`;

    it('create: three legs of the identical request, signed twice by the session; the key is ACTIVE, its private half never answered; list and retrieve read it', async () => {
      const { account, session } = await wallet();
      const signed: string[] = [];
      const from = legs.length;
      const key = await cb.auth.delegatedKeys.create(
        { cardId: card(1), internalAccountId: account.id, nickname: 'Card payments key' },
        { signer: async (challenge) => (signed.push(JSON.parse(challenge.payloadToSign).type), session.signer(challenge)) },
      );
      expect(signed).toEqual(['CREATE_DELEGATED_KEY_USER', 'CREATE_DELEGATED_KEY_POLICY']);
      expect(sentSince(from)).toEqual([
        ['POST /auth/delegated-keys', false, 202],
        ['POST /auth/delegated-keys', true, 202],
        ['POST /auth/delegated-keys', true, 201],
      ]);
      const requestIds = legs.slice(from).map((l) => l.requestId);
      expect(requestIds[0]).toBeNull();
      expect(new Set(requestIds).size).toBe(3);
      const at = new Date(sandbox.clock.now()).toISOString();
      expect(key).toEqual({
        id: expect.stringMatching(/^DelegatedKey:/),
        cardId: card(1),
        fundingSourceId: expect.stringMatching(/^CardFundingSource:/),
        accountId: `EmbeddedWallet:${account.id.slice(account.id.indexOf(':') + 1)}`,
        publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
        nickname: 'Card payments key',
        status: 'ACTIVE',
        createdAt: at,
        updatedAt: at,
      });
      expect(await cb.auth.delegatedKeys.retrieve(key.id)).toEqual(key);
      expect((await cb.auth.delegatedKeys.list({ accountId: account.id })).data).toEqual([key]);
      expect((await cb.auth.delegatedKeys.list({ fundingSourceId: key.fundingSourceId })).data).toEqual([key]);
      expect((await cb.auth.delegatedKeys.list({ accountId: account.id, fundingSourceId: 'CardFundingSource:other' })).data).toEqual([]);
    });

    it('one ACTIVE key per card funding source: a second create is 409 before any signature; after a revoke (204, no signature) it is REVOKED, still listed, and a new key may be created', async () => {
      const { account, session } = await wallet();
      const params = { cardId: card(2), internalAccountId: account.id, nickname: 'First' };
      const first = await cb.auth.delegatedKeys.create(params, { signer: session.signer });
      const from = legs.length;
      const conflict = await rejected(cb.auth.delegatedKeys.create({ ...params, nickname: 'Second' }, { signer: session.signer }));
      expect(conflict).toBeInstanceOf(ConflictError);
      expect([conflict.code, conflict.details]).toEqual(['CONFLICT', { id: first.id }]);
      expect(sentSince(from)).toEqual([['POST /auth/delegated-keys', false, 409]]);

      sandbox.clock.advance(MINUTE);
      const revokedLegs = legs.length;
      expect(await cb.auth.delegatedKeys.revoke(first.id)).toBeUndefined();
      expect(sentSince(revokedLegs)).toEqual([[`DELETE /auth/delegated-keys/${first.id}`, false, 204]]);
      const revoked = await cb.auth.delegatedKeys.retrieve(first.id);
      expect(revoked).toEqual({ ...first, status: 'REVOKED', updatedAt: new Date(sandbox.clock.now()).toISOString() });
      const again = await rejected(cb.auth.delegatedKeys.revoke(first.id));
      expect(again).toBeInstanceOf(BadRequestError);
      expect([again.code, again.details]).toEqual(['INVALID_INPUT', { field: 'id', status: 'REVOKED' }]);

      const second = await cb.auth.delegatedKeys.create({ ...params, nickname: 'Second' }, { signer: session.signer });
      expect([second.status, second.fundingSourceId]).toEqual(['ACTIVE', first.fundingSourceId]);
      expect(second.publicKey).not.toBe(first.publicKey);
      expect((await cb.auth.delegatedKeys.list({ fundingSourceId: first.fundingSourceId })).data.map((k) => [k.id, k.status])).toEqual([
        [first.id, 'REVOKED'],
        [second.id, 'ACTIVE'],
      ]);
    });

    it('relayed leg by leg: abandoned after the first signature the key is PENDING, blocks nothing, cannot be revoked; the third leg must be signed by the same session', async () => {
      const { account, credential, session } = await wallet();
      const params = { cardId: card(3), internalAccountId: account.id, nickname: 'Relayed' };
      const leg1 = (await rejected(cb.auth.delegatedKeys.create(params))) as SignatureRequiredError;
      expect(leg1).toBeInstanceOf(SignatureRequiredError);
      const leg2 = (await rejected(
        cb.auth.delegatedKeys.create(params, { signature: await session.signer(leg1.challenge), requestId: leg1.challenge.requestId }),
      )) as SignatureRequiredError;
      expect(leg2).toBeInstanceOf(SignatureRequiredError);
      expect(leg2.challenge.requestId).not.toBe(leg1.challenge.requestId);
      const pending = (await cb.auth.delegatedKeys.list({ accountId: account.id })).data;
      expect(pending.map((k) => [k.cardId, k.nickname, k.status])).toEqual([[card(3), 'Relayed', 'PENDING']]);
      expect(JSON.parse(leg2.challenge.payloadToSign)).toMatchObject({ type: 'CREATE_DELEGATED_KEY_POLICY', delegatedKeyId: pending[0]!.id });
      const notActive = await rejected(cb.auth.delegatedKeys.revoke(pending[0]!.id));
      expect([notActive.status, notActive.details?.status]).toEqual([400, 'PENDING']);

      // Another session of the wallet cannot sign the flow's last leg.
      const other = await login(credential.id);
      const wrong = await rejected(
        cb.auth.delegatedKeys.create(params, { signature: await other.signer(leg2.challenge), requestId: leg2.challenge.requestId }),
      );
      expect([wrong.status, wrong.code, wrong.details]).toEqual([401, 'WALLET_SIGNATURE_INVALID', { reason: 'wrong_session' }]);
      expect((await cb.auth.delegatedKeys.retrieve(pending[0]!.id)).status).toBe('PENDING');

      // The PENDING key blocks nothing: a new flow, signed by the signer, activates its own key.
      const key = await cb.auth.delegatedKeys.create({ ...params, nickname: 'Second try' }, { signer: other.signer });
      expect([key.status, key.fundingSourceId]).toEqual(['ACTIVE', pending[0]!.fundingSourceId]);
      expect((await cb.auth.delegatedKeys.list({ accountId: account.id })).data.map((k) => k.status)).toEqual(['PENDING', 'ACTIVE']);
    });

    it('refusals: a signature by no session of the wallet (401), an unknown wallet (404), an unknown key (404), a list without a filter (400 naming accountId)', async () => {
      const { account } = await wallet();
      const stranger = (await wallet()).session;
      const params = { cardId: card(4), internalAccountId: account.id, nickname: 'Nope' };
      const unsigned = await rejected(cb.auth.delegatedKeys.create(params, { signer: stranger.signer }));
      expect([unsigned.status, unsigned.code, unsigned.details]).toEqual([401, 'WALLET_SIGNATURE_INVALID', { reason: 'no_active_session' }]);
      expect((await cb.auth.delegatedKeys.list({ accountId: account.id })).data).toEqual([]);
      const noWallet = await rejected(cb.auth.delegatedKeys.create({ ...params, internalAccountId: 'InternalAccount:00000000-0000-0000-0000-000000000000' }));
      expect(noWallet).toBeInstanceOf(NotFoundError);
      const noKey = await rejected(cb.auth.delegatedKeys.retrieve('DelegatedKey:00000000-0000-0000-0000-000000000000'));
      expect([noKey.status, noKey.code]).toEqual([404, 'DELEGATED_KEY_NOT_FOUND']);
      const noFilter = await rejected(cb.auth.delegatedKeys.list({}));
      expect(noFilter).toBeInstanceOf(BadRequestError);
      expect([noFilter.code, noFilter.details?.field]).toEqual(['INVALID_INPUT', 'accountId']);
    });

    it('the keys survive the state file: exported and imported, a revoked key stays revoked and an active one still conflicts', async () => {
      const { account, session } = await wallet();
      const params = { cardId: card(5), internalAccountId: account.id, nickname: 'Kept' };
      const revoked = await cb.auth.delegatedKeys.create(params, { signer: session.signer });
      await cb.auth.delegatedKeys.revoke(revoked.id);
      const active = await cb.auth.delegatedKeys.create(params, { signer: session.signer });
      const copy = createSandbox({ clock: createClock(sandbox.clock.now(), { frozen: true }) });
      try {
        copy.importState(JSON.stringify(sandbox.exportState()));
        const restored = new Crossborder({
          tokenId: 'tok',
          clientSecret: 'sk_sandbox',
          environment: 'sandbox',
          baseUrl: 'http://copy.test',
          fetch: copy.fetch,
        });
        const keys: DelegatedKey[] = (await restored.auth.delegatedKeys.list({ accountId: account.id })).data;
        expect(keys).toEqual([{ ...revoked, status: 'REVOKED', updatedAt: keys[0]!.updatedAt }, active]);
        expect(
          copy.state
            .snapshot()
            .delegatedKeys.filter((k) => k.cardId === card(5))
            .map((k) => k.status),
        ).toEqual(['REVOKED', 'ACTIVE']);
        const conflict = await rejected(restored.auth.delegatedKeys.create(params));
        expect(conflict.code).toBe('CONFLICT');
      } finally {
        await copy.close();
      }
    });

    it.skipIf(productionDocumentPath() === undefined)("production's request example is sent (on this sandbox's wallet) and accepted", async () => {
      const { account, session } = await wallet();
      const example = requestExample('POST', '/auth/delegated-keys', 'create');
      expect(Object.keys(example).sort()).toEqual(['cardId', 'internalAccountId', 'nickname']);
      const key = await cb.auth.delegatedKeys.create(
        { ...(example as { cardId: string; nickname: string }), internalAccountId: account.id },
        { signer: session.signer },
      );
      expect([key.cardId, key.nickname, key.status]).toEqual([example.cardId, example.nickname, 'ACTIVE']);
    });
  });
});
