/**
 * What a newer production document changes for the operations we share with it:
 *
 *   npm run contract:diff -- path/to/newer/openapi.yaml [--base openapi/openapi.yaml] [--map openapi/production-map.json] [--json]
 *
 * Compares our document (the base) with production's, operation by operation (matched by method and
 * path, through the name table openapi/production-map.json), and lists new and removed fields, enum
 * values, required sets, status codes, operations and webhooks, each marked BREAKING (for this SDK and
 * its sandbox: something we send is refused, or something we read is gone) or not. Exit code 0; with
 * `--fail-on-breaking`, 1 when anything is breaking.
 * @module
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { deref } from './deref';

type Json = Record<string, any>;

/** One change; `breaking` says whether this SDK's requests or readings break on it. */
export interface Change {
  breaking: boolean;
  /** `METHOD /path`, `webhook KEY`, or `document`. */
  where: string;
  /** request, query, header, response <status>, status, operation, webhook. */
  part: string;
  /** Dotted field path, or the status code / value concerned. */
  subject: string;
  what: string;
}

export interface ProductionMap {
  paths?: Record<string, string>;
  headers?: Record<string, string>;
  webhooks?: Record<string, string>;
  sandboxOnly?: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** How deep {@link flatten} follows nested schemas (objects, arrays, allOf/oneOf parts). */
const MAX_DEPTH = 32;

/** What is known of one field of a schema, flattened. */
interface Field {
  /** Required in every variant the schema allows. */
  required: boolean;
  /** Closed enum values (`enum` / `const`), undefined when open or not an enum. */
  values?: string[] | undefined;
  /** Open set (`x-extensible-enum`, or the discriminator of an `x-open-discriminator` union): new values are never breaking to read. */
  open?: boolean;
  /**
   * Required only in some variants of a discriminated union: `property` is the dotted path of the
   * discriminator, `values` the variants that require the field.
   */
  requiredWhen?: { property: string; values: string[] } | undefined;
}

function intersect(a: string[], b: string[]): string[] {
  const both = a.filter((v) => b.includes(v));
  return both.length > 0 ? both : b;
}

/** Adds what `field` says of `path` to `out`, keeping what was known (allOf: a field any part requires is required). */
function put(out: Map<string, Field>, path: string, field: Field): void {
  const prior = out.get(path);
  if (!prior) {
    out.set(path, { ...field });
    return;
  }
  const when =
    prior.requiredWhen && field.requiredWhen && prior.requiredWhen.property === field.requiredWhen.property
      ? { property: prior.requiredWhen.property, values: [...new Set([...prior.requiredWhen.values, ...field.requiredWhen.values])] }
      : (prior.requiredWhen ?? field.requiredWhen);
  out.set(path, {
    required: prior.required || field.required,
    // Both constrain the field (allOf): only values both allow.
    values: prior.values && field.values ? intersect(prior.values, field.values) : (field.values ?? prior.values),
    open: prior.open === true || field.open === true,
    requiredWhen: when,
  });
}

/**
 * Merges the fields of the branches of a `oneOf`/`anyOf` into `out`: a field is required only when every
 * branch requires it. In a discriminated union (`discriminator.propertyName`, each branch naming one
 * value), a field some variants require records which (`requiredWhen`), so that a variant's own required
 * fields are compared with that variant only.
 */
function mergeBranches(out: Map<string, Field>, branches: Map<string, Field>[], prefix: string, schema: Json): void {
  const name: string | undefined = schema.discriminator?.propertyName;
  const property = name ? (prefix ? `${prefix}.${name}` : name) : undefined;
  const variantOf = (branch: Map<string, Field>) => {
    const values = property ? branch.get(property)?.values : undefined;
    return values?.length === 1 ? values[0] : undefined;
  };
  const paths = new Set(branches.flatMap((b) => [...b.keys()]));
  for (const path of paths) {
    // A nested field counts in the branches that have its parent: `beneficiary.address.line1` stays required
    // (when an address is sent) beside a branch that has no beneficiary at all.
    const parent = path.slice(0, Math.max(0, path.lastIndexOf('.'))).replace(/\[\]$/, '');
    const withParent = parent === prefix.replace(/\[\]$/, '') || parent === '' ? branches : branches.filter((b) => b.has(parent));
    const relevant = withParent.length > 0 ? withParent : branches;
    const fields = relevant.map((b) => b.get(path));
    const present = fields.filter((f): f is Field => f !== undefined);
    const required = fields.every((f) => f?.required === true);
    const requiring = property && !required ? relevant.filter((b) => b.get(path)?.required === true).map(variantOf) : [];
    let requiredWhen: Field['requiredWhen'];
    if (property && requiring.length > 0 && requiring.every((v) => v !== undefined)) requiredWhen = { property, values: requiring };
    // Nested unions' conditions on the same discriminator carry over.
    for (const f of present) {
      if (f.requiredWhen && (!requiredWhen || requiredWhen.property === f.requiredWhen.property)) {
        requiredWhen = { property: f.requiredWhen.property, values: [...new Set([...(requiredWhen?.values ?? []), ...f.requiredWhen.values])] };
      }
    }
    const values = present.every((f) => f.values) ? [...new Set(present.flatMap((f) => f.values!))] : present.find((f) => f.values)?.values;
    put(out, path, { required, values, open: present.some((f) => f.open === true), requiredWhen: required ? undefined : requiredWhen });
  }
  // Our own unions marked open (`x-open-discriminator`) take any discriminator value, as the client does.
  if (property && schema['x-open-discriminator'] === true && out.has(property)) out.get(property)!.open = true;
}

/**
 * Every field of a schema, by dotted path (`source.accountId`, `data[].id`), across `allOf`, `oneOf` and
 * `anyOf` (a field of one variant is required only if every variant requires it; see {@link Field.requiredWhen}).
 */
export function flatten(doc: Json, node: Json | undefined, prefix = '', out = new Map<string, Field>(), depth = 0, seen = new Set<Json>()): Map<string, Field> {
  const schema = deref(doc, node);
  // `seen` stops cycles; the depth bound only stops a runaway document. It must reach production's deepest
  // shared field (`data[].accountInfo.beneficiary.address.line1` of a list, 13 levels through its unions):
  // a field cut off by the bound would read as removed.
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH || seen.has(schema)) return out;
  const nextSeen = new Set(seen).add(schema);
  for (const sub of (schema.allOf ?? []) as Json[]) flatten(doc, sub, prefix, out, depth + 1, nextSeen);
  for (const part of ['oneOf', 'anyOf']) {
    const subs = (schema[part] ?? []) as Json[];
    if (subs.length > 0)
      mergeBranches(
        out,
        subs.map((sub) => flatten(doc, sub, prefix, new Map(), depth + 1, nextSeen)),
        prefix,
        schema,
      );
  }
  if (schema.type === 'array' || schema.items) flatten(doc, schema.items, `${prefix}[]`, out, depth + 1, nextSeen);
  const required = new Set<string>(schema.required ?? []);
  for (const [name, child] of Object.entries<Json>(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const resolved = deref(doc, child) ?? {};
    put(out, path, { required: required.has(name), values: enumOf(doc, resolved), open: Array.isArray(resolved['x-extensible-enum']) });
    flatten(doc, child, path, out, depth + 1, nextSeen);
  }
  return out;
}

function enumOf(doc: Json, schema: Json): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if (schema.const !== undefined) return [String(schema.const)];
  if (Array.isArray(schema['x-extensible-enum'])) return schema['x-extensible-enum'].map(String);
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? [])] as Json[];
  for (const p of parts) {
    const v = enumOf(doc, deref(doc, p) ?? {});
    if (v) return v;
  }
  return undefined;
}

