/**
 * Webhook verification's encodings: those of the package (src/core/encoding.ts) plus a cache of
 * imported keys.
 * @module
 */
export {
  P256_SCALAR_BYTES,
  base64ToBytes,
  bytesToBase64,
  bytesToHex,
  bytesToPem,
  decompressP256,
  derToP1363,
  hexToBytes,
  own,
  p1363ToDer,
  pemToBytes,
  utf8,
} from '../core/encoding';

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
