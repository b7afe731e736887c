/**
 * Signature check of webhook deliveries: `X-Service-Signature` carries a DER ECDSA P-256 SHA-256
 * signature over the raw body bytes, made with the service's key, as bare base64 or as the versioned
 * JSON `{"v":"1","s":"<base64>"}`. Keys are imported by WebCrypto; the signature is checked by
 * `node:crypto` where the runtime has it (Node, Bun, Deno) and by WebCrypto elsewhere (browsers, edge
 * runtimes), with the same answer (src/webhooks/verifier.ts).
 * @module
 */
import { WebhookVerificationError } from '../core/error-base';
import { base64ToBytes, decompressP256, derToP1363, hexToBytes, KeyCache, own, pemToBytes, utf8 } from './encoding';
import { rememberKeyBytes, signatureVerifier, spkiOfPoint } from './verifier';

/** Name of the header that carries the delivery's signature. */
export const SIGNATURE_HEADER = 'X-Service-Signature';

/**
 * The service's webhook public key: PEM (`-----BEGIN PUBLIC KEY-----`, SPKI), the hex of the
 * P-256 point, uncompressed (`04…`, 130 hex chars) or compressed (`02…`/`03…`, 66 hex chars), with
 * an optional `0x`, or an imported `CryptoKey`.
 */
export type WebhookPublicKey = string | CryptoKey;

/**
 * The delivery body exactly as received. A string is UTF-8 encoded, so pass it only if nothing
 * re-serialized it; Node's `Buffer` is a `Uint8Array`; a `Request` is read from a clone.
 */
export type WebhookRawBody = string | Uint8Array | ArrayBuffer | Request;

/**
 * Request headers: a Fetch `Headers`, or a plain object such as Node's `IncomingHttpHeaders`
 * (names in any case; for an array value the first entry is used).
 */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
// A DER P-256 signature is at most 72 bytes (96 base64 chars): a longer header is refused before decoding it.
const MAX_SIGNATURE_CHARS = 100;
// The header's signature is decoded here, read by node:crypto in the same synchronous stretch (or copied to
// r‖s for WebCrypto, or copied before any await): no memory allocated per delivery outside the heap.
const signatureBytes = /* @__PURE__ */ new Uint8Array((MAX_SIGNATURE_CHARS * 3) >> 2);
// Where the strict DER reader writes the `r‖s` it is not asked for (the check alone is wanted here).
const checkedScalars = /* @__PURE__ */ new Uint8Array(64);
// Key string → import in flight or done; a server verifying thousands of deliveries imports once.
const keyCache = new KeyCache();
let lastKey: { text?: string; imported?: Promise<CryptoKey>; key?: CryptoKey } = {};

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) {
    throw new WebhookVerificationError('invalid_key', 'WebCrypto (globalThis.crypto.subtle) is not available in this runtime; on Node use version 20 or later');
  }
  return s;
}

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof value === 'object' && value !== null && 'algorithm' in value && 'type' in value && 'usages' in value;
}

/** Whether a CryptoKey can verify a webhook signature: an ECDSA P-256 public key with usage "verify". */
function canVerify(key: CryptoKey): boolean {
  const algorithm = key.algorithm as Partial<EcKeyAlgorithm>;
  return key.type === 'public' && algorithm.name === 'ECDSA' && algorithm.namedCurve === 'P-256' && key.usages.includes('verify');
}

/** A CryptoKey that can verify a webhook signature. */
function usableCryptoKey(key: unknown): key is CryptoKey {
  return isCryptoKey(key) && canVerify(key);
}

async function importKeyString(text: string): Promise<CryptoKey> {
  if (text.includes('PRIVATE KEY-----')) {
    throw new WebhookVerificationError(
      'invalid_key',
      "the webhook key given is a private key: verification needs the service's public key (-----BEGIN PUBLIC KEY-----)",
    );
  }
  const pemBody = text.includes('-----BEGIN') ? pemToBytes(text, 'PUBLIC KEY') : undefined;
  const hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  const compressedPoint = !pemBody && hex.length === 66 && /^0[23]/.test(hex);
  const point = pemBody ? undefined : (hex.length === 130 && /^04/.test(hex)) || compressedPoint ? hexToBytes(hex) : undefined;
  if (!pemBody && !point) {
    throw new WebhookVerificationError(
      'invalid_key',
      'the webhook public key is neither a PEM public key (-----BEGIN PUBLIC KEY-----) nor the hex of a ' +
        `P-256 point (130 hex characters starting 04, or 66 starting 02 or 03); got ${describeKeyText(text)}`,
    );
  }
  // Some runtimes' WebCrypto import only uncompressed points: the compressed one is expanded here.
  const raw = compressedPoint ? decompressP256(point!) : point;
  if (!pemBody && !raw) throw new WebhookVerificationError('invalid_key', 'the webhook public key hex is not a point on the P-256 curve');
  try {
    const key = await subtle().importKey(pemBody ? 'spki' : 'raw', pemBody ?? raw!, ECDSA_P256, false, ['verify']);
    // The bytes WebCrypto accepted, for node:crypto's copy of the key (the key itself stays non-extractable).
    rememberKeyBytes(key, pemBody ?? spkiOfPoint(raw!));
    return key;
  } catch (cause) {
    if (cause instanceof WebhookVerificationError) throw cause;
    throw new WebhookVerificationError(
      'invalid_key',
      pemBody ? 'the webhook public key PEM is not an ECDSA P-256 public key' : 'the webhook public key hex is not a point on the P-256 curve',
      { cause },
    );
  }
}