/** Path template with parameter names erased, so `{id}` and `{customerId}` match. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function operations(doc: Json): Map<string, { method: string; path: string; op: Json; item: Json }> {
  const out = new Map<string, { method: string; path: string; op: Json; item: Json }>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) if (item[method]) out.set(`${method.toUpperCase()} ${shape(path)}`, { method, path, op: item[method], item });
  }
  return out;
}

function bodySchema(doc: Json, holder: Json | undefined): Json | undefined {
  const resolved = deref(doc, holder);
  return resolved?.content?.['application/json']?.schema;
}

function parameters(doc: Json, item: Json, op: Json): Map<string, { in: string; required: boolean }> {
  const out = new Map<string, { in: string; required: boolean }>();
  for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])] as Json[]) {
    const r = deref(doc, p);
    // Path parameters are positional: the path's shape matched them already, whatever their names.
    if (r?.name && r.in !== 'path') out.set(`${r.in}:${String(r.name).toLowerCase()}`, { in: r.in, required: r.required === true });
  }
  return out;
}

/** The parent field of a dotted path (`a[].b.c` → `a[].b`, `a[].b` → `a`), or undefined at the top. */
function parentOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? undefined : path.slice(0, dot).replace(/\[\]$/, '');
}

/**
 * The outermost ancestor of `path` that production adds (absent from ours), when it is optional in
 * production: a field required inside a new optional object is sent only by a caller who sends that
 * object, so it breaks nothing we send today.
 */
