import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { useMswServer } from '../helpers/msw';
import { AuthenticationError, ConfigurationError, SignatureChallengeError, SignatureRequiredError, ValidationError } from '../../src/core/errors';
import { operations } from '../../src/generated/operations';
import { request } from '../../src/functions';
import { op, rejected, testClient } from '../helpers/client';

const BASE = 'https://api.test.invalid/2025-10-13';
const addCredential = op({ method: 'POST', path: '/auth/credentials', signed: true });
const revoke = op({ method: 'DELETE', path: '/auth/credentials/{id}', signed: true });
const mswServer = useMswServer();

interface Seen {
  method: string;
  url: string;
  body: string;
  signature: string | null;
  requestId: string | null;
}

const PAYLOAD = '{"type":"ADD_CREDENTIAL",  "note":"café — 💸\r\n\t "}';

/** A service that answers 202 to an unsigned request and 201/204 to a signed one. */
function signedService(opts: { expiresInMs?: number; finalStatus?: number; reject?: boolean } = {}) {
  const seen: Seen[] = [];
  let issued = 0;
  const handler = async ({ request }: { request: Request }) => {
    const s: Seen = {
      method: request.method,
      url: request.url,
      body: await request.text(),
      signature: request.headers.get('service-wallet-signature'),
      requestId: request.headers.get('request-id'),
    };
    seen.push(s);
    if (!s.signature) {
      issued++;
      return HttpResponse.json(
        {
          type: 'EMAIL_OTP',
          payloadToSign: PAYLOAD,
          requestId: `req-${issued}`,
          expiresAt: new Date(Date.now() + (opts.expiresInMs ?? 300_000)).toISOString(),
        },
        { status: 202 },
      );
    }
    if (opts.reject) return HttpResponse.json({ status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'bad stamp' }, { status: 401 });
    if (opts.finalStatus === 204) return new HttpResponse(null, { status: 204 });
    return HttpResponse.json({ id: 'AuthMethod:2', type: 'EMAIL_OTP' }, { status: 201 });
  };
  mswServer.use(http.post(`${BASE}/auth/credentials`, handler), http.delete(`${BASE}/auth/credentials/:id`, handler));
  return seen;
}