// Names the shape of a bad key without echoing it (it may be a secret pasted by mistake).
function describeKeyText(text: string): string {
  return `${text.length} characters${text.length ? ` starting "${text.slice(0, 5).replace(/[^\x20-\x7e]/g, '?')}…"` : ''}`;
}

/**
 * Imports the service's webhook public key for ECDSA P-256 verification. Imports are cached per
 * key string, so calling this on every delivery costs a map lookup.
 * @param key PEM SPKI (`-----BEGIN PUBLIC KEY-----`), hex of the point (uncompressed `04…` or compressed `02…`/`03…`,
 *   optional `0x`), or a `CryptoKey` (checked to be an ECDSA P-256 public key usable for `verify`).
 * @throws {@link WebhookVerificationError} `invalid_key` when the key cannot be used.
 */
export function importWebhookPublicKey(key: string | CryptoKey): Promise<CryptoKey> {
  if (isCryptoKey(key)) {
    const algorithm = key.algorithm as Partial<EcKeyAlgorithm>;
    if (!canVerify(key)) {
      return Promise.reject(
        new WebhookVerificationError(
          'invalid_key',
          `the webhook CryptoKey must be an ECDSA P-256 public key with usage "verify"; got a ${key.type} ` +
            `${algorithm.name ?? '?'} ${algorithm.namedCurve ?? ''} key with usages [${key.usages.join(', ')}]`,
        ),
      );
    }
    return Promise.resolve(key);
  }
  if (typeof key !== 'string') {
    return Promise.reject(new WebhookVerificationError('invalid_key', `the webhook public key must be a string or a CryptoKey, got ${typeof key}`));
  }
  // The same string as the last call (a server's configured key, delivery after delivery): its import, with no trim or hashing.
  if (key === lastKey.text) return lastKey.imported!;
  const imported = keyCache.get(key.trim(), importKeyString);
  const last: typeof lastKey = { text: key, imported };
  lastKey = last;
  imported.then(
    // Once imported, the next calls with this string take the key without awaiting.
    (done) => void (last.key = done),
    // A failed import is not kept (the next call reports the error afresh, as the cache does).
    () => {
      if (lastKey === last) lastKey = {};
    },
  );
  return imported;
}

function isRequest(value: unknown): value is Request {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Request).clone === 'function' &&
    typeof (value as Request).arrayBuffer === 'function' &&
    'headers' in value
  );
}

/**
 * Reads a delivery body into bytes.
 * - `string`: UTF-8 encoded (only correct if nothing decoded and re-serialized the body).
 * - `Uint8Array` (including Node's `Buffer`) or `ArrayBuffer`: copied, so the bytes verified are
 *   the bytes parsed even if the caller reuses its buffer.
 * - `Request`: read with `arrayBuffer()` on a clone, so the caller can still read the body.
 * @throws {@link WebhookVerificationError} `invalid_body` for anything else (e.g. an object left by
 *   a JSON body parser) or a `Request` whose body was already read.
 */