function newOptionalAncestor(path: string, ours: Map<string, Field>, theirs: Map<string, Field>): string | undefined {
  let outermost: string | undefined;
  for (let p = parentOf(path); p !== undefined; p = parentOf(p)) if (!ours.has(p) && theirs.has(p)) outermost = p;
  const field = outermost === undefined ? undefined : theirs.get(outermost);
  return field && !field.required && !field.requiredWhen ? outermost : undefined;
}

/** Compares the fields we send (request) with production's. */
function compareRequest(add: (c: Omit<Change, 'where'>) => void, part: string, ours: Map<string, Field>, theirs: Map<string, Field>): void {
  for (const [path, t] of theirs) {
    const o = ours.get(path);
    const within = o ? undefined : newOptionalAncestor(path, ours, theirs);
    if (within) {
      add({
        breaking: false,
        part,
        subject: path,
        what: t.required || t.requiredWhen ? `new field, required within the new optional ${within}` : 'new optional field',
      });
      continue;
    }
    // Variants production requires the field in that we have too (a variant we lack is a new value, below).
    const when = !t.required && t.requiredWhen ? sharedVariants(t.requiredWhen, ours).filter((v) => !o?.required && !o?.requiredWhen?.values.includes(v)) : [];
    const condition = when.length ? `required when ${t.requiredWhen!.property.split('.').pop()} is ${when.join(', ')}` : '';
    if (!o)
      add({
        breaking: t.required || when.length > 0,
        part,
        subject: path,
        what: t.required ? 'new required field (we do not send it)' : when.length ? `new field, ${condition} (we do not send it)` : 'new optional field',
      });
    else if (t.required && !o.required) add({ breaking: true, part, subject: path, what: 'now required (optional here)' });
    else if (when.length) add({ breaking: true, part, subject: path, what: `now ${condition} (optional here)` });
    else if (!t.required && o.required) add({ breaking: false, part, subject: path, what: 'now optional (required here)' });
    if (o?.values && t.values && !t.open) {
      const gone = o.values.filter((v) => !t.values!.includes(v));
      const added = t.values.filter((v) => !o.values!.includes(v));
      if (gone.length) add({ breaking: true, part, subject: path, what: `values no longer accepted: ${gone.join(', ')}` });
      if (added.length) add({ breaking: false, part, subject: path, what: `new values: ${added.join(', ')}` });
    }
  }
  for (const [path, o] of ours) {
    if (!theirs.has(path)) add({ breaking: true, part, subject: path, what: `removed (we ${o.required ? 'always' : 'may'} send it)` });
  }
}

/** The variants of `when` that our side has too (values of the same discriminator in `ours`). */
function sharedVariants(when: NonNullable<Field['requiredWhen']>, ours: Map<string, Field>): string[] {
  const mine = ours.get(when.property)?.values ?? [];
  return when.values.filter((v) => mine.includes(v));
}

