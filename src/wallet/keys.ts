/**
 * Device-side keys: the client key pair that receives the session key, and the session key itself.
 * @module
 */
import { base64urlToBytes, bytesToBase64url, bytesToHex, compressPoint, concatBytes, hexToBytes } from './encoding';
import { WalletCryptoError } from '../core/errors';
import { openSessionBundle } from './hpke';
import { isValidScalar, publicPointOf } from './p256';
import { ECDH_P256, ECDSA_P256, P256_SCALAR_LENGTH, subtle } from './webcrypto';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * The session signing key, held as a non-extractable WebCrypto key. Only the public half is ever
 * visible: `JSON.stringify`, `util.inspect` and `Object.keys` show `publicKey` alone.
 */
export class SessionKey {
  /** Compressed SEC1 public key (33 bytes), lower-case hex: the `publicKey` of every stamp. */
  readonly publicKey: string;
  /**
   * Non-extractable ECDSA P-256 private key (usage `sign`). Can be kept in IndexedDB as is, since
   * structured clone preserves non-extractable keys. Not enumerable.
   */
  declare readonly signingKey: CryptoKey;

  /** Wraps an existing key, e.g. one restored from IndexedDB. Most code uses {@link importSessionKey}. */
  constructor(signingKey: CryptoKey, publicKey: string) {
    if (signingKey?.type !== 'private' || signingKey.algorithm.name !== 'ECDSA') {
      throw new WalletCryptoError('invalid_input', 'signingKey must be an ECDSA P-256 private CryptoKey');
    }
    hexToBytes(publicKey, 'publicKey', 33);
    this.publicKey = publicKey.toLowerCase();
    // Non-enumerable so spreads and loggers that walk properties skip it.
    Object.defineProperty(this, 'signingKey', { value: signingKey, enumerable: false });
  }

  /** Redacted form: the public key only. */
  toJSON(): { publicKey: string } {
    return { publicKey: this.publicKey };
  }

  /** Redacted form for Node's `util.inspect` / `console.log`. */
  [inspectSymbol](): string {
    return `SessionKey { publicKey: '${this.publicKey}', signingKey: [redacted] }`;
  }
}

/**
 * Imports a raw 32-byte P-256 session private key (hex) as a non-extractable {@link SessionKey},
 * for platforms that decrypt `encryptedSessionSigningKey` elsewhere and hold the bytes.
 */
export async function importSessionKey(privateKeyHex: string): Promise<SessionKey> {
  const scalar = hexToBytes(privateKeyHex, 'session private key', P256_SCALAR_LENGTH);
  try {
    return await sessionKeyFromScalar(scalar);
  } finally {
    scalar.fill(0);
  }
}

/**
 * A P-256 private scalar as a complete JWK, with its uncompressed public point. WebCrypto cannot
 * import a bare scalar portably (Firefox/Safari need the public point), so it is computed here (./p256).
 * @internal
 */
export function privateJwk(scalar: Uint8Array): { point: Uint8Array; jwk: JsonWebKey } {
  const point = publicPointOf(scalar);
  return {
    point,
    jwk: { kty: 'EC', crv: 'P-256', x: bytesToBase64url(point.subarray(1, 33)), y: bytesToBase64url(point.subarray(33)), d: bytesToBase64url(scalar) },
  };
}

/** Builds a SessionKey from a raw scalar; the caller wipes `scalar`. */
async function sessionKeyFromScalar(scalar: Uint8Array): Promise<SessionKey> {
  if (!isValidScalar(scalar)) {
    throw new WalletCryptoError('invalid_input', 'session private key is not a valid P-256 scalar');
  }
  const { point, jwk } = privateJwk(scalar);
  const signingKey = await subtle().importKey('jwk', jwk, ECDSA_P256, false, ['sign']);
  return new SessionKey(signingKey, bytesToHex(compressPoint(point)));
}

/**
 * The device's P-256 key pair for one session request. Send `publicKey` (or `publicKeyCompressed`) as
 * `clientPublicKey`, then either open the `encryptedSessionSigningKey` of the `/verify` answer with
 * `decryptSessionKey`, or, when the answer carries none (the service answers so when `clientPublicKey`
 * was sent compressed), use the key pair itself as the session key: `sessionKey()`.
 * The private half never leaves WebCrypto.
 */
export interface ClientKeyPair {
  /** Uncompressed public key `04‖X‖Y` (65 bytes), lower-case hex. */
  readonly publicKey: string;
  /** Compressed public key `02|03‖X` (33 bytes), lower-case hex: the service accepts either form. */
  readonly publicKeyCompressed: string;
  /**
   * Opens `encryptedSessionSigningKey` (the production bundle: base58check of the compressed HPKE
   * `enc` and the sealed key) into a {@link SessionKey}. Throws {@link WalletCryptoError} on malformed
   * input (`invalid_input`), when it was not sealed to this key pair (`decrypt_failed`), or when the
   * runtime's WebCrypto refuses an operation itself (`unsupported`); the runtime's error is the `cause`.
   */
  decryptSessionKey(encryptedSessionSigningKey: string): Promise<SessionKey>;
  /** This key pair as the session key (client-held session: `/verify` answered no encrypted key). */
  sessionKey(): SessionKey;
}

/** Generates a fresh {@link ClientKeyPair}; use a new one for every `/challenge` or `/verify`. */
export async function generateClientKeyPair(): Promise<ClientKeyPair> {
  // One scalar, imported twice as non-extractable keys: ECDH to open the bundle, ECDSA to sign when
  // the key pair itself is the session key. The bytes are wiped once imported.
  // WebCrypto makes the scalar (and its point): generated extractable once, its JWK read, and that JWK
  // imported as the two non-extractable keys; the generated key is dropped.
  const webcrypto = subtle(); // a clear error where WebCrypto is missing, before anything else
  const generated = await webcrypto.generateKey(ECDH_P256, true, ['deriveBits']);
  const { kty, crv, x, y, d } = await webcrypto.exportKey('jwk', generated.privateKey);
  const jwk: JsonWebKey = { kty, crv, x, y, d };
  const [ecdh, ecdsa] = await Promise.all([
    webcrypto.importKey('jwk', jwk, ECDH_P256, false, ['deriveBits']),
    webcrypto.importKey('jwk', jwk, ECDSA_P256, false, ['sign']),
  ]);
  const point = concatBytes(Uint8Array.of(0x04), base64urlToBytes(x!, 'the generated key x'), base64urlToBytes(y!, 'the generated key y'));
  const publicKeyCompressed = bytesToHex(compressPoint(point));
  const own = new SessionKey(ecdsa, publicKeyCompressed);
  return Object.freeze({
    publicKey: bytesToHex(point),
    publicKeyCompressed,
    decryptSessionKey: (bundle: string) => openSessionKey(bundle, ecdh, point),
    sessionKey: () => own,
  });
}

/** Opens the 32-byte session scalar and imports it; the plaintext is wiped afterwards. */
async function openSessionKey(bundle: string, recipientKey: CryptoKey, recipientPublicKey: Uint8Array): Promise<SessionKey> {
  const scalar = await openSessionBundle(bundle, recipientKey, recipientPublicKey);
  try {
    if (scalar.length !== P256_SCALAR_LENGTH) {
      throw new WalletCryptoError('decrypt_failed', `the session bundle holds ${scalar.length} bytes, not a 32-byte P-256 private key`);
    }
    return await sessionKeyFromScalar(scalar);
  } finally {
    scalar.fill(0);
  }
}
