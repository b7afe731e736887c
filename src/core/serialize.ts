/**
 * The URL's values, serialized as openapi-fetch 0.17's defaults do (`createQuerySerializer()` with no
 * options, `defaultPathSerializer`), byte for byte: the same output and the same errors for every input
 * (test/core/serialize.test.ts compares the two). Written here so that a bundle holds only these two
 * paths, not openapi-fetch's every style and option (issue 36, the worker bundle: -2.4 kB minified).
 * @module
 */

const encode = encodeURIComponent;

/** `name=value`, encoded; `''` for a null or undefined value; a nested array or object is refused. */
function pair(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') {
    throw new Error('Deeply-nested arrays/objects aren’t supported. Provide your own `querySerializer()` to handle these.');
  }
  return `${name}=${encode(value as string)}`;
}

/** Each own and inherited enumerable key of `value` with `each` applied (openapi-fetch walks objects with `for…in`). */
function keysOf(value: object, each: (key: string, item: unknown) => string[]): string[] {
  const out: string[] = [];
  for (const key in value) out.push(...each(key, (value as Record<string, unknown>)[key]));
  return out;
}

/**
 * The query string of a call (without `?`): `undefined` and `null` values and empty arrays left out, an
 * array as `a=1&a=2` (form, exploded), an object as `a[b]=1` (deepObject), every value encoded with
 * `encodeURIComponent` (names as they are).
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const search: string[] = [];
  if (query && typeof query === 'object') {
    for (const name in query) {
      const value = query[name];
      if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
      // A value that is not an object is a list of one; a hole of a sparse array is an empty item.
      search.push(
        (typeof value === 'object' && !Array.isArray(value)
          ? keysOf(value, (key, item) => [pair(`${name}[${key}]`, item)])
          : (Array.isArray(value) ? value : [value]).map((item) => pair(name, item))
        ).join('&'),
      );
    }
  }
  return search.join('&');
}

/**
 * The path with each `{name}` (`{.name}` label, `{;name}` matrix, `{name*}` exploded) replaced by the
 * value of `params`; a missing or null value keeps its placeholder.
 */
export function serializePath(path: string, params: Record<string, unknown>): string {
  let url = path;
  for (const match of path.match(/\{[^{}]+\}/g) ?? []) {
    let name = match.slice(1, -1);
    const explode = name.endsWith('*');
    if (explode) name = name.slice(0, -1);
    // What precedes the value, and joins an exploded one: `.` (label), `;` (matrix), nothing (simple).
    const prefix = name[0] === '.' || name[0] === ';' ? name[0] : '';
    if (prefix) name = name.slice(1);
    const matrix = prefix === ';';
    const value = params?.[name];
    if (value === undefined || value === null) continue;
    // A value that is not an object serializes as a list of one. An exploded list walks its holes (each an
    // `undefined`); a list that is not exploded keeps them (each an empty item), as openapi-fetch does.
    const list = typeof value === 'object' ? value : [value];
    const items = Array.isArray(list)
      ? explode
        ? Array.from(list, (item) => (matrix ? pair(name, item) : encode(item as string)))
        : list.map(encode)
      : keysOf(list, (key, item) => (explode ? [pair(key, item)] : [key, encode(item as string)]));
    url = url.replace(match, explode ? prefix + items.join(prefix || ',') : (matrix ? `;${name}=` : prefix) + items.join(','));
  }
  return url;
}
