/** Reads openapi/openapi.yaml and its examples, so tests send and answer what the document shows. */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { deref as derefIn } from '../../scripts/deref';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const doc: any = parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8'));

/** Follows local `$ref`s of `document` (default: openapi/openapi.yaml): scripts/deref.ts. */

export function deref(node: any, document: unknown = doc): any {
  return derefIn(document, node);
}

/** Every operation: id, method, path template. */
export function documentOperations(): { id: string; method: string; path: string }[] {
  const out: { id: string; method: string; path: string }[] = [];
  for (const [path, item] of Object.entries<Record<string, { operationId?: string }>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op?.operationId) out.push({ id: op.operationId, method: method.toUpperCase(), path });
  }
  return out;
}

function operation(id: string) {
  const found = documentOperations().find((o) => o.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return doc.paths[found.path][found.method.toLowerCase()];
}

function pick(media: { example?: unknown; examples?: Record<string, unknown> } | undefined, name?: string): unknown {
  if (!media) throw new Error('no media');
  if (media.example !== undefined && !name) return structuredClone(media.example);
  const examples = media.examples ?? {};
  const key = name ?? Object.keys(examples)[0];
  if (!key || !(key in examples)) throw new Error(`no example ${name}`);
  return structuredClone(deref(examples[key]).value);
}

/** The request body example of an operation (the named one, or the first). */
export function requestExample(id: string, name?: string): any {
  const content = deref(operation(id).requestBody).content;
  return pick(content['application/json'] ?? content['multipart/form-data'], name);
}

/** The example of an operation's response with this status (the named one, or the first). */
export function responseExample(id: string, status: string, name?: string): any {
  return pick(deref(operation(id).responses[status]).content?.['application/json'], name);
}

/** Finds which operation a request hit, by method and path template; literal segments win over `{params}`. */
export function matchOperation(method: string, pathname: string): string | undefined {
  const rel = pathname.replace(/^.*?\/2025-10-13/, '');
  const params = (path: string) => (path.match(/\{/g) ?? []).length;
  const candidates = documentOperations()
    .filter((op) => op.method === method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(rel))
    .sort((a, b) => params(a.path) - params(b.path));
  return candidates[0]?.id;
}
