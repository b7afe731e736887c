/**
 * The body of a `multipart/form-data` operation (the document's request content says which), built once
 * per call like a JSON body: every attempt and the signed repeat send the same text. The platform's own
 * `FormData` and `Response` write it (boundary and all), in every runtime the SDK runs on.
 * @module
 */

/** The text of a multipart body and its content type (with the boundary). */
export interface FormBody {
  readonly text: string;
  readonly contentType: string;
}

/**
 * `body`'s fields as form parts: a file field (`files`, field → content type, from the document's binary
 * fields) as a file part of its text named `<field>.<subtype>` (`file.csv`), any other field as a text
 * part (an object as its JSON). `undefined` and `null` fields are left out.
 */
export async function formBody(body: unknown, files: { readonly [field: string]: string }): Promise<FormBody> {
  const form = new FormData();
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    const type = files[name];
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (type === undefined) form.append(name, text);
    else form.append(name, new Blob([text], { type }), `${name}.${type.split('/')[1]?.split(/[;+]/)[0]?.trim() || 'bin'}`);
  }
  const encoded = new Response(form);
  return { text: await encoded.text(), contentType: encoded.headers.get('content-type') ?? 'multipart/form-data' };
}
