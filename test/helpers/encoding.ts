/** Encodings tests build tokens with. */

/** Unpadded base64url of bytes, of a string's UTF-8, or of any other value's JSON (a JWT part). */
export function b64url(value: unknown): string {
  const bytes = value instanceof Uint8Array ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}
