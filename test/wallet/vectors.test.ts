/**
 * A published known answer for the session-bundle format of decisions.md: the credential bundle,
 * recipient key and plaintext of Turnkey's own crypto tests (tkhq/sdk,
 * packages/crypto/src/__tests__/crypto-test.ts, "decryptEmailBundle"). Sealed by the service's
 * format owner, not by this repository's code: the SDK must open it to exactly that key.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSessionBundle } from '../../src/wallet/hpke';
import { WalletCryptoError } from '../../src/core/errors';
import { b64url } from '../helpers/encoding';

const RECIPIENT_PRIVATE_KEY = '20fa65df11f24833790ae283fc9a0c215eecbbc589549767977994dc69d05a56';
const BUNDLE = 'w99a5xV6A75TfoAUkZn869fVyDYvgVsKrawMALZXmrauZd8hEv66EkPU1Z42CUaHESQjcA5bqd8dynTGBMLWB9ewtXWPEVbZvocB4Tw2K1vQVp7uwjf';
const SEALED_KEY = '67ee05fc3bdf4161bc70701c221d8d77180294cefcfcea64ba83c4d4c732fcb9';

/** The recipient key pair as WebCrypto has it on a device: ECDH private key and its public point. */
async function recipient() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(RECIPIENT_PRIVATE_KEY, 'hex'));
  const point = ecdh.getPublicKey();
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    d: b64url(Buffer.from(RECIPIENT_PRIVATE_KEY, 'hex')),
    x: b64url(point.subarray(1, 33)),
    y: b64url(point.subarray(33)),
  };
  const privateKey = await crypto.webcrypto.subtle.importKey('jwk', jwk, { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
  return { privateKey, uncompressed: new Uint8Array(point), compressed: new Uint8Array(ecdh.getPublicKey(null, 'compressed')) };
}

describe('the published session-bundle vector', () => {
  it('opens to the published key, with the recipient public key in either form', async () => {
    const keys = await recipient();
    for (const publicKey of [keys.uncompressed, keys.compressed]) {
      expect(Buffer.from(await openSessionBundle(BUNDLE, keys.privateKey, publicKey)).toString('hex')).toBe(SEALED_KEY);
    }
  });

  it('refuses it with one character changed, or for another recipient', async () => {
    const keys = await recipient();
    const tampered = BUNDLE.slice(0, 60) + (BUNDLE[60] === 'a' ? 'b' : 'a') + BUNDLE.slice(61);
    await expect(openSessionBundle(tampered, keys.privateKey, keys.uncompressed)).rejects.toBeInstanceOf(WalletCryptoError);
    const other = crypto.createECDH('prime256v1');
    other.generateKeys();
    await expect(openSessionBundle(BUNDLE, keys.privateKey, new Uint8Array(other.getPublicKey()))).rejects.toMatchObject({ reason: 'decrypt_failed' });
  });
});