describe('signed retry', () => {
  it('with a signer: signs the exact payload and repeats the identical request with the two headers', async () => {
    const seen = signedService();
    const { client } = testClient();
    const challenges: unknown[] = [];
    const body = { type: 'EMAIL_OTP', accountId: 'EmbeddedWallet:1', email: 'a@b.c' };
    const result = await client.call(
      addCredential,
      { body },
      {
        signer: async (challenge) => {
          challenges.push(challenge);
          await new Promise((r) => setTimeout(r, 20)); // a relay to the device takes time
          return 'stamp-value';
        },
      },
    );
    expect(result).toEqual({ id: 'AuthMethod:2', type: 'EMAIL_OTP' });
    expect(challenges).toHaveLength(1);
    expect((challenges[0] as { payloadToSign: string }).payloadToSign).toBe(PAYLOAD);
    expect((challenges[0] as { type: string }).type).toBe('EMAIL_OTP');
    expect(seen).toHaveLength(2);
    expect(seen[1]!.method).toBe(seen[0]!.method);
    expect(seen[1]!.url).toBe(seen[0]!.url);
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(seen[0]!.signature).toBeNull();
    expect(seen[1]!.signature).toBe('stamp-value');
    expect(seen[1]!.requestId).toBe('req-1');
  });

  it('resolves a 204 final answer to undefined', async () => {
    signedService({ finalStatus: 204 });
    const { client } = testClient();
    await expect(client.call(revoke, { path: { id: 'AuthMethod:1' } }, { signer: async () => 'sig' })).resolves.toBeUndefined();
  });

  it('without a signer: SignatureRequiredError carries the challenge; { signature, requestId } performs the second leg', async () => {
    const seen = signedService();
    const { client } = testClient();
    const body = { type: 'EMAIL_OTP', accountId: 'EmbeddedWallet:1' };
    const err = await rejected(client.call(addCredential, { body }));
    expect(err).toBeInstanceOf(SignatureRequiredError);
    expect(err.challenge).toMatchObject({ payloadToSign: PAYLOAD, requestId: 'req-1', type: 'EMAIL_OTP' });
    const done = await client.call(addCredential, { body }, { signature: 'relayed', requestId: err.challenge.requestId });
    expect(done).toMatchObject({ id: 'AuthMethod:2' });
    expect(seen[1]).toMatchObject({ signature: 'relayed', requestId: 'req-1', body: seen[0]!.body });
  });

  it('never reuses a requestId', async () => {
    const seen = signedService();
    const { client } = testClient();
    await client.call(addCredential, { body: {} }, { signature: 's', requestId: 'req-x' });
    const err = await rejected(client.call(addCredential, { body: {} }, { signature: 's', requestId: 'req-x' }));
    expect(err).toBeInstanceOf(SignatureChallengeError);
    expect(seen).toHaveLength(1);
  });

  it('never signs a challenge that has expired', async () => {
    const seen = signedService({ expiresInMs: -1_000 });
    const { client } = testClient();
    let signed = false;
    const err = await rejected(client.call(addCredential, { body: {} }, { signer: async () => ((signed = true), 's') }));
    expect(err).toBeInstanceOf(SignatureChallengeError);
    expect(signed).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('never sends a signature when the challenge expired while the signer was busy', async () => {
    const seen = signedService({ expiresInMs: 30 });
    const { client } = testClient();
    const err = await rejected(client.call(addCredential, { body: {} }, { signer: () => new Promise((r) => setTimeout(() => r('late'), 80)) }));
    expect(err).toBeInstanceOf(SignatureChallengeError);
    expect(err.message).toMatch(/expired/);
    expect(seen).toHaveLength(1);
  });

  it('relay mode refuses a remembered challenge once it has expired', async () => {
    const seen = signedService({ expiresInMs: 20 });
    const { client } = testClient();
    const err = await rejected(client.call(addCredential, { body: {} }));
    await new Promise((r) => setTimeout(r, 40));
    const again = await rejected(client.call(addCredential, { body: {} }, { signature: 's', requestId: err.challenge.requestId }));
    expect(again).toBeInstanceOf(SignatureChallengeError);
    expect(seen).toHaveLength(1);
  });

  it('a 401 on the signed leg is an AuthenticationError with the service code', async () => {
    signedService({ reject: true });
    const { client } = testClient();
    const err = await rejected(client.call(addCredential, { body: {} }, { signer: async () => 'bad' }));
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  it('a signed leg answered with the next challenge is signed again, each with its own requestId; after 3 signed legs another 202 is an error', async () => {
    let n = 0;
    const seen: (string | null)[][] = [];
    mswServer.use(
      http.post(`${BASE}/auth/credentials`, ({ request }) => {
        seen.push([request.headers.get('request-id'), request.headers.get('service-wallet-signature')]);
        return HttpResponse.json({ payloadToSign: `p${n + 1}`, requestId: `r${++n}`, expiresAt: new Date(Date.now() + 60_000).toISOString() }, { status: 202 });
      }),
    );
    const { client } = testClient();
    const signed: string[] = [];
    const err = await rejected(client.call(addCredential, { body: {} }, { signer: async (c) => (signed.push(c.payloadToSign), `s${signed.length}`) }));
    expect(err).toBeInstanceOf(SignatureChallengeError);
    expect(err.message).toBe(
      'POST /auth/credentials: the service asked for another signature after 3 signed requests (requestId r4); start again from the unsigned call',
    );
    expect(signed).toEqual(['p1', 'p2', 'p3']);
    expect(seen).toEqual([
      [null, null],
      ['r1', 's1'],
      ['r2', 's2'],
      ['r3', 's3'],
    ]);
  });

  it("two signatures then the result (production's delegated keys): with the signer, and relayed leg by leg", async () => {
    mswServer.use(
      http.post(`${BASE}/auth/credentials`, ({ request }) => {
        const requestId = request.headers.get('request-id');
        if (requestId === 'k2') return HttpResponse.json({ id: 'DelegatedKey:1', status: 'ACTIVE' }, { status: 201 });
        const next = requestId === null ? 'k1' : 'k2';
        return HttpResponse.json({ payloadToSign: `sign ${next}`, requestId: next, expiresAt: new Date(Date.now() + 60_000).toISOString() }, { status: 202 });
      }),
    );
    const { client } = testClient();
    const signed: string[] = [];
    expect(await client.call(addCredential, { body: { a: 1 } }, { signer: async (c) => (signed.push(c.requestId), 'sig') })).toEqual({
      id: 'DelegatedKey:1',
      status: 'ACTIVE',
    });
    expect(signed).toEqual(['k1', 'k2']);

    const relay = testClient().client;
    const first = (await rejected(relay.call(addCredential, { body: { a: 1 } }))) as SignatureRequiredError;
    expect(first.challenge.requestId).toBe('k1');
    const second = (await rejected(relay.call(addCredential, { body: { a: 1 } }, { signature: 'sig', requestId: 'k1' }))) as SignatureRequiredError;
    expect(second).toBeInstanceOf(SignatureRequiredError);
    expect(second.challenge).toMatchObject({ requestId: 'k2', payloadToSign: 'sign k2' });
    expect(await relay.call(addCredential, { body: { a: 1 } }, { signature: 'sig', requestId: 'k2' })).toEqual({ id: 'DelegatedKey:1', status: 'ACTIVE' });
  });

  it('the signed leg goes out once per requestId: a retryable answer to it is not resent, nor re-signed', async () => {
    const seen: Seen[] = [];
    mswServer.use(
      http.post(`${BASE}/auth/credentials`, async ({ request }) => {
        const sig = request.headers.get('service-wallet-signature');
        seen.push({ method: request.method, url: request.url, body: await request.text(), signature: sig, requestId: request.headers.get('request-id') });
        if (!sig) return HttpResponse.json({ payloadToSign: 'p', requestId: 'r1', expiresAt: new Date(Date.now() + 60_000).toISOString() }, { status: 202 });
        return HttpResponse.json({ status: 503, code: 'INTERNAL_ERROR', message: 'busy' }, { status: 503, headers: { 'retry-after': '0' } });
      }),
    );
    const { client } = testClient();
    let signs = 0;
    const err = await rejected(client.call(addCredential, { body: { a: 1 } }, { signer: async () => `sig${++signs}` }));
    expect(err).toMatchObject({ name: 'InternalServerError', status: 503, outcomeUnknown: true });
    expect(signs).toBe(1);
    expect(seen.map((s) => s.signature)).toEqual([null, 'sig1']);
    expect(seen.map((s) => s.requestId)).toEqual([null, 'r1']);
  });

  it('a signed leg refused at connect is not sent again once its challenge has expired (relay and signer)', async () => {
    const refused = () =>
      Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));
    for (const mode of ['signer', 'relay'] as const) {
      const sent: (string | null)[] = [];
      const fetch = async (_url: string, init: RequestInit) => {
        const signed = (init.headers as Record<string, string>)['service-wallet-signature'] ?? null;
        sent.push(signed);
        if (!signed) return Response.json({ payloadToSign: 'p', requestId: `r-${mode}`, expiresAt: new Date(Date.now() + 150).toISOString() }, { status: 202 });
        return refused();
      };
      // The backoff really waits here, past the challenge's expiry.
      const { client } = testClient({ fetch, maxRetries: 3, sleep: (ms) => new Promise((r) => setTimeout(r, Math.max(ms, 200))) });
      let err: unknown;
      if (mode === 'signer') err = await rejected(client.call(addCredential, { body: {} }, { signer: async () => 'sig' }));
      else {
        const first = (await rejected(client.call(addCredential, { body: {} }))) as SignatureRequiredError;
        err = await rejected(client.call(addCredential, { body: {} }, { signature: 'sig', requestId: first.challenge.requestId }));
      }
      expect(err, mode).toMatchObject({ name: 'APIConnectionError', outcomeUnknown: false });
      expect(sent, mode).toEqual([null, 'sig']); // the first signed attempt, refused at connect; none after the expiry
    }
  });

  it('a challenge whose expiresAt cannot be read is never signed', async () => {
    mswServer.use(http.post(`${BASE}/auth/credentials`, () => HttpResponse.json({ payloadToSign: 'p', requestId: 'r9', expiresAt: 'soon' }, { status: 202 })));
    const { client } = testClient();
    let signs = 0;
    const err = await rejected(client.call(addCredential, { body: {} }, { signer: async () => `sig${++signs}` }));
    expect(err.name).toBe('ResponseValidationError');
    expect(err.issues[0].path).toBe('expiresAt');
    expect(signs).toBe(0);
  });

  it('any write answering a 202 challenge goes through the signed retry, not only the flagged ones', async () => {
    const seen: (string | null)[] = [];
    mswServer.use(
      http.post(`${BASE}/quotes/Q1/execute`, ({ request }) => {
        const sig = request.headers.get('service-wallet-signature');
        seen.push(sig);
        if (!sig) return HttpResponse.json({ payloadToSign: 'pay', requestId: 'rq', expiresAt: new Date(Date.now() + 60_000).toISOString() }, { status: 202 });
        return HttpResponse.json({ id: 'Quote:1', status: 'PROCESSING' });
      }),
    );
    const { client } = testClient();
    const execute = op({ method: 'POST', path: '/quotes/{quoteId}/execute', idempotent: true, signed: false });
    const relay = await rejected(client.call(execute, { path: { quoteId: 'Q1' } }));
    expect(relay.name).toBe('SignatureRequiredError');
    expect(relay.challenge).toMatchObject({ payloadToSign: 'pay', requestId: 'rq' });
    await expect(client.call(execute, { path: { quoteId: 'Q1' } }, { signer: async () => 'stamp' })).resolves.toEqual({ id: 'Quote:1', status: 'PROCESSING' });
    expect(seen).toEqual([null, null, 'stamp']);
  });

  it('a malformed 202 is a typed error', async () => {
    mswServer.use(http.post(`${BASE}/auth/credentials`, () => HttpResponse.json({ nope: true }, { status: 202 })));
    const { client } = testClient();
    await expect(client.call(addCredential, { body: {} }, { signer: async () => 's' })).rejects.toMatchObject({ name: 'ResponseValidationError' });
  });

  it('signature without requestId, or a signer on an unsigned operation, is refused before sending', async () => {
    const seen = signedService();
    const { client } = testClient();
    const refused = async (p: PromiseLike<unknown>) => {
      const err = await rejected(p);
      expect(err).toBeInstanceOf(ValidationError);
      return [err.field, err.issues[0]?.rule];
    };
    expect(await refused(client.call(addCredential, { body: {} }, { signature: 's' }))).toEqual(['options.requestId', 'required']);
    expect(await refused(client.call(addCredential, { body: {} }, { requestId: 'r-1' }))).toEqual(['options.signature', 'required']);
    expect(await refused(client.call(op({ method: 'GET', path: '/x' }), {}, { signer: async () => 's' }))).toEqual(['options.signer', 'unsupported']);
    expect(await refused(client.call(op({ method: 'GET', path: '/x' }), {}, { signature: 's', requestId: 'r' }))).toEqual(['options.signer', 'unsupported']);
    expect(await refused(client.call(addCredential, { body: {} }, { signer: 'sig' as never }))).toEqual(['options.signer', 'invalid_type']);
    expect(seen).toHaveLength(0);
  });

  it("a signer's answer that is no signature, or cannot be a header, is refused: the signed leg is never sent", async () => {
    for (const answer of ['', undefined, 42, 'sig\r\nX-Evil: 1', 'sig\n']) {
      const seen = signedService();
      const { client } = testClient();
      const err = await rejected(client.call(addCredential, { body: {} }, { signer: async () => answer as string }));
      expect(err, String(answer)).toBeInstanceOf(SignatureChallengeError);
      expect(err.message).toMatch(answer === '' || typeof answer !== 'string' ? /returned no signature/ : /cannot be sent as a header/);
      expect(
        seen.filter((s) => s.signature !== null),
        String(answer),
      ).toHaveLength(0);
    }
    const seen = signedService();
    const { client } = testClient();
    await expect(client.call(addCredential, { body: {} }, { signer: async () => 'sig\twith tab and é' })).resolves.toBeDefined();
    expect(seen.at(-1)!.signature).toBe('sig\twith tab and é');
  });
});

describe('the signed retry comes with the rows that can be challenged (`signing`)', () => {
  it('every write row of the table carries it, no read row does', () => {
    const rows = Object.values(operations);
    expect(rows.filter((o) => (o.signing !== undefined) !== (o.method !== 'GET')).map((o) => o.id)).toEqual([]);
    expect(rows.filter((o) => o.signing).length).toBeGreaterThan(50);
  });

  it('a write of your own without it, answered with a challenge, is refused (ConfigurationError) after one request; request(core, …) signs it', async () => {
    const seen = signedService();
    const { client } = testClient();
    const { signing: _loader, ...bare } = addCredential;
    const signer = async () => 'sig';
    const err = await rejected(client.call(bare, { body: {} }, { signer }));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err.message).toBe('POST /auth/credentials was answered with a wallet challenge: give its operation the signed retry ({ signing })');
    expect(seen.map((s) => s.signature)).toEqual([null]);
    // A 202 that is no challenge (an accepted job) is its result, as on any operation.
    mswServer.use(http.post(`${BASE}/jobs`, () => HttpResponse.json({ id: 'Job:1', status: 'PENDING' }, { status: 202 })));
    await expect(client.call({ ...bare, path: '/jobs' }, { body: {} })).resolves.toEqual({ id: 'Job:1', status: 'PENDING' });
    await expect(request(client, 'POST', '/auth/credentials', { body: {} }, { signer })).resolves.toEqual({ id: 'AuthMethod:2', type: 'EMAIL_OTP' });
    expect(seen.map((s) => s.signature)).toEqual([null, null, 'sig']);
  });
});
