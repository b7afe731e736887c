/**
 * The byte encodings of the package, in one place: hex, base64 (standard and URL-safe), PEM,
 * UTF-8, and the DER ⇄ IEEE P1363 forms of ECDSA P-256 signatures. base64 goes through the
 * runtime's `btoa`/`atob` (every runtime the package supports has them) behind strict checks of our
 * own: the alphabet, the length, and canonical padding bits (a decoded text must encode back to itself),
 * so one signature has one spelling. Webhook verification, the wallet and the sandbox all use these.
 * Decoders return `undefined` on bad input; callers turn that into their own typed error naming the field.
 * @internal
 * @module
 */

/** Bytes backed by a plain ArrayBuffer, as WebCrypto's `BufferSource` wants. */
export type Bytes = Uint8Array<ArrayBuffer>;

/** Size of one P-256 scalar (r or s) in bytes. */
export const P256_SCALAR_BYTES = 32;

/** A copy in this realm's ArrayBuffer (WebCrypto refuses typed arrays of another realm in some runtimes). */
export function own(bytes: Uint8Array): Bytes {
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}

/** Lower-case hex of `bytes`. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += bytes[i]!.toString(16).padStart(2, '0');
  return out;
}

/** Hex (either case, even length, no prefix) → bytes, or `undefined`. */
export function hexToBytes(text: string): Bytes | undefined {
  if (typeof text !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(text)) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < text.length; i += 2) out[i >> 1] = parseInt(text.slice(i, i + 2), 16);
  return out;
}

/** Standard base64 with padding. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

// Each base64 character's value (the standard alphabet: A–Z, a–z, 0–9, +, /), 64 for any other code unit below
// 128, derived from the alphabet's ranges rather than spelt out (test/webhooks/encoding.test.ts checks all 128).
const BASE64_VALUES = /* @__PURE__ */ (() => {
  const values = new Uint8Array(128).fill(64);
  for (let i = 0; i < 64; i++) values[i < 26 ? i + 65 : i < 52 ? i + 71 : i < 62 ? i - 4 : i * 4 - 205] = i;
  return values;
})();

/** A code unit past 127 or outside the alphabet is 64 (bit 6 set); past `end`, 0, as if the last quad were filled with "A". */
function base64Value(text: string, k: number, end: number): number {
  const code = k < end ? text.charCodeAt(k) : 65;
  return code < 128 ? BASE64_VALUES[code]! : 64;
}

/**
 * Standard base64, padded or not, canonical (the padding bits zero), → bytes; `undefined` otherwise.
 * One pass over the text, four characters (three bytes) at a time, with a table (no regular expression, no
 * `atob`, no re-encoding to check the padding bits): a webhook signature header is decoded on every delivery.
 * With `into` (large enough), the bytes are written there and a view of them returned: V8 allocates a typed
 * array of more than 64 bytes outside its heap (~0.5 µs), and a DER signature is 70–72 bytes.
 */
function decodeBase64(text: string, into?: Uint8Array<ArrayBuffer>, from = 0, to = text.length): Bytes | undefined {
  let end = to;
  if (end > from && text.charCodeAt(end - 1) === 0x3d) end--;
  if (end > from && text.charCodeAt(end - 1) === 0x3d) end--;
  const bare = end - from;
  // A padded text is a whole number of quads; one character alone in the last quad is no byte.
  if (bare < 0 || (end !== to && (to - from) % 4 !== 0) || bare % 4 === 1) return undefined;
  const length = (bare * 3) >> 2;
  const out = into?.subarray(0, length) ?? new Uint8Array(length);
  let at = 0;
  let n = 0;
  for (let i = from; i < end; i += 4) {
    const a = base64Value(text, i, end);
    const b = base64Value(text, i + 1, end);
    const c = base64Value(text, i + 2, end);
    const d = base64Value(text, i + 3, end);
    if ((a | b | c | d) & 64) return undefined;
    n = (a << 18) | (b << 12) | (c << 6) | d;
    // Past `length` (the last quad's missing bytes) a write into the view is dropped.
    out[at++] = n >> 16;
    out[at++] = n >> 8;
    out[at++] = n;
  }
  // The bits of the bytes not written must be zero, else one signature would have several spellings.
  return n & ((1 << ((at - length) * 8)) - 1) ? undefined : out;
}