/** Compares the fields we read (responses, webhooks) with production's. */
function compareResponse(add: (c: Omit<Change, 'where'>) => void, part: string, ours: Map<string, Field>, theirs: Map<string, Field>): void {
  for (const [path, t] of theirs) {
    const o = ours.get(path);
    if (!o) add({ breaking: false, part, subject: path, what: 'new field' });
    else if (!t.required && o.required) {
      // In a discriminated union, a field optional only in variants we do not have is still present in
      // every variant we read; those variants are reported as new discriminator values.
      const ourVariants = t.requiredWhen ? (ours.get(t.requiredWhen.property)?.values ?? []) : [];
      const stillRequired = ourVariants.length > 0 && ourVariants.every((v) => t.requiredWhen!.values.includes(v));
      if (stillRequired)
        add({
          breaking: false,
          part,
          subject: path,
          what: `optional only in variants we do not have (required when ${t.requiredWhen!.property.split('.').pop()} is ${t.requiredWhen!.values.join(', ')})`,
        });
      else add({ breaking: true, part, subject: path, what: 'now optional (we read it as always present)' });
    }
    if (o?.values && t.values) {
      const added = t.values.filter((v) => !o.values!.includes(v));
      const gone = o.values.filter((v) => !t.values!.includes(v));
      // A new value of a set we read as closed breaks an exhaustive switch; an open set takes it.
      if (added.length)
        add({ breaking: !o.open, part, subject: path, what: `new values: ${added.join(', ')}${o.open ? ' (open set here)' : ' (closed set here)'}` });
      if (gone.length) add({ breaking: false, part, subject: path, what: `values no longer answered: ${gone.join(', ')}` });
    }
  }
  for (const [path, o] of ours) {
    if (!theirs.has(path)) add({ breaking: o.required, part, subject: path, what: o.required ? 'removed (we read it as always present)' : 'removed' });
  }
}

const successCodes = (op: Json) => Object.keys(op.responses ?? {}).filter((c) => /^2/.test(c));

/** The changes of production's document `theirs` against ours, through `map`. */
export function contractDiff(ours: Json, theirs: Json, map: ProductionMap = {}): Change[] {
  const changes: Change[] = [];
  const mine = operations(ours);
  const prod = operations(theirs);
  const pathMap = new Map(
    Object.entries(map.paths ?? {})
      .filter(([k]) => !k.startsWith('$'))
      .map(([k, v]) => [shape(k), shape(v)]),
  );
  const headerMap = new Map(Object.entries(map.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]));
  const sandboxOnly = new Set((map.sandboxOnly ?? []).map(shape));
  const matched = new Set<string>();

  for (const [key, o] of mine) {
    const [method] = key.split(' ');
    const theirsKey = `${method} ${pathMap.get(shape(o.path)) ?? shape(o.path)}`;
    const where = `${method} ${o.path}`;
    const add = (c: Omit<Change, 'where'>) => changes.push({ where, ...c });
    const t = prod.get(theirsKey);
    if (!t) {
      if (!sandboxOnly.has(shape(o.path))) add({ breaking: true, part: 'operation', subject: o.op.operationId ?? key, what: 'removed from production' });
      continue;
    }
    matched.add(theirsKey);
    // Parameters (header names through the map).
    const mp = parameters(ours, o.item, o.op);
    const tp = parameters(theirs, t.item, t.op);
    const mapped = new Map([...mp].map(([k, v]) => [v.in === 'header' ? `header:${headerMap.get(k.slice(7)) ?? k.slice(7)}` : k, v]));
    for (const [k, v] of tp) {
      const mine = mapped.get(k);
      if (!mine)
        add({ breaking: v.required, part: v.in, subject: k.slice(k.indexOf(':') + 1), what: v.required ? 'new required parameter' : 'new optional parameter' });
      else if (v.required && !mine.required) add({ breaking: true, part: v.in, subject: k.slice(k.indexOf(':') + 1), what: 'now required' });
    }
    for (const [k, v] of mapped) if (!tp.has(k)) add({ breaking: v.in !== 'header', part: v.in, subject: k.slice(k.indexOf(':') + 1), what: 'removed' });
    // Request body.
    const mb = bodySchema(ours, o.op.requestBody);
    const tb = bodySchema(theirs, t.op.requestBody);
    if (mb || tb) compareRequest(add, 'request', flatten(ours, mb), flatten(theirs, tb));
    // Status codes.
    const mc = successCodes(o.op);
    const tc = successCodes(t.op);
    for (const code of tc)
      if (!mc.includes(code))
        add({
          breaking: false,
          part: 'status',
          subject: code,
          what: 'new success status (the client treats every 2xx alike; a 202 with payloadToSign is the challenge)',
        });
    for (const code of mc) if (!tc.includes(code)) add({ breaking: false, part: 'status', subject: code, what: 'no longer answered' });
    // The first success answer each side shares, else each side's first.
    const shared = mc.find((c) => tc.includes(c));
    const mr = bodySchema(ours, o.op.responses?.[shared ?? mc[0] ?? '']);
    const tr = bodySchema(theirs, t.op.responses?.[shared ?? tc[0] ?? '']);
    if (mr || tr) compareResponse(add, `response ${shared ?? `${mc[0]}/${tc[0]}`}`, flatten(ours, mr), flatten(theirs, tr));
  }

  // Production operations on the paths we share (same first segment), which we do not have.
  const prefixes = new Set([...mine.values()].map((o) => o.path.split('/')[1]));
  for (const [key, t] of prod) {
    if (matched.has(key) || !prefixes.has(t.path.split('/')[1])) continue;
    changes.push({
      breaking: false,
      where: `${t.method.toUpperCase()} ${t.path}`,
      part: 'operation',
      subject: t.op.operationId ?? key,
      what: 'new operation (not in our document)',
    });
  }

  // Webhooks, by key through the map.
  const webhookMap = map.webhooks ?? {};
  const theirHooks = theirs.webhooks ?? {};
  for (const [key, item] of Object.entries<Json>(ours.webhooks ?? {})) {
    const theirKey = webhookMap[key] ?? key;
    const where = `webhook ${key}`;
    const add = (c: Omit<Change, 'where'>) => changes.push({ where, ...c });
    const t = theirHooks[theirKey];
    if (!t) {
      add({ breaking: false, part: 'webhook', subject: key, what: 'not in production (no longer sent; handlers stay harmless)' });
      continue;
    }
    const mine = flatten(ours, bodySchema(ours, item.post?.requestBody));
    // The client keeps verified deliveries of types it does not know: a payload's `type` is an open set to it.
    if (mine.has('type')) mine.get('type')!.open = true;
    compareResponse(add, 'payload', mine, flatten(theirs, bodySchema(theirs, t.post?.requestBody)));
  }
  const ourKeys = new Set(Object.keys(ours.webhooks ?? {}).map((k) => webhookMap[k] ?? k));
  for (const key of Object.keys(theirHooks)) {
    if (!ourKeys.has(key))
      changes.push({
        breaking: false,
        where: `webhook ${key}`,
        part: 'webhook',
        subject: key,
        what: 'new webhook (verified deliveries of unknown types are kept)',
      });
  }
  return changes;
}

