/**
 * Embedded-wallet onboarding with a passkey, on the built-in local sandbox. Two roles share this
 * process: the platform's backend (holds the API credentials, calls the service) and the user's
 * device (holds the session key, signs). Only challenges and signatures travel between them.
 *
 *   npx tsx examples/wallet-passkey-relay.ts
 *
 * 1. EMAIL_OTP: the wallet's first credential needs no signature; verifying it gives the device a session.
 * 2. PASSKEY registration in relay mode: the backend's call fails with SignatureRequiredError, the
 *    device signs the challenge with its session, the backend repeats the call with { signature, requestId }.
 * 3. PASSKEY authentication: challenge → WebAuthn assertion on the device → verify with the requestId.
 */
import { randomBytes } from 'node:crypto';
import { Crossborder, SignatureRequiredError, type SignatureChallenge } from 'crossborder-sdk';
import { createSandbox, MAGIC } from 'crossborder-sdk/sandbox';
import {
  generateClientKeyPair,
  passkeyAssertion,
  passkeyAttestation,
  WalletSession,
  type ClientKeyPair,
  type PasskeyAssertionCredential,
  type PasskeyAttestationCredential,
  type VerifyAnswer,
} from 'crossborder-sdk/wallet';

/** The user's device: in real life a browser or app using `crossborder-sdk/wallet` and WebAuthn. */
class Device {
  session: WalletSession | undefined;
  #pending: ClientKeyPair | undefined;
  readonly #authenticator = fakeAuthenticator();

  /** A fresh key pair per login; its public key goes to the backend as `clientPublicKey`. */
  async startLogin(): Promise<string> {
    this.#pending = await generateClientKeyPair();
    return this.#pending.publicKey;
  }

  /** Opens the session key sealed to this device's key pair. */
  async finishLogin(answer: VerifyAnswer, credentialId: string): Promise<WalletSession> {
    if (!this.#pending) throw new Error('startLogin() first');
    this.session = await WalletSession.fromVerify(answer, this.#pending, credentialId);
    this.#pending = undefined;
    return this.session;
  }

  /** Signs a relayed challenge with the session key; the result is the Service-Wallet-Signature value. */
  sign(challenge: SignatureChallenge): Promise<string> {
    if (!this.session) throw new Error('no session on this device');
    return this.session.signer(challenge);
  }

  /** navigator.credentials.create(), mapped to the API's `attestation` field. */
  registerPasskey(challenge: string) {
    return passkeyAttestation(this.#authenticator.create(challenge));
  }

  /** navigator.credentials.get(), mapped to the API's `assertion` field. */
  assertPasskey(challenge: string) {
    return passkeyAssertion(this.#authenticator.get(challenge));
  }
}

export async function main(print: (line: string) => void = console.log): Promise<void> {
  const sandbox = createSandbox();
  const cb = new Crossborder({ tokenId: 'demo', clientSecret: 'demo', environment: 'sandbox', fetch: sandbox.fetch });
  const device = new Device();
  try {
    // Backend: a customer and its account; the wallet API names the account `EmbeddedWallet:<same id>`.
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
    if (!account) throw new Error('the sandbox opened no account');
    const walletId = account.id.replace(/^InternalAccount:/, 'EmbeddedWallet:');

    // 1. Backend: the first credential answers 201 at once. The service emails a code to the user.
    const otp = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
    print(`credential ${otp.type} ${otp.id}`);
    // Device → backend: the user's code and the device's public key. Backend → device: the sealed session.
    const clientPublicKey = await device.startLogin();
    const verified = await cb.auth.credentials.verify(otp.id, { type: 'EMAIL_OTP', otp: MAGIC.otp, clientPublicKey });
    const session = await device.finishLogin(verified, otp.id);
    print(`session    ${session.id} (${otp.type}) until ${session.expiresAt}`);

    // 2. PASSKEY registration. Backend: issue a registration challenge; device: create the passkey.
    const registrationChallenge = randomBytes(32).toString('base64url');
    const params = {
      type: 'PASSKEY' as const,
      accountId: walletId,
      nickname: 'Ada’s phone',
      challenge: registrationChallenge,
      attestation: device.registerPasskey(registrationChallenge),
    };
    let passkey;
    try {
      passkey = await cb.auth.credentials.create(params); // no signer on the backend: the key is on the device
    } catch (err) {
      if (!(err instanceof SignatureRequiredError)) throw err;
      // Relay: send err.challenge to the device (your API, a push, a websocket) and get the signature back.
      print(`challenge  ${err.challenge.requestId} relayed to the device (expires ${err.challenge.expiresAt})`);
      const signature = await device.sign(err.challenge);
      // The second leg: the identical request, plus the device's signature and the challenge's requestId.
      passkey = await cb.auth.credentials.create(params, { signature, requestId: err.challenge.requestId });
    }
    print(`credential ${passkey.type} ${passkey.id} registered through the relay`);

    // 3. PASSKEY authentication: a new key pair, the WebAuthn challenge, the assertion, verify.
    const nextPublicKey = await device.startLogin();
    const started = await cb.auth.credentials.challenge(passkey.id, { clientPublicKey: nextPublicKey });
    if (!('requestId' in started)) throw new Error('a PASSKEY challenge answers a requestId');
    const assertion = device.assertPasskey(started.challenge);
    const answer = await cb.auth.credentials.verify(passkey.id, { type: 'PASSKEY', assertion }, { requestId: started.requestId });
    const passkeySession = await device.finishLogin(answer, passkey.id);
    print(`session    ${passkeySession.id} (${passkey.type}) until ${passkeySession.expiresAt}`);

    const { data: credentials } = await cb.auth.credentials.list({ accountId: walletId });
    const { data: sessions } = await cb.auth.sessions.list({ accountId: walletId });
    print(`wallet     ${credentials.map((c) => c.type).join(' + ')}; ${sessions.length} sessions`);
  } finally {
    await sandbox.close();
  }
}

/**
 * Stands in for the device's WebAuthn authenticator (`navigator.credentials` in a browser): answers
 * the shapes `create()` and `get()` resolve to. The sandbox checks which passkey answered, not the
 * WebAuthn signature itself.
 */
function fakeAuthenticator() {
  const rawId = randomBytes(16);
  const clientData = (type: string, challenge: string) => new TextEncoder().encode(JSON.stringify({ type, challenge, origin: 'https://platform.example' }));
  return {
    create: (challenge: string): PasskeyAttestationCredential => ({
      rawId: rawId.buffer.slice(rawId.byteOffset, rawId.byteOffset + rawId.byteLength),
      response: {
        clientDataJSON: clientData('webauthn.create', challenge),
        attestationObject: new Uint8Array([0xa3, 0x63, 0x66, 0x6d, 0x74, 0x64, 0x6e, 0x6f, 0x6e, 0x65]),
        getTransports: () => ['internal', 'hybrid'],
      },
    }),
    get: (challenge: string): PasskeyAssertionCredential => ({
      rawId: new Uint8Array(rawId),
      response: {
        clientDataJSON: clientData('webauthn.get', challenge),
        authenticatorData: new Uint8Array(37),
        signature: randomBytes(70),
        userHandle: null,
      },
    }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
