/**
 * The sandbox's webhook signing key, made synchronously (so `createSandbox()` need not be async) with
 * @noble/curves and wrapped in the PEM forms WebCrypto imports and platforms configure.
 * @module
 */
import { p256 } from '@noble/curves/nist.js';
import { bytesToHex, bytesToPem, concatBytes, hexToBytes } from '../../core/encoding';
import type { WebhookKeyPair } from '../../webhooks/sign';

// Fixed DER framing of an EC P-256 key: SEQUENCE { algorithm id-ecPublicKey + prime256v1, key }.
const SPKI_PREFIX = hexToBytes('3059301306072a8648ce3d020106082a8648ce3d030107034200')!;
const PKCS8_PREFIX = hexToBytes('308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420')!;
const PKCS8_PUBLIC_TAG = hexToBytes('a144034200')!;
const pem = bytesToPem;

/** A fresh P-256 webhook key pair: public key as PEM (SPKI) and hex, private key as PEM (PKCS#8). */
export function createWebhookKeyPair(): WebhookKeyPair {
  const secret = p256.utils.randomSecretKey();
  const publicKey = p256.getPublicKey(secret, false);
  return {
    publicKeyPem: pem(concatBytes(SPKI_PREFIX, publicKey), 'PUBLIC KEY'),
    publicKeyHex: bytesToHex(publicKey),
    privateKeyPem: pem(concatBytes(PKCS8_PREFIX, secret, PKCS8_PUBLIC_TAG, publicKey), 'PRIVATE KEY'),
  };
}
