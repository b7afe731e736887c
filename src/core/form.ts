/**
 * The body of a `multipart/form-data` operation (the document's request content says which), built once
 * per call like a JSON body: every attempt and the signed repeat send the same bytes. A file field takes
 * text (the CSV import), bytes, a `Blob` or `File`, a readable stream (read once, bounded) or a named
 * `{ name, data }`; the platform's own `FormData` and `Response` write the body (boundary and all), in every
 * runtime the SDK runs on.
 * @module
 */
import { ValidationError } from './error-base';

/**
 * The content of a file field, without a name: text (sent as its UTF-8 bytes), bytes (`Uint8Array`, a Node
 * `Buffer`, an `ArrayBuffer` or any typed array), a `Blob` or `File`, or a readable stream (a Node `Readable`,
 * any async iterable of bytes or text, or a web `ReadableStream`), which is read once, up to
 * `MAX_UPLOAD_STREAM_BYTES` (64 MiB).
 * @group Client
 */
export type UploadData = string | Blob | ArrayBuffer | ArrayBufferView | AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/**
 * A file field of a `multipart/form-data` operation (a document upload, the CSV import): its content
 * ({@link UploadData}), or the content with the file name (and, optionally, the content type) to send it
 * under. A `File` carries its own name and type; other content is named after its field (`file.bin`) and sent
 * as the type the operation declares for it. Nothing is read from a path: pass the bytes or a stream.
 * @example
 * ```ts
 * await cb.documents.upload({ file: { name: 'passport.pdf', data: readFileSync('passport.pdf') }, ... });
 * await cb.documents.upload({ file: createReadStream('passport.pdf'), ... }); // read once, bounded
 * ```
 * @group Client
 */
export type Uploadable = UploadData | { readonly name: string; readonly data: UploadData; readonly type?: string };

/** Most bytes a stream given as a file is read to (64 MiB): past it, the call is refused before anything is sent. */
export const MAX_UPLOAD_STREAM_BYTES = 64 * 1024 * 1024;

/**
 * A multipart body: its bytes, sent as is on every attempt, carrying their content type (with the boundary) and
 * what logs and hooks see in their place (`described`: the fields as JSON, each file as its name, type and size,
 * never its content), two properties that are not enumerable. It goes through the request path in the body's own
 * slot, where a JSON body's text goes: nothing else carries it, and a core never given one holds no code for it.
 */
export type FormBytes = Uint8Array<ArrayBuffer> & { readonly contentType: string; readonly described: string };

const isNamed = (value: object): value is { name: string; data: UploadData; type?: string } =>
  !(value instanceof Blob) &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof ArrayBuffer) &&
  'data' in value &&
  typeof (value as { name?: unknown }).name === 'string';

const refused = (field: string, rule: string, message: string) => new ValidationError([{ path: field, rule, message }]);
/** The refusal of a body that cannot be serialized, the same as the core's for a JSON body. */
const notJson = (error: unknown) => refused('', 'not_json', `cannot be sent as JSON (${error instanceof Error ? error.message : String(error)})`);

/** A stream's bytes, read once; refused past `limit`. */
async function readStream(
  stream: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>,
  field: string,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const take = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > limit) {
      throw refused(
        field,
        'too_big',
        `the stream is longer than ${limit} bytes, the most the SDK reads into memory to send (and send again on a retry); pass a smaller file`,
      );
    }
    chunks.push(bytes);
  };
  if (Symbol.asyncIterator in stream) {
    const iterator = stream[Symbol.asyncIterator]();
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) take(next.value);
    } catch (error) {
      await iterator.return?.(); // a Node stream is destroyed, a web stream's lock released
      throw error;
    }
  } else {
    const reader = stream.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) take(next.value);
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error;
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** A file field's content as a `Blob` of `type` (a `Blob` given keeps its own type when it has one). */
async function blobOf(data: unknown, type: string, field: string, limit: number): Promise<Blob> {
  if (typeof data === 'string') return new Blob([data], { type });
  if (data instanceof Blob) return data.type === '' ? new Blob([data], { type }) : data;
  if (data instanceof ArrayBuffer) return new Blob([new Uint8Array(data)], { type });
  if (ArrayBuffer.isView(data)) return new Blob([new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice()], { type });
  if (data !== null && typeof data === 'object' && (Symbol.asyncIterator in data || typeof (data as ReadableStream).getReader === 'function')) {
    return new Blob([await readStream(data as AsyncIterable<Uint8Array>, field, limit)], { type });
  }
  throw refused(
    field,
    'invalid_type',
    `expected the file's content (a string, Blob, File, Buffer, Uint8Array, ArrayBuffer or readable stream) or { name, data }; got ${data === null ? 'null' : typeof data}`,
  );
}

/**
 * `body`'s fields as form parts: a file field (`files`, field → content type, from the document's binary
 * fields) as a file part, named as given (`{ name, data }`, a `File`) or `<field>.<subtype>` (`file.csv`,
 * `file.bin`), any other field as a text part (an object as its JSON). `undefined` and `null` fields are
 * left out. A file's content that is none of {@link Uploadable}, or a stream past `limit`, is a
 * `ValidationError` naming the field (nothing is sent); anything else that fails (a field that is not JSON, a
 * stream that errors) is a `ValidationError` saying the body cannot be sent, as a JSON body's is (the core holds
 * no code of the multipart path but this module's loader and its call).
 */
export async function formBody(body: unknown, files: { readonly [field: string]: string }, limit = MAX_UPLOAD_STREAM_BYTES): Promise<FormBytes> {
  try {
    return await encode(body, files, limit);
  } catch (error) {
    throw error instanceof ValidationError ? error : notJson(error);
  }
}

async function encode(body: unknown, files: { readonly [field: string]: string }, limit: number): Promise<FormBytes> {
  const form = new FormData();
  const described: Record<string, unknown> = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    const declared = files[name];
    if (declared === undefined) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      form.append(name, text);
      described[name] = value;
      continue;
    }
    const named = typeof value === 'object' && isNamed(value) ? value : undefined;
    const blob = await blobOf(named ? named.data : value, named?.type ?? declared, name, limit);
    const given =
      named?.name ?? (value instanceof Blob && typeof (value as File).name === 'string' && (value as File).name !== '' ? (value as File).name : undefined);
    const subtype = declared.split('/')[1]?.split(/[;+]/)[0]?.trim();
    const fileName = given ?? `${name}.${!subtype || subtype === 'octet-stream' ? 'bin' : subtype}`;
    form.append(name, blob, fileName);
    described[name] = `[file ${fileName}, ${blob.type || declared}, ${blob.size} bytes]`;
  }
  const encoded = new Response(form);
  return Object.defineProperties(new Uint8Array(await encoded.arrayBuffer()), {
    contentType: { value: encoded.headers.get('content-type') ?? 'multipart/form-data' },
    described: { value: JSON.stringify(described) },
  }) as FormBytes;
}