/**
 * Standard-alphabet base64 → bytes, or `undefined`. Padding may be omitted; anything outside
 * `A–Z a–z 0–9 + /` (base64url's `-` and `_`, inner whitespace) is refused. With `into` (large enough),
 * the bytes are written there and a view of them returned (see `decodeBase64`). With `from` and `to`, only
 * `text.slice(from, to)` is decoded, without that slice being made.
 */
export function base64ToBytes(text: string, into?: Uint8Array<ArrayBuffer>, from?: number, to?: number): Bytes | undefined {
  return typeof text === 'string' ? decodeBase64(text, into, from, to) : undefined;
}

/** base64url without padding. */
export function bytesToBase64url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Strict base64url (URL alphabet, no padding) → bytes, or `undefined`. */
export function base64urlToBytes(text: string): Bytes | undefined {
  if (typeof text !== 'string' || /[+/=]/.test(text)) return undefined;
  return decodeBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}

const utf8Encoder = /* @__PURE__ */ new TextEncoder();

/** UTF-8 bytes of `text`, exactly as given. */
export function utf8(text: string): Bytes {
  return utf8Encoder.encode(text);
}

/** Strict UTF-8 decoding: invalid sequences throw instead of becoming U+FFFD. */
export function fromUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** `a ‖ b ‖ …`. */
export function concatBytes(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The P-256 field prime and the curve's `b` (y² = x³ − 3x + b), SEC 2 §2.4.2. */
const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const P256_B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

/**
 * The uncompressed form (`04‖X‖Y`, 65 bytes) of a compressed P-256 point (`02`/`03‖X`, 33 bytes), or
 * `undefined` when it is not one (wrong length or prefix, or X not on the curve). For runtimes whose
 * WebCrypto imports only uncompressed points. The square root is `rhs^((p+1)/4)`, since p ≡ 3 (mod 4).
 */
export function decompressP256(point: Uint8Array): Bytes | undefined {
  if (point.length !== 33 || (point[0] !== 0x02 && point[0] !== 0x03)) return undefined;
  const xHex = bytesToHex(point.subarray(1));
  const x = BigInt(`0x${xHex}`);
  if (x >= P256_P) return undefined;
  // x³ − 3x + b is never negative (x³ ≥ 3x from x = 2, and b > 3), so its remainder is already in [0, p).
  const rhs = (x * x * x - 3n * x + P256_B) % P256_P;
  // rhs^((p+1)/4) by squaring and multiplying.
  let y = 1n;
  for (let b = rhs, e = (P256_P + 1n) >> 2n; e; e >>= 1n, b = (b * b) % P256_P) if (e & 1n) y = (y * b) % P256_P;
  if ((y * y) % P256_P !== rhs) return undefined;
  if (Number(y & 1n) !== (point[0] & 1)) y = P256_P - y;
  // In hex, as X already is (no byte concatenation: a worker that verifies webhooks holds no other use of it).
  return hexToBytes(`04${xHex}${y.toString(16).padStart(64, '0')}`);
}

/**
 * The DER bytes of a PEM block with the given label (e.g. `PUBLIC KEY`), or `undefined`. Tolerates
 * literal `\n` sequences, which is how PEM usually arrives through an environment variable.
 */
export function pemToBytes(pem: string, label: string): Bytes | undefined {
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  const from = pem.indexOf(begin);
  const to = pem.indexOf(end, from + begin.length);
  if (from < 0 || to < 0) return undefined;
  const der = base64ToBytes(pem.slice(from + begin.length, to).replace(/\\n|\\r|\s/g, ''));
  return der && der.length > 0 ? der : undefined;
}

/** DER bytes in a PEM block with the given label, 64 characters per line. */
export function bytesToPem(der: Uint8Array, label: string): string {
  const lines = bytesToBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * Reads one DER INTEGER at `offset` into `out` at `at`, left-padded to a scalar.
 * @returns the offset after it, or -1 if it is not a strict, positive, ≤ 33-byte INTEGER.
 */
function readInteger(der: Uint8Array, offset: number, out: Uint8Array, at: number): number {
  if (der[offset] !== 0x02) return -1;
  const len = der[offset + 1];
  // Short-form length only: a 33-byte integer never needs the long form, so anything else is not strict DER.
  if (len === undefined || len < 1 || len > P256_SCALAR_BYTES + 1) return -1;
  const start = offset + 2;
  const stop = start + len;
  if (stop > der.length) return -1;
  const first = der[start]!;
  if (first & 0x80) return -1; // negative
  if (first === 0 && len > 1 && (der[start + 1]! & 0x80) === 0) return -1; // non-minimal leading zero
  let from = start;
  if (len === P256_SCALAR_BYTES + 1) {
    if (first !== 0) return -1; // a 33rd byte is allowed only as the sign pad
    from++;
  }
  // Byte by byte: a subarray per integer costs more than copying 32 bytes.
  for (let i = from, to = at + P256_SCALAR_BYTES - (stop - from); i < stop; i++, to++) out[to] = der[i]!;
  return stop;
}

/**
 * Strict DER ECDSA P-256 signature (`SEQUENCE { INTEGER r, INTEGER s }`) → the 64-byte `r‖s` form
 * WebCrypto verifies, or `undefined` if the input is not exactly such a structure. With `into` (64 bytes),
 * `r‖s` is written there and `into` returned: a caller that only checks the DER allocates nothing.
 */
export function derToP1363(der: Uint8Array, into?: Bytes): Bytes | undefined {
  if (der.length < 8 || der[0] !== 0x30) return undefined;
  const seqLen = der[1]!;
  // Short-form length, and it must cover the rest exactly: trailing bytes are refused.
  if (seqLen >= 0x80 || seqLen !== der.length - 2) return undefined;
  const out = into?.fill(0) ?? new Uint8Array(P256_SCALAR_BYTES * 2);
  const afterR = readInteger(der, 2, out, 0);
  if (afterR < 0) return undefined;
  const afterS = readInteger(der, afterR, out, P256_SCALAR_BYTES);
  return afterS === der.length ? out : undefined;
}

/** DER INTEGER body of an unsigned big-endian scalar: leading zeros stripped, sign pad added when needed. */
function integerBody(scalar: Uint8Array): Uint8Array {
  let i = 0;
  while (i < scalar.length - 1 && scalar[i] === 0) i++;
  const trimmed = scalar.subarray(i);
  return trimmed[0]! & 0x80 ? concatBytes(Uint8Array.of(0), trimmed) : trimmed;
}

/**
 * A 64-byte `r‖s` ECDSA P-256 signature (what WebCrypto's `sign` returns) → DER with minimal
 * INTEGER encodings.
 * @throws RangeError if the input is not 64 bytes.
 */
export function p1363ToDer(signature: Uint8Array): Bytes {
  if (signature.length !== P256_SCALAR_BYTES * 2) {
    throw new RangeError(`expected a ${P256_SCALAR_BYTES * 2}-byte r‖s signature, got ${signature.length} bytes`);
  }
  const r = integerBody(signature.subarray(0, P256_SCALAR_BYTES));
  const s = integerBody(signature.subarray(P256_SCALAR_BYTES));
  return concatBytes(Uint8Array.of(0x30, 4 + r.length + s.length, 0x02, r.length), r, Uint8Array.of(0x02, s.length), s);
}
