// @ts-nocheck
// Runs on the user's device (browser or app): `crossborder-sdk/wallet` uses WebCrypto only.
import type { SignatureChallenge } from 'crossborder-sdk';
import { generateClientKeyPair, passkeyAssertion, passkeyAttestation, WalletSession, type ClientKeyPair, type VerifyAnswer } from 'crossborder-sdk/wallet';

let keyPair: ClientKeyPair | undefined;
let session: WalletSession | undefined;

/** Before each login: a fresh key pair. Its public key goes to your backend as `clientPublicKey`. */
export async function startLogin(): Promise<string> {
  keyPair = await generateClientKeyPair();
  return keyPair.publicKey;
}

/** After your backend's verify call: open the session key sealed to this device. It stays in WebCrypto. */
export async function finishLogin(answer: VerifyAnswer, credentialId: string): Promise<WalletSession> {
  if (!keyPair) throw new Error('call startLogin() first');
  session = await WalletSession.fromVerify(answer, keyPair, credentialId);
  keyPair = undefined;
  return session;
}

/** Relay mode: sign the challenge your backend forwarded; send the result back as `signature`. */
export function signChallenge(challenge: SignatureChallenge): Promise<string> {
  if (!session) throw new Error('no wallet session on this device');
  return session.signer(challenge);
}

/** Passkey registration: the WebAuthn credential, mapped to the API's `attestation` field. */
export async function createPasskey(challenge: string, user: { id: string; name: string }) {
  const credential = (await navigator.credentials.create({
    publicKey: {
      challenge: bytes(challenge),
      rp: { name: 'Example Platform' },
      user: { id: new TextEncoder().encode(user.id), name: user.name, displayName: user.name },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    },
  })) as PublicKeyCredential;
  return passkeyAttestation(credential);
}

/** Passkey login: the assertion over the service's challenge, mapped to the API's `assertion` field. */
export async function assertPasskey(challenge: string, credentialId: string) {
  const credential = (await navigator.credentials.get({
    publicKey: { challenge: bytes(challenge), allowCredentials: [{ type: 'public-key', id: bytes(credentialId) }] },
  })) as PublicKeyCredential;
  return passkeyAssertion(credential);
}

const bytes = (base64url: string) => Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
