/**
 * Which ECDSA P-256 verify a webhook signature goes through: `node:crypto` where the runtime has it
 * (Node, Bun, Deno), a synchronous call with no job queued; WebCrypto everywhere else (browsers,
 * workerd, edge runtimes), where each `crypto.subtle.verify` is an asynchronous job and a promise.
 *
 * Decided once, at the first verification, and never at import: `node:crypto` is looked up through
 * `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno), so no bundle for a browser or a worker carries
 * an `import 'node:crypto'`. Keys are always imported by WebCrypto (one import per key string, so
 * their errors are the same everywhere); `node:crypto` then gets a `KeyObject` of the same bytes, made
 * once per `CryptoKey`. Both verify the signature the strict DER reader accepted (node:crypto its DER bytes as
 * they are, WebCrypto their `r‖s` form), so the answer is the same on every runtime (test/webhooks/verifier.test.ts runs one set of vectors through
 * both, and the runtime matrix runs it in each runtime).
 * @module
 */
import { bytesToHex, derToP1363, hexToBytes } from './encoding';

/** The part of `node:crypto` used here (typed locally: no type of Node reaches a browser build). */
export interface NodeCryptoLike {
  verify(algorithm: string, data: Uint8Array, key: { key: object; dsaEncoding: 'der' }, signature: Uint8Array): boolean;
  KeyObject: { from(key: CryptoKey): object };
  createPublicKey(key: { key: Uint8Array; format: 'der'; type: 'spki' }): object;
}

// The SPKI bytes of keys imported from a string (verify.ts): node:crypto's KeyObject is made from them.
const keyBytes = new WeakMap<CryptoKey, Uint8Array>();

/** Records the SPKI bytes a WebCrypto key was imported from. */
export function rememberKeyBytes(key: CryptoKey, spki: Uint8Array): void {
  keyBytes.set(key, spki);
}

/**
 * The SPKI DER of an uncompressed P-256 point (`04‖X‖Y`): SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 },
 * BIT STRING (66 bytes) } (made once per key import, so written in hex, the shortest in a bundle).
 */
export function spkiOfPoint(point: Uint8Array): Uint8Array {
  return hexToBytes(`3059301306072a8648ce3d020106082a8648ce3d030107034200${bytesToHex(point)}`)!;
}

/** A signature check over a WebCrypto key: a boolean now (`node:crypto`) or a promise of one (WebCrypto). */
export interface SignatureVerifier {
  /** Which implementation verifies. */
  readonly name: 'node:crypto' | 'webcrypto';
  /**
   * Verifies an ECDSA P-256 SHA-256 signature over `data`: `der` is its strict DER form, as the header carries it
   * (checked first with `derToP1363`), read by node:crypto as it is (no conversion to `r‖s` and back) and
   * converted to `r‖s` for WebCrypto before this returns. Throws when the key cannot verify.
   */
  verify(key: CryptoKey, der: Uint8Array, data: Uint8Array<ArrayBuffer>): boolean | Promise<boolean>;
  /**
   * The same check done now, synchronously, or `undefined` when this key can only be checked
   * asynchronously (then call {@link SignatureVerifier.verify}). `data` may be any `Uint8Array`.
   */
  verifyNow?(key: CryptoKey, der: Uint8Array, data: Uint8Array): boolean | undefined;
}

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** Verification with `globalThis.crypto.subtle`. */
export const webCryptoVerifier: SignatureVerifier = {
  name: 'webcrypto',
  verify(key, der, data) {
    // The key was made by WebCrypto (verify.ts imports every key with it), so this runtime has it.
    return crypto.subtle.verify(ECDSA_SHA256, key, derToP1363(der)!, data);
  },
};

/**
 * Verification with the given `node:crypto`. Its `KeyObject` is made from the bytes the key was
 * imported from, or for a caller's own extractable `CryptoKey` by `KeyObject.from`; a key it cannot
 * have (a caller's non-extractable `CryptoKey`: converting one is deprecated) is verified by WebCrypto.
 */
export function nodeCryptoVerifier(nodeCrypto: NodeCryptoLike): SignatureVerifier {
  // CryptoKey → its KeyObject, or null when it goes to WebCrypto. Weak: a dropped key is collected.
  const keyObjects = new WeakMap<CryptoKey, object | null>();
  const keyObjectOf = (key: CryptoKey): object | null => {
    let found = keyObjects.get(key);
    if (found === undefined) {
      try {
        const spki = keyBytes.get(key);
        found = spki ? nodeCrypto.createPublicKey({ key: spki, format: 'der', type: 'spki' }) : key.extractable ? nodeCrypto.KeyObject.from(key) : null;
      } catch {
        found = null;
      }
      keyObjects.set(key, found);
    }
    return found;
  };
  const verifyNow = (key: CryptoKey, der: Uint8Array, data: Uint8Array): boolean | undefined => {
    const keyObject = keyObjectOf(key);
    return keyObject === null ? undefined : nodeCrypto.verify('sha256', data, { key: keyObject, dsaEncoding: 'der' }, der);
  };
  return {
    name: 'node:crypto',
    verify(key, der, data) {
      return verifyNow(key, der, data) ?? webCryptoVerifier.verify(key, der, data);
    },
    verifyNow,
  };
}

/** `node:crypto` when the runtime offers it without an import, else `undefined`. */
export function findNodeCrypto(): NodeCryptoLike | undefined {
  try {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const found = process?.getBuiltinModule?.('node:crypto') as Partial<NodeCryptoLike> | undefined;
    return typeof found?.verify === 'function' && typeof found.createPublicKey === 'function' && typeof found.KeyObject?.from === 'function'
      ? (found as NodeCryptoLike)
      : undefined;
  } catch {
    return undefined;
  }
}

let chosen: SignatureVerifier | undefined;

/** The verifier of this runtime, chosen at the first call. */
export function signatureVerifier(): SignatureVerifier {
  if (chosen) return chosen;
  const nodeCrypto = findNodeCrypto();
  chosen = nodeCrypto ? nodeCryptoVerifier(nodeCrypto) : webCryptoVerifier;
  return chosen;
}