export async function readRawBody(rawBody: WebhookRawBody): Promise<Uint8Array<ArrayBuffer>> {
  if (typeof rawBody === 'string') return utf8(rawBody);
  // A copy in a plain Uint8Array (Buffer#slice would return a view, and a Buffer subclass instance); set() is a memcpy.
  // Any other view is copied byte for byte as it lies in memory; an ArrayBuffer is known by its tag, which one from
  // another realm (iframe, vm), where instanceof fails, has too.
  if (ArrayBuffer.isView(rawBody)) {
    const view = rawBody as ArrayBufferView;
    return own(view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  }
  if (Object.prototype.toString.call(rawBody) === '[object ArrayBuffer]') return own(new Uint8Array(rawBody as ArrayBuffer));
  if (isRequest(rawBody)) {
    let copy: Request;
    try {
      copy = rawBody.clone();
    } catch (cause) {
      throw new WebhookVerificationError(
        'invalid_body',
        'the Request body was already read, so its raw bytes are gone: verify before reading the body ' + '(or pass the bytes you read)',
        { cause },
      );
    }
    try {
      return new Uint8Array(await copy.arrayBuffer());
    } catch (cause) {
      throw new WebhookVerificationError('invalid_body', 'the Request body could not be read', { cause });
    }
  }
  const got = rawBody === null ? 'null' : typeof rawBody === 'object' ? 'an object' : typeof rawBody;
  throw new WebhookVerificationError(
    'invalid_body',
    `the raw body must be a string, Uint8Array/Buffer, ArrayBuffer or Request; got ${got}. ` +
      "If a JSON body parser ran first (e.g. express.json()), use the raw bytes instead (express.raw({ type: 'application/json' })): " +
      'the signature covers the exact bytes sent',
  );
}

/**
 * Reads one header, case-insensitively. For an array value (Node's `IncomingHttpHeaders`) the
 * first entry is returned.
 * @returns the value, or `undefined` when absent.
 */
export function getHeader(headers: WebhookHeaders | null | undefined, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = (headers as Record<string, unknown>)[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') return first;
  }
  return undefined;
}

const INVALID_SIGNATURE_MESSAGE = 'signature does not match the body for this key: the body was changed or the key is wrong';

/**
 * Checks a delivery's `X-Service-Signature` against the service's public key.
 *
 * The signature covers the raw body bytes only (no timestamp): pair this with
 * `dedupe()` for replay protection. Configuration errors (`missing_key`, `invalid_key`) are
 * reported before anything about the delivery, so a misconfigured server fails loudly on every call.
 * @param rawBody the body exactly as received (see {@link readRawBody}).
 * @param headers the request headers; may be `undefined` when `rawBody` is a `Request`.
 * @param publicKey the service's webhook public key (see {@link importWebhookPublicKey}).
 * @returns the verified body bytes.
 * @throws {@link WebhookVerificationError} with `reason` `missing_key`, `invalid_key`,
 *   `invalid_body`, `missing_header`, `malformed_signature` or `invalid_signature`.
 */
export async function verifyWebhookSignature(
  rawBody: WebhookRawBody,
  headers: WebhookHeaders | undefined,
  publicKey: WebhookPublicKey | undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  return verifyThen(rawBody, headers, publicKey, ownBody);
}

// The caller's own buffer is never handed back: a copy unless the bytes are already the SDK's (a string's encoding, a Request's).
const ownBody = (body: Uint8Array, rawBody: WebhookRawBody): Uint8Array<ArrayBuffer> => (body === rawBody ? own(body) : (body as Uint8Array<ArrayBuffer>));

/**
 * {@link verifyWebhookSignature}, then `take` of the verified bytes, called in the same synchronous
 * stretch as the verification when `node:crypto` verifies: the caller's `Uint8Array` is then read in
 * place (no copy), since nothing else can run between the check and `take`. When the check is
 * asynchronous (WebCrypto), the bytes are copied first, so the bytes verified are the bytes taken even
 * if the caller reuses its buffer meanwhile. `take` may keep `body` only if it is not `rawBody`; it is
 * given `context` (a function made once, not a closure per call).
 * @internal
 */
export async function verifyThen<T, C = undefined>(
  rawBody: WebhookRawBody,
  headers: WebhookHeaders | undefined,
  publicKey: WebhookPublicKey | undefined,
  take: (body: Uint8Array, rawBody: WebhookRawBody, context: C) => T,
  context?: C,
): Promise<Awaited<T>> {
  // The configured key of the last call, already imported: no trim of its text, no await (a server verifies
  // delivery after delivery with one key), so the body below is read in the same turn as the call.
  const known = publicKey === lastKey.text ? lastKey.key : undefined;
  if (known === undefined && (publicKey === undefined || publicKey === null || (typeof publicKey === 'string' && publicKey.trim() === ''))) {
    throw new WebhookVerificationError(
      'missing_key',
      'no webhook public key configured: set the webhookPublicKey option or the CROSSBORDER_WEBHOOK_PUBLIC_KEY ' +
        "environment variable to the service's public key (PEM or hex)",
    );
  }
  // Else a usable CryptoKey is taken as is, without an await too.
  const key = known ?? (usableCryptoKey(publicKey) ? publicKey : await importWebhookPublicKey(publicKey!));
  const headerBag = headers ?? (isRequest(rawBody) ? rawBody.headers : undefined);
  const header = getHeader(headerBag, SIGNATURE_HEADER);
  if (header === undefined || header.trim() === '') {
    throw new WebhookVerificationError(
      'missing_header',
      `the ${SIGNATURE_HEADER} header is missing: this request was not signed by the service ` + '(or a proxy dropped the header)',
    );
  }
  let der = parseSignatureHeader(header);
  // A Uint8Array of this realm is read where it is; anything else becomes the SDK's own bytes (the signature
  // copied first: another delivery may decode its own into the shared bytes while this one's body is read).
  let body: Uint8Array =
    rawBody instanceof Uint8Array ? rawBody : typeof rawBody === 'string' ? utf8(rawBody) : ((der = der.slice()), await readRawBody(rawBody));
  let valid: boolean;
  try {
    const verifier = signatureVerifier();
    const now = verifier.verifyNow?.(key, der, body);
    if (now !== undefined) valid = now;
    else {
      if (body === rawBody) body = own(body);
      valid = await verifier.verify(key, der, body as Uint8Array<ArrayBuffer>);
    }
  } catch (cause) {
    throw new WebhookVerificationError('invalid_key', 'the webhook public key could not be used to verify', { cause });
  }
  if (!valid) throw new WebhookVerificationError('invalid_signature', INVALID_SIGNATURE_MESSAGE);
  return take(body, rawBody, context as C) as Awaited<T>;
}

/** How `{"v":"1","s":"<base64>"}` starts as the service writes it (no spaces, these two fields in this order). */
const CANONICAL_START = '{"v":"1","s":"';

/** Longest header accepted: the versioned JSON form of the longest DER signature, with room for spaces and new fields. */
const MAX_HEADER_CHARS = 1_024;

/**
 * Header value → the strict DER signature it carries (a view of `signatureBytes`, valid until the next
 * call). Two forms are in use (decisions.md "Webhooks"): the bare base64 of the DER signature, and the
 * versioned JSON `{"v":"1","s":"<base64 DER>"}` (other JSON fields are ignored; a version other than 1 is
 * refused: its signature scheme is unknown).
 */
function parseSignatureHeader(header: string): Uint8Array<ArrayBuffer> {
  let text = header.trim();
  if (text.length > MAX_HEADER_CHARS) {
    throw new WebhookVerificationError('malformed_signature', `the ${SIGNATURE_HEADER} header is ${text.length} characters; too long for a signature`);
  }
  // The form the service sends, exactly: its signature read without JSON.parse or a regular expression (no
  // match array). A signature that decodes is all base64 characters, so JSON.parse would give it as is; anything
  // else between the quotes goes the general way below, with its own verdict.
  if (text.length <= MAX_SIGNATURE_CHARS + 16 && text.startsWith(CANONICAL_START) && text.endsWith('"}')) {
    // Decoded where it stands in the header, between the 14 characters before it and the 2 after (no substring
    // made; `{"v":"1","s":"}`, whose quotes overlap, is a range ending before it starts: not base64).
    const der = base64ToBytes(text, signatureBytes, 14, text.length - 2);
    if (der && derToP1363(der, checkedScalars)) return der;
  }
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new WebhookVerificationError('malformed_signature', `the ${SIGNATURE_HEADER} header starts like JSON but is not JSON`);
    }
    const { v, s } = (parsed ?? {}) as { v?: unknown; s?: unknown };
    if (String(v) !== '1') {
      throw new WebhookVerificationError(
        'malformed_signature',
        `the ${SIGNATURE_HEADER} header has signature version ${JSON.stringify(v)}; this SDK knows version "1"`,
      );
    }
    if (typeof s !== 'string') throw new WebhookVerificationError('malformed_signature', `the ${SIGNATURE_HEADER} header has no "s" signature`);
    text = s.trim();
  }
  if (text.length > MAX_SIGNATURE_CHARS) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `the ${SIGNATURE_HEADER} signature is ${text.length} characters; a P-256 signature is at most ${MAX_SIGNATURE_CHARS}`,
    );
  }
  const der = base64ToBytes(text, signatureBytes);
  if (!der) {
    throw new WebhookVerificationError('malformed_signature', `the ${SIGNATURE_HEADER} header is not standard base64`);
  }
  // The strict DER reader (its r‖s written into bytes kept for it, not read): node:crypto then reads the DER as it is.
  if (!derToP1363(der, checkedScalars)) {
    throw new WebhookVerificationError('malformed_signature', `the ${SIGNATURE_HEADER} header is base64 but not a DER ECDSA P-256 signature`);
  }
  return der;
}
