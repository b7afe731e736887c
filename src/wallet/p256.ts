/**
 * The one P-256 computation WebCrypto lacks on the device side: a private scalar's public point (to
 * import a session key the bundle opened, since WebCrypto imports a bare scalar only with its point),
 * and the points' compressed and uncompressed forms. Built on @noble/curves' point alone
 * (`weierstrass`, its constant-time `multiply`), not on its `p256` export: that one carries noble's
 * ECDSA, hash-to-curve and hashing, which the device never uses (WebCrypto signs and verifies), about
 * 6 kB min+gzip of the wallet bundle.
 * @internal
 * @module
 */
import { weierstrass } from '@noble/curves/abstract/weierstrass.js';
import { own, type Bytes } from '../core/encoding';

// SEC 2 §2.4.2 (secp256r1), the constants of @noble/curves' nist.js.
const Point = /* @__PURE__ */ weierstrass({
  p: 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn,
  n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  h: 1n,
  a: 0xffffffff00000001000000000000000000000000fffffffffffffffffffffffcn,
  b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
  Gx: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  Gy: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
});

/** A 32-byte big-endian scalar in [1, n − 1] as a number, or `undefined`. */
function scalarOf(scalar: Uint8Array): bigint | undefined {
  if (scalar.length !== 32) return undefined;
  let d = 0n;
  for (const byte of scalar) d = (d << 8n) | BigInt(byte);
  return d > 0n && d < Point.Fn.ORDER ? d : undefined;
}

/** True for a 32-byte big-endian scalar in [1, n − 1]: a P-256 private key. */
export function isValidScalar(scalar: Uint8Array): boolean {
  return scalarOf(scalar) !== undefined;
}

/** The uncompressed public point `04‖X‖Y` of a private scalar; throws a RangeError for an invalid one. */
export function publicPointOf(scalar: Uint8Array): Bytes {
  const d = scalarOf(scalar);
  if (d === undefined) throw new RangeError('not a P-256 private scalar');
  return own(Point.BASE.multiply(d).toBytes(false));
}

/** A point (33 bytes compressed or 65 uncompressed) in the form asked; throws when it is not one on P-256. */
export function pointBytes(point: Uint8Array, compressed: boolean): Bytes {
  return own(Point.fromBytes(own(point)).toBytes(compressed));
}