/** Text report: one line per change, breaking first, then a count. */
export function renderChanges(changes: Change[], title: string): string {
  const sorted = [...changes].sort((a, b) => Number(b.breaking) - Number(a.breaking) || a.where.localeCompare(b.where));
  const lines = sorted.map((c) => `${c.breaking ? 'BREAKING' : 'ok      '}  ${c.where}  ${c.part}  ${c.subject}: ${c.what}`);
  const breaking = changes.filter((c) => c.breaking).length;
  return [`contract diff: ${title}`, ...lines, `${changes.length} changes, ${breaking} breaking for us`].join('\n');
}

function main(argv: string[]): number {
  const args = [...argv];
  const flag = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const value = args[i + 1];
    args.splice(i, 2);
    return value;
  };
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const base = flag('--base') ?? resolve(root, 'openapi/openapi.yaml');
  const mapPath = flag('--map') ?? resolve(root, 'openapi/production-map.json');
  const json = args.includes('--json');
  const failOnBreaking = args.includes('--fail-on-breaking');
  const newer = args.find((a) => !a.startsWith('--'));
  if (!newer) {
    console.error('usage: npm run contract:diff -- path/to/newer/openapi.yaml [--base ours.yaml] [--map map.json] [--json] [--fail-on-breaking]');
    return 2;
  }
  const ours = parse(readFileSync(base, 'utf8')) as Json;
  const theirs = parse(readFileSync(newer, 'utf8')) as Json;
  const map = JSON.parse(readFileSync(mapPath, 'utf8')) as ProductionMap;
  const changes = contractDiff(ours, theirs, map);
  console.log(json ? JSON.stringify(changes, null, 2) : renderChanges(changes, `${newer} (info.version ${String(theirs.info?.version)}) against ${base}`));
  return failOnBreaking && changes.some((c) => c.breaking) ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
