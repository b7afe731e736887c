/**
 * Byte encodings shared by webhook verification and signing: base64, hex, PEM, and the
 * DER ⇄ IEEE P1363 conversion of ECDSA P-256 signatures. Pure functions, no runtime APIs
 * beyond `TextEncoder`, so they run anywhere.
 * @module
 */

/** Size of one P-256 scalar (r or s) in bytes. */
export const P256_SCALAR_BYTES = 32;

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// Reverse table: -1 marks a character outside the standard alphabet.
const BASE64_LOOKUP = /* @__PURE__ */ (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < BASE64_ALPHABET.length; i++) table[BASE64_ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * Decodes standard-alphabet base64. Padding may be omitted; any character outside
 * `A–Z a–z 0–9 + /` (including base64url's `-` and `_`, and inner whitespace) is refused.
 * @returns the bytes, or `undefined` when the text is not base64.
 */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  let end = text.length;
  // At most two '=' and only at the end, as the padding rule allows.
  if (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  const padding = text.length - end;
  if (padding > 0 && text.length % 4 !== 0) return undefined;
  // One leftover character holds only 6 bits: not a whole byte, so not base64.
  if (end % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? BASE64_LOOKUP[code]! : -1;
    if (value < 0) return undefined;
    acc = ((acc << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Encodes bytes as standard base64 with padding. */
export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      BASE64_ALPHABET[n >> 18]! + BASE64_ALPHABET[(n >> 12) & 63]! + BASE64_ALPHABET[(n >> 6) & 63]! + BASE64_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += BASE64_ALPHABET[n >> 18]! + BASE64_ALPHABET[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += BASE64_ALPHABET[n >> 18]! + BASE64_ALPHABET[(n >> 12) & 63]! + BASE64_ALPHABET[(n >> 6) & 63]! + '=';
  }
  return out;
}

/** Decodes lower- or upper-case hex (even length, no prefix). @returns `undefined` if not hex. */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Encodes bytes as lower-case hex. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * Extracts the DER bytes of a PEM block with the given label (e.g. `PUBLIC KEY`).
 * Tolerates literal `\n` sequences, which is how PEM usually arrives through an environment variable.
 * @returns the DER bytes, or `undefined` when there is no such block or its body is not base64.
 */
export function pemToBytes(pem: string, label: string): Uint8Array<ArrayBuffer> | undefined {
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  const from = pem.indexOf(begin);
  const to = pem.indexOf(end, from + begin.length);
  if (from < 0 || to < 0) return undefined;
  const body = pem.slice(from + begin.length, to).replace(/\\n|\\r|\s/g, '');
  const der = base64ToBytes(body);
  return der && der.length > 0 ? der : undefined;
}

/** Wraps DER bytes in a PEM block with the given label, 64 characters per line. */
export function bytesToPem(der: Uint8Array, label: string): string {
  const lines = bytesToBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * Reads one DER INTEGER at `offset` and writes it, left-padded, into `out` at `at`.
 * @returns the offset after the INTEGER, or -1 if it is not a strict, positive, ≤ 33-byte INTEGER.
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
  let value = der.subarray(start, stop);
  if (value.length === P256_SCALAR_BYTES + 1) {
    if (value[0] !== 0) return -1; // a 33rd byte is allowed only as the sign pad
    value = value.subarray(1);
  }
  out.set(value, at + P256_SCALAR_BYTES - value.length);
  return stop;
}

/**
 * Converts a strict DER ECDSA signature (`SEQUENCE { INTEGER r, INTEGER s }`) to the
 * 64-byte `r‖s` form WebCrypto verifies.
 * @returns the P1363 bytes, or `undefined` if the input is not exactly such a DER structure.
 */
export function derToP1363(der: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  if (der.length < 8 || der[0] !== 0x30) return undefined;
  const seqLen = der[1]!;
  // Short-form length, and it must cover the rest exactly: trailing bytes are refused.
  if (seqLen >= 0x80 || seqLen !== der.length - 2) return undefined;
  const out = new Uint8Array(P256_SCALAR_BYTES * 2);
  const afterR = readInteger(der, 2, out, 0);
  if (afterR < 0) return undefined;
  const afterS = readInteger(der, afterR, out, P256_SCALAR_BYTES);
  if (afterS !== der.length) return undefined;
  return out;
}

/** DER INTEGER body of an unsigned big-endian scalar: leading zeros stripped, sign pad added when needed. */
function integerBody(scalar: Uint8Array): Uint8Array {
  let i = 0;
  while (i < scalar.length - 1 && scalar[i] === 0) i++;
  const trimmed = scalar.subarray(i);
  if (trimmed[0]! & 0x80) {
    const padded = new Uint8Array(trimmed.length + 1);
    padded.set(trimmed, 1);
    return padded;
  }
  return trimmed;
}

/**
 * Converts a 64-byte `r‖s` ECDSA P-256 signature (what WebCrypto's `sign` returns) to DER
 * with minimal INTEGER encodings.
 * @throws RangeError if the input is not 64 bytes.
 */
export function p1363ToDer(signature: Uint8Array): Uint8Array<ArrayBuffer> {
  if (signature.length !== P256_SCALAR_BYTES * 2) {
    throw new RangeError(`expected a ${P256_SCALAR_BYTES * 2}-byte r‖s signature, got ${signature.length} bytes`);
  }
  const r = integerBody(signature.subarray(0, P256_SCALAR_BYTES));
  const s = integerBody(signature.subarray(P256_SCALAR_BYTES));
  const der = new Uint8Array(6 + r.length + s.length);
  der.set([0x30, 4 + r.length + s.length, 0x02, r.length]);
  der.set(r, 4);
  der.set([0x02, s.length], 4 + r.length);
  der.set(s, 6 + r.length);
  return der;
}

const utf8Encoder = /* @__PURE__ */ new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return utf8Encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

/**
 * Imported keys by their text, at most `limit` of them (oldest dropped first). An import in flight
 * is shared; a failed one is not kept, so the next call reports the same error afresh.
 */
export class KeyCache {
  readonly #entries = new Map<string, Promise<CryptoKey>>();
  constructor(private readonly limit = 16) {}
  get(text: string, load: (text: string) => Promise<CryptoKey>): Promise<CryptoKey> {
    let cached = this.#entries.get(text);
    if (!cached) {
      cached = load(text);
      cached.catch(() => this.#entries.delete(text));
      if (this.#entries.size >= this.limit) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(text, cached);
    }
    return cached;
  }
}
