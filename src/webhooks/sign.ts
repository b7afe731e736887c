/**
 * The service's side of webhook signing, for tests and the local sandbox: sign a body the way the
 * service does, and make a key pair to sign with. Re-exported from `crossborder-sdk/sandbox`.
 * @module
 */
import { WebhookVerificationError } from '../core/errors';
import { bytesToBase64, bytesToHex, bytesToPem, KeyCache, p1363ToDer, pemToBytes, utf8 } from './encoding';

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
// Key string → import in flight or done; a server verifying thousands of deliveries imports once.
const keyCache = new KeyCache();

async function importPrivateKey(pem: string): Promise<CryptoKey> {
  const der = pemToBytes(pem, 'PRIVATE KEY');
  if (!der) {
    throw new WebhookVerificationError(
      'invalid_key',
      pem.includes('-----BEGIN EC PRIVATE KEY-----')
        ? 'the signing key is SEC1 (-----BEGIN EC PRIVATE KEY-----); WebCrypto needs PKCS#8: ' + 'convert it with `openssl pkcs8 -topk8 -nocrypt -in key.pem`'
        : 'the signing key must be a PEM PKCS#8 private key (-----BEGIN PRIVATE KEY-----) or a CryptoKey',
    );
  }
  try {
    return await globalThis.crypto.subtle.importKey('pkcs8', der, ECDSA_P256, false, ['sign']);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_key', 'the signing key is not an ECDSA P-256 private key', { cause });
  }
}

function signingKey(privateKey: string | CryptoKey): Promise<CryptoKey> {
  if (typeof privateKey !== 'string') return Promise.resolve(privateKey);
  const text = privateKey.trim();
  return keyCache.get(text, importPrivateKey);
}

/** Options of {@link signWebhook}. */
export interface SignWebhookOptions {
  /**
   * `'versioned'` (default): the JSON form `{"v":"1","s":"<base64 DER>"}`, as the local sandbox sends;
   * `'bare'`: the base64 of the DER signature alone. The service uses both; receivers accept both.
   */
  format?: 'versioned' | 'bare' | undefined;
}

/**
 * Signs a webhook body as the service does.
 * @param body the exact body to send (a string is UTF-8 encoded).
 * @param privateKey PEM PKCS#8 (`-----BEGIN PRIVATE KEY-----`) or an ECDSA P-256 `CryptoKey` with usage `sign`.
 * @returns the `X-Service-Signature` header value: `{"v":"1","s":"<base64 of the DER signature>"}`,
 *   or the bare base64 with `{ format: 'bare' }`.
 * @throws {@link crossborder-sdk!WebhookVerificationError} `invalid_key` when the key cannot sign.
 */
export async function signWebhook(body: string | Uint8Array, privateKey: string | CryptoKey, options: SignWebhookOptions = {}): Promise<string> {
  const key = await signingKey(privateKey);
  const bytes = typeof body === 'string' ? utf8(body) : new Uint8Array(body);
  let signature: ArrayBuffer;
  try {
    signature = await globalThis.crypto.subtle.sign(ECDSA_SHA256, key, bytes);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_key', 'the signing key cannot make ECDSA P-256 signatures', { cause });
  }
  const der = bytesToBase64(p1363ToDer(new Uint8Array(signature)));
  return options.format === 'bare' ? der : JSON.stringify({ v: '1', s: der });
}

/** A webhook key pair in the forms the service hands out. */
export interface WebhookKeyPair {
  /** Public key, PEM SPKI (`-----BEGIN PUBLIC KEY-----`): what the receiving server configures. */
  publicKeyPem: string;
  /** Public key, hex of the uncompressed point (`04…`, 130 characters). */
  publicKeyHex: string;
  /** Private key, PEM PKCS#8 (`-----BEGIN PRIVATE KEY-----`): for {@link signWebhook} only. */
  privateKeyPem: string;
}

/**
 * Makes a fresh, extractable ECDSA P-256 key pair for tests and the local sandbox.
 * @returns the public key as PEM and hex, and the private key as PEM.
 */
export async function generateWebhookKeyPair(): Promise<WebhookKeyPair> {
  const pair = await globalThis.crypto.subtle.generateKey(ECDSA_P256, true, ['sign', 'verify']);
  const [spki, raw, pkcs8] = await Promise.all([
    globalThis.crypto.subtle.exportKey('spki', pair.publicKey),
    globalThis.crypto.subtle.exportKey('raw', pair.publicKey),
    globalThis.crypto.subtle.exportKey('pkcs8', pair.privateKey),
  ]);
  return {
    publicKeyPem: bytesToPem(new Uint8Array(spki), 'PUBLIC KEY'),
    publicKeyHex: bytesToHex(new Uint8Array(raw)),
    privateKeyPem: bytesToPem(new Uint8Array(pkcs8), 'PRIVATE KEY'),
  };
}
